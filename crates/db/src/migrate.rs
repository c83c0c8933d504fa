//! Embedded migrations, one folder per backend (the SQL dialects differ).

use diesel::connection::SimpleConnection;
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use crate::connection::{AnyConnection, Database};
use crate::DbError;

const SQLITE: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

/// Any constant will do: it only has to be the same in every gifshelf instance.
const PG_MIGRATION_LOCK: i64 = 0x6769_6673_6865_6c66; // "gifshelf"

impl Database {
    /// Applies every pending migration and returns the names applied. Several instances starting
    /// together on PostgreSQL take an advisory lock, so the migrations run once.
    ///
    /// # Errors
    /// `Migrate` with the failing migration's reason.
    pub fn migrate(&self) -> Result<Vec<String>, DbError> {
        self.with_conn(|conn| {
            let fail = DbError::Migrate;
            let applied = match conn {
                AnyConnection::Sqlite(c) => names(c.run_pending_migrations(SQLITE).map_err(fail)?),
                AnyConnection::Postgresql(c) => {
                    c.batch_execute(&format!("SELECT pg_advisory_lock({PG_MIGRATION_LOCK})"))
                        .map_err(|e| DbError::Migrate(Box::new(e)))?;
                    let result = c.run_pending_migrations(POSTGRES).map_err(fail).map(names);
                    let unlock = c
                        .batch_execute(&format!("SELECT pg_advisory_unlock({PG_MIGRATION_LOCK})"))
                        .map_err(|e| DbError::Migrate(Box::new(e)));
                    let applied = result?;
                    unlock?;
                    applied
                }
            };
            Ok(applied)
        })
    }
}

#[async_trait::async_trait]
impl gifshelf_domain::ports::SchemaStatus for Database {
    async fn pending_migrations(&self) -> Result<usize, gifshelf_domain::RepoError> {
        self.run(|conn| {
            let pending = match conn {
                AnyConnection::Sqlite(c) => c.pending_migrations(SQLITE).map(|m| m.len()),
                AnyConnection::Postgresql(c) => c.pending_migrations(POSTGRES).map(|m| m.len()),
            };
            pending.map_err(|e| gifshelf_domain::RepoError::unavailable(e.to_string()))
        })
        .await
    }
}

fn names(versions: Vec<diesel::migration::MigrationVersion<'_>>) -> Vec<String> {
    versions.iter().map(ToString::to_string).collect()
}
