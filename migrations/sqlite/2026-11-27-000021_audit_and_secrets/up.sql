-- The audit log: admin and security events. No foreign keys: an event outlives the account or
-- the GIF it names (actor_name and target keep the words they had then).
CREATE TABLE audit_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TIMESTAMP NOT NULL,
    -- null for the server itself (the command line, a start-up conversion)
    actor_id BIGINT,
    actor_name TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    detail TEXT NOT NULL,
    address TEXT
);

-- Integration secrets are no longer kept in clear: a token (Mattermost, Zulip) as its SHA-256
-- digest, a signing secret (Slack) sealed with GIFSHELF_SECRETS_KEY. Rows written before are
-- 'clear' until the server's next start converts (or, without the key, removes) them.
ALTER TABLE integrations ADD COLUMN secret_form TEXT NOT NULL DEFAULT 'clear';
ALTER TABLE integrations ADD COLUMN secret_hint TEXT NOT NULL DEFAULT '';
