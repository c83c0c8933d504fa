//! The repository suite: every test runs on a fresh SQLite file and on a fresh PostgreSQL database.

mod gifs;
mod stats;
mod users;

/// Declares `$name` twice: `sqlite::$name` and `postgres::$name`, each with its own database.
#[macro_export]
macro_rules! on_both_backends {
    ($(async fn $name:ident($db:ident: &Database) $body:block)*) => {
        $(
            mod $name {
                use super::*;
                async fn run($db: &Database) $body

                #[tokio::test]
                async fn sqlite() {
                    let test_db = gifshelf_db::testing::TestDb::sqlite();
                    run(&test_db.db).await;
                }

                #[tokio::test]
                #[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
                async fn postgres() {
                    if let Some(test_db) = gifshelf_db::testing::TestDb::postgres(concat!(module_path!())) {
                        run(&test_db.db).await;
                    }
                }
            }
        )*
    };
}
