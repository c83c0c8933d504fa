-- The number of GIFs, kept exact by the writes that change it, so that a gallery page never
-- counts the whole table. One statement-level trigger per direction: a bulk insert (COPY, an
-- import) or a cascade from a deleted account moves the counter once, not once per row.
CREATE TABLE gif_count (
    id SMALLINT PRIMARY KEY CHECK (id = 1),
    gifs BIGINT NOT NULL
);
INSERT INTO gif_count (id, gifs) SELECT 1, COUNT(*) FROM gifs;

CREATE FUNCTION gif_count_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE gif_count SET gifs = gifs + (SELECT COUNT(*) FROM added) WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE FUNCTION gif_count_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE gif_count SET gifs = gifs - (SELECT COUNT(*) FROM removed) WHERE id = 1;
    RETURN NULL;
END
$$;

CREATE TRIGGER gifs_count_insert AFTER INSERT ON gifs
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION gif_count_added();
CREATE TRIGGER gifs_count_delete AFTER DELETE ON gifs
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION gif_count_removed();

-- Search at a million GIFs. A trigram index on the whole search text makes a common word's
-- count recheck every matching row, and a rare number ("12345") shares its trigrams with most
-- titles. Instead, each GIF's words (search_text split at ASCII white space: a searched word has
-- none, so it is a substring of the text exactly when it is a substring of one of these words)
-- are listed once per GIF, and the distinct words carry the trigram index: a searched word finds
-- the few words that contain it, then their GIFs through the (word, gif_id) key.
CREATE TABLE gif_words (
    word TEXT NOT NULL,
    gif_id BIGINT NOT NULL REFERENCES gifs (id) ON DELETE CASCADE,
    PRIMARY KEY (word, gif_id)
);
CREATE INDEX gif_words_gif_idx ON gif_words (gif_id);
-- Every word ever indexed; a word no GIF has any more finds no rows in gif_words.
CREATE TABLE search_vocabulary (
    word TEXT PRIMARY KEY
);
CREATE INDEX search_vocabulary_trgm_idx ON search_vocabulary USING gin (word gin_trgm_ops);

CREATE FUNCTION gif_words_of(text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
    SELECT DISTINCT w FROM regexp_split_to_table($1, '[ \t\n\r\f\v]+') AS w WHERE w <> ''
$$;

-- Statement-level, so that a bulk insert (COPY, an import) is one set operation. New words go into
-- the vocabulary in order, so that two uploads adding the same words never wait on each other in a cycle.
CREATE FUNCTION gif_words_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO gif_words (word, gif_id) SELECT w, a.id FROM added a, gif_words_of(a.search_text) AS w;
    INSERT INTO search_vocabulary (word)
        SELECT DISTINCT w FROM added a, gif_words_of(a.search_text) AS w ORDER BY w ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

-- Row-level and only when the text changed: views and counters update gifs all the time.
CREATE FUNCTION gif_words_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM gif_words WHERE gif_id = NEW.id;
    INSERT INTO gif_words (word, gif_id) SELECT w, NEW.id FROM gif_words_of(NEW.search_text) AS w;
    INSERT INTO search_vocabulary (word)
        SELECT w FROM gif_words_of(NEW.search_text) AS w ORDER BY w ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;

CREATE TRIGGER gifs_words_insert AFTER INSERT ON gifs
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION gif_words_added();
CREATE TRIGGER gifs_words_update AFTER UPDATE OF search_text ON gifs
    FOR EACH ROW WHEN (OLD.search_text IS DISTINCT FROM NEW.search_text) EXECUTE FUNCTION gif_words_changed();

INSERT INTO gif_words (word, gif_id) SELECT w, g.id FROM gifs g, gif_words_of(g.search_text) AS w;
INSERT INTO search_vocabulary (word) SELECT DISTINCT word FROM gif_words;
DROP INDEX gifs_search_trgm_idx;
