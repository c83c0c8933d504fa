-- Every instance reuses a session check for a few seconds while no account changes. A statement
-- that changes what a session check reads (an account's name, role, status or password, or removes
-- it) notifies the channel `gifshelf_accounts`, delivered when its transaction commits; each
-- instance LISTENs and stops reusing the checks it made before.
CREATE FUNCTION accounts_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('gifshelf_accounts', '');
    RETURN NULL;
END
$$;
CREATE TRIGGER accounts_notify_update AFTER UPDATE OF username, username_key, role, disabled_at, credentials_changed_at ON users
    FOR EACH STATEMENT EXECUTE FUNCTION accounts_notify();
CREATE TRIGGER accounts_notify_delete AFTER DELETE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION accounts_notify();
