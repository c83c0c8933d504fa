//! The live database against this binary: at its latest migration, and with exactly the tables
//! and columns of the list in `tables.rs` (a table added by a migration but not listed would be
//! lost by a move), but for the tables below that are not data.

use std::collections::BTreeMap;

use diesel::migration::MigrationSource;
use diesel::sql_types::{Nullable, Text};
use diesel::{QueryableByName, RunQueryDsl};
use diesel_migrations::{embed_migrations, EmbeddedMigrations};

use super::{db_error, tables, TransferError};
use crate::connection::{AnyConnection, Database};

// Only for the migration names: the header names the schema the rows fit.
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

/// Tables of a migrated database that are not moved, because they are not data of the instance.
enum Skip {
    Named(&'static str),
    Prefixed(&'static str),
}

const SKIPPED: &[Skip] = &[
    // diesel's record of the applied migrations: the header's `schema` names the latest.
    Skip::Named("__diesel_schema_migrations"),
    // SQLite's own tables (sqlite_sequence: the id marks travel in the trailer's `sequences`).
    Skip::Prefixed("sqlite_"),
    // SQLite's search index and its shadow tables, rebuilt by triggers from gifs.search_text.
    // (PostgreSQL's search index is an index, not a table.)
    Skip::Named("gifs_fts"),
    Skip::Prefixed("gifs_fts_"),
    // PostgreSQL's search words, their vocabulary and posting lists, filled by triggers from
    // gifs.search_text.
    Skip::Named("gif_words"),
    Skip::Named("search_vocabulary"),
    Skip::Named("word_postings"),
    // PostgreSQL's words of caption texts (suggestions), filled by triggers from gifs.caption_text.
    // (SQLite's word index, gifs_fts_words, is one of the gifs_fts_ tables above.)
    Skip::Named("caption_words"),
    // The number of GIFs, kept by triggers as the imported rows go in.
    Skip::Named("gif_count"),
    // SQLite's count of account changes, for the sessions a server reuses (no data).
    Skip::Named("account_changes"),
    // The statistics' counters (totals, per day, size bucket, content type, user and tag), kept by
    // triggers as the imported rows go in.
    Skip::Named("stats_totals"),
    Skip::Named("stats_daily_uploads"),
    Skip::Named("stats_size_buckets"),
    Skip::Named("stats_content_types"),
    Skip::Named("stats_users"),
    Skip::Named("stats_tags"),
    // Who viewed a share page today and yesterday (digests), so that a client counts once a day:
    // the counts it guards travel in gifs and gif_daily_views.
    Skip::Named("gif_viewers"),
    // Work in flight, not library data: `gifshelf renditions backfill` re-enqueues whatever a
    // GIF of the imported library is missing.
    Skip::Named("jobs"),
    // Rate-limit counters (failed logins, chat calls), forgotten within a day: no library data.
    Skip::Named("shared_counters"),
    // The maker's work in flight and its outcomes (their sources are removed when a make ends):
    // not library data. A made GIF keeps its source in gifs.made_from_id.
    Skip::Named("makes"),
];

fn is_skipped(table: &str) -> bool {
    SKIPPED.iter().any(|skip| match skip {
        Skip::Named(name) => table == *name,
        Skip::Prefixed(prefix) => table.starts_with(prefix),
    })
}

#[derive(QueryableByName)]
struct ColumnRow {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
}

#[derive(QueryableByName)]
struct VersionRow {
    #[diesel(sql_type = Nullable<Text>)]
    version: Option<String>,
}

/// The latest migration this binary has for the connection's backend: (name, version).
fn latest_migration(conn: &AnyConnection) -> Result<(String, String), TransferError> {
    let fail = TransferError::Database;
    let mut names: Vec<(String, String)> = match conn {
        AnyConnection::Sqlite(_) => MigrationSource::<diesel::sqlite::Sqlite>::migrations(&SQLITE_MIGRATIONS)
            .map_err(fail)?
            .iter()
            .map(|m| (m.name().to_string(), m.name().version().to_string()))
            .collect(),
        AnyConnection::Postgresql(_) => MigrationSource::<diesel::pg::Pg>::migrations(&POSTGRES_MIGRATIONS)
            .map_err(fail)?
            .iter()
            .map(|m| (m.name().to_string(), m.name().version().to_string()))
            .collect(),
    };
    names.sort();
    names.pop().ok_or_else(|| TransferError::Database("no migrations are embedded".into()))
}

/// Checks that `db` is at this binary's latest migration and has exactly the tables and columns
/// export/import moves (the list in `transfer/tables.rs`), but for the tables that are not data.
/// Export and import run it first; returns the latest migration's name.
///
/// # Errors
/// `UnknownSchema` naming every difference, `Database`.
pub fn check_schema(db: &Database) -> Result<String, TransferError> {
    db.with_conn(|conn| Ok(check(conn))).map_err(|e| TransferError::Database(Box::new(e)))?
}

/// [`check_schema`] on a connection (inside the export's or import's transaction).
pub(super) fn check(conn: &mut AnyConnection) -> Result<String, TransferError> {
    let (name, version) = latest_migration(conn)?;
    let applied: VersionRow = diesel::sql_query("SELECT MAX(version) AS version FROM __diesel_schema_migrations")
        .get_result(conn)
        .map_err(|e| TransferError::UnknownSchema(format!("no migration table ({e}); run `gifshelf migrate` first")))?;
    if applied.version.as_deref() != Some(version.as_str()) {
        return Err(TransferError::UnknownSchema(format!(
            "its latest migration is {}, this gifshelf's is {name}",
            applied.version.as_deref().unwrap_or("none")
        )));
    }
    let sql = match conn {
        AnyConnection::Sqlite(_) => {
            "SELECT m.name AS table_name, p.name AS column_name \
             FROM sqlite_master AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table'"
        }
        AnyConnection::Postgresql(_) => {
            "SELECT table_name::text AS table_name, column_name::text AS column_name \
             FROM information_schema.columns WHERE table_schema = current_schema()"
        }
    };
    let rows: Vec<ColumnRow> = diesel::sql_query(sql).load(conn).map_err(db_error)?;
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for row in rows.into_iter().filter(|row| !is_skipped(&row.table_name)) {
        found.entry(row.table_name).or_default().push(row.column_name);
    }
    let mut problems = Vec::new();
    for table in tables::LIST {
        let Some(mut present) = found.remove(table.name()) else {
            problems.push(format!("table {} is missing", table.name()));
            continue;
        };
        present.sort();
        let mut expected: Vec<String> = table.columns().iter().map(|c| (*c).to_owned()).collect();
        expected.sort();
        if present != expected {
            problems.push(format!("table {} has columns {present:?}, expected {expected:?}", table.name()));
        }
    }
    for table in found.keys() {
        problems.push(format!("table {table} is not known to export/import"));
    }
    if problems.is_empty() {
        Ok(name)
    } else {
        Err(TransferError::UnknownSchema(problems.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_backends_have_the_same_migrations() {
        let sqlite: Vec<String> = MigrationSource::<diesel::sqlite::Sqlite>::migrations(&SQLITE_MIGRATIONS)
            .unwrap_or_else(|e| panic!("{e}"))
            .iter()
            .map(|m| m.name().to_string())
            .collect();
        let postgres: Vec<String> = MigrationSource::<diesel::pg::Pg>::migrations(&POSTGRES_MIGRATIONS)
            .unwrap_or_else(|e| panic!("{e}"))
            .iter()
            .map(|m| m.name().to_string())
            .collect();
        assert_eq!(sqlite, postgres, "the header's schema name must not depend on the backend");
        assert!(!sqlite.is_empty());
    }
}
