-- The GIF a GIF was made from in the maker ("Edit a copy"); the copy outlives its source. SQLite
-- cannot drop a column named by a foreign key (the down migration), so a trigger does what
-- PostgreSQL's ON DELETE SET NULL does.
ALTER TABLE gifs ADD COLUMN made_from_id BIGINT;
CREATE INDEX gifs_made_from_idx ON gifs (made_from_id);
CREATE TRIGGER gifs_made_from_gone AFTER DELETE ON gifs
BEGIN
    UPDATE gifs SET made_from_id = NULL WHERE made_from_id = OLD.id;
END;

-- One row per GIF asked of the maker: what to make and how it went. The queue's `jobs` row
-- (kind `make_gif`, payload this id) only runs it; this row stays after the job is done so its
-- maker can read the outcome.
CREATE TABLE makes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    -- queued, running, done or failed
    state TEXT NOT NULL,
    progress REAL NOT NULL DEFAULT 0,
    -- the source's bytes in the blob store until the job ends
    source_key TEXT NOT NULL,
    source_gif_id BIGINT REFERENCES gifs(id) ON DELETE SET NULL,
    recipe TEXT NOT NULL,
    gif_data TEXT NOT NULL,
    gif_id BIGINT REFERENCES gifs(id) ON DELETE SET NULL,
    error_code TEXT,
    error TEXT,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX makes_owner_idx ON makes (owner_id);
