-- A search for a very common word (one GIF in six) read every match from gif_words: 173,000 index
-- rows at 1,000,000 GIFs, about 30 ms before any ranking. Here a word's GIFs are also kept in
-- posting lists: one row per word and range of 16,384 GIF ids, holding the entries
-- gif_id * 16 + fields (the fields as in gif_words: 1 title, 2 tags, 4 description, 8 text in
-- the GIF) in id order, each as 8 big-endian bytes (int8send), so that the bytes compare as the
-- numbers do. That word's 173,000 matches are 61 rows. The entries are bytes, not a BIGINT[]:
-- sending an array costs a function call per element, and 173,000 of them took 18 ms.
CREATE TABLE word_postings (
    word TEXT NOT NULL,
    chunk INTEGER NOT NULL,
    packed BYTEA NOT NULL,
    PRIMARY KEY (word, chunk)
);
-- Out of line but not compressed: a common word's list (up to 128 KiB) is written again by every
-- upload that has the word, and compressing it made that four times slower.
ALTER TABLE word_postings ALTER COLUMN packed SET STORAGE EXTERNAL;

-- The entry at `place` (from 1) of a list.
CREATE FUNCTION word_postings_entry(list BYTEA, place INTEGER) RETURNS BYTEA
LANGUAGE sql IMMUTABLE AS $$
    SELECT substring(list FROM (place - 1) * 8 + 1 FOR 8)
$$;

-- The first position in `list` (from `low`) whose GIF id is `gif` or more, by halving.
CREATE FUNCTION word_postings_find(list BYTEA, gif BIGINT, low INTEGER) RETURNS INTEGER
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    lo INTEGER := low;
    hi INTEGER := length(list) / 8 + 1;
    mid INTEGER;
    first BYTEA := int8send(gif * 16);
BEGIN
    WHILE lo < hi LOOP
        mid := (lo + hi) / 2;
        IF word_postings_entry(list, mid) < first THEN lo := mid + 1; ELSE hi := mid; END IF;
    END LOOP;
    RETURN lo;
END
$$;

-- A list with the entries of the `gone` GIFs (ascending) replaced by `fresh` (their entries now,
-- ascending): each GIF's entries are found by halving, and the list is put together in slices.
-- An upload's GIF has the highest id, so its entries are appended.
CREATE FUNCTION word_postings_merge(list BYTEA, fresh BYTEA, gone BIGINT[]) RETURNS BYTEA
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    merged BYTEA := ''::bytea;
    at INTEGER := 1;
    next INTEGER := 1;
    found INTEGER;
    gif BIGINT;
BEGIN
    FOREACH gif IN ARRAY gone LOOP
        found := word_postings_find(list, gif, at);
        merged := merged || substring(list FROM (at - 1) * 8 + 1 FOR (found - at) * 8);
        WHILE next <= length(fresh) / 8 AND word_postings_entry(fresh, next) < int8send((gif + 1) * 16) LOOP
            merged := merged || word_postings_entry(fresh, next);
            next := next + 1;
        END LOOP;
        at := word_postings_find(list, gif + 1, found);
    END LOOP;
    RETURN merged || substring(list FROM (at - 1) * 8 + 1);
END
$$;

-- A list made again from gif_words.
CREATE FUNCTION word_postings_of(list_word TEXT, list_chunk INTEGER) RETURNS BYTEA LANGUAGE sql STABLE AS $$
    SELECT COALESCE(string_agg(int8send(g.gif_id * 16 + g.fields), ''::bytea ORDER BY g.gif_id), ''::bytea)
    FROM gif_words g
    WHERE g.word = list_word AND g.gif_id >= list_chunk::bigint << 14 AND g.gif_id < (list_chunk::bigint + 1) << 14
$$;

-- Any constant will do: writers of posting lists take it in turn, so that two uploads never wait
-- on each other's rows in a cycle, and each list is changed after the change before committed.
-- The entries are read from gif_words, which the writer has already changed. A statement that
-- changes many lists (an import, a seed) makes them all again in one pass; otherwise each list is
-- changed by its key.
CREATE FUNCTION word_postings_refresh(words TEXT[], gifs BIGINT[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    r RECORD;
BEGIN
    PERFORM pg_advisory_xact_lock(716530090031);
    IF cardinality(words) > 20000 THEN
        INSERT INTO word_postings AS p (word, chunk, packed)
            SELECT x.w, x.c, word_postings_of(x.w, x.c)
            FROM (SELECT DISTINCT w, (g >> 14)::integer AS c FROM unnest(words, gifs) AS u (w, g)) x
            ORDER BY x.w, x.c
        ON CONFLICT (word, chunk) DO UPDATE SET packed = EXCLUDED.packed;
        DELETE FROM word_postings WHERE length(packed) = 0;
        RETURN;
    END IF;
    FOR r IN
        SELECT p.w, p.c, p.gone, (SELECT COALESCE(string_agg(int8send(g.gif_id * 16 + g.fields), ''::bytea
                    ORDER BY g.gif_id), ''::bytea)
                FROM gif_words g WHERE g.word = p.w AND g.gif_id = ANY(p.gone)) AS fresh
        FROM (SELECT u.w, (u.g >> 14)::integer AS c, array_agg(DISTINCT u.g ORDER BY u.g) AS gone
              FROM unnest(words, gifs) AS u (w, g) GROUP BY 1, 2) p
        ORDER BY p.w, p.c
    LOOP
        UPDATE word_postings SET packed = CASE WHEN cardinality(r.gone) <= 64
                THEN word_postings_merge(packed, r.fresh, r.gone) ELSE word_postings_of(r.w, r.c) END
            WHERE word = r.w AND chunk = r.c;
        IF NOT FOUND AND length(r.fresh) > 0 THEN
            INSERT INTO word_postings (word, chunk, packed) VALUES (r.w, r.c, r.fresh);
        ELSIF length(r.fresh) = 0 THEN
            DELETE FROM word_postings WHERE word = r.w AND chunk = r.c AND length(packed) = 0;
        END IF;
    END LOOP;
END
$$;

-- The lists of the words and GIFs a statement on gif_words changed (inserted, updated or
-- deleted rows: each trigger names them `changed`).
CREATE FUNCTION word_postings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM changed) THEN
        PERFORM word_postings_refresh(array_agg(word), array_agg(gif_id)) FROM changed;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER gif_words_postings_insert AFTER INSERT ON gif_words
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION word_postings_changed();
CREATE TRIGGER gif_words_postings_update AFTER UPDATE ON gif_words
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION word_postings_changed();
CREATE TRIGGER gif_words_postings_delete AFTER DELETE ON gif_words
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION word_postings_changed();

-- The library's lists, in one pass.
INSERT INTO word_postings (word, chunk, packed)
    SELECT word, (gif_id >> 14)::integer, string_agg(int8send(gif_id * 16 + fields), ''::bytea ORDER BY gif_id)
    FROM gif_words GROUP BY 1, 2;
