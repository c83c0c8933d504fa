-- Collections: named, ordered lists of GIFs a team curates. A GIF may be in many; deleting a GIF
-- or an account takes its links (or its collections) with it. Timestamps are UTC.
CREATE TABLE collections (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    owner_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- 'team': every signed-in user sees it; 'private': its owner only
    visibility TEXT NOT NULL CHECK (visibility IN ('team', 'private')),
    -- the unguessable id of its public page; NULL while sharing is off
    share_id TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX collections_share_id_uq ON collections (share_id);
CREATE INDEX collections_owner_idx ON collections (owner_id);

CREATE TABLE collection_gifs (
    collection_id BIGINT NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    gif_id BIGINT NOT NULL REFERENCES gifs (id) ON DELETE CASCADE,
    -- the order the owner chose; ties (concurrent additions) fall back to gif_id
    position BIGINT NOT NULL,
    added_at TIMESTAMP NOT NULL,
    PRIMARY KEY (collection_id, gif_id)
);
CREATE INDEX collection_gifs_order_idx ON collection_gifs (collection_id, position, gif_id);
CREATE INDEX collection_gifs_gif_idx ON collection_gifs (gif_id);
