-- The text read in a GIF (its caption, docs/product.md "Text in this GIF"). caption_text is null
-- while nothing was read or there is no text; caption_read_at says it was read (the backfill reads
-- the rest); caption_edited marks text an owner or admin typed (or the maker drew), which later
-- reads leave alone. search_text holds the caption text too, so gif_words and search_vocabulary
-- (the distinct words typos are looked up in) keep it by their triggers.
ALTER TABLE gifs ADD COLUMN caption_text TEXT;
ALTER TABLE gifs ADD COLUMN caption_edited BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE gifs ADD COLUMN caption_read_at TIMESTAMP;
CREATE INDEX gifs_caption_unread_idx ON gifs (id) WHERE caption_read_at IS NULL AND NOT caption_edited;

-- The words of each GIF's caption text (lower case, split at what is not a letter, a digit or an
-- apostrophe), kept by triggers: suggestions propose the words starting with what was typed.
CREATE TABLE caption_words (
    word TEXT NOT NULL,
    gif_id BIGINT NOT NULL REFERENCES gifs (id) ON DELETE CASCADE,
    PRIMARY KEY (word, gif_id)
);
CREATE INDEX caption_words_prefix_idx ON caption_words (word text_pattern_ops);
CREATE INDEX caption_words_gif_idx ON caption_words (gif_id);

CREATE FUNCTION caption_words_of(text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
    SELECT DISTINCT w FROM regexp_split_to_table(lower(coalesce($1, '')), '[^[:alnum:]'']+') AS w
    WHERE length(w) >= 2
$$;

CREATE FUNCTION caption_words_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM caption_words WHERE gif_id = OLD.id;
    END IF;
    INSERT INTO caption_words (word, gif_id) SELECT w, NEW.id FROM caption_words_of(NEW.caption_text) AS w;
    RETURN NULL;
END
$$;

CREATE TRIGGER gifs_caption_words_insert AFTER INSERT ON gifs
    FOR EACH ROW WHEN (NEW.caption_text IS NOT NULL) EXECUTE FUNCTION caption_words_changed();
CREATE TRIGGER gifs_caption_words_update AFTER UPDATE OF caption_text ON gifs
    FOR EACH ROW WHEN (OLD.caption_text IS DISTINCT FROM NEW.caption_text) EXECUTE FUNCTION caption_words_changed();
