-- A job names its work (`make_renditions:42`): the same work is never queued twice. Failed jobs
-- stay as a record and do not count, so the work can be queued again after one gave up.
ALTER TABLE jobs ADD COLUMN dedup_key TEXT NOT NULL DEFAULT '';
UPDATE jobs SET dedup_key = kind || ':' || payload;
DELETE FROM jobs WHERE state <> 'failed'
    AND id NOT IN (SELECT MIN(id) FROM jobs WHERE state <> 'failed' GROUP BY dedup_key);
CREATE UNIQUE INDEX jobs_dedup_uq ON jobs (dedup_key) WHERE state <> 'failed';
