-- Accounts (admins): one-time password reset links and quotas.

-- At most one reset link per account (a new one replaces it), found by its token's SHA-256
-- digest; the token itself is never stored.
CREATE TABLE password_resets (
    user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    token_digest TEXT NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX password_resets_digest_idx ON password_resets (token_digest);

-- The quota for everyone once an administrator set it (else the configured one); null: unlimited.
CREATE TABLE quota_defaults (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    storage_bytes BIGINT,
    uploads_per_day BIGINT,
    updated_at TIMESTAMP NOT NULL
);

-- A member's own quota; null: the default.
CREATE TABLE member_quotas (
    user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    storage_bytes BIGINT,
    uploads_per_day BIGINT
);
