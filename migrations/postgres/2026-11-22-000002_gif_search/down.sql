DROP INDEX gifs_search_trgm_idx;
ALTER TABLE gifs DROP COLUMN search_text;
