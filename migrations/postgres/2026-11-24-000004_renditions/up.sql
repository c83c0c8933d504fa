-- Renditions become rows: one per (GIF, kind). New kinds (video, chat sizes) are new rows, never
-- new columns. The three column groups of `gifs` move here; `content_type` and `content_size`
-- stay on `gifs` as the stored original's facts the statistics group by.
CREATE TABLE gif_renditions (
    gif_id BIGINT NOT NULL REFERENCES gifs (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    blob_key TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size BIGINT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    PRIMARY KEY (gif_id, kind)
);

INSERT INTO gif_renditions (gif_id, kind, blob_key, content_type, size, width, height)
    SELECT id, 'original', content_key, content_type, content_size, content_width, content_height FROM gifs;
INSERT INTO gif_renditions (gif_id, kind, blob_key, content_type, size, width, height)
    SELECT id, 'thumbnail', thumbnail_key, thumbnail_type, thumbnail_size, thumbnail_width, thumbnail_height FROM gifs;
INSERT INTO gif_renditions (gif_id, kind, blob_key, content_type, size, width, height)
    SELECT id, 'still', static_key, static_type, static_size, static_width, static_height FROM gifs;

ALTER TABLE gifs DROP COLUMN content_key;
ALTER TABLE gifs DROP COLUMN content_width;
ALTER TABLE gifs DROP COLUMN content_height;
ALTER TABLE gifs DROP COLUMN thumbnail_type;
ALTER TABLE gifs DROP COLUMN thumbnail_key;
ALTER TABLE gifs DROP COLUMN thumbnail_size;
ALTER TABLE gifs DROP COLUMN thumbnail_width;
ALTER TABLE gifs DROP COLUMN thumbnail_height;
ALTER TABLE gifs DROP COLUMN static_type;
ALTER TABLE gifs DROP COLUMN static_key;
ALTER TABLE gifs DROP COLUMN static_size;
ALTER TABLE gifs DROP COLUMN static_width;
ALTER TABLE gifs DROP COLUMN static_height;
