-- The text read in a GIF (its caption, docs/product.md "Text in this GIF"). caption_text is null
-- while nothing was read or there is no text; caption_read_at says it was read (the backfill reads
-- the rest); caption_edited marks text an owner or admin typed (or the maker drew), which later
-- reads leave alone. search_text holds the caption text too.
ALTER TABLE gifs ADD COLUMN caption_text TEXT;
ALTER TABLE gifs ADD COLUMN caption_edited BOOLEAN NOT NULL DEFAULT 0;
ALTER TABLE gifs ADD COLUMN caption_read_at TIMESTAMP;
CREATE INDEX gifs_caption_unread_idx ON gifs (id) WHERE caption_read_at IS NULL AND NOT caption_edited;

-- The words of every search text and of every caption text (a word index beside the trigram
-- one), so that their vocabulary (distinct words and the GIFs holding each) is kept in step with
-- the data: typos are looked up in the words of search_text, suggestions in those of caption_text.
CREATE VIRTUAL TABLE gifs_fts_words USING fts5(
    search_text,
    caption_text,
    content = 'gifs',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 0'
);
CREATE VIRTUAL TABLE gifs_fts_words_vocab USING fts5vocab(gifs_fts_words, 'col');
INSERT INTO gifs_fts_words (gifs_fts_words) VALUES ('rebuild');

CREATE TRIGGER gifs_fts_words_insert AFTER INSERT ON gifs BEGIN
    INSERT INTO gifs_fts_words (rowid, search_text, caption_text) VALUES (new.id, new.search_text, new.caption_text);
END;

CREATE TRIGGER gifs_fts_words_delete AFTER DELETE ON gifs BEGIN
    INSERT INTO gifs_fts_words (gifs_fts_words, rowid, search_text, caption_text)
        VALUES ('delete', old.id, old.search_text, old.caption_text);
END;

CREATE TRIGGER gifs_fts_words_update AFTER UPDATE OF search_text, caption_text ON gifs BEGIN
    INSERT INTO gifs_fts_words (gifs_fts_words, rowid, search_text, caption_text)
        VALUES ('delete', old.id, old.search_text, old.caption_text);
    INSERT INTO gifs_fts_words (rowid, search_text, caption_text) VALUES (new.id, new.search_text, new.caption_text);
END;
