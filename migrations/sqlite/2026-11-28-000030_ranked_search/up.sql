-- Search ranks its matches by where each word is found: the title weighs most, then a tag, the
-- description and the text in the GIF. Each of those fields of each GIF is a row of its own in
-- this trigram index, numbered id * 4 + field (0 title, 1 tags, 2 description, 3 text in the
-- GIF), so that one query per searched word says in which fields of which GIFs it is, without
-- reading the GIFs: every match is ranked, however many there are. Triggers keep it in step.
CREATE VIRTUAL TABLE gifs_fts_fields USING fts5(
    text,
    content = '',
    contentless_delete = 1,
    tokenize = 'trigram'
);

INSERT INTO gifs_fts_fields (rowid, text) SELECT id * 4, title FROM gifs;
INSERT INTO gifs_fts_fields (rowid, text)
    SELECT gt.gif_id * 4 + 1, group_concat(t.name, char(10)) FROM gif_tags gt JOIN tags t ON t.id = gt.tag_id
    GROUP BY gt.gif_id;
INSERT INTO gifs_fts_fields (rowid, text) SELECT id * 4 + 2, description FROM gifs;
INSERT INTO gifs_fts_fields (rowid, text)
    SELECT id * 4 + 3, replace(caption_text, char(10), ' ') FROM gifs WHERE caption_text IS NOT NULL;

CREATE TRIGGER gifs_fts_fields_insert AFTER INSERT ON gifs BEGIN
    INSERT INTO gifs_fts_fields (rowid, text) VALUES (new.id * 4, new.title), (new.id * 4 + 2, new.description);
    INSERT INTO gifs_fts_fields (rowid, text)
        SELECT new.id * 4 + 3, replace(new.caption_text, char(10), ' ') WHERE new.caption_text IS NOT NULL;
END;

CREATE TRIGGER gifs_fts_fields_delete AFTER DELETE ON gifs BEGIN
    DELETE FROM gifs_fts_fields WHERE rowid BETWEEN old.id * 4 AND old.id * 4 + 3;
END;

CREATE TRIGGER gifs_fts_fields_title AFTER UPDATE OF title ON gifs WHEN old.title IS NOT new.title BEGIN
    DELETE FROM gifs_fts_fields WHERE rowid = new.id * 4;
    INSERT INTO gifs_fts_fields (rowid, text) VALUES (new.id * 4, new.title);
END;

CREATE TRIGGER gifs_fts_fields_description AFTER UPDATE OF description ON gifs
    WHEN old.description IS NOT new.description BEGIN
    DELETE FROM gifs_fts_fields WHERE rowid = new.id * 4 + 2;
    INSERT INTO gifs_fts_fields (rowid, text) VALUES (new.id * 4 + 2, new.description);
END;

CREATE TRIGGER gifs_fts_fields_caption AFTER UPDATE OF caption_text ON gifs
    WHEN old.caption_text IS NOT new.caption_text BEGIN
    DELETE FROM gifs_fts_fields WHERE rowid = new.id * 4 + 3;
    INSERT INTO gifs_fts_fields (rowid, text)
        SELECT new.id * 4 + 3, replace(new.caption_text, char(10), ' ') WHERE new.caption_text IS NOT NULL;
END;

-- A GIF's tags are one row: written again whenever one of its tags is added, removed or renamed
-- (only while the GIF exists: deleting it removes its links too).
CREATE TRIGGER gifs_fts_fields_tag_added AFTER INSERT ON gif_tags BEGIN
    DELETE FROM gifs_fts_fields WHERE rowid = new.gif_id * 4 + 1;
    INSERT INTO gifs_fts_fields (rowid, text)
        SELECT new.gif_id * 4 + 1, group_concat(t.name, char(10)) FROM gif_tags gt JOIN tags t ON t.id = gt.tag_id
        WHERE gt.gif_id = new.gif_id HAVING count(*) > 0;
END;

CREATE TRIGGER gifs_fts_fields_tag_removed AFTER DELETE ON gif_tags BEGIN
    DELETE FROM gifs_fts_fields WHERE rowid = old.gif_id * 4 + 1;
    INSERT INTO gifs_fts_fields (rowid, text)
        SELECT old.gif_id * 4 + 1, group_concat(t.name, char(10)) FROM gif_tags gt JOIN tags t ON t.id = gt.tag_id
        WHERE gt.gif_id = old.gif_id AND EXISTS (SELECT 1 FROM gifs WHERE id = old.gif_id) HAVING count(*) > 0;
END;

CREATE TRIGGER gifs_fts_fields_tag_moved AFTER UPDATE ON gif_tags BEGIN
    DELETE FROM gifs_fts_fields WHERE rowid IN (old.gif_id * 4 + 1, new.gif_id * 4 + 1);
    INSERT INTO gifs_fts_fields (rowid, text)
        SELECT gt.gif_id * 4 + 1, group_concat(t.name, char(10)) FROM gif_tags gt JOIN tags t ON t.id = gt.tag_id
        WHERE gt.gif_id IN (old.gif_id, new.gif_id) GROUP BY gt.gif_id;
END;

CREATE TRIGGER gifs_fts_fields_tag_renamed AFTER UPDATE OF name ON tags WHEN old.name IS NOT new.name BEGIN
    DELETE FROM gifs_fts_fields WHERE rowid IN (SELECT gif_id * 4 + 1 FROM gif_tags WHERE tag_id = new.id);
    INSERT INTO gifs_fts_fields (rowid, text)
        SELECT gt.gif_id * 4 + 1, group_concat(t.name, char(10)) FROM gif_tags gt JOIN tags t ON t.id = gt.tag_id
        WHERE gt.gif_id IN (SELECT gif_id FROM gif_tags WHERE tag_id = new.id) GROUP BY gt.gif_id;
END;
