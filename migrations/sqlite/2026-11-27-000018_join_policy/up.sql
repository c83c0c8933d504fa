-- Who may join: the one stored registration policy (row id 1), seeded from GIFSHELF_REGISTRATION and
-- GIFSHELF_ALLOWED_EMAIL_DOMAINS when none is stored, then changed by admins. `allowed_domains` is a
-- comma list of lower-cased host names (empty: any domain).
CREATE TABLE registration_policy (
    id BIGINT PRIMARY KEY NOT NULL,
    mode TEXT NOT NULL,
    allowed_domains TEXT NOT NULL,
    members_may_invite BOOLEAN NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
-- Invitations: only the SHA-256 of the token is kept (the link is shown once, when it is made).
-- `uses` only grows, by a conditional UPDATE in the transaction that stores the new account.
-- The digest of a 192-bit random token needs no unique index; the lookup index is enough.
CREATE TABLE invites (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    token_digest TEXT NOT NULL,
    max_uses INTEGER NOT NULL,
    uses INTEGER NOT NULL,
    role TEXT NOT NULL,
    created_by BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX invites_digest_idx ON invites (token_digest);
CREATE INDEX invites_created_by_idx ON invites (created_by, id);
