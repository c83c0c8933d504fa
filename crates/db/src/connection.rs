//! One pool, two backends: the URL's scheme picks SQLite or PostgreSQL.

use std::path::{Path, PathBuf};
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::sqlite::SqliteConnection;
use diesel::Connection;
use gifshelf_domain::RepoError;

use crate::error::{pool_error, repo_error, DbError};

/// Either backend behind one connection type; the same diesel DSL runs on both.
#[derive(diesel::MultiConnection)]
pub(crate) enum AnyConnection {
    Postgresql(PgConnection),
    Sqlite(SqliteConnection),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// How to reach the database.
#[derive(Debug, Clone)]
pub struct DbConfig {
    /// `sqlite://PATH` (relative or absolute) or `postgres://…` / `postgresql://…`.
    pub url: String,
    pub max_connections: u32,
    /// How long a request waits for a free connection before the server answers 503.
    pub acquire_timeout: Duration,
    /// How long SQLite waits for a lock before giving up.
    pub busy_timeout: Duration,
}

impl DbConfig {
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            max_connections: 10,
            acquire_timeout: Duration::from_secs(5),
            busy_timeout: Duration::from_secs(10),
        }
    }
}

#[derive(Debug, Clone)]
enum Target {
    Sqlite(PathBuf),
    Postgres(String),
}

impl Target {
    fn parse(url: &str) -> Result<Self, DbError> {
        if let Some(path) = url.strip_prefix("sqlite://").or_else(|| url.strip_prefix("sqlite:")) {
            if path.is_empty() {
                return Err(DbError::UnsupportedUrl(url.to_owned()));
            }
            return Ok(Target::Sqlite(PathBuf::from(path)));
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(Target::Postgres(url.to_owned()));
        }
        Err(DbError::UnsupportedUrl(redact(url)))
    }
}

/// The URL without its password, for messages.
fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let auth = &url[scheme + 3..at];
            let user = auth.split(':').next().unwrap_or_default();
            format!("{}://{}:***@{}", &url[..scheme], user, &url[at + 1..])
        }
        _ => url.to_owned(),
    }
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct ConnectError(String);

/// r2d2 manager that picks the backend from the URL, so connection errors stay readable
/// (the derive's own `establish` tries each backend and hides the real error).
#[derive(Debug)]
pub(crate) struct Manager {
    target: Target,
    busy_timeout: Duration,
}

impl r2d2::ManageConnection for Manager {
    type Connection = AnyConnection;
    type Error = ConnectError;

    fn connect(&self) -> Result<AnyConnection, ConnectError> {
        match &self.target {
            Target::Sqlite(path) => {
                let path_str = path.to_str().ok_or_else(|| ConnectError("database path is not UTF-8".into()))?;
                let mut conn = SqliteConnection::establish(path_str)
                    .map_err(|e| ConnectError(format!("{}: {e}", path.display())))?;
                // busy_timeout first: `journal_mode` reads the database and, while another
                // connection writes, would fail at once with "database is locked" (the pool then
                // logs an error and tries again; the load check saw it about once in 20 runs).
                conn.batch_execute(&format!(
                    "PRAGMA busy_timeout = {}; PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;",
                    self.busy_timeout.as_millis()
                ))
                .map_err(|e| ConnectError(e.to_string()))?;
                Ok(AnyConnection::Sqlite(conn))
            }
            Target::Postgres(url) => PgConnection::establish(url)
                .map(AnyConnection::Postgresql)
                .map_err(|e| ConnectError(format!("{}: {e}", redact(url)))),
        }
    }

    fn is_valid(&self, conn: &mut AnyConnection) -> Result<(), ConnectError> {
        conn.batch_execute("SELECT 1").map_err(|e| ConnectError(e.to_string()))
    }

    /// Called whenever a connection goes back to the pool. A PostgreSQL connection whose
    /// transaction manager broke (its server went away mid-transaction) is dropped; so is a SQLite
    /// connection still inside a transaction (its ROLLBACK failed): `BEGIN` fails there, while on
    /// a clean connection the probe takes no lock and costs microseconds.
    fn has_broken(&self, conn: &mut AnyConnection) -> bool {
        match conn {
            AnyConnection::Postgresql(pg) => diesel::r2d2::R2D2Connection::is_broken(pg),
            AnyConnection::Sqlite(sqlite) => sqlite.batch_execute("BEGIN DEFERRED; ROLLBACK").is_err(),
        }
    }
}

/// The database: a pool of connections to one backend.
#[derive(Clone)]
pub struct Database {
    pool: r2d2::Pool<Manager>,
    backend: Backend,
    /// The PostgreSQL URL, for connections outside the pool (the listeners').
    postgres_url: Option<String>,
    /// Moves on when an account changes (reused session checks end).
    accounts: crate::wakeups::AccountGenerations,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Database").field("backend", &self.backend).finish()
    }
}

impl Database {
    /// Opens the pool (creating the SQLite file and its folder when needed) and checks that one
    /// connection works.
    ///
    /// # Errors
    /// `UnsupportedUrl`, or `Connect` with the backend's own reason.
    pub fn connect(config: &DbConfig) -> Result<Self, DbError> {
        let target = Target::parse(&config.url)?;
        let backend = match &target {
            Target::Sqlite(path) => {
                if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| DbError::Connect(format!("{}: {e}", parent.display()).into()))?;
                }
                Backend::Sqlite
            }
            Target::Postgres(_) => Backend::Postgres,
        };
        let postgres_url = match &target {
            Target::Postgres(url) => Some(url.clone()),
            Target::Sqlite(_) => None,
        };
        let manager = Manager { target, busy_timeout: config.busy_timeout };
        let pool = r2d2::Pool::builder()
            .max_size(config.max_connections)
            .min_idle(Some(1))
            .connection_timeout(config.acquire_timeout)
            // A PostgreSQL server that restarted leaves every pooled connection dead without
            // telling the client: a `SELECT 1` at check-out finds them and r2d2 opens fresh ones,
            // so requests recover as soon as the server is back. SQLite files do not go away.
            .test_on_check_out(backend == Backend::Postgres)
            .build(manager)
            .map_err(|e| DbError::Connect(Box::new(e)))?;
        Ok(Self { pool, backend, postgres_url, accounts: crate::wakeups::AccountGenerations::new() })
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The PostgreSQL URL, when that is the backend (the job listener's own connection).
    pub(crate) fn postgres_url(&self) -> Option<&str> {
        self.postgres_url.as_deref()
    }

    /// A path to the SQLite file, when that is the backend (for messages).
    pub fn describe(url: &str) -> String {
        match Target::parse(url) {
            Ok(Target::Sqlite(path)) => format!("SQLite at {}", Path::new(&path).display()),
            Ok(Target::Postgres(url)) => format!("PostgreSQL at {}", redact(&url)),
            Err(_) => redact(url),
        }
    }

    /// The pool's connections now: (in use, idle), for the metrics.
    pub fn pool_state(&self) -> (u32, u32) {
        let state = self.pool.state();
        (state.connections.saturating_sub(state.idle_connections), state.idle_connections)
    }

    /// Runs `f` with a pooled connection on the blocking pool.
    pub(crate) async fn run<T, F>(&self, f: F) -> Result<T, RepoError>
    where
        F: FnOnce(&mut AnyConnection) -> Result<T, RepoError> + Send + 'static,
        T: Send + 'static,
    {
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = pool.get().map_err(pool_error)?;
            f(&mut conn)
        })
        .await
        .map_err(RepoError::other)?
    }

    /// Runs `f` like [`Database::run`], an account change: when it succeeds, session checks made
    /// before are no longer reused.
    pub(crate) async fn run_changing_accounts<T, F>(&self, f: F) -> Result<T, RepoError>
    where
        F: FnOnce(&mut AnyConnection) -> Result<T, RepoError> + Send + 'static,
        T: Send + 'static,
    {
        let outcome = self.run(f).await;
        if outcome.is_ok() {
            self.accounts.moved_on();
        }
        outcome
    }

    pub(crate) fn account_generations(&self) -> &crate::wakeups::AccountGenerations {
        &self.accounts
    }

    /// The same pool with a generation of its own, for a thread that must not keep the
    /// database's generation alive.
    pub(crate) fn without_generations(&self) -> Self {
        Self { accounts: crate::wakeups::AccountGenerations::new(), ..self.clone() }
    }

    /// Runs `f` on a plain pooled connection, blocking (CLI and migrations).
    pub(crate) fn with_conn<T>(&self, f: impl FnOnce(&mut AnyConnection) -> Result<T, DbError>) -> Result<T, DbError> {
        let mut conn = self.pool.get().map_err(|e| DbError::Connect(Box::new(e)))?;
        f(&mut conn)
    }
}

/// How often a PostgreSQL write transaction is tried when the server ends it to break a deadlock
/// or a serialization conflict (two writers locking the same rows in different orders).
const PG_ATTEMPTS: u32 = 4;

/// A write transaction. On SQLite it starts IMMEDIATE, taking the write lock up front so that two
/// writers never deadlock upgrading a read lock (which fails at once, ignoring `busy_timeout`). On
/// PostgreSQL, a transaction the server aborted to break a deadlock is run again (a few times, after a
/// short pause); `f` must therefore only touch the database.
pub(crate) fn write_tx<T>(
    conn: &mut AnyConnection,
    mut f: impl FnMut(&mut AnyConnection) -> Result<T, RepoError>,
) -> Result<T, RepoError> {
    match conn {
        AnyConnection::Postgresql(_) => {
            let mut attempt = 1;
            loop {
                match pg_transaction(conn, &mut f) {
                    Err(RepoError::Retry(reason)) if attempt < PG_ATTEMPTS => {
                        tracing::info!(reason = %gifshelf_domain::error_chain(reason.as_ref()), attempt, "write transaction aborted by the database; running it again");
                        std::thread::sleep(std::time::Duration::from_millis(5 * u64::from(attempt)));
                        attempt += 1;
                    }
                    Err(RepoError::Retry(reason)) => return Err(RepoError::Unavailable(reason)),
                    other => return other,
                }
            }
        }
        AnyConnection::Sqlite(_) => match in_transaction(conn, "BEGIN IMMEDIATE", repo_error, f) {
            Err(RepoError::Retry(reason)) => Err(RepoError::Unavailable(reason)),
            other => other,
        },
    }
}

fn pg_transaction<T>(
    conn: &mut AnyConnection,
    f: &mut impl FnMut(&mut AnyConnection) -> Result<T, RepoError>,
) -> Result<T, RepoError> {
    let mut outcome = None;
    let committed = conn.transaction::<_, diesel::result::Error, _>(|conn| match f(conn) {
        Ok(value) => {
            outcome = Some(Ok(value));
            Ok(())
        }
        Err(err) => {
            outcome = Some(Err(err));
            Err(diesel::result::Error::RollbackTransaction)
        }
    });
    match (committed, outcome) {
        (Ok(()), Some(result)) | (Err(diesel::result::Error::RollbackTransaction), Some(result)) => result,
        (Err(err), _) => Err(repo_error(err)),
        (Ok(()), None) => Err(RepoError::other("transaction produced no result")),
    }
}

/// Runs `f` between `begin` (a `BEGIN …` statement) and COMMIT, rolling back on an error or a
/// panic; `db_error` turns the driver's errors into the caller's.
pub(crate) fn in_transaction<T, E>(
    conn: &mut AnyConnection,
    begin: &str,
    db_error: fn(diesel::result::Error) -> E,
    f: impl FnOnce(&mut AnyConnection) -> Result<T, E>,
) -> Result<T, E> {
    conn.batch_execute(begin).map_err(db_error)?;
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(conn))) {
        Ok(Ok(value)) => match conn.batch_execute("COMMIT") {
            Ok(()) => Ok(value),
            Err(err) => {
                let _ = conn.batch_execute("ROLLBACK");
                Err(db_error(err))
            }
        },
        Ok(Err(err)) => {
            let _ = conn.batch_execute("ROLLBACK");
            Err(err)
        }
        Err(panic) => {
            let _ = conn.batch_execute("ROLLBACK");
            std::panic::resume_unwind(panic)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sqlite_connection_left_inside_a_transaction_is_not_reused() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let config =
            DbConfig { max_connections: 1, ..DbConfig::new(format!("sqlite://{}", dir.path().join("t.db").display())) };
        let db = Database::connect(&config).unwrap_or_else(|e| panic!("{e}"));
        // As after a ROLLBACK that failed: the connection goes back still inside its transaction.
        db.with_conn(|c| c.batch_execute("BEGIN IMMEDIATE").map_err(|e| DbError::Connect(Box::new(e))))
            .unwrap_or_else(|e| panic!("{e}"));
        let next =
            db.with_conn(|c| c.batch_execute("BEGIN IMMEDIATE; COMMIT").map_err(|e| DbError::Connect(Box::new(e))));
        assert!(next.is_ok(), "the pool handed out the connection stuck in a transaction: {next:?}");
    }

    #[test]
    fn urls() {
        assert!(matches!(Target::parse("sqlite://data/x.db"), Ok(Target::Sqlite(p)) if p == Path::new("data/x.db")));
        assert!(matches!(Target::parse("sqlite:///tmp/x.db"), Ok(Target::Sqlite(p)) if p == Path::new("/tmp/x.db")));
        assert!(matches!(Target::parse("postgres://u@h/db"), Ok(Target::Postgres(_))));
        assert!(
            matches!(Target::parse("mysql://u:secret@h/db"), Err(DbError::UnsupportedUrl(u)) if !u.contains("secret"))
        );
        assert_eq!(redact("postgres://me:hunter2@db:5432/x"), "postgres://me:***@db:5432/x");
    }
}
