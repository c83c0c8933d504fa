DROP TRIGGER gifs_fts_words_update;
DROP TRIGGER gifs_fts_words_delete;
DROP TRIGGER gifs_fts_words_insert;
DROP TABLE gifs_fts_words_vocab;
DROP TABLE gifs_fts_words;
DROP INDEX gifs_caption_unread_idx;
ALTER TABLE gifs DROP COLUMN caption_read_at;
ALTER TABLE gifs DROP COLUMN caption_edited;
ALTER TABLE gifs DROP COLUMN caption_text;
