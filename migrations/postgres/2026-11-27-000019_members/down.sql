ALTER TABLE users DROP COLUMN last_seen_at;
ALTER TABLE users DROP COLUMN disabled_at;
