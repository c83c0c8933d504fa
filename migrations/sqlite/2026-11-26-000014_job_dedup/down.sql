DROP INDEX jobs_dedup_uq;
ALTER TABLE jobs DROP COLUMN dedup_key;
