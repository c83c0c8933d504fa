-- Counters every instance shares (PostgreSQL only in practice: one instance on SQLite counts in
-- memory); kept on both databases so the schema stays one.
CREATE TABLE shared_counters (
    key TEXT PRIMARY KEY NOT NULL,
    count BIGINT NOT NULL,
    began TIMESTAMP NOT NULL,
    last TIMESTAMP NOT NULL
);
CREATE INDEX shared_counters_last ON shared_counters (last);
