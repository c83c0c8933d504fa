//! Fresh, private databases for tests: each test gets its own, so runs never collide.
//!
//! PostgreSQL tests need `GIFSHELF_TEST_POSTGRES_URL` (a server URL whose user may create
//! databases). Without it they print that they did not run; with `CI=true` a missing or
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
