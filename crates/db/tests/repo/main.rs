//! The repository suite: every test runs on a fresh SQLite file and on a fresh PostgreSQL database.

mod audit;
mod chat;
mod duplicates;
mod gifs;
mod integrations;
mod jobs;
mod join;
mod limits;
mod members;
mod ranking;
mod stats;
mod users;

/// Runs each named test, a plain `async fn NAME(db: &Database)` of the calling module that rustfmt
/// formats, on a fresh SQLite file and on a fresh PostgreSQL database, as `NAME::sqlite` and
/// `NAME::postgres`. The PostgreSQL half is compiled as ignored (reported as skipped, never as
/// passed) when `GIFSHELF_TEST_POSTGRES_URL` is not set.
///
/// ```ignore
/// async fn ping_answers(db: &Database) { /* … */ }
/// on_both_backends!(ping_answers);
/// ```
#[macro_export]
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test]
                async fn sqlite() {
                    let test_db = gifshelf_db::testing::TestDb::sqlite();
                    super::$name(&test_db.db).await;
                }

                #[tokio::test]
                #[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
                async fn postgres() {
                    if let Some(test_db) = gifshelf_db::testing::TestDb::postgres(module_path!()) {
                        super::$name(&test_db.db).await;
                    }
                }
            }
        )*
    };
}
