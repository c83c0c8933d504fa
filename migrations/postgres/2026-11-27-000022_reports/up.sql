-- Moderation. A hidden GIF (hidden_at set) is seen only by its owner and admins; hidden_reason is
-- what its owner is shown. The partial index finds the few hidden GIFs without reading the rest.
ALTER TABLE gifs ADD COLUMN hidden_at TIMESTAMP;
ALTER TABLE gifs ADD COLUMN hidden_reason TEXT;
CREATE INDEX gifs_hidden_idx ON gifs (hidden_at, id) WHERE hidden_at IS NOT NULL;

-- Members' reports of GIFs. Open while resolution is null; an admin hides the GIF (closing all its
-- open reports) or dismisses one. A report goes with its GIF and with its reporter's account.
CREATE TABLE reports (
    id BIGSERIAL PRIMARY KEY,
    gif_id BIGINT NOT NULL REFERENCES gifs (id) ON DELETE CASCADE,
    reporter_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    note TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    -- null while open, else 'hidden' or 'dismissed'
    resolution TEXT,
    resolved_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    resolved_at TIMESTAMP
);
CREATE INDEX reports_open_idx ON reports (created_at, id) WHERE resolution IS NULL;
CREATE INDEX reports_closed_idx ON reports (resolved_at, id) WHERE resolution IS NOT NULL;
CREATE INDEX reports_gif_idx ON reports (gif_id, reporter_id);

-- The most suitable rating a slash command of this integration may answer with: 'g' unless an
-- admin allows more (a channel is a shared space; the strictest is the safe default). Stored and
-- exported; slash commands do not read it yet (docs/chat.md).
ALTER TABLE integrations ADD COLUMN max_rating TEXT NOT NULL DEFAULT 'g';
