DROP INDEX gifs_transparent_idx;
ALTER TABLE gifs DROP COLUMN transparent;
