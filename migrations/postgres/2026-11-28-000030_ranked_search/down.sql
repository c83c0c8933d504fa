DROP TRIGGER tags_words_rename ON tags;
DROP TRIGGER gif_tags_words_delete ON gif_tags;
DROP TRIGGER gif_tags_words_insert ON gif_tags;
DROP FUNCTION gif_words_tag_renamed();
DROP FUNCTION gif_words_tags_removed();
DROP FUNCTION gif_words_tags_added();
DROP FUNCTION gif_words_tags_of(BIGINT[]);
DROP TRIGGER gifs_words_update ON gifs;
CREATE TRIGGER gifs_words_update AFTER UPDATE OF search_text ON gifs
    FOR EACH ROW WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text) EXECUTE FUNCTION gif_words_changed();
CREATE OR REPLACE FUNCTION gif_words_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM gif_words WHERE gif_id = NEW.id;
    INSERT INTO gif_words (word, gif_id) SELECT w, NEW.id FROM gif_words_of(NEW.search_text) AS w;
    INSERT INTO search_vocabulary (word)
        SELECT w FROM gif_words_of(NEW.search_text) AS w ORDER BY w ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION gif_words_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO gif_words (word, gif_id) SELECT w, a.id FROM added a, gif_words_of(a.search_text) AS w;
    INSERT INTO search_vocabulary (word)
        SELECT DISTINCT w FROM added a, gif_words_of(a.search_text) AS w ORDER BY w ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;
DROP FUNCTION gif_words_with_fields(BIGINT[]);
ALTER TABLE gif_words DROP CONSTRAINT gif_words_pkey, ADD PRIMARY KEY (word, gif_id);
ALTER TABLE gif_words DROP COLUMN fields;
