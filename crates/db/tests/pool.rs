//! The pool survives a PostgreSQL restart: every pooled connection dies with its backend, and the
//! next request gets a fresh one instead of an error.

use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;
use diesel::{Connection, PgConnection};
use gifshelf_db::testing::{with_database, TestDb, POSTGRES_URL_VAR};
use gifshelf_domain::ports::UserRepository;

/// Ends every session of the database `name`, as a server restart does.
fn terminate_backends(name: &str) {
    let admin = std::env::var(POSTGRES_URL_VAR).unwrap_or_else(|e| panic!("{e}"));
    let mut admin = PgConnection::establish(&with_database(&admin, "postgres")).unwrap_or_else(|e| panic!("{e}"));
    admin
        .batch_execute(&format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' AND pid <> pg_backend_pid()"
        ))
        .unwrap_or_else(|e| panic!("{e}"));
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn requests_succeed_again_right_after_postgres_dropped_every_connection() {
    let Some(test_db) = TestDb::postgres("pool") else { return };
    let name = test_db.url.rsplit('/').next().unwrap_or_default().split('?').next().unwrap_or_default().to_owned();
    // The pool holds a live connection.
    assert!(test_db.db.ping().await.is_ok());

    terminate_backends(&name);

    let started = Instant::now();
    for _ in 0..8 {
        let answer = test_db.db.ping().await;
        assert!(answer.is_ok(), "a dead pooled connection was handed out: {answer:?}");
    }
    assert!(started.elapsed() < Duration::from_secs(5), "recovery took {:?}", started.elapsed());
}
