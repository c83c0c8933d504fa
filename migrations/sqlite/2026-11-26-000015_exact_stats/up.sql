-- The statistics dashboard's figures, kept with the data by triggers in the transaction of each
-- change, so that every read is exact and none aggregates the library. A zero row is kept; reads
-- skip it where the figure lists only what exists.

-- Totals in 16 slots (a GIF's slot is its id mod 16), so that concurrent views and shares of
-- different GIFs rarely wait on one row; a read sums the slots.
CREATE TABLE stats_totals (
    slot INTEGER PRIMARY KEY CHECK (slot BETWEEN 0 AND 15),
    views BIGINT NOT NULL,
    shares BIGINT NOT NULL,
    content_bytes BIGINT NOT NULL,
    tag_links BIGINT NOT NULL
);
-- GIFs per UTC upload day ('YYYY-MM-DD').
CREATE TABLE stats_daily_uploads (
    day TEXT PRIMARY KEY,
    gifs BIGINT NOT NULL
);
-- GIFs and their bytes per size bucket: 0-100KB, 100KB-500KB, 500KB-1MB, 1MB-5MB, 5MB and up.
CREATE TABLE stats_size_buckets (
    bucket INTEGER PRIMARY KEY CHECK (bucket BETWEEN 0 AND 4),
    gifs BIGINT NOT NULL,
    bytes BIGINT NOT NULL
);
-- GIFs and their bytes per content type.
CREATE TABLE stats_content_types (
    content_type TEXT PRIMARY KEY,
    gifs BIGINT NOT NULL,
    bytes BIGINT NOT NULL
);
-- GIFs per user, one row per user.
CREATE TABLE stats_users (
    user_id BIGINT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    gifs BIGINT NOT NULL
);
CREATE INDEX stats_users_gifs_idx ON stats_users (gifs DESC, user_id);
-- GIFs per tag, one row per tag.
CREATE TABLE stats_tags (
    tag_id BIGINT PRIMARY KEY REFERENCES tags (id) ON DELETE CASCADE,
    gifs BIGINT NOT NULL
);
CREATE INDEX stats_tags_gifs_idx ON stats_tags (gifs DESC, tag_id);

-- The top lists and drill-downs read these instead of sorting the library.
CREATE INDEX gifs_shares_idx ON gifs (share_count DESC, id DESC);
CREATE INDEX gifs_size_idx ON gifs (content_size DESC, id DESC);
CREATE INDEX gifs_type_size_idx ON gifs (content_type, content_size DESC, id DESC);

-- Backfill from the rows there are.
WITH RECURSIVE slots (slot) AS (SELECT 0 UNION ALL SELECT slot + 1 FROM slots WHERE slot < 15)
INSERT INTO stats_totals (slot, views, shares, content_bytes, tag_links)
    SELECT s.slot, COALESCE(g.views, 0), COALESCE(g.shares, 0), COALESCE(g.bytes, 0), COALESCE(l.links, 0)
    FROM slots s
    LEFT JOIN (SELECT id % 16 AS slot, SUM(view_count) AS views, SUM(share_count) AS shares,
        SUM(content_size) AS bytes FROM gifs GROUP BY 1) g ON g.slot = s.slot
    LEFT JOIN (SELECT gif_id % 16 AS slot, COUNT(*) AS links FROM gif_tags GROUP BY 1) l ON l.slot = s.slot;
INSERT INTO stats_daily_uploads (day, gifs) SELECT date(uploaded_at), COUNT(*) FROM gifs GROUP BY 1;
WITH RECURSIVE buckets (bucket) AS (SELECT 0 UNION ALL SELECT bucket + 1 FROM buckets WHERE bucket < 4)
INSERT INTO stats_size_buckets (bucket, gifs, bytes)
    SELECT b.bucket, COALESCE(g.n, 0), COALESCE(g.bytes, 0)
    FROM buckets b
    LEFT JOIN (SELECT CASE WHEN content_size < 102400 THEN 0 WHEN content_size < 512000 THEN 1
            WHEN content_size < 1048576 THEN 2 WHEN content_size < 5242880 THEN 3 ELSE 4 END AS bucket,
        COUNT(*) AS n, SUM(content_size) AS bytes FROM gifs GROUP BY 1) g ON g.bucket = b.bucket;
INSERT INTO stats_content_types (content_type, gifs, bytes)
    SELECT content_type, COUNT(*), SUM(content_size) FROM gifs GROUP BY content_type;
INSERT INTO stats_users (user_id, gifs)
    SELECT u.id, (SELECT COUNT(*) FROM gifs g WHERE g.uploader_id = u.id) FROM users u;
INSERT INTO stats_tags (tag_id, gifs)
    SELECT t.id, (SELECT COUNT(*) FROM gif_tags l WHERE l.tag_id = t.id) FROM tags t;

-- Users and tags: a row each from the start.
CREATE TRIGGER users_stats_insert AFTER INSERT ON users BEGIN
    INSERT INTO stats_users (user_id, gifs) VALUES (NEW.id, 0);
END;
CREATE TRIGGER users_stats_delete AFTER DELETE ON users BEGIN
    DELETE FROM stats_users WHERE user_id = OLD.id;
END;
CREATE TRIGGER tags_stats_insert AFTER INSERT ON tags BEGIN
    INSERT INTO stats_tags (tag_id, gifs) VALUES (NEW.id, 0);
END;
CREATE TRIGGER tags_stats_delete AFTER DELETE ON tags BEGIN
    DELETE FROM stats_tags WHERE tag_id = OLD.id;
END;

-- A GIF counts in its slot, day, bucket, type and uploader.
CREATE TRIGGER gifs_stats_insert AFTER INSERT ON gifs BEGIN
    UPDATE stats_totals SET views = views + NEW.view_count, shares = shares + NEW.share_count,
        content_bytes = content_bytes + NEW.content_size WHERE slot = NEW.id % 16;
    INSERT INTO stats_daily_uploads (day, gifs) VALUES (date(NEW.uploaded_at), 1)
        ON CONFLICT (day) DO UPDATE SET gifs = gifs + 1;
    UPDATE stats_size_buckets SET gifs = gifs + 1, bytes = bytes + NEW.content_size WHERE bucket = CASE
        WHEN NEW.content_size < 102400 THEN 0 WHEN NEW.content_size < 512000 THEN 1
        WHEN NEW.content_size < 1048576 THEN 2 WHEN NEW.content_size < 5242880 THEN 3 ELSE 4 END;
    INSERT INTO stats_content_types (content_type, gifs, bytes) VALUES (NEW.content_type, 1, NEW.content_size)
        ON CONFLICT (content_type) DO UPDATE SET gifs = gifs + 1, bytes = bytes + excluded.bytes;
    UPDATE stats_users SET gifs = gifs + 1 WHERE user_id = NEW.uploader_id;
END;

CREATE TRIGGER gifs_stats_delete AFTER DELETE ON gifs BEGIN
    UPDATE stats_totals SET views = views - OLD.view_count, shares = shares - OLD.share_count,
        content_bytes = content_bytes - OLD.content_size WHERE slot = OLD.id % 16;
    UPDATE stats_daily_uploads SET gifs = gifs - 1 WHERE day = date(OLD.uploaded_at);
    UPDATE stats_size_buckets SET gifs = gifs - 1, bytes = bytes - OLD.content_size WHERE bucket = CASE
        WHEN OLD.content_size < 102400 THEN 0 WHEN OLD.content_size < 512000 THEN 1
        WHEN OLD.content_size < 1048576 THEN 2 WHEN OLD.content_size < 5242880 THEN 3 ELSE 4 END;
    UPDATE stats_content_types SET gifs = gifs - 1, bytes = bytes - OLD.content_size
        WHERE content_type = OLD.content_type;
    UPDATE stats_users SET gifs = gifs - 1 WHERE user_id = OLD.uploader_id;
END;

-- Views and shares move only the totals.
CREATE TRIGGER gifs_stats_counters AFTER UPDATE OF view_count, share_count ON gifs
    WHEN OLD.view_count IS NOT NEW.view_count OR OLD.share_count IS NOT NEW.share_count BEGIN
    UPDATE stats_totals SET views = views - OLD.view_count + NEW.view_count,
        shares = shares - OLD.share_count + NEW.share_count WHERE slot = NEW.id % 16;
END;

-- A changed size, type, day or uploader moves the GIF out of its old rows and into its new ones.
CREATE TRIGGER gifs_stats_update AFTER UPDATE OF content_size, content_type, uploaded_at, uploader_id ON gifs
    WHEN OLD.content_size IS NOT NEW.content_size OR OLD.content_type IS NOT NEW.content_type
        OR OLD.uploaded_at IS NOT NEW.uploaded_at OR OLD.uploader_id IS NOT NEW.uploader_id BEGIN
    UPDATE stats_totals SET content_bytes = content_bytes - OLD.content_size + NEW.content_size
        WHERE slot = NEW.id % 16;
    UPDATE stats_daily_uploads SET gifs = gifs - 1 WHERE day = date(OLD.uploaded_at);
    INSERT INTO stats_daily_uploads (day, gifs) VALUES (date(NEW.uploaded_at), 1)
        ON CONFLICT (day) DO UPDATE SET gifs = gifs + 1;
    UPDATE stats_size_buckets SET gifs = gifs - 1, bytes = bytes - OLD.content_size WHERE bucket = CASE
        WHEN OLD.content_size < 102400 THEN 0 WHEN OLD.content_size < 512000 THEN 1
        WHEN OLD.content_size < 1048576 THEN 2 WHEN OLD.content_size < 5242880 THEN 3 ELSE 4 END;
    UPDATE stats_size_buckets SET gifs = gifs + 1, bytes = bytes + NEW.content_size WHERE bucket = CASE
        WHEN NEW.content_size < 102400 THEN 0 WHEN NEW.content_size < 512000 THEN 1
        WHEN NEW.content_size < 1048576 THEN 2 WHEN NEW.content_size < 5242880 THEN 3 ELSE 4 END;
    UPDATE stats_content_types SET gifs = gifs - 1, bytes = bytes - OLD.content_size
        WHERE content_type = OLD.content_type;
    INSERT INTO stats_content_types (content_type, gifs, bytes) VALUES (NEW.content_type, 1, NEW.content_size)
        ON CONFLICT (content_type) DO UPDATE SET gifs = gifs + 1, bytes = bytes + excluded.bytes;
    UPDATE stats_users SET gifs = gifs - 1 WHERE user_id = OLD.uploader_id;
    UPDATE stats_users SET gifs = gifs + 1 WHERE user_id = NEW.uploader_id;
END;

-- A GIF's tags: the tag's count and the links' total.
CREATE TRIGGER gif_tags_stats_insert AFTER INSERT ON gif_tags BEGIN
    UPDATE stats_tags SET gifs = gifs + 1 WHERE tag_id = NEW.tag_id;
    UPDATE stats_totals SET tag_links = tag_links + 1 WHERE slot = NEW.gif_id % 16;
END;
CREATE TRIGGER gif_tags_stats_delete AFTER DELETE ON gif_tags BEGIN
    UPDATE stats_tags SET gifs = gifs - 1 WHERE tag_id = OLD.tag_id;
    UPDATE stats_totals SET tag_links = tag_links - 1 WHERE slot = OLD.gif_id % 16;
END;
CREATE TRIGGER gif_tags_stats_update AFTER UPDATE ON gif_tags BEGIN
    UPDATE stats_tags SET gifs = gifs - 1 WHERE tag_id = OLD.tag_id;
    UPDATE stats_totals SET tag_links = tag_links - 1 WHERE slot = OLD.gif_id % 16;
    UPDATE stats_tags SET gifs = gifs + 1 WHERE tag_id = NEW.tag_id;
    UPDATE stats_totals SET tag_links = tag_links + 1 WHERE slot = NEW.gif_id % 16;
END;
