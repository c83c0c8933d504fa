//! Moving a whole instance's database between backends (`gifshelf export` / `gifshelf import`).
//!
//! The file is JSON Lines: a header, one line per row in dependency order, and a trailer with the
//! per-table counts, the id high-water marks and a checksum of the row lines, so that a truncated
//! or damaged file is refused. Export reads one consistent snapshot in pages (keyset by primary
//! key); import runs in one transaction, so a refused file leaves the target as empty as it was.
//!
//! ```text
//! {"format":"gifshelf-export","version":1,"schema":"2026-11-22-000003_identities","exported_at":"…","source":"sqlite"}
//! {"table":"users","row":{"id":1,"username":"alice",…}}
//! …
//! {"end":"gifshelf-export","counts":{"gif_tags":9,…},"sequences":{"gifs":6,…},"fnv1a64":"…"}
//! ```
//!
//! Blobs are not in the file: they live in the blob store (`gifshelf migrate-storage` moves them).
//! The SQLite search index (`gifs_fts`) is derived: its triggers rebuild it as the rows go in.
//!
//! The modules, by concern:
//! - `tables`: THE list of the tables moved, with their columns, keys and id sequences. A new
//!   table is one entry there (its doc comment says how); everything else follows from it.
//! - `table`: what an entry becomes (the `tables!` macro, the `Table` trait, paging and inserting).
//! - `format`: the file's header, row lines, trailer and checksum.
//! - `schema_check`: the live database against the list (and the tables deliberately skipped).
//! - `export`, `import`: the two directions.

mod export;
mod format;
mod import;
mod schema_check;
mod table;
mod tables;

pub use export::export;
pub use format::{FORMAT, VERSION};
pub use import::import;
pub use schema_check::check_schema;

/// The names of the tables moved, in dependency order (a row's references come before it).
pub const TABLES: &[&str] = tables::NAMES;

/// Rows per read page and per multi-row insert.
const PAGE: i64 = 500;

/// Why an export or import failed.
#[derive(Debug, thiserror::Error)]
pub enum TransferError {
    #[error("cannot read or write the file: {0}")]
    Io(#[from] std::io::Error),
    #[error("database error: {0}")]
    Database(#[source] gifshelf_domain::Cause),
    #[error("not a gifshelf export: {0}")]
    NotAnExport(String),
    #[error(
        "the file was exported at schema {file}, this gifshelf is at {ours}: export and import with the same gifshelf version"
    )]
    SchemaMismatch { file: String, ours: String },
    #[error("the database is not at this gifshelf's schema: {0}")]
    UnknownSchema(String),
    #[error("line {line}: {reason}")]
    Corrupt { line: u64, reason: String },
    #[error("the target database is not empty ({0}); import only into a new, empty database")]
    NotEmpty(String),
}

fn db_error(err: diesel::result::Error) -> TransferError {
    TransferError::Database(Box::new(err))
}

fn corrupt(line: u64, reason: impl Into<String>) -> TransferError {
    TransferError::Corrupt { line, reason: reason.into() }
}

/// Rows per table, in `TABLES` order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The latest migration the rows fit.
    pub schema: String,
    pub counts: Vec<(&'static str, u64)>,
}

/// Reported while rows stream: `rows` of `table` so far; `done` once the table is complete.
#[derive(Debug, Clone, Copy)]
pub struct Progress<'a> {
    pub table: &'a str,
    pub rows: u64,
    pub done: bool,
}

/// A one-number answer of a query (`… AS value`).
#[derive(diesel::QueryableByName)]
struct ValueRow {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    value: i64,
}
