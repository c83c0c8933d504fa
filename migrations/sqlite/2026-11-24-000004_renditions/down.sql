ALTER TABLE gifs ADD COLUMN content_key TEXT NOT NULL DEFAULT '';
ALTER TABLE gifs ADD COLUMN content_width INTEGER NOT NULL DEFAULT 0;
ALTER TABLE gifs ADD COLUMN content_height INTEGER NOT NULL DEFAULT 0;
ALTER TABLE gifs ADD COLUMN thumbnail_type TEXT NOT NULL DEFAULT '';
ALTER TABLE gifs ADD COLUMN thumbnail_key TEXT NOT NULL DEFAULT '';
ALTER TABLE gifs ADD COLUMN thumbnail_size BIGINT NOT NULL DEFAULT 0;
ALTER TABLE gifs ADD COLUMN thumbnail_width INTEGER NOT NULL DEFAULT 0;
ALTER TABLE gifs ADD COLUMN thumbnail_height INTEGER NOT NULL DEFAULT 0;
ALTER TABLE gifs ADD COLUMN static_type TEXT NOT NULL DEFAULT '';
ALTER TABLE gifs ADD COLUMN static_key TEXT NOT NULL DEFAULT '';
ALTER TABLE gifs ADD COLUMN static_size BIGINT NOT NULL DEFAULT 0;
ALTER TABLE gifs ADD COLUMN static_width INTEGER NOT NULL DEFAULT 0;
ALTER TABLE gifs ADD COLUMN static_height INTEGER NOT NULL DEFAULT 0;
UPDATE gifs SET
    content_key = (SELECT blob_key FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'original'),
    content_width = (SELECT width FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'original'),
    content_height = (SELECT height FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'original'),
    thumbnail_type = (SELECT content_type FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'thumbnail'),
    thumbnail_key = (SELECT blob_key FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'thumbnail'),
    thumbnail_size = (SELECT size FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'thumbnail'),
    thumbnail_width = (SELECT width FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'thumbnail'),
    thumbnail_height = (SELECT height FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'thumbnail'),
    static_type = (SELECT content_type FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'still'),
    static_key = (SELECT blob_key FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'still'),
    static_size = (SELECT size FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'still'),
    static_width = (SELECT width FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'still'),
    static_height = (SELECT height FROM gif_renditions r WHERE r.gif_id = gifs.id AND r.kind = 'still');
DROP TABLE gif_renditions;
