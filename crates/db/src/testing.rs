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
    Postgres { admin_url: String, name: String },
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
        let name = format!("gifshelf_test_{}", uuid::Uuid::new_v4().simple());
        let mut admin = PgConnection::establish(&admin_url)
            .unwrap_or_else(|e| panic!("PostgreSQL at {POSTGRES_URL_VAR} is unreachable: {e}"));
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .unwrap_or_else(|e| panic!("cannot create a test database: {e}"));
        let url = with_database(&admin_url, &name);
        let mut config = DbConfig::new(&url);
        config.max_connections = 4;
        let db = Database::connect(&config).unwrap_or_else(|e| panic!("{e}"));
        db.migrate().unwrap_or_else(|e| panic!("{e}"));
        Some(Self { db, url, cleanup: Cleanup::Postgres { admin_url, name } })
    }
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

/// Fills the database with `users` users and `gifs` GIFs (tiny fake blob keys, up to three of
/// `tags` tags each, titles and descriptions from a small vocabulary) in bulk, for benchmarks.
///
/// # Errors
/// When the inserts fail.
pub fn seed(db: &Database, users: usize, gifs: usize, tags: usize) -> Result<(), String> {
    use std::fmt::Write;

    const WORDS: [&str; 24] = [
        "cat", "dog", "happy", "sad", "dance", "party", "reaction", "funny", "wow", "facepalm", "cool", "hello",
        "thanks", "yes", "no", "coffee", "monday", "weekend", "rain", "sun", "pizza", "space", "robot", "wave",
    ];
    let users = users.max(1);
    let mut rng_state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        rng_state ^= rng_state << 13;
        rng_state ^= rng_state >> 7;
        rng_state ^= rng_state << 17;
        rng_state
    };
    let mut statements: Vec<String> = Vec::new();
    let mut sql = String::from("INSERT INTO users (username, username_key, email, password_hash, role, created_at, credentials_changed_at) VALUES ");
    for u in 0..users {
        let _ = write!(sql, "{}('seed{u}', 'seed{u}', 'seed{u}@example.com', 'x', 'USER', '2026-01-01 00:00:00', '2026-01-01 00:00:00')", if u > 0 { "," } else { "" });
    }
    statements.push(sql);
    let mut sql = String::from("INSERT INTO tags (name, created_at) VALUES ");
    for t in 0..tags {
        let _ =
            write!(sql, "{}('{}-{t}', '2026-01-01 00:00:00')", if t > 0 { "," } else { "" }, WORDS[t % WORDS.len()]);
    }
    if tags > 0 {
        statements.push(sql);
    }
    let base = chrono::NaiveDate::from_ymd_opt(2026, 1, 1).and_then(|d| d.and_hms_opt(0, 0, 0)).unwrap_or_default();
    for chunk_start in (0..gifs).step_by(1000) {
        let mut gif_sql = String::from(
            "INSERT INTO gifs (id, share_id, title, description, uploader_id, uploaded_at, view_count, content_type, \
             content_size, frame_count, search_text) VALUES ",
        );
        let mut rendition_sql = String::from(
            "INSERT INTO gif_renditions (gif_id, kind, blob_key, content_type, size, width, height) VALUES ",
        );
        let mut link_sql = String::from("INSERT INTO gif_tags (gif_id, tag_id) VALUES ");
        let mut links = 0;
        for g in chunk_start..(chunk_start + 1000).min(gifs) {
            let id = g + 1;
            let w1 = WORDS[(next() % 24) as usize];
            let w2 = WORDS[(next() % 24) as usize];
            let w3 = WORDS[(next() % 24) as usize];
            let title = format!("{w1} {w2} {id}");
            let description = format!("a {w3} gif");
            let uploader = (next() % users as u64) + 1;
            let when = base + chrono::Duration::seconds((g as i64) * 300);
            let size = 1000 + (next() % 9_000_000) as i64;
            let mut tag_names = Vec::new();
            if tags > 0 {
                let mut chosen = Vec::new();
                for _ in 0..(next() % 4) {
                    let t = (next() % tags as u64) as usize;
                    if !chosen.contains(&t) {
                        chosen.push(t);
                        tag_names.push(format!("{}-{t}", WORDS[t % WORDS.len()]));
                        let _ = write!(link_sql, "{}({id}, {})", if links > 0 { "," } else { "" }, t + 1);
                        links += 1;
                    }
                }
            }
            let search = format!("{title}\n{description}\n{}", tag_names.join("\n")).to_lowercase();
            let _ = write!(
                gif_sql,
                "{}({id}, 'share{id}', '{title}', '{description}', {uploader}, '{}', {}, 'image/gif', {size}, 10, \
                 '{search}')",
                if g > chunk_start { "," } else { "" },
                when.format("%Y-%m-%d %H:%M:%S"),
                next() % 1000,
            );
            let _ = write!(
                rendition_sql,
                "{}({id}, 'original', 'k/{id}/o', 'image/gif', {size}, 320, 240), \
                 ({id}, 'thumbnail', 'k/{id}/t', 'image/gif', 5000, 320, 240), \
                 ({id}, 'still', 'k/{id}/s', 'image/png', 800, 320, 240)",
                if g > chunk_start { "," } else { "" },
            );
        }
        statements.push(gif_sql);
        if gifs > chunk_start {
            statements.push(rendition_sql);
        }
        if links > 0 {
            statements.push(link_sql);
        }
    }
    db.with_conn(|conn| {
        let postgres = matches!(conn, crate::connection::AnyConnection::Postgresql(_));
        conn.batch_execute("BEGIN").map_err(|e| crate::DbError::Migrate(e.to_string()))?;
        for statement in &statements {
            conn.batch_execute(statement).map_err(|e| crate::DbError::Migrate(e.to_string()))?;
        }
        if postgres {
            conn.batch_execute("SELECT setval('gifs_id_seq', (SELECT MAX(id) FROM gifs));")
                .map_err(|e| crate::DbError::Migrate(e.to_string()))?;
        }
        conn.batch_execute("COMMIT").map_err(|e| crate::DbError::Migrate(e.to_string()))?;
        // The steady state autovacuum keeps in production: statistics and a visibility map, so
        // counts can use index-only scans.
        let settle = if postgres { "VACUUM ANALYZE" } else { "ANALYZE" };
        conn.batch_execute(settle).map_err(|e| crate::DbError::Migrate(e.to_string()))?;
        Ok(())
    })
    .map_err(|e| e.to_string())
}
