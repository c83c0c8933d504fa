-- Members (admin screen): an account can be disabled (its sessions, media cookie and API keys stop
-- at once, signing in is refused) and remembers when it was last seen, recorded at most hourly.
ALTER TABLE users ADD COLUMN disabled_at TIMESTAMP;
ALTER TABLE users ADD COLUMN last_seen_at TIMESTAMP;
