//! Job wake-ups: on PostgreSQL a queued job wakes the listener's handles (LISTEN/NOTIFY, sent by the
//! `jobs` trigger on commit), also after the listening connection was killed; the listener's
//! connection goes once the handles are dropped. SQLite has none: its workers poll.

use std::time::{Duration, Instant};

use diesel::{Connection, PgConnection, QueryableByName, RunQueryDsl};
use gifshelf_db::testing::TestDb;
use gifshelf_db::JobWakeups;
use gifshelf_domain::gif::GifId;
use gifshelf_domain::job::Task;
use gifshelf_domain::ports::JobQueue;

#[derive(QueryableByName)]
struct Pid {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    pid: i32,
}

/// The backends of the test database that are listening (their last statement was the LISTEN).
fn listeners(url: &str) -> Vec<i32> {
    let mut conn = PgConnection::establish(url).unwrap_or_else(|e| panic!("{e}"));
    diesel::sql_query(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN gifshelf_jobs'",
    )
    .load::<Pid>(&mut conn)
    .unwrap_or_else(|e| panic!("{e}"))
    .into_iter()
    .map(|row| row.pid)
    .collect()
}

/// Waits (at most `within`) for a wake-up; whether one came.
async fn woken(wakeups: &mut JobWakeups, within: Duration) -> bool {
    tokio::time::timeout(within, wakeups.woken()).await.is_ok()
}

async fn enqueue(test: &TestDb, gif: i64) {
    let now = chrono::Utc::now().naive_utc();
    test.db.enqueue(Task::MakeRenditions(GifId(gif)), now).await.unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn sqlite_has_no_wakeups() {
    assert!(TestDb::sqlite().db.job_wakeups().is_none());
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn a_queued_job_wakes_the_listener_also_after_its_connection_was_killed() {
    let Some(test) = TestDb::postgres("job_wakeups") else { return };
    let mut wakeups = test.db.job_wakeups().unwrap_or_else(|| panic!("no wake-ups on PostgreSQL"));
    // The first wake-up says the listener is connected (jobs queued before it may be waiting).
    assert!(woken(&mut wakeups, Duration::from_secs(10)).await, "the listener did not connect");
    wakeups.mark_seen();
    assert!(!woken(&mut wakeups, Duration::from_millis(300)).await, "woken with nothing queued");

    let queued = Instant::now();
    enqueue(&test, 1).await;
    assert!(woken(&mut wakeups, Duration::from_secs(5)).await, "a queued job woke nobody");
    eprintln!("woken {:?} after the enqueue", queued.elapsed());

    // The connection dies (a server restart, a firewall): the listener connects again and says so.
    let killed = listeners(&test.url);
    assert_eq!(killed.len(), 1, "{killed:?}");
    wakeups.mark_seen();
    let mut conn = PgConnection::establish(&test.url).unwrap_or_else(|e| panic!("{e}"));
    diesel::sql_query(format!("SELECT pg_terminate_backend({})", killed[0]))
        .execute(&mut conn)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(woken(&mut wakeups, Duration::from_secs(10)).await, "the listener did not come back");
    wakeups.mark_seen();
    enqueue(&test, 2).await;
    assert!(woken(&mut wakeups, Duration::from_secs(5)).await, "a job queued after the reconnection woke nobody");
    assert_ne!(listeners(&test.url), killed);

    // Without handles the listener closes its connection.
    drop(wakeups);
    let deadline = Instant::now() + Duration::from_secs(10);
    while !listeners(&test.url).is_empty() {
        assert!(Instant::now() < deadline, "the listener outlived its handles");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
