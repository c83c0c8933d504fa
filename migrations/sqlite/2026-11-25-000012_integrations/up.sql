-- Chat integrations an admin added in Settings: the Slack signing secrets and the Mattermost and
-- Zulip tokens with which slash commands prove where they come from. The secret is kept as the
-- platform shows it, since a Slack signature can only be checked with the secret itself.
CREATE TABLE integrations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- slack, mattermost or zulip
    platform TEXT NOT NULL,
    name TEXT NOT NULL,
    secret TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX integrations_platform_idx ON integrations (platform, id);
