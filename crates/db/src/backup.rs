//! A consistent copy of a SQLite database taken while the server runs (`gifshelf backup`).

use std::path::Path;

use diesel::connection::SimpleConnection;

use crate::connection::{AnyConnection, Database};
use crate::DbError;

impl Database {
    /// Writes a consistent snapshot of this SQLite database to `to` (which must not exist) with
    /// `VACUUM INTO`: one read transaction, so writers go on and the copy holds one moment.
    ///
    /// # Errors
    /// `Backup` on PostgreSQL (use `pg_dump`) or when SQLite cannot write the copy.
    pub fn snapshot_sqlite(&self, to: &Path) -> Result<(), DbError> {
        let target = to.to_str().ok_or_else(|| DbError::Backup(format!("{} is not UTF-8", to.display())))?;
        self.with_conn(|conn| match conn {
            AnyConnection::Sqlite(c) => c
                .batch_execute(&format!("VACUUM INTO '{}'", target.replace('\'', "''")))
                .map_err(|e| DbError::Backup(e.to_string())),
            AnyConnection::Postgresql(_) => Err(DbError::Backup(
                "a PostgreSQL database is backed up with pg_dump; use `gifshelf backup --media-only` beside it".into(),
            )),
        })
    }
}
