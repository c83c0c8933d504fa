--
-- PostgreSQL database dump
--


-- Dumped from database version 15.20 (Debian 15.20-0+deb12u1)
-- Dumped by pg_dump version 15.20 (Debian 15.20-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: pg_trgm; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;


--
-- Name: EXTENSION pg_trgm; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';


--
-- Name: gif_count_added(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.gif_count_added() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE gif_count SET gifs = gifs + (SELECT COUNT(*) FROM added) WHERE id = 1;
    RETURN NULL;
END
$$;


--
-- Name: gif_count_removed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.gif_count_removed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE gif_count SET gifs = gifs - (SELECT COUNT(*) FROM removed) WHERE id = 1;
    RETURN NULL;
END
$$;


--
-- Name: gif_words_added(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.gif_words_added() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO gif_words (word, gif_id) SELECT w, a.id FROM added a, gif_words_of(a.search_text) AS w;
    INSERT INTO search_vocabulary (word)
        SELECT DISTINCT w FROM added a, gif_words_of(a.search_text) AS w ORDER BY w ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;


--
-- Name: gif_words_changed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.gif_words_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM gif_words WHERE gif_id = NEW.id;
    INSERT INTO gif_words (word, gif_id) SELECT w, NEW.id FROM gif_words_of(NEW.search_text) AS w;
    INSERT INTO search_vocabulary (word)
        SELECT w FROM gif_words_of(NEW.search_text) AS w ORDER BY w ON CONFLICT DO NOTHING;
    RETURN NULL;
END
$$;


--
-- Name: gif_words_of(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.gif_words_of(text) RETURNS SETOF text
    LANGUAGE sql IMMUTABLE
    AS $_$
    SELECT DISTINCT w FROM regexp_split_to_table($1, '[ \t\n\r\f\v]+') AS w WHERE w <> ''
$_$;


--
-- Name: jobs_notify(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.jobs_notify() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM pg_notify('gifshelf_jobs', '');
    RETURN NULL;
END
$$;


--
-- Name: stats_day(timestamp without time zone); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.stats_day(timestamp without time zone) RETURNS text
    LANGUAGE sql STABLE
    AS $_$
    SELECT to_char($1, 'YYYY-MM-DD')
$_$;


--
-- Name: stats_gif_counters(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.stats_gif_counters() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE stats_totals SET views = views - OLD.view_count + NEW.view_count,
        shares = shares - OLD.share_count + NEW.share_count WHERE slot = NEW.id % 16;
    RETURN NULL;
END
$$;


--
-- Name: stats_gif_moved(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.stats_gif_moved() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: stats_gif_tag_moved(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.stats_gif_tag_moved() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE stats_tags SET gifs = gifs - 1 WHERE tag_id = OLD.tag_id;
    UPDATE stats_tags SET gifs = gifs + 1 WHERE tag_id = NEW.tag_id;
    UPDATE stats_totals SET tag_links = tag_links - 1 WHERE slot = OLD.gif_id % 16;
    UPDATE stats_totals SET tag_links = tag_links + 1 WHERE slot = NEW.gif_id % 16;
    RETURN NULL;
END
$$;


--
-- Name: stats_gif_tags_changed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.stats_gif_tags_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: stats_gifs_changed(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.stats_gifs_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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


--
-- Name: stats_size_bucket(bigint); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.stats_size_bucket(bigint) RETURNS smallint
    LANGUAGE sql IMMUTABLE
    AS $_$
    SELECT CAST(CASE WHEN $1 < 102400 THEN 0 WHEN $1 < 512000 THEN 1 WHEN $1 < 1048576 THEN 2
        WHEN $1 < 5242880 THEN 3 ELSE 4 END AS smallint)
$_$;


--
-- Name: stats_tags_added(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.stats_tags_added() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO stats_tags (tag_id, gifs) SELECT id, 0 FROM added;
    RETURN NULL;
END
$$;


--
-- Name: stats_users_added(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.stats_users_added() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO stats_users (user_id, gifs) SELECT id, 0 FROM added;
    RETURN NULL;
END
$$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: __diesel_schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.__diesel_schema_migrations (
    version character varying(50) NOT NULL,
    run_on timestamp without time zone DEFAULT CURRENT_TIMESTAMP NOT NULL
);


--
-- Name: api_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_keys (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    name text NOT NULL,
    prefix text NOT NULL,
    digest text NOT NULL,
    created_at timestamp without time zone NOT NULL,
    last_used_at timestamp without time zone
);


--
-- Name: api_keys_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.api_keys_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: api_keys_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.api_keys_id_seq OWNED BY public.api_keys.id;


--
-- Name: audit_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.audit_events (
    id bigint NOT NULL,
    at timestamp without time zone NOT NULL,
    actor_id bigint,
    actor_name text NOT NULL,
    action text NOT NULL,
    target text NOT NULL,
    detail text NOT NULL,
    address text
);


--
-- Name: audit_events_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.audit_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: audit_events_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.audit_events_id_seq OWNED BY public.audit_events.id;


--
-- Name: collection_gifs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.collection_gifs (
    collection_id bigint NOT NULL,
    gif_id bigint NOT NULL,
    "position" bigint NOT NULL,
    added_at timestamp without time zone NOT NULL
);


--
-- Name: collections; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.collections (
    id bigint NOT NULL,
    name text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    owner_id bigint NOT NULL,
    visibility text NOT NULL,
    share_id text,
    created_at timestamp without time zone NOT NULL,
    updated_at timestamp without time zone NOT NULL,
    CONSTRAINT collections_visibility_check CHECK ((visibility = ANY (ARRAY['team'::text, 'private'::text])))
);


--
-- Name: collections_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.collections_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: collections_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.collections_id_seq OWNED BY public.collections.id;


--
-- Name: favourites; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.favourites (
    user_id bigint NOT NULL,
    gif_id bigint NOT NULL,
    created_at timestamp without time zone NOT NULL
);


--
-- Name: gif_count; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.gif_count (
    id smallint NOT NULL,
    gifs bigint NOT NULL,
    CONSTRAINT gif_count_id_check CHECK ((id = 1))
);


--
-- Name: gif_daily_views; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.gif_daily_views (
    gif_id bigint NOT NULL,
    day timestamp without time zone NOT NULL,
    views bigint NOT NULL
);


--
-- Name: gif_renditions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.gif_renditions (
    gif_id bigint NOT NULL,
    kind text NOT NULL,
    blob_key text NOT NULL,
    content_type text NOT NULL,
    size bigint NOT NULL,
    width integer NOT NULL,
    height integer NOT NULL,
    frames integer DEFAULT 1 NOT NULL,
    duration_ms integer,
    codec text,
    preferred boolean DEFAULT false NOT NULL
);


--
-- Name: gif_tags; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.gif_tags (
    gif_id bigint NOT NULL,
    tag_id bigint NOT NULL
);


--
-- Name: gif_viewers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.gif_viewers (
    gif_id bigint NOT NULL,
    day timestamp without time zone NOT NULL,
    viewer text NOT NULL
);


--
-- Name: gif_words; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.gif_words (
    word text NOT NULL,
    gif_id bigint NOT NULL
);


--
-- Name: gifs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.gifs (
    id bigint NOT NULL,
    share_id text NOT NULL,
    title text NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    uploader_id bigint NOT NULL,
    uploaded_at timestamp without time zone NOT NULL,
    view_count bigint DEFAULT 0 NOT NULL,
    content_type text NOT NULL,
    content_size bigint NOT NULL,
    frame_count integer NOT NULL,
    search_text text DEFAULT ''::text NOT NULL,
    favourite_count bigint DEFAULT 0 NOT NULL,
    sha256 text,
    phash bigint,
    phash_b0 integer,
    phash_b1 integer,
    phash_b2 integer,
    phash_b3 integer,
    share_count bigint DEFAULT 0 NOT NULL,
    rating text DEFAULT 'g'::text NOT NULL
);


--
-- Name: gifs_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.gifs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: gifs_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.gifs_id_seq OWNED BY public.gifs.id;


--
-- Name: integrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.integrations (
    id bigint NOT NULL,
    platform text NOT NULL,
    name text NOT NULL,
    secret text NOT NULL,
    created_at timestamp without time zone NOT NULL,
    secret_form text DEFAULT 'clear'::text NOT NULL,
    secret_hint text DEFAULT ''::text NOT NULL
);


--
-- Name: integrations_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.integrations_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: integrations_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.integrations_id_seq OWNED BY public.integrations.id;


--
-- Name: invites; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.invites (
    id bigint NOT NULL,
    token_digest text NOT NULL,
    max_uses integer NOT NULL,
    uses integer NOT NULL,
    role text NOT NULL,
    created_by bigint NOT NULL,
    created_at timestamp without time zone NOT NULL,
    expires_at timestamp without time zone NOT NULL
);


--
-- Name: invites_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.invites_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: invites_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.invites_id_seq OWNED BY public.invites.id;


--
-- Name: jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.jobs (
    id bigint NOT NULL,
    kind text NOT NULL,
    payload text NOT NULL,
    state text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    run_after timestamp without time zone NOT NULL,
    locked_by text,
    locked_until timestamp without time zone,
    last_error text,
    created_at timestamp without time zone NOT NULL,
    dedup_key text DEFAULT ''::text NOT NULL,
    CONSTRAINT jobs_state_check CHECK ((state = ANY (ARRAY['queued'::text, 'running'::text, 'failed'::text])))
);


--
-- Name: jobs_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.jobs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: jobs_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.jobs_id_seq OWNED BY public.jobs.id;


--
-- Name: registration_policy; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.registration_policy (
    id bigint NOT NULL,
    mode text NOT NULL,
    allowed_domains text NOT NULL,
    members_may_invite boolean NOT NULL,
    updated_at timestamp without time zone NOT NULL
);


--
-- Name: search_terms; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.search_terms (
    term text NOT NULL,
    day timestamp without time zone NOT NULL,
    searches bigint NOT NULL
);


--
-- Name: search_vocabulary; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.search_vocabulary (
    word text NOT NULL
);


--
-- Name: stats_content_types; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stats_content_types (
    content_type text NOT NULL,
    gifs bigint NOT NULL,
    bytes bigint NOT NULL
);


--
-- Name: stats_daily_uploads; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stats_daily_uploads (
    day text NOT NULL,
    gifs bigint NOT NULL
);


--
-- Name: stats_size_buckets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stats_size_buckets (
    bucket smallint NOT NULL,
    gifs bigint NOT NULL,
    bytes bigint NOT NULL,
    CONSTRAINT stats_size_buckets_bucket_check CHECK (((bucket >= 0) AND (bucket <= 4)))
);


--
-- Name: stats_tags; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stats_tags (
    tag_id bigint NOT NULL,
    gifs bigint NOT NULL
);


--
-- Name: stats_totals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stats_totals (
    slot smallint NOT NULL,
    views bigint NOT NULL,
    shares bigint NOT NULL,
    content_bytes bigint NOT NULL,
    tag_links bigint NOT NULL,
    CONSTRAINT stats_totals_slot_check CHECK (((slot >= 0) AND (slot <= 15)))
);


--
-- Name: stats_users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.stats_users (
    user_id bigint NOT NULL,
    gifs bigint NOT NULL
);


--
-- Name: tags; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tags (
    id bigint NOT NULL,
    name text NOT NULL,
    created_at timestamp without time zone NOT NULL
);


--
-- Name: tags_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.tags_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: tags_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.tags_id_seq OWNED BY public.tags.id;


--
-- Name: user_identities; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.user_identities (
    issuer text NOT NULL,
    subject text NOT NULL,
    user_id bigint NOT NULL,
    email text,
    created_at timestamp without time zone NOT NULL
);


--
-- Name: users; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.users (
    id bigint NOT NULL,
    username text NOT NULL,
    username_key text NOT NULL,
    email text NOT NULL,
    password_hash text NOT NULL,
    role text DEFAULT 'USER'::text NOT NULL,
    created_at timestamp without time zone NOT NULL,
    credentials_changed_at timestamp without time zone NOT NULL,
    disabled_at timestamp without time zone,
    last_seen_at timestamp without time zone,
    CONSTRAINT users_role_check CHECK ((role = ANY (ARRAY['USER'::text, 'ADMIN'::text])))
);


--
-- Name: users_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.users_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: users_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.users_id_seq OWNED BY public.users.id;


--
-- Name: api_keys id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys ALTER COLUMN id SET DEFAULT nextval('public.api_keys_id_seq'::regclass);


--
-- Name: audit_events id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_events ALTER COLUMN id SET DEFAULT nextval('public.audit_events_id_seq'::regclass);


--
-- Name: collections id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collections ALTER COLUMN id SET DEFAULT nextval('public.collections_id_seq'::regclass);


--
-- Name: gifs id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gifs ALTER COLUMN id SET DEFAULT nextval('public.gifs_id_seq'::regclass);


--
-- Name: integrations id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.integrations ALTER COLUMN id SET DEFAULT nextval('public.integrations_id_seq'::regclass);


--
-- Name: invites id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invites ALTER COLUMN id SET DEFAULT nextval('public.invites_id_seq'::regclass);


--
-- Name: jobs id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs ALTER COLUMN id SET DEFAULT nextval('public.jobs_id_seq'::regclass);


--
-- Name: tags id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tags ALTER COLUMN id SET DEFAULT nextval('public.tags_id_seq'::regclass);


--
-- Name: users id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users ALTER COLUMN id SET DEFAULT nextval('public.users_id_seq'::regclass);


--
-- Data for Name: __diesel_schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.__diesel_schema_migrations VALUES ('20261122000001', '2026-11-27 05:20:45.908748');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261122000002', '2026-11-27 05:20:45.972098');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261122000003', '2026-11-27 05:20:45.992148');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261124000004', '2026-11-27 05:20:46.016173');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261124000005', '2026-11-27 05:20:46.028257');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261124000006', '2026-11-27 05:20:46.060286');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261124000008', '2026-11-27 05:20:46.078727');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261125000009', '2026-11-27 05:20:46.105326');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261125000010', '2026-11-27 05:20:46.124136');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261125000011', '2026-11-27 05:20:46.147251');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261125000012', '2026-11-27 05:20:46.166532');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261125000013', '2026-11-27 05:20:46.188239');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261126000014', '2026-11-27 05:20:46.224352');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261126000015', '2026-11-27 05:20:46.23618');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261127000016', '2026-11-27 05:20:46.298496');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261127000017', '2026-11-27 05:20:46.305543');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261127000018', '2026-11-27 05:20:46.316097');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261127000019', '2026-11-27 05:20:46.340105');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261127000020', '2026-11-27 05:20:46.344095');
INSERT INTO public.__diesel_schema_migrations VALUES ('20261127000021', '2026-11-27 05:20:46.348087');


--
-- Data for Name: api_keys; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.api_keys VALUES (1, 2, 'chat', 'gs_aXfQMH', '2fcf17278c22ec31d69304afe7dbe445248d2530996de1aa556b4638bfac85b5', '2026-11-27 05:20:47.250757', NULL);


--
-- Data for Name: audit_events; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.audit_events VALUES (1, '2026-11-27 05:20:47.264983', 2, 'alice', 'api_key.made', 'API key #1 “chat” (gs_aXfQMH…) of alice', '', '127.0.0.1');


--
-- Data for Name: collection_gifs; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.collection_gifs VALUES (1, 3, 0, '2026-11-27 05:20:47.239276');
INSERT INTO public.collection_gifs VALUES (1, 1, 1, '2026-11-27 05:20:47.243222');


--
-- Data for Name: collections; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.collections VALUES (1, 'Best of', 'kept', 2, 'private', 'a83J1YTrYqsgKx0xXWp9wA', '2026-11-27 05:20:47.218975', '2026-11-27 05:20:47.243222');


--
-- Data for Name: favourites; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.favourites VALUES (2, 3, '2026-11-27 05:20:47.21531');


--
-- Data for Name: gif_count; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.gif_count VALUES (1, 4);


--
-- Data for Name: gif_daily_views; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.gif_daily_views VALUES (1, '2026-11-27 00:00:00', 1);
INSERT INTO public.gif_daily_views VALUES (2, '2026-11-27 00:00:00', 1);
INSERT INTO public.gif_daily_views VALUES (3, '2026-11-27 00:00:00', 1);
INSERT INTO public.gif_daily_views VALUES (4, '2026-11-27 00:00:00', 1);


--
-- Data for Name: gif_renditions; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.gif_renditions VALUES (1, 'original', 'gifs/62dca8c541b0a42be2655f1a71f2bc78/original.gif', 'image/gif', 2322, 96, 64, 12, 1510, NULL, false);
INSERT INTO public.gif_renditions VALUES (1, 'thumbnail', 'gifs/62dca8c541b0a42be2655f1a71f2bc78/thumbnail.gif', 'image/gif', 1530, 96, 64, 12, 1510, NULL, true);
INSERT INTO public.gif_renditions VALUES (1, 'still', 'gifs/62dca8c541b0a42be2655f1a71f2bc78/static.png', 'image/png', 696, 96, 64, 1, 0, NULL, false);
INSERT INTO public.gif_renditions VALUES (1, 'tiny', 'gifs/62dca8c541b0a42be2655f1a71f2bc78/tiny.gif', 'image/gif', 1530, 96, 64, 12, 1510, NULL, true);
INSERT INTO public.gif_renditions VALUES (1, 'nano', 'gifs/62dca8c541b0a42be2655f1a71f2bc78/nano.gif', 'image/gif', 1530, 96, 64, 12, 1510, NULL, true);
INSERT INTO public.gif_renditions VALUES (1, 'fixed_height', 'gifs/62dca8c541b0a42be2655f1a71f2bc78/fixed_height.gif', 'image/gif', 1530, 96, 64, 12, 1510, NULL, true);
INSERT INTO public.gif_renditions VALUES (1, 'medium', 'gifs/62dca8c541b0a42be2655f1a71f2bc78/medium.gif', 'image/gif', 1530, 96, 64, 12, 1510, NULL, true);
INSERT INTO public.gif_renditions VALUES (2, 'original', 'gifs/d980c19c2e961cf8f848632491b29820/original.gif', 'image/gif', 4493, 80, 60, 15, 1500, NULL, false);
INSERT INTO public.gif_renditions VALUES (2, 'thumbnail', 'gifs/d980c19c2e961cf8f848632491b29820/thumbnail.gif', 'image/gif', 3418, 80, 60, 15, 1500, NULL, true);
INSERT INTO public.gif_renditions VALUES (2, 'still', 'gifs/d980c19c2e961cf8f848632491b29820/static.png', 'image/png', 1307, 80, 60, 1, 0, NULL, false);
INSERT INTO public.gif_renditions VALUES (2, 'tiny', 'gifs/d980c19c2e961cf8f848632491b29820/tiny.gif', 'image/gif', 3418, 80, 60, 15, 1500, NULL, true);
INSERT INTO public.gif_renditions VALUES (2, 'nano', 'gifs/d980c19c2e961cf8f848632491b29820/nano.gif', 'image/gif', 3418, 80, 60, 15, 1500, NULL, true);
INSERT INTO public.gif_renditions VALUES (2, 'fixed_height', 'gifs/d980c19c2e961cf8f848632491b29820/fixed_height.gif', 'image/gif', 3418, 80, 60, 15, 1500, NULL, true);
INSERT INTO public.gif_renditions VALUES (2, 'medium', 'gifs/d980c19c2e961cf8f848632491b29820/medium.gif', 'image/gif', 3418, 80, 60, 15, 1500, NULL, true);
INSERT INTO public.gif_renditions VALUES (3, 'original', 'gifs/153f47305172af04f17c098db53ea7c5/original.gif', 'image/gif', 19679, 72, 54, 9, 1490, NULL, true);
INSERT INTO public.gif_renditions VALUES (3, 'thumbnail', 'gifs/153f47305172af04f17c098db53ea7c5/thumbnail.gif', 'image/gif', 19444, 72, 54, 9, 1490, NULL, true);
INSERT INTO public.gif_renditions VALUES (3, 'still', 'gifs/153f47305172af04f17c098db53ea7c5/static.png', 'image/png', 3603, 72, 54, 1, 0, NULL, false);
INSERT INTO public.gif_renditions VALUES (3, 'tiny', 'gifs/153f47305172af04f17c098db53ea7c5/tiny.gif', 'image/gif', 19444, 72, 54, 9, 1490, NULL, true);
INSERT INTO public.gif_renditions VALUES (3, 'nano', 'gifs/153f47305172af04f17c098db53ea7c5/nano.gif', 'image/gif', 19444, 72, 54, 9, 1490, NULL, true);
INSERT INTO public.gif_renditions VALUES (3, 'fixed_height', 'gifs/153f47305172af04f17c098db53ea7c5/fixed_height.gif', 'image/gif', 19444, 72, 54, 9, 1490, NULL, true);
INSERT INTO public.gif_renditions VALUES (4, 'original', 'gifs/ef36276beb645ca0348246af836f5841/original.gif', 'image/gif', 4847, 64, 48, 9, 1490, NULL, false);
INSERT INTO public.gif_renditions VALUES (4, 'thumbnail', 'gifs/ef36276beb645ca0348246af836f5841/thumbnail.gif', 'image/gif', 3431, 64, 48, 9, 1490, NULL, true);
INSERT INTO public.gif_renditions VALUES (4, 'still', 'gifs/ef36276beb645ca0348246af836f5841/static.png', 'image/png', 1321, 64, 48, 1, 0, NULL, false);
INSERT INTO public.gif_renditions VALUES (4, 'tiny', 'gifs/ef36276beb645ca0348246af836f5841/tiny.gif', 'image/gif', 3431, 64, 48, 9, 1490, NULL, true);
INSERT INTO public.gif_renditions VALUES (4, 'nano', 'gifs/ef36276beb645ca0348246af836f5841/nano.gif', 'image/gif', 3431, 64, 48, 9, 1490, NULL, true);
INSERT INTO public.gif_renditions VALUES (4, 'fixed_height', 'gifs/ef36276beb645ca0348246af836f5841/fixed_height.gif', 'image/gif', 3431, 64, 48, 9, 1490, NULL, true);
INSERT INTO public.gif_renditions VALUES (4, 'medium', 'gifs/ef36276beb645ca0348246af836f5841/medium.gif', 'image/gif', 3431, 64, 48, 9, 1490, NULL, true);


--
-- Data for Name: gif_tags; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.gif_tags VALUES (1, 1);
INSERT INTO public.gif_tags VALUES (1, 2);
INSERT INTO public.gif_tags VALUES (2, 3);
INSERT INTO public.gif_tags VALUES (3, 4);
INSERT INTO public.gif_tags VALUES (3, 2);


--
-- Data for Name: gif_viewers; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: gif_words; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.gif_words VALUES ('test', 1);
INSERT INTO public.gif_words VALUES ('colour', 1);
INSERT INTO public.gif_words VALUES ('bars', 1);
INSERT INTO public.gif_words VALUES ('card', 1);
INSERT INTO public.gif_words VALUES ('noise', 2);
INSERT INTO public.gif_words VALUES ('spinning', 2);
INSERT INTO public.gif_words VALUES ('zoom', 3);
INSERT INTO public.gif_words VALUES ('a', 3);
INSERT INTO public.gif_words VALUES ('colour', 3);
INSERT INTO public.gif_words VALUES ('fractal', 3);
INSERT INTO public.gif_words VALUES ('mandelbrot', 3);
INSERT INTO public.gif_words VALUES ('life', 4);
INSERT INTO public.gif_words VALUES ('conway', 4);


--
-- Data for Name: gifs; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.gifs VALUES (1, 'K47qx7HJqnFzZ3RzGk2csQ', 'Test card', 'colour bars', 2, '2026-11-27 05:20:46.596121', 1, 'image/gif', 2322, 12, 'test card
colour bars
bars
colour', 0, 'a78864cf2191ea46d18d8e3e7ec65dafac8366633691e2bdb819bd7cd382c22b', -6931139, 65535, 65535, 65430, 15677, 0, 'g');
INSERT INTO public.gifs VALUES (2, 'KUuqusyv_OCdUJ4f5_yL6A', 'Spinning noise', '', 2, '2026-11-27 05:20:46.814758', 1, 'image/gif', 4493, 15, 'spinning noise

noise', 0, 'c1dc9e3807cb44b981184ca7b53b1c46b40d94429dda36239513cdd982af4db4', 1750660661317736472, 6219, 39064, 38936, 6168, 0, 'pg');
INSERT INTO public.gifs VALUES (3, '8PmsDG-BioxJ5OazI_m4ng', 'Fractal zoom', 'a mandelbrot', 3, '2026-11-27 05:20:46.941827', 1, 'image/gif', 19679, 9, 'fractal zoom
a mandelbrot
fractal
colour', 1, '16f334f2ac7f1a527e0de82e5c4a144968dd9c57413d0280042aeaa6597fcefc', 511502141540676633, 1817, 14460, 55394, 13337, 0, 'pg-13');
INSERT INTO public.gifs VALUES (4, 'iZ8c-6bkOv7NXoQ0e_nGsg', 'Life', 'conway', 1, '2026-11-27 05:20:47.092359', 1, 'image/gif', 4847, 9, 'life
conway', 0, '8fe38557f27476fe1db312b5ae2b334be5392883967a2ae50ab4154fe95affd7', -4339014087108928272, 50120, 47533, 18036, 56560, 0, 'g');


--
-- Data for Name: integrations; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: invites; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: jobs; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: registration_policy; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: search_terms; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: search_vocabulary; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.search_vocabulary VALUES ('bars');
INSERT INTO public.search_vocabulary VALUES ('card');
INSERT INTO public.search_vocabulary VALUES ('colour');
INSERT INTO public.search_vocabulary VALUES ('test');
INSERT INTO public.search_vocabulary VALUES ('noise');
INSERT INTO public.search_vocabulary VALUES ('spinning');
INSERT INTO public.search_vocabulary VALUES ('a');
INSERT INTO public.search_vocabulary VALUES ('fractal');
INSERT INTO public.search_vocabulary VALUES ('mandelbrot');
INSERT INTO public.search_vocabulary VALUES ('zoom');
INSERT INTO public.search_vocabulary VALUES ('conway');
INSERT INTO public.search_vocabulary VALUES ('life');


--
-- Data for Name: stats_content_types; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.stats_content_types VALUES ('image/gif', 4, 31341);


--
-- Data for Name: stats_daily_uploads; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.stats_daily_uploads VALUES ('2026-11-27', 4);


--
-- Data for Name: stats_size_buckets; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.stats_size_buckets VALUES (2, 0, 0);
INSERT INTO public.stats_size_buckets VALUES (4, 0, 0);
INSERT INTO public.stats_size_buckets VALUES (1, 0, 0);
INSERT INTO public.stats_size_buckets VALUES (3, 0, 0);
INSERT INTO public.stats_size_buckets VALUES (0, 4, 31341);


--
-- Data for Name: stats_tags; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.stats_tags VALUES (1, 1);
INSERT INTO public.stats_tags VALUES (3, 1);
INSERT INTO public.stats_tags VALUES (4, 1);
INSERT INTO public.stats_tags VALUES (2, 2);


--
-- Data for Name: stats_totals; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.stats_totals VALUES (11, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (0, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (12, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (10, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (15, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (13, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (5, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (8, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (6, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (14, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (9, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (7, 0, 0, 0, 0);
INSERT INTO public.stats_totals VALUES (1, 1, 0, 2322, 2);
INSERT INTO public.stats_totals VALUES (2, 1, 0, 4493, 1);
INSERT INTO public.stats_totals VALUES (3, 1, 0, 19679, 2);
INSERT INTO public.stats_totals VALUES (4, 1, 0, 4847, 0);


--
-- Data for Name: stats_users; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.stats_users VALUES (2, 2);
INSERT INTO public.stats_users VALUES (3, 1);
INSERT INTO public.stats_users VALUES (1, 1);


--
-- Data for Name: tags; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.tags VALUES (1, 'bars', '2026-11-27 05:20:46.596121');
INSERT INTO public.tags VALUES (3, 'noise', '2026-11-27 05:20:46.814758');
INSERT INTO public.tags VALUES (4, 'fractal', '2026-11-27 05:20:46.941827');
INSERT INTO public.tags VALUES (2, 'colour', '2026-11-27 05:20:46.596121');


--
-- Data for Name: user_identities; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: users; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.users VALUES (2, 'alice', 'alice', 'alice@example.com', '$2b$04$6Mm7se8840X2RAsAtJfsgeMwNW6y5lvBpkD2O3oRbRuG6O5oXPuHq', 'USER', '2026-11-27 05:20:46.4031', '2026-11-27 05:20:46.4031', NULL, '2026-11-27 05:20:46.577957');
INSERT INTO public.users VALUES (3, 'bob', 'bob', 'bob@example.com', '$2b$04$31hzZqjmACieBX8xH/CBpuFRQszXAWyaM6ABZ8iMUAVYI8WjlNeWy', 'USER', '2026-11-27 05:20:46.41599', '2026-11-27 05:20:46.41599', NULL, '2026-11-27 05:20:46.917921');
INSERT INTO public.users VALUES (1, 'admin', 'admin', 'admin@example.com', '$2b$04$GcKx8GNdfTQs82bX2axeD.CVNHv8asNtLbZtYIKwfHjsFyfrM9ntO', 'ADMIN', '2026-11-27 05:20:46.384576', '2026-11-27 05:20:46.384576', NULL, '2026-11-27 05:20:47.070226');


--
-- Name: api_keys_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.api_keys_id_seq', 1, true);


--
-- Name: audit_events_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.audit_events_id_seq', 1, true);


--
-- Name: collections_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.collections_id_seq', 1, true);


--
-- Name: gifs_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.gifs_id_seq', 4, true);


--
-- Name: integrations_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.integrations_id_seq', 1, false);


--
-- Name: invites_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.invites_id_seq', 1, false);


--
-- Name: jobs_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.jobs_id_seq', 4, true);


--
-- Name: tags_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.tags_id_seq', 5, true);


--
-- Name: users_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.users_id_seq', 3, true);


--
-- Name: __diesel_schema_migrations __diesel_schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.__diesel_schema_migrations
    ADD CONSTRAINT __diesel_schema_migrations_pkey PRIMARY KEY (version);


--
-- Name: api_keys api_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);


--
-- Name: audit_events audit_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.audit_events
    ADD CONSTRAINT audit_events_pkey PRIMARY KEY (id);


--
-- Name: collection_gifs collection_gifs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collection_gifs
    ADD CONSTRAINT collection_gifs_pkey PRIMARY KEY (collection_id, gif_id);


--
-- Name: collections collections_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collections
    ADD CONSTRAINT collections_pkey PRIMARY KEY (id);


--
-- Name: favourites favourites_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.favourites
    ADD CONSTRAINT favourites_pkey PRIMARY KEY (user_id, gif_id);


--
-- Name: gif_count gif_count_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_count
    ADD CONSTRAINT gif_count_pkey PRIMARY KEY (id);


--
-- Name: gif_daily_views gif_daily_views_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_daily_views
    ADD CONSTRAINT gif_daily_views_pkey PRIMARY KEY (gif_id, day);


--
-- Name: gif_renditions gif_renditions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_renditions
    ADD CONSTRAINT gif_renditions_pkey PRIMARY KEY (gif_id, kind);


--
-- Name: gif_tags gif_tags_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_tags
    ADD CONSTRAINT gif_tags_pkey PRIMARY KEY (gif_id, tag_id);


--
-- Name: gif_viewers gif_viewers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_viewers
    ADD CONSTRAINT gif_viewers_pkey PRIMARY KEY (gif_id, day, viewer);


--
-- Name: gif_words gif_words_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_words
    ADD CONSTRAINT gif_words_pkey PRIMARY KEY (word, gif_id);


--
-- Name: gifs gifs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gifs
    ADD CONSTRAINT gifs_pkey PRIMARY KEY (id);


--
-- Name: integrations integrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.integrations
    ADD CONSTRAINT integrations_pkey PRIMARY KEY (id);


--
-- Name: invites invites_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invites
    ADD CONSTRAINT invites_pkey PRIMARY KEY (id);


--
-- Name: jobs jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (id);


--
-- Name: registration_policy registration_policy_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.registration_policy
    ADD CONSTRAINT registration_policy_pkey PRIMARY KEY (id);


--
-- Name: search_terms search_terms_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.search_terms
    ADD CONSTRAINT search_terms_pkey PRIMARY KEY (term, day);


--
-- Name: search_vocabulary search_vocabulary_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.search_vocabulary
    ADD CONSTRAINT search_vocabulary_pkey PRIMARY KEY (word);


--
-- Name: stats_content_types stats_content_types_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stats_content_types
    ADD CONSTRAINT stats_content_types_pkey PRIMARY KEY (content_type);


--
-- Name: stats_daily_uploads stats_daily_uploads_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stats_daily_uploads
    ADD CONSTRAINT stats_daily_uploads_pkey PRIMARY KEY (day);


--
-- Name: stats_size_buckets stats_size_buckets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stats_size_buckets
    ADD CONSTRAINT stats_size_buckets_pkey PRIMARY KEY (bucket);


--
-- Name: stats_tags stats_tags_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stats_tags
    ADD CONSTRAINT stats_tags_pkey PRIMARY KEY (tag_id);


--
-- Name: stats_totals stats_totals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stats_totals
    ADD CONSTRAINT stats_totals_pkey PRIMARY KEY (slot);


--
-- Name: stats_users stats_users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stats_users
    ADD CONSTRAINT stats_users_pkey PRIMARY KEY (user_id);


--
-- Name: tags tags_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tags
    ADD CONSTRAINT tags_pkey PRIMARY KEY (id);


--
-- Name: user_identities user_identities_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.user_identities
    ADD CONSTRAINT user_identities_pkey PRIMARY KEY (issuer, subject);


--
-- Name: users users_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);


--
-- Name: api_keys_digest_uq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX api_keys_digest_uq ON public.api_keys USING btree (digest);


--
-- Name: api_keys_user_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX api_keys_user_idx ON public.api_keys USING btree (user_id, id);


--
-- Name: collection_gifs_gif_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX collection_gifs_gif_idx ON public.collection_gifs USING btree (gif_id);


--
-- Name: collection_gifs_order_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX collection_gifs_order_idx ON public.collection_gifs USING btree (collection_id, "position", gif_id);


--
-- Name: collections_owner_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX collections_owner_idx ON public.collections USING btree (owner_id);


--
-- Name: collections_share_id_uq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX collections_share_id_uq ON public.collections USING btree (share_id);


--
-- Name: favourites_gif_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX favourites_gif_idx ON public.favourites USING btree (gif_id);


--
-- Name: favourites_user_newest_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX favourites_user_newest_idx ON public.favourites USING btree (user_id, created_at DESC, gif_id DESC);


--
-- Name: gif_daily_views_day_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gif_daily_views_day_idx ON public.gif_daily_views USING btree (day, gif_id);


--
-- Name: gif_tags_tag_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gif_tags_tag_idx ON public.gif_tags USING btree (tag_id, gif_id);


--
-- Name: gif_words_gif_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gif_words_gif_idx ON public.gif_words USING btree (gif_id);


--
-- Name: gifs_favourites_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_favourites_idx ON public.gifs USING btree (favourite_count DESC, id DESC);


--
-- Name: gifs_newest_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_newest_idx ON public.gifs USING btree (uploaded_at DESC, id DESC);


--
-- Name: gifs_phash_b0_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_phash_b0_idx ON public.gifs USING btree (phash_b0);


--
-- Name: gifs_phash_b1_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_phash_b1_idx ON public.gifs USING btree (phash_b1);


--
-- Name: gifs_phash_b2_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_phash_b2_idx ON public.gifs USING btree (phash_b2);


--
-- Name: gifs_phash_b3_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_phash_b3_idx ON public.gifs USING btree (phash_b3);


--
-- Name: gifs_sha256_uq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX gifs_sha256_uq ON public.gifs USING btree (sha256);


--
-- Name: gifs_share_id_uq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX gifs_share_id_uq ON public.gifs USING btree (share_id);


--
-- Name: gifs_shares_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_shares_idx ON public.gifs USING btree (share_count DESC, id DESC);


--
-- Name: gifs_size_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_size_idx ON public.gifs USING btree (content_size DESC, id DESC);


--
-- Name: gifs_title_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_title_idx ON public.gifs USING btree (lower(title), id);


--
-- Name: gifs_type_size_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_type_size_idx ON public.gifs USING btree (content_type, content_size DESC, id DESC);


--
-- Name: gifs_uploader_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_uploader_idx ON public.gifs USING btree (uploader_id, uploaded_at DESC, id DESC);


--
-- Name: gifs_views_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX gifs_views_idx ON public.gifs USING btree (view_count DESC, id DESC);


--
-- Name: integrations_platform_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX integrations_platform_idx ON public.integrations USING btree (platform, id);


--
-- Name: invites_created_by_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX invites_created_by_idx ON public.invites USING btree (created_by, id);


--
-- Name: invites_digest_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX invites_digest_idx ON public.invites USING btree (token_digest);


--
-- Name: jobs_dedup_uq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX jobs_dedup_uq ON public.jobs USING btree (dedup_key) WHERE (state <> 'failed'::text);


--
-- Name: jobs_due_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_due_idx ON public.jobs USING btree (state, run_after, id);


--
-- Name: jobs_payload_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX jobs_payload_idx ON public.jobs USING btree (kind, payload);


--
-- Name: search_terms_day_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX search_terms_day_idx ON public.search_terms USING btree (day);


--
-- Name: search_vocabulary_trgm_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX search_vocabulary_trgm_idx ON public.search_vocabulary USING gin (word public.gin_trgm_ops);


--
-- Name: stats_tags_gifs_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX stats_tags_gifs_idx ON public.stats_tags USING btree (gifs DESC, tag_id);


--
-- Name: stats_users_gifs_idx; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX stats_users_gifs_idx ON public.stats_users USING btree (gifs DESC, user_id);


--
-- Name: tags_name_uq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX tags_name_uq ON public.tags USING btree (name);


--
-- Name: user_identities_user_issuer_uq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX user_identities_user_issuer_uq ON public.user_identities USING btree (user_id, issuer);


--
-- Name: users_email_uq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_email_uq ON public.users USING btree (email);


--
-- Name: users_username_key_uq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX users_username_key_uq ON public.users USING btree (username_key);


--
-- Name: gif_tags gif_tags_stats_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER gif_tags_stats_delete AFTER DELETE ON public.gif_tags REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION public.stats_gif_tags_changed();


--
-- Name: gif_tags gif_tags_stats_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER gif_tags_stats_insert AFTER INSERT ON public.gif_tags REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION public.stats_gif_tags_changed();


--
-- Name: gif_tags gif_tags_stats_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER gif_tags_stats_update AFTER UPDATE ON public.gif_tags FOR EACH ROW EXECUTE FUNCTION public.stats_gif_tag_moved();


--
-- Name: gifs gifs_count_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER gifs_count_delete AFTER DELETE ON public.gifs REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION public.gif_count_removed();


--
-- Name: gifs gifs_count_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER gifs_count_insert AFTER INSERT ON public.gifs REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.gif_count_added();


--
-- Name: gifs gifs_stats_counters; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER gifs_stats_counters AFTER UPDATE OF view_count, share_count ON public.gifs FOR EACH ROW WHEN (((old.view_count IS DISTINCT FROM new.view_count) OR (old.share_count IS DISTINCT FROM new.share_count))) EXECUTE FUNCTION public.stats_gif_counters();


--
-- Name: gifs gifs_stats_delete; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER gifs_stats_delete AFTER DELETE ON public.gifs REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION public.stats_gifs_changed();


--
-- Name: gifs gifs_stats_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER gifs_stats_insert AFTER INSERT ON public.gifs REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION public.stats_gifs_changed();


--
-- Name: gifs gifs_stats_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER gifs_stats_update AFTER UPDATE OF content_size, content_type, uploaded_at, uploader_id ON public.gifs FOR EACH ROW WHEN (((old.content_size IS DISTINCT FROM new.content_size) OR (old.content_type IS DISTINCT FROM new.content_type) OR (old.uploaded_at IS DISTINCT FROM new.uploaded_at) OR (old.uploader_id IS DISTINCT FROM new.uploader_id))) EXECUTE FUNCTION public.stats_gif_moved();


--
-- Name: gifs gifs_words_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER gifs_words_insert AFTER INSERT ON public.gifs REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.gif_words_added();


--
-- Name: gifs gifs_words_update; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER gifs_words_update AFTER UPDATE OF search_text ON public.gifs FOR EACH ROW WHEN ((old.search_text IS DISTINCT FROM new.search_text)) EXECUTE FUNCTION public.gif_words_changed();


--
-- Name: jobs jobs_notify_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER jobs_notify_insert AFTER INSERT ON public.jobs FOR EACH STATEMENT EXECUTE FUNCTION public.jobs_notify();


--
-- Name: tags tags_stats_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER tags_stats_insert AFTER INSERT ON public.tags REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.stats_tags_added();


--
-- Name: users users_stats_insert; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER users_stats_insert AFTER INSERT ON public.users REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION public.stats_users_added();


--
-- Name: api_keys api_keys_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: collection_gifs collection_gifs_collection_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collection_gifs
    ADD CONSTRAINT collection_gifs_collection_id_fkey FOREIGN KEY (collection_id) REFERENCES public.collections(id) ON DELETE CASCADE;


--
-- Name: collection_gifs collection_gifs_gif_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collection_gifs
    ADD CONSTRAINT collection_gifs_gif_id_fkey FOREIGN KEY (gif_id) REFERENCES public.gifs(id) ON DELETE CASCADE;


--
-- Name: collections collections_owner_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.collections
    ADD CONSTRAINT collections_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: favourites favourites_gif_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.favourites
    ADD CONSTRAINT favourites_gif_id_fkey FOREIGN KEY (gif_id) REFERENCES public.gifs(id) ON DELETE CASCADE;


--
-- Name: favourites favourites_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.favourites
    ADD CONSTRAINT favourites_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: gif_daily_views gif_daily_views_gif_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_daily_views
    ADD CONSTRAINT gif_daily_views_gif_id_fkey FOREIGN KEY (gif_id) REFERENCES public.gifs(id) ON DELETE CASCADE;


--
-- Name: gif_renditions gif_renditions_gif_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_renditions
    ADD CONSTRAINT gif_renditions_gif_id_fkey FOREIGN KEY (gif_id) REFERENCES public.gifs(id) ON DELETE CASCADE;


--
-- Name: gif_tags gif_tags_gif_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_tags
    ADD CONSTRAINT gif_tags_gif_id_fkey FOREIGN KEY (gif_id) REFERENCES public.gifs(id) ON DELETE CASCADE;


--
-- Name: gif_tags gif_tags_tag_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_tags
    ADD CONSTRAINT gif_tags_tag_id_fkey FOREIGN KEY (tag_id) REFERENCES public.tags(id) ON DELETE CASCADE;


--
-- Name: gif_viewers gif_viewers_gif_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_viewers
    ADD CONSTRAINT gif_viewers_gif_id_fkey FOREIGN KEY (gif_id) REFERENCES public.gifs(id) ON DELETE CASCADE;


--
-- Name: gif_words gif_words_gif_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gif_words
    ADD CONSTRAINT gif_words_gif_id_fkey FOREIGN KEY (gif_id) REFERENCES public.gifs(id) ON DELETE CASCADE;


--
-- Name: gifs gifs_uploader_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.gifs
    ADD CONSTRAINT gifs_uploader_id_fkey FOREIGN KEY (uploader_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: invites invites_created_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.invites
    ADD CONSTRAINT invites_created_by_fkey FOREIGN KEY (created_by) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: stats_tags stats_tags_tag_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stats_tags
    ADD CONSTRAINT stats_tags_tag_id_fkey FOREIGN KEY (tag_id) REFERENCES public.tags(id) ON DELETE CASCADE;


--
-- Name: stats_users stats_users_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.stats_users
    ADD CONSTRAINT stats_users_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- Name: user_identities user_identities_user_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.user_identities
    ADD CONSTRAINT user_identities_user_id_fkey FOREIGN KEY (user_id) REFERENCES public.users(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--


