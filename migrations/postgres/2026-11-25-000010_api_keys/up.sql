-- API keys: what chat apps present to read their owner's library through the chat-compatible
-- APIs. Only the key's SHA-256 is kept; the key itself is shown once, when it is made.
CREATE TABLE api_keys (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    -- the key's first characters, to tell keys apart in a list
    prefix TEXT NOT NULL,
    digest TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP
);
CREATE UNIQUE INDEX api_keys_digest_uq ON api_keys (digest);
CREATE INDEX api_keys_user_idx ON api_keys (user_id, id);
