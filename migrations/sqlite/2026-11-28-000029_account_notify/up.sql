-- Every server reuses a session check for a few seconds while no account changes. It knows the
-- changes it makes itself; this counter tells it of those another process makes (`gifshelf admin`,
-- the sqlite3 shell): a statement that changes what a session check reads (an account's name,
-- role, status or password, or removes it) moves it on, and the server looks at it every 100 ms.
-- (PostgreSQL's instances are told by NOTIFY instead.)
CREATE TABLE account_changes (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    generation BIGINT NOT NULL
);
INSERT INTO account_changes (id, generation) VALUES (1, 0);
CREATE TRIGGER account_changes_update AFTER UPDATE OF username, username_key, role, disabled_at, credentials_changed_at ON users
BEGIN
    UPDATE account_changes SET generation = generation + 1;
END;
CREATE TRIGGER account_changes_delete AFTER DELETE ON users
BEGIN
    UPDATE account_changes SET generation = generation + 1;
END;
