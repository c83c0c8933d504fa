DROP TRIGGER gifs_caption_words_update ON gifs;
DROP TRIGGER gifs_caption_words_insert ON gifs;
DROP FUNCTION caption_words_changed();
DROP FUNCTION caption_words_of(text);
DROP TABLE caption_words;
DROP INDEX gifs_caption_unread_idx;
ALTER TABLE gifs DROP COLUMN caption_read_at;
ALTER TABLE gifs DROP COLUMN caption_edited;
ALTER TABLE gifs DROP COLUMN caption_text;
