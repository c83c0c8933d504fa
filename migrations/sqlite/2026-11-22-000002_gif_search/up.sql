-- Search (design.md §3): every word must be found in the title, the description or a tag name.
-- `search_text` holds those, lower-cased; a trigram FTS5 index answers substring matches fast.
ALTER TABLE gifs ADD COLUMN search_text TEXT NOT NULL DEFAULT '';

CREATE VIRTUAL TABLE gifs_fts USING fts5(
    search_text,
    content = 'gifs',
    content_rowid = 'id',
    tokenize = 'trigram'
);

CREATE TRIGGER gifs_fts_insert AFTER INSERT ON gifs BEGIN
    INSERT INTO gifs_fts (rowid, search_text) VALUES (new.id, new.search_text);
END;

CREATE TRIGGER gifs_fts_delete AFTER DELETE ON gifs BEGIN
    INSERT INTO gifs_fts (gifs_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;

CREATE TRIGGER gifs_fts_update AFTER UPDATE OF search_text ON gifs BEGIN
    INSERT INTO gifs_fts (gifs_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
    INSERT INTO gifs_fts (rowid, search_text) VALUES (new.id, new.search_text);
END;
