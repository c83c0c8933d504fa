-- Favourites: each person's own stars on GIFs. `gifs.favourite_count` is kept in step by the same
-- transaction that adds or removes a row, so the count is exact and sorting by it is one index.
CREATE TABLE favourites (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    gif_id BIGINT NOT NULL REFERENCES gifs (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, gif_id)
);
-- a person's favourites, newest favourited first
CREATE INDEX favourites_user_newest_idx ON favourites (user_id, created_at DESC, gif_id DESC);
-- the cascade from a deleted GIF
CREATE INDEX favourites_gif_idx ON favourites (gif_id);

ALTER TABLE gifs ADD COLUMN favourite_count BIGINT NOT NULL DEFAULT 0;

-- The orders of `sort=` (newest and oldest use gifs_newest_idx); ties are broken by id.
CREATE INDEX gifs_views_idx ON gifs (view_count DESC, id DESC);
CREATE INDEX gifs_favourites_idx ON gifs (favourite_count DESC, id DESC);
CREATE INDEX gifs_title_idx ON gifs (lower(title), id);
