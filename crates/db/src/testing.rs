//! Fresh, private databases for tests: each test gets its own, so runs never collide.
//!
//! PostgreSQL tests need `GIFSHELF_TEST_POSTGRES_URL` (a server URL whose user may create
//! databases). Without it they are built as ignored (`postgres_tests` cfg, from the crates' build
//! scripts) and reported as skipped, and a direct call prints that it did not run; with `CI=true` a missing or
//! unreachable PostgreSQL is a failure, never a silent pass.

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::Connection;

use crate::{Database, DbConfig};

pub const POSTGRES_URL_VAR: &str = "GIFSHELF_TEST_POSTGRES_URL";

/// A migrated database that disappears when dropped.
pub struct TestDb {
    pub db: Database,
    pub url: String,
    cleanup: Cleanup,
}

enum Cleanup {
    Sqlite(#[allow(dead_code)] tempfile::TempDir),
    Postgres {
        admin_url: String,
        name: String,
    },
    /// A database kept for the next run (a benchmark's large library).
    Kept,
}

impl TestDb {
    /// A new SQLite file in a temporary folder.
    ///
    /// # Panics
    /// When the database cannot be created (a broken test machine).
    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
        let url = format!("sqlite://{}", dir.path().join("test.db").display());
        let db = Database::connect(&DbConfig::new(&url)).unwrap_or_else(|e| panic!("{e}"));
        db.migrate().unwrap_or_else(|e| panic!("{e}"));
        Self { db, url, cleanup: Cleanup::Sqlite(dir) }
    }

    /// A new, empty PostgreSQL database, or `None` (with a printed note) when no server is
    /// configured outside CI.
    ///
    /// # Panics
    /// When `CI=true` and no server is configured, or when a configured server is unreachable.
    pub fn postgres(test: &str) -> Option<Self> {
        let created = Self::postgres_with(test, "")?;
        created.db.migrate().unwrap_or_else(|e| panic!("{e}"));
        Some(created)
    }

    /// A new PostgreSQL database holding what `sql` makes (a plain `pg_dump --inserts`), not
    /// migrated further: for the upgrade test, whose server migrates it. `None` as for
    /// [`Self::postgres`].
    ///
    /// # Panics
    /// As [`Self::postgres`], and when `sql` fails.
    pub fn postgres_from_sql(test: &str, sql: &str) -> Option<Self> {
        Self::postgres_with(test, sql)
    }

    /// The PostgreSQL database `name`, kept when dropped, and whether it was made now (so is
    /// empty): a benchmark seeds a library of a million GIFs once and measures it again in later
    /// runs. `None` as for [`Self::postgres`].
    ///
    /// # Panics
    /// As [`Self::postgres`], and when `name` is not a plain lower-case identifier.
    pub fn postgres_kept(name: &str) -> Option<(Self, bool)> {
        assert!(
            !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
            "a kept database's name is lower-case letters, digits and _: {name}"
        );
        let admin_url = admin_url("kept database")?;
        let mut admin = PgConnection::establish(&admin_url)
            .unwrap_or_else(|e| panic!("PostgreSQL at {POSTGRES_URL_VAR} is unreachable: {e}"));
        let made = admin.batch_execute(&format!("CREATE DATABASE {name}")).is_ok();
        let url = with_database(&admin_url, name);
        let db = connect_small(&url);
        db.migrate().unwrap_or_else(|e| panic!("{e}"));
        Some((Self { db, url, cleanup: Cleanup::Kept }, made))
    }

    fn postgres_with(test: &str, sql: &str) -> Option<Self> {
        let admin_url = admin_url(test)?;
        let name = format!("gifshelf_test_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::establish(&admin_url)
            .unwrap_or_else(|e| panic!("PostgreSQL at {POSTGRES_URL_VAR} is unreachable: {e}"));
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap_or_else(|e| panic!("cannot create a test database: {e}"));
        let url = with_database(&admin_url, &name);
        let cleanup = Cleanup::Postgres { admin_url, name };
        if !sql.is_empty() {
            let mut conn = PgConnection::establish(&url).unwrap_or_else(|e| panic!("{url}: {e}"));
            conn.batch_execute(sql).unwrap_or_else(|e| panic!("loading the SQL: {e}"));
        }
        let db = connect_small(&url);
        Some(Self { db, url, cleanup })
    }
}

/// A pool of at most four connections to a test database: tests run many at once.
fn connect_small(url: &str) -> Database {
    let mut config = DbConfig::new(url);
    config.max_connections = 4;
    Database::connect(&config).unwrap_or_else(|e| panic!("{e}"))
}

/// The server URL of `GIFSHELF_TEST_POSTGRES_URL`, without TLS, or `None` (with a printed note)
/// when it is not set outside CI.
///
/// # Panics
/// When `CI=true` and it is not set.
fn admin_url(test: &str) -> Option<String> {
    let Some(admin_url) = std::env::var(POSTGRES_URL_VAR).ok().filter(|v| !v.is_empty()) else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{POSTGRES_URL_VAR} is not set, but CI=true: the PostgreSQL half must run in CI");
        }
        eprintln!("PostgreSQL half of `{test}` did not run: {POSTGRES_URL_VAR} is not set");
        return None;
    };
    // Test servers are local: without TLS, libpq's OpenSSL teardown at process exit cannot race
    // with pooled connections still open on other threads (seen as a SIGSEGV after the last test).
    let admin_url = if admin_url.contains("sslmode=") {
        admin_url
    } else if admin_url.contains('?') {
        format!("{admin_url}&sslmode=disable")
    } else {
        format!("{admin_url}?sslmode=disable")
    };
    Some(admin_url)
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Cleanup::Postgres { admin_url, name } = &self.cleanup {
            if let Ok(mut admin) = PgConnection::establish(admin_url) {
                let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
            }
        }
    }
}

/// `postgres://u@h:5432/postgres?x=y` with the database replaced by `name`.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let root = match base[after_scheme..].find('/') {
        Some(slash) => &base[..after_scheme + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{root}/{name}?{q}"),
        None => format!("{root}/{name}"),
    }
}

/// Words of the seeded titles, descriptions and tag names (the benchmarks search for them).
pub const SEED_WORDS: [&str; 24] = [
    "cat", "dog", "happy", "sad", "dance", "party", "reaction", "funny", "wow", "facepalm", "cool", "hello", "thanks",
    "yes", "no", "coffee", "monday", "weekend", "rain", "sun", "pizza", "space", "robot", "wave",
];

/// One seeded GIF, drawn from a fixed pseudo-random sequence (the same library every run).
struct SeedGif {
    words: [u8; 3],
    uploader: u64,
    size: i64,
    views: u64,
    tags: Vec<usize>,
}

fn seed_gifs(users: usize, gifs: usize, tags: usize) -> Vec<SeedGif> {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..gifs)
        .map(|_| {
            let words = [(next() % 24) as u8, (next() % 24) as u8, (next() % 24) as u8];
            let uploader = (next() % users as u64) + 1;
            let size = 1000 + (next() % 9_000_000) as i64;
            let mut chosen = Vec::new();
            if tags > 0 {
                for _ in 0..(next() % 4) {
                    let t = (next() % tags as u64) as usize;
                    if !chosen.contains(&t) {
                        chosen.push(t);
                    }
                }
            }
            SeedGif { words, uploader, size, views: next() % 1000, tags: chosen }
        })
        .collect()
}

fn tag_name(t: usize) -> String {
    format!("{}-{t}", SEED_WORDS[t % SEED_WORDS.len()])
}

impl SeedGif {
    fn title(&self, id: usize) -> String {
        format!("{} {} {id}", SEED_WORDS[self.words[0] as usize], SEED_WORDS[self.words[1] as usize])
    }

    fn description(&self) -> String {
        format!("a {} gif", SEED_WORDS[self.words[2] as usize])
    }

    /// The text read in one GIF of four: its description and title in capitals.
    fn caption(&self, id: usize) -> Option<String> {
        id.is_multiple_of(4).then(|| format!("{} {}", self.description(), self.title(id)).to_uppercase())
    }

    fn search_text(&self, id: usize) -> String {
        let mut lines: Vec<String> = vec![self.title(id), self.description()];
        lines.extend(self.tags.iter().map(|t| tag_name(*t)));
        lines.extend(self.caption(id));
        lines.join("\n").to_lowercase()
    }
}

/// The upload time of the `g`-th seeded GIF: five minutes apart from 2026-01-01.
fn seed_time(g: usize) -> String {
    let base = chrono::NaiveDate::from_ymd_opt(2026, 1, 1).and_then(|d| d.and_hms_opt(0, 0, 0)).unwrap_or_default();
    (base + chrono::Duration::seconds((g as i64) * 300)).format("%Y-%m-%d %H:%M:%S").to_string()
}

/// Fills the database with `users` users and `gifs` GIFs (tiny fake blob keys, up to three of
/// `tags` tags each, titles and descriptions from [`SEED_WORDS`], text read in one GIF of four) in
/// bulk, for benchmarks:
/// PostgreSQL takes every table in one `COPY`, SQLite multi-row inserts in one transaction. The
/// counters the writes keep (migrations 000013 and 000014) end up exact, as after the same rows
/// were uploaded.
///
/// # Errors
/// When the inserts fail.
pub fn seed(db: &Database, users: usize, gifs: usize, tags: usize) -> Result<(), String> {
    let users = users.max(1);
    let library = seed_gifs(users, gifs, tags);
    db.with_conn(|conn| {
        let failed = |e: diesel::result::Error| crate::DbError::Migrate(Box::new(e));
        match conn {
            crate::connection::AnyConnection::Postgresql(pg) => {
                pg.batch_execute("BEGIN").map_err(failed)?;
                copy_seed(pg, users, tags, &library).map_err(failed)?;
                pg.batch_execute("SELECT setval('gifs_id_seq', (SELECT MAX(id) FROM gifs)); COMMIT").map_err(failed)?;
                // The steady state autovacuum keeps: statistics and a visibility map.
                pg.batch_execute("VACUUM ANALYZE").map_err(failed)?;
            }
            crate::connection::AnyConnection::Sqlite(lite) => {
                lite.batch_execute("BEGIN").map_err(failed)?;
                for statement in insert_statements(users, tags, &library) {
                    lite.batch_execute(&statement).map_err(failed)?;
                }
                lite.batch_execute("COMMIT").map_err(failed)?;
                lite.batch_execute("ANALYZE").map_err(failed)?;
            }
        }
        Ok(())
    })
    .map_err(|e| e.to_string())
}

/// Runs `sql` (statements that return no rows) on `db`: for tests that change what no repository
/// call changes, such as a GIF's size or uploader.
///
/// # Errors
/// When a statement fails.
pub fn execute(db: &Database, sql: &str) -> Result<(), String> {
    db.with_conn(|conn| {
        match conn {
            crate::connection::AnyConnection::Postgresql(pg) => pg.batch_execute(sql),
            crate::connection::AnyConnection::Sqlite(lite) => lite.batch_execute(sql),
        }
        .map_err(|e| crate::DbError::Migrate(Box::new(e)))
    })
    .map_err(|e| e.to_string())
}

/// `COPY … FROM STDIN` text: backslash, tab and newline escaped.
fn copy_text(value: &str) -> String {
    value.replace('\\', "\\\\").replace('\t', "\\t").replace('\n', "\\n")
}

/// A `COPY` callback from one that writes rows through a buffer (diesel wants its own error type).
fn rows(
    write: impl Fn(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> impl Fn(&mut dyn std::io::Write) -> diesel::QueryResult<()> {
    move |out| {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
        write(&mut out)
            .and_then(|()| std::io::Write::flush(&mut out))
            .map_err(|e| diesel::result::Error::SerializationError(Box::new(e)))
    }
}

/// The time every seeded user and tag was made at.
const SEEDED: &str = "2026-01-01 00:00:00";

fn copy_seed(conn: &mut PgConnection, users: usize, tags: usize, library: &[SeedGif]) -> diesel::QueryResult<usize> {
    copy_users_and_tags(conn, users, tags)?;
    copy_gifs(conn, library)
}

fn copy_users_and_tags(conn: &mut PgConnection, users: usize, tags: usize) -> diesel::QueryResult<()> {
    use crate::schema::{tags as tag_table, users as user_table};
    use diesel::prelude::ExecuteCopyFromDsl;
    use std::io::Write;

    diesel::copy_from(user_table::table)
        .from_raw_data(
            (
                user_table::id,
                user_table::username,
                user_table::username_key,
                user_table::email,
                user_table::password_hash,
                user_table::role,
                user_table::created_at,
                user_table::credentials_changed_at,
            ),
            rows(|out: &mut dyn Write| {
                for u in 0..users {
                    writeln!(out, "{}\tseed{u}\tseed{u}\tseed{u}@example.com\tx\tUSER\t{SEEDED}\t{SEEDED}", u + 1)?;
                }
                Ok(())
            }),
        )
        .execute(conn)?;
    diesel::copy_from(tag_table::table)
        .from_raw_data(
            (tag_table::id, tag_table::name, tag_table::created_at),
            rows(|out: &mut dyn Write| {
                for t in 0..tags {
                    writeln!(out, "{}\t{}\t{SEEDED}", t + 1, tag_name(t))?;
                }
                Ok(())
            }),
        )
        .execute(conn)?;
    conn.batch_execute(
        "SELECT setval('users_id_seq', (SELECT COALESCE(MAX(id), 1) FROM users)); \
         SELECT setval('tags_id_seq', (SELECT COALESCE(MAX(id), 1) FROM tags))",
    )
}

/// The GIFs, their renditions and tags (the users and tags exist).
fn copy_gifs(conn: &mut PgConnection, library: &[SeedGif]) -> diesel::QueryResult<usize> {
    use crate::schema::{gif_renditions, gif_tags, gifs};
    use diesel::prelude::ExecuteCopyFromDsl;
    use std::io::Write;

    diesel::copy_from(gifs::table)
        .from_raw_data(
            (
                gifs::id,
                gifs::share_id,
                gifs::title,
                gifs::description,
                gifs::uploader_id,
                gifs::uploaded_at,
                gifs::view_count,
                gifs::content_type,
                gifs::content_size,
                gifs::frame_count,
                gifs::search_text,
                gifs::caption_text,
            ),
            rows(|out: &mut dyn Write| {
                for (g, gif) in library.iter().enumerate() {
                    let id = g + 1;
                    writeln!(
                        out,
                        "{id}\tshare{id}\t{}\t{}\t{}\t{}\t{}\timage/gif\t{}\t10\t{}\t{}",
                        gif.title(id),
                        gif.description(),
                        gif.uploader,
                        seed_time(g),
                        gif.views,
                        gif.size,
                        copy_text(&gif.search_text(id)),
                        gif.caption(id).map_or_else(|| "\\N".to_owned(), |c| copy_text(&c)),
                    )?;
                }
                Ok(())
            }),
        )
        .execute(conn)?;
    diesel::copy_from(gif_renditions::table)
        .from_raw_data(
            (
                gif_renditions::gif_id,
                gif_renditions::kind,
                gif_renditions::blob_key,
                gif_renditions::content_type,
                gif_renditions::size,
                gif_renditions::width,
                gif_renditions::height,
                gif_renditions::frames,
                gif_renditions::preferred,
            ),
            rows(|out: &mut dyn Write| {
                for (g, gif) in library.iter().enumerate() {
                    let id = g + 1;
                    writeln!(out, "{id}\toriginal\tk/{id}/o\timage/gif\t{}\t320\t240\t10\tt", gif.size)?;
                    writeln!(out, "{id}\tthumbnail\tk/{id}/t\timage/gif\t5000\t320\t240\t10\tt")?;
                    writeln!(out, "{id}\tstill\tk/{id}/s\timage/png\t800\t320\t240\t1\tf")?;
                }
                Ok(())
            }),
        )
        .execute(conn)?;
    diesel::copy_from(gif_tags::table)
        .from_raw_data(
            (gif_tags::gif_id, gif_tags::tag_id),
            rows(|out: &mut dyn Write| {
                for (g, gif) in library.iter().enumerate() {
                    for t in &gif.tags {
                        writeln!(out, "{}\t{}", g + 1, t + 1)?;
                    }
                }
                Ok(())
            }),
        )
        .execute(conn)
}

/// The same rows as multi-row `INSERT`s of at most 1000 GIFs each.
fn insert_statements(users: usize, tags: usize, library: &[SeedGif]) -> Vec<String> {
    use std::fmt::Write;

    let mut statements: Vec<String> = Vec::new();
    let mut sql = String::from("INSERT INTO users (username, username_key, email, password_hash, role, created_at, credentials_changed_at) VALUES ");
    for u in 0..users {
        let _ = write!(sql, "{}('seed{u}', 'seed{u}', 'seed{u}@example.com', 'x', 'USER', '2026-01-01 00:00:00', '2026-01-01 00:00:00')", if u > 0 { "," } else { "" });
    }
    statements.push(sql);
    if tags > 0 {
        let mut sql = String::from("INSERT INTO tags (name, created_at) VALUES ");
        for t in 0..tags {
            let _ = write!(sql, "{}('{}', '2026-01-01 00:00:00')", if t > 0 { "," } else { "" }, tag_name(t));
        }
        statements.push(sql);
    }
    for chunk_start in (0..library.len()).step_by(1000) {
        let mut gif_sql = String::from(
            "INSERT INTO gifs (id, share_id, title, description, uploader_id, uploaded_at, view_count, content_type, \
             content_size, frame_count, search_text, caption_text) VALUES ",
        );
        let mut rendition_sql = String::from(
            "INSERT INTO gif_renditions (gif_id, kind, blob_key, content_type, size, width, height, frames, preferred) VALUES ",
        );
        let mut link_sql = String::from("INSERT INTO gif_tags (gif_id, tag_id) VALUES ");
        let mut links = 0;
        for (g, gif) in library.iter().enumerate().skip(chunk_start).take(1000) {
            let id = g + 1;
            let first = g == chunk_start;
            for t in &gif.tags {
                let _ = write!(link_sql, "{}({id}, {})", if links > 0 { "," } else { "" }, t + 1);
                links += 1;
            }
            let _ = write!(
                gif_sql,
                "{}({id}, 'share{id}', '{}', '{}', {}, '{}', {}, 'image/gif', {}, 10, '{}', {})",
                if first { "" } else { "," },
                gif.title(id),
                gif.description(),
                gif.uploader,
                seed_time(g),
                gif.views,
                gif.size,
                gif.search_text(id),
                gif.caption(id).map_or_else(|| "NULL".to_owned(), |c| format!("'{c}'")),
            );
            let _ = write!(
                rendition_sql,
                "{}({id}, 'original', 'k/{id}/o', 'image/gif', {}, 320, 240, 10, TRUE), \
                 ({id}, 'thumbnail', 'k/{id}/t', 'image/gif', 5000, 320, 240, 10, TRUE), \
                 ({id}, 'still', 'k/{id}/s', 'image/png', 800, 320, 240, 1, FALSE)",
                if first { "" } else { "," },
                gif.size,
            );
        }
        statements.push(gif_sql);
        statements.push(rendition_sql);
        if links > 0 {
            statements.push(link_sql);
        }
    }
    statements
}
