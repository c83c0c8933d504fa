DROP TRIGGER jobs_notify_insert ON jobs;
DROP FUNCTION jobs_notify();
