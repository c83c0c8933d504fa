-- Accounts, GIFs, tags and their links. Timestamps are UTC.
CREATE TABLE users (
    id BIGSERIAL PRIMARY KEY,
    username TEXT NOT NULL,
    -- lower(username): makes "Alice" and "alice" the same account
    username_key TEXT NOT NULL,
    email TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL DEFAULT 'USER' CHECK (role IN ('USER', 'ADMIN')),
    created_at TIMESTAMP NOT NULL,
    -- tokens issued before this instant are refused (rename, password change)
    credentials_changed_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX users_username_key_uq ON users (username_key);
CREATE UNIQUE INDEX users_email_uq ON users (email);

CREATE TABLE gifs (
    id BIGSERIAL PRIMARY KEY,
    share_id TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    uploader_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    uploaded_at TIMESTAMP NOT NULL,
    view_count BIGINT NOT NULL DEFAULT 0,
    content_type TEXT NOT NULL,
    content_key TEXT NOT NULL,
    content_size BIGINT NOT NULL,
    content_width INTEGER NOT NULL,
    content_height INTEGER NOT NULL,
    frame_count INTEGER NOT NULL,
    thumbnail_type TEXT NOT NULL,
    thumbnail_key TEXT NOT NULL,
    thumbnail_size BIGINT NOT NULL,
    thumbnail_width INTEGER NOT NULL,
    thumbnail_height INTEGER NOT NULL,
    static_type TEXT NOT NULL,
    static_key TEXT NOT NULL,
    static_size BIGINT NOT NULL,
    static_width INTEGER NOT NULL,
    static_height INTEGER NOT NULL
);
CREATE UNIQUE INDEX gifs_share_id_uq ON gifs (share_id);
CREATE INDEX gifs_newest_idx ON gifs (uploaded_at DESC, id DESC);
CREATE INDEX gifs_uploader_idx ON gifs (uploader_id, uploaded_at DESC, id DESC);

CREATE TABLE tags (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE UNIQUE INDEX tags_name_uq ON tags (name);

CREATE TABLE gif_tags (
    gif_id BIGINT NOT NULL REFERENCES gifs (id) ON DELETE CASCADE,
    tag_id BIGINT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (gif_id, tag_id)
);
CREATE INDEX gif_tags_tag_idx ON gif_tags (tag_id, gif_id);
