-- The number of GIFs, kept exact by the writes that change it, so that a gallery page never
-- counts the whole table.
CREATE TABLE gif_count (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    gifs BIGINT NOT NULL
);
INSERT INTO gif_count (id, gifs) SELECT 1, COUNT(*) FROM gifs;

CREATE TRIGGER gifs_count_insert AFTER INSERT ON gifs BEGIN
    UPDATE gif_count SET gifs = gifs + 1 WHERE id = 1;
END;

CREATE TRIGGER gifs_count_delete AFTER DELETE ON gifs BEGIN
    UPDATE gif_count SET gifs = gifs - 1 WHERE id = 1;
END;
