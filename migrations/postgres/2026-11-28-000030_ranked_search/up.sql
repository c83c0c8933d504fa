-- Search ranks its matches by where each word is found: the title weighs most, then a tag, the
-- description and the text in the GIF. Each of a GIF's words now says in which of those fields it
-- is (a bit each: 1 title, 2 tags, 4 description, 8 text in the GIF), so that the words a search
-- finds tell where in every matching GIF it is, without reading the GIFs: every match is ranked,
-- however many there are.
ALTER TABLE gif_words ADD COLUMN fields SMALLINT NOT NULL DEFAULT 0;

-- The words of these GIFs' search text, each with the fields it is in (a word of the search text
-- the fields' own words miss, for a letter lower() does not fold as the server does, is in none).
CREATE FUNCTION gif_words_with_fields(ids BIGINT[]) RETURNS TABLE (word TEXT, gif_id BIGINT, fields SMALLINT)
LANGUAGE sql STABLE AS $$
    SELECT w, id, (bit_or(f) & 15)::smallint FROM (
        SELECT w, g.id, 16 AS f FROM gifs g, gif_words_of(g.search_text) AS w WHERE g.id = ANY(ids)
        UNION ALL SELECT w, g.id, 1 FROM gifs g, gif_words_of(lower(g.title)) AS w WHERE g.id = ANY(ids)
        UNION ALL SELECT w, gt.gif_id, 2 FROM gif_tags gt JOIN tags t ON t.id = gt.tag_id, gif_words_of(lower(t.name)) AS w
            WHERE gt.gif_id = ANY(ids)
        UNION ALL SELECT w, g.id, 4 FROM gifs g, gif_words_of(lower(g.description)) AS w WHERE g.id = ANY(ids)
        UNION ALL SELECT w, g.id, 8 FROM gifs g, gif_words_of(lower(g.caption_text)) AS w
            WHERE g.id = ANY(ids) AND g.caption_text IS NOT NULL
    ) x
    GROUP BY w, id
    HAVING bit_or(f) & 16 <> 0
$$;

-- New GIFs have no tags yet: their links' trigger sets the tags bit.
CREATE OR REPLACE FUNCTION gif_words_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO gif_words (word, gif_id, fields)
        SELECT w, id, (bit_or(f) & 15)::smallint FROM (
            SELECT w, a.id, 16 AS f FROM added a, gif_words_of(a.search_text) AS w
            UNION ALL SELECT w, a.id, 1 FROM added a, gif_words_of(lower(a.title)) AS w
            UNION ALL SELECT w, a.id, 4 FROM added a, gif_words_of(lower(a.description)) AS w
            UNION ALL SELECT w, a.id, 8 FROM added a, gif_words_of(lower(a.caption_text)) AS w
                WHERE a.caption_text IS NOT NULL
        ) x
        GROUP BY w, id
        HAVING bit_or(f) & 16 <> 0;
    INSERT INTO search_vocabulary (word)
        SELECT DISTINCT w FROM added a, gif_words_of(a.search_text) AS w ORDER BY w ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION gif_words_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM gif_words WHERE gif_id = NEW.id;
    INSERT INTO gif_words (word, gif_id, fields) SELECT * FROM gif_words_with_fields(ARRAY[NEW.id]);
    INSERT INTO search_vocabulary (word)
        SELECT w FROM gif_words_of(NEW.search_text) AS w ORDER BY w ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

-- A field's words change with it; the search text nearly always changes too, but not always
-- (a title that only changes case).
DROP TRIGGER gifs_words_update ON gifs;
CREATE TRIGGER gifs_words_update AFTER UPDATE OF search_text, title, description, caption_text ON gifs
    FOR EACH ROW WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text OR OLD.title IS DISTINCT FROM NEW.title
        OR OLD.description IS DISTINCT FROM NEW.description OR OLD.caption_text IS DISTINCT FROM NEW.caption_text)
    EXECUTE FUNCTION gif_words_changed();

-- The tags bit of the GIFs whose tags changed, from the tags they have now.
CREATE FUNCTION gif_words_tags_of(ids BIGINT[]) RETURNS void LANGUAGE sql AS $$
    UPDATE gif_words w SET fields = (w.fields & ~2::smallint) | (CASE WHEN EXISTS (
            SELECT 1 FROM gif_tags gt JOIN tags t ON t.id = gt.tag_id, gif_words_of(lower(t.name)) AS tw
            WHERE gt.gif_id = w.gif_id AND tw = w.word) THEN 2 ELSE 0 END)::smallint
    WHERE w.gif_id = ANY(ids)
$$;

CREATE FUNCTION gif_words_tags_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE gif_words w SET fields = w.fields | 2::smallint
    FROM (SELECT DISTINCT a.gif_id, tw FROM added a JOIN tags t ON t.id = a.tag_id, gif_words_of(lower(t.name)) AS tw) x
    WHERE w.gif_id = x.gif_id AND w.word = x.tw AND w.fields & 2 = 0;
    RETURN NULL;
END
$$;

CREATE FUNCTION gif_words_tags_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM gif_words_tags_of(ARRAY(SELECT DISTINCT gif_id FROM removed));
    RETURN NULL;
END
$$;

CREATE FUNCTION gif_words_tag_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM gif_words_tags_of(ARRAY(SELECT gif_id FROM gif_tags WHERE tag_id = NEW.id));
    RETURN NULL;
END
$$;

CREATE TRIGGER gif_tags_words_insert AFTER INSERT ON gif_tags
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION gif_words_tags_added();
CREATE TRIGGER gif_tags_words_delete AFTER DELETE ON gif_tags
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION gif_words_tags_removed();
CREATE TRIGGER tags_words_rename AFTER UPDATE OF name ON tags
    FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION gif_words_tag_renamed();

-- Every existing word's fields, in one pass over the library.
CREATE TEMPORARY TABLE gif_words_fields ON COMMIT DROP AS
    SELECT w AS word, id AS gif_id, (bit_or(f) & 15)::smallint AS fields FROM (
        SELECT w, g.id, 1 AS f FROM gifs g, gif_words_of(lower(g.title)) AS w
        UNION ALL SELECT w, gt.gif_id, 2 FROM gif_tags gt JOIN tags t ON t.id = gt.tag_id, gif_words_of(lower(t.name)) AS w
        UNION ALL SELECT w, g.id, 4 FROM gifs g, gif_words_of(lower(g.description)) AS w
        UNION ALL SELECT w, g.id, 8 FROM gifs g, gif_words_of(lower(g.caption_text)) AS w WHERE g.caption_text IS NOT NULL
    ) x
    GROUP BY w, id;
UPDATE gif_words w SET fields = f.fields FROM gif_words_fields f WHERE f.word = w.word AND f.gif_id = w.gif_id;
-- The fields ride in the key's index, so that a search reads them without visiting the table.
ALTER TABLE gif_words DROP CONSTRAINT gif_words_pkey, ADD PRIMARY KEY (word, gif_id) INCLUDE (fields);
