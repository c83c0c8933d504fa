-- The statistics dashboard's figures, kept with the data by triggers in the transaction of each
-- change, so that every read is exact and none aggregates the library. A zero row is kept; reads
-- skip it where the figure lists only what exists. Inserts and deletes of GIFs, tag links, users
-- and tags are statement-level (a COPY, an import or a cascade from a deleted account is one set
-- operation); updates of a GIF are row-level and only when a counted column changed.

-- Totals in 16 slots (a GIF's slot is its id mod 16), so that concurrent views and shares of
-- different GIFs rarely wait on one row; a read sums the slots.
CREATE TABLE stats_totals (
    slot SMALLINT PRIMARY KEY CHECK (slot BETWEEN 0 AND 15),
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
    bucket SMALLINT PRIMARY KEY CHECK (bucket BETWEEN 0 AND 4),
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

CREATE FUNCTION stats_size_bucket(bigint) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
    SELECT CAST(CASE WHEN $1 < 102400 THEN 0 WHEN $1 < 512000 THEN 1 WHEN $1 < 1048576 THEN 2
        WHEN $1 < 5242880 THEN 3 ELSE 4 END AS smallint)
$$;
CREATE FUNCTION stats_day(timestamp) RETURNS text LANGUAGE sql STABLE AS $$
    SELECT to_char($1, 'YYYY-MM-DD')
$$;

-- Backfill from the rows there are.
INSERT INTO stats_totals (slot, views, shares, content_bytes, tag_links)
    SELECT s.slot, COALESCE(g.views, 0), COALESCE(g.shares, 0), COALESCE(g.bytes, 0), COALESCE(l.links, 0)
    FROM generate_series(0, 15) AS s (slot)
    LEFT JOIN (SELECT id % 16 AS slot, SUM(view_count) AS views, SUM(share_count) AS shares,
        SUM(content_size) AS bytes FROM gifs GROUP BY 1) g ON g.slot = s.slot
    LEFT JOIN (SELECT gif_id % 16 AS slot, COUNT(*) AS links FROM gif_tags GROUP BY 1) l ON l.slot = s.slot;
INSERT INTO stats_daily_uploads (day, gifs) SELECT stats_day(uploaded_at), COUNT(*) FROM gifs GROUP BY 1;
INSERT INTO stats_size_buckets (bucket, gifs, bytes)
    SELECT b.bucket, COALESCE(g.n, 0), COALESCE(g.bytes, 0)
    FROM generate_series(0, 4) AS b (bucket)
    LEFT JOIN (SELECT stats_size_bucket(content_size) AS bucket, COUNT(*) AS n, SUM(content_size) AS bytes
        FROM gifs GROUP BY 1) g ON g.bucket = b.bucket;
INSERT INTO stats_content_types (content_type, gifs, bytes)
    SELECT content_type, COUNT(*), SUM(content_size) FROM gifs GROUP BY content_type;
INSERT INTO stats_users (user_id, gifs)
    SELECT u.id, COALESCE(g.n, 0) FROM users u
    LEFT JOIN (SELECT uploader_id, COUNT(*) AS n FROM gifs GROUP BY 1) g ON g.uploader_id = u.id;
INSERT INTO stats_tags (tag_id, gifs)
    SELECT t.id, COALESCE(l.n, 0) FROM tags t
    LEFT JOIN (SELECT tag_id, COUNT(*) AS n FROM gif_tags GROUP BY 1) l ON l.tag_id = t.id;

-- Users and tags: a row each from the start (their deletion cascades).
CREATE FUNCTION stats_users_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO stats_users (user_id, gifs) SELECT id, 0 FROM added;
    RETURN NULL;
END
$$;
CREATE TRIGGER users_stats_insert AFTER INSERT ON users
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION stats_users_added();
CREATE FUNCTION stats_tags_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO stats_tags (tag_id, gifs) SELECT id, 0 FROM added;
    RETURN NULL;
END
$$;
CREATE TRIGGER tags_stats_insert AFTER INSERT ON tags
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION stats_tags_added();

-- GIFs in (INSERT) or out (DELETE) of every figure, as one set operation per figure, rows
-- touched in key order so that concurrent writers never wait on each other in a cycle. Both
-- triggers name their transition table `changed`.
CREATE FUNCTION stats_gifs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    direction BIGINT := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
    UPDATE stats_totals t SET views = t.views + direction * c.views, shares = t.shares + direction * c.shares,
        content_bytes = t.content_bytes + direction * c.bytes
    FROM (SELECT id % 16 AS slot, SUM(view_count) AS views, SUM(share_count) AS shares,
        SUM(content_size) AS bytes FROM changed GROUP BY 1) c
    WHERE t.slot = c.slot;
    INSERT INTO stats_daily_uploads AS d (day, gifs)
        SELECT stats_day(uploaded_at), direction * COUNT(*) FROM changed GROUP BY 1 ORDER BY 1
        ON CONFLICT (day) DO UPDATE SET gifs = d.gifs + excluded.gifs;
    UPDATE stats_size_buckets b SET gifs = b.gifs + direction * c.n, bytes = b.bytes + direction * c.bytes
    FROM (SELECT stats_size_bucket(content_size) AS bucket, COUNT(*) AS n, SUM(content_size) AS bytes
        FROM changed GROUP BY 1) c
    WHERE b.bucket = c.bucket;
    INSERT INTO stats_content_types AS t (content_type, gifs, bytes)
        SELECT content_type, direction * COUNT(*), direction * SUM(content_size) FROM changed GROUP BY 1 ORDER BY 1
        ON CONFLICT (content_type) DO UPDATE SET gifs = t.gifs + excluded.gifs, bytes = t.bytes + excluded.bytes;
    UPDATE stats_users s SET gifs = s.gifs + direction * c.n
    FROM (SELECT uploader_id, COUNT(*) AS n FROM changed GROUP BY 1) c
    WHERE s.user_id = c.uploader_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER gifs_stats_insert AFTER INSERT ON gifs
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION stats_gifs_changed();
CREATE TRIGGER gifs_stats_delete AFTER DELETE ON gifs
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION stats_gifs_changed();

-- Views and shares move only the totals.
CREATE FUNCTION stats_gif_counters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE stats_totals SET views = views - OLD.view_count + NEW.view_count,
        shares = shares - OLD.share_count + NEW.share_count WHERE slot = NEW.id % 16;
    RETURN NULL;
END
$$;
CREATE TRIGGER gifs_stats_counters AFTER UPDATE OF view_count, share_count ON gifs
    FOR EACH ROW WHEN (OLD.view_count IS DISTINCT FROM NEW.view_count OR OLD.share_count IS DISTINCT FROM NEW.share_count)
    EXECUTE FUNCTION stats_gif_counters();

-- A changed size, type, day or uploader moves the GIF out of its old rows and into its new ones.
CREATE FUNCTION stats_gif_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE stats_totals SET content_bytes = content_bytes - OLD.content_size + NEW.content_size
        WHERE slot = NEW.id % 16;
    INSERT INTO stats_daily_uploads AS d (day, gifs)
        SELECT day, SUM(n) FROM (VALUES (stats_day(OLD.uploaded_at), -1), (stats_day(NEW.uploaded_at), 1)) v (day, n)
        GROUP BY day ORDER BY day
        ON CONFLICT (day) DO UPDATE SET gifs = d.gifs + excluded.gifs;
    UPDATE stats_size_buckets b SET gifs = b.gifs + v.n, bytes = b.bytes + v.bytes
    FROM (SELECT bucket, SUM(n) AS n, SUM(bytes) AS bytes FROM (VALUES
        (stats_size_bucket(OLD.content_size), -1, -OLD.content_size),
        (stats_size_bucket(NEW.content_size), 1, NEW.content_size)) x (bucket, n, bytes) GROUP BY bucket) v
    WHERE b.bucket = v.bucket;
    INSERT INTO stats_content_types AS t (content_type, gifs, bytes)
        SELECT content_type, SUM(n), SUM(bytes) FROM (VALUES
            (OLD.content_type, -1, -OLD.content_size), (NEW.content_type, 1, NEW.content_size)) v (content_type, n, bytes)
        GROUP BY content_type ORDER BY content_type
        ON CONFLICT (content_type) DO UPDATE SET gifs = t.gifs + excluded.gifs, bytes = t.bytes + excluded.bytes;
    UPDATE stats_users s SET gifs = s.gifs + v.n
    FROM (SELECT user_id, SUM(n) AS n FROM (VALUES (OLD.uploader_id, -1), (NEW.uploader_id, 1)) x (user_id, n)
        GROUP BY user_id) v
    WHERE s.user_id = v.user_id;
    RETURN NULL;
END
$$;
CREATE TRIGGER gifs_stats_update AFTER UPDATE OF content_size, content_type, uploaded_at, uploader_id ON gifs
    FOR EACH ROW WHEN (OLD.content_size IS DISTINCT FROM NEW.content_size
        OR OLD.content_type IS DISTINCT FROM NEW.content_type
        OR OLD.uploaded_at IS DISTINCT FROM NEW.uploaded_at OR OLD.uploader_id IS DISTINCT FROM NEW.uploader_id)
    EXECUTE FUNCTION stats_gif_moved();

-- A GIF's tags: each tag's count and the links' total.
CREATE FUNCTION stats_gif_tags_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    direction BIGINT := CASE TG_OP WHEN 'INSERT' THEN 1 ELSE -1 END;
BEGIN
    UPDATE stats_tags s SET gifs = s.gifs + direction * c.n
    FROM (SELECT tag_id, COUNT(*) AS n FROM changed GROUP BY 1) c
    WHERE s.tag_id = c.tag_id;
    UPDATE stats_totals t SET tag_links = t.tag_links + direction * c.n
    FROM (SELECT gif_id % 16 AS slot, COUNT(*) AS n FROM changed GROUP BY 1) c
    WHERE t.slot = c.slot;
    RETURN NULL;
END
$$;
CREATE TRIGGER gif_tags_stats_insert AFTER INSERT ON gif_tags
    REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION stats_gif_tags_changed();
CREATE TRIGGER gif_tags_stats_delete AFTER DELETE ON gif_tags
    REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION stats_gif_tags_changed();
CREATE FUNCTION stats_gif_tag_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE stats_tags SET gifs = gifs - 1 WHERE tag_id = OLD.tag_id;
    UPDATE stats_tags SET gifs = gifs + 1 WHERE tag_id = NEW.tag_id;
    UPDATE stats_totals SET tag_links = tag_links - 1 WHERE slot = OLD.gif_id % 16;
    UPDATE stats_totals SET tag_links = tag_links + 1 WHERE slot = NEW.gif_id % 16;
    RETURN NULL;
END
$$;
CREATE TRIGGER gif_tags_stats_update AFTER UPDATE ON gif_tags
    FOR EACH ROW EXECUTE FUNCTION stats_gif_tag_moved();
