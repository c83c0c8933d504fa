-- Third-party sign-in: an account's identities at OpenID providers, keyed on (issuer, subject).
CREATE TABLE user_identities (
    issuer TEXT NOT NULL,
    subject TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- the email the provider shared when the identity was linked (for operators; never the key)
    email TEXT,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (issuer, subject)
);
-- one identity per provider and account: a second subject cannot take over a linked account
CREATE UNIQUE INDEX user_identities_user_issuer_uq ON user_identities (user_id, issuer);
