DROP TRIGGER gifs_fts_update;
DROP TRIGGER gifs_fts_delete;
DROP TRIGGER gifs_fts_insert;
DROP TABLE gifs_fts;
ALTER TABLE gifs DROP COLUMN search_text;
