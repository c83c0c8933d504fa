-- Counters every instance shares (login throttling, the registration allowance, chat API limits),
-- so two instances hold the same limits as one. Rows are forgotten a while after their last count.
CREATE TABLE shared_counters (
    key TEXT PRIMARY KEY,
    count BIGINT NOT NULL,
    began TIMESTAMP NOT NULL,
    last TIMESTAMP NOT NULL
);
CREATE INDEX shared_counters_last ON shared_counters (last);
