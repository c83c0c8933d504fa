-- Idle job workers LISTEN on the channel `gifshelf_jobs` and wake when jobs are queued, instead of
-- waiting for their next poll. Every statement that inserts jobs notifies it: `enqueue`, the
-- renditions job inserted in a GIF's own transaction, an import. PostgreSQL delivers a NOTIFY when
-- its transaction commits (never for one rolled back) and only once per transaction. A
-- notification only wakes workers: they still poll, for jobs due later (a retry's back-off) and
-- for expired leases, which no insert announces.
CREATE FUNCTION jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('gifshelf_jobs', '');
    RETURN NULL;
END
$$;
CREATE TRIGGER jobs_notify_insert AFTER INSERT ON jobs
    FOR EACH STATEMENT EXECUTE FUNCTION jobs_notify();
