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

use std::collections::BTreeMap;
use std::io::{BufRead, Write};

use chrono::NaiveDateTime;
use diesel::connection::SimpleConnection;
use diesel::migration::MigrationSource;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text};
use diesel_migrations::{embed_migrations, EmbeddedMigrations};
use serde::{Deserialize, Serialize};

use crate::connection::{in_transaction, AnyConnection, Database};
use crate::schema::{gif_renditions, gif_tags, gifs, tags, user_identities, users};

/// The first line's `format`.
pub const FORMAT: &str = "gifshelf-export";
/// The file layout's version (not the schema's: that is the header's `schema`).
pub const VERSION: u32 = 1;

/// Rows per read page and per multi-row insert.
const PAGE: i64 = 500;

/// The tables, in dependency order (a row's references come before it).
pub const TABLES: [&str; 6] = ["users", "user_identities", "tags", "gifs", "gif_renditions", "gif_tags"];

/// Tables whose `id` comes from a sequence (PostgreSQL) or AUTOINCREMENT (SQLite).
const SERIAL_TABLES: [&str; 3] = ["users", "tags", "gifs"];

// Only for the migration names: the header names the schema the rows fit.
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

/// Why an export or import failed.
#[derive(Debug, thiserror::Error)]
pub enum TransferError {
    #[error("cannot read or write the file: {0}")]
    Io(#[from] std::io::Error),
    #[error("database error: {0}")]
    Database(String),
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
    TransferError::Database(err.to_string())
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

// ---- rows -------------------------------------------------------------------------------------

#[derive(Debug, Default, Queryable, Selectable, Insertable, Serialize, Deserialize)]
#[diesel(table_name = users, check_for_backend(diesel::sqlite::Sqlite, diesel::pg::Pg))]
#[serde(deny_unknown_fields)]
struct UserRow {
    id: i64,
    username: String,
    username_key: String,
    email: String,
    password_hash: String,
    role: String,
    #[serde(serialize_with = "micros")]
    created_at: NaiveDateTime,
    #[serde(serialize_with = "micros")]
    credentials_changed_at: NaiveDateTime,
}

#[derive(Debug, Default, Queryable, QueryableByName, Selectable, Insertable, Serialize, Deserialize)]
#[diesel(table_name = user_identities, check_for_backend(diesel::sqlite::Sqlite, diesel::pg::Pg))]
#[serde(deny_unknown_fields)]
struct IdentityRow {
    issuer: String,
    subject: String,
    user_id: i64,
    email: Option<String>,
    #[serde(serialize_with = "micros")]
    created_at: NaiveDateTime,
}

#[derive(Debug, Default, Queryable, Selectable, Insertable, Serialize, Deserialize)]
#[diesel(table_name = tags, check_for_backend(diesel::sqlite::Sqlite, diesel::pg::Pg))]
#[serde(deny_unknown_fields)]
struct TagRow {
    id: i64,
    name: String,
    #[serde(serialize_with = "micros")]
    created_at: NaiveDateTime,
}

#[derive(Debug, Default, Queryable, Selectable, Insertable, Serialize, Deserialize)]
#[diesel(table_name = gifs, check_for_backend(diesel::sqlite::Sqlite, diesel::pg::Pg))]
#[serde(deny_unknown_fields)]
struct GifRow {
    id: i64,
    share_id: String,
    title: String,
    description: String,
    uploader_id: i64,
    #[serde(serialize_with = "micros")]
    uploaded_at: NaiveDateTime,
    view_count: i64,
    content_type: String,
    content_size: i64,
    frame_count: i32,
    search_text: String,
}

#[derive(Debug, Default, Queryable, QueryableByName, Selectable, Insertable, Serialize, Deserialize)]
#[diesel(table_name = gif_renditions, check_for_backend(diesel::sqlite::Sqlite, diesel::pg::Pg))]
#[serde(deny_unknown_fields)]
struct RenditionRow {
    gif_id: i64,
    kind: String,
    blob_key: String,
    content_type: String,
    size: i64,
    width: i32,
    height: i32,
}

#[derive(Debug, Default, Queryable, Selectable, Insertable, Serialize, Deserialize)]
#[diesel(table_name = gif_tags, check_for_backend(diesel::sqlite::Sqlite, diesel::pg::Pg))]
#[serde(deny_unknown_fields)]
struct GifTagRow {
    gif_id: i64,
    tag_id: i64,
}

/// One row line: `{"table":"users","row":{…}}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "table", content = "row", deny_unknown_fields)]
enum Row {
    #[serde(rename = "users")]
    Users(UserRow),
    #[serde(rename = "user_identities")]
    UserIdentities(IdentityRow),
    #[serde(rename = "tags")]
    Tags(TagRow),
    #[serde(rename = "gifs")]
    Gifs(GifRow),
    #[serde(rename = "gif_renditions")]
    GifRenditions(RenditionRow),
    #[serde(rename = "gif_tags")]
    GifTags(GifTagRow),
}

impl Row {
    /// The position of the row's table in `TABLES`.
    fn table(&self) -> usize {
        match self {
            Row::Users(_) => 0,
            Row::UserIdentities(_) => 1,
            Row::Tags(_) => 2,
            Row::Gifs(_) => 3,
            Row::GifRenditions(_) => 4,
            Row::GifTags(_) => 5,
        }
    }
}

/// Inserts `$rows` into `$table`: one multi-row statement on PostgreSQL (not on the shared
/// backend); row by row on SQLite, whose multi-row insert in diesel opens a transaction of its own
/// (we are inside one it does not know) and which pays no round trip per statement anyway.
macro_rules! insert_rows {
    ($conn:expr, $table:expr, $rows:expr) => {
        match $conn {
            AnyConnection::Postgresql(c) => diesel::insert_into($table).values($rows).execute(c),
            AnyConnection::Sqlite(c) => {
                $rows.iter().try_fold(0, |n, row| diesel::insert_into($table).values(row).execute(c).map(|m| n + m))
            }
        }
    };
}

/// One table's page reads and batch inserts.
trait Table: Sized + Serialize {
    const NAME: &'static str;
    /// Every column, in the order of the struct and the file.
    const COLUMNS: &'static [&'static str];
    type Key;
    fn key(&self) -> Self::Key;
    /// Up to `PAGE` rows after `after`, in key order.
    fn page(conn: &mut AnyConnection, after: Option<&Self::Key>) -> QueryResult<Vec<Self>>;
    fn insert(conn: &mut AnyConnection, rows: &[Self]) -> QueryResult<usize>;
    fn into_row(self) -> Row;
}

/// A table keyed by a single `id` column.
macro_rules! id_table {
    ($row:ident, $table:ident, $variant:ident, [$($column:literal),* $(,)?]) => {
        impl Table for $row {
            const NAME: &'static str = stringify!($table);
            const COLUMNS: &'static [&'static str] = &[$($column),*];
            type Key = i64;
            fn key(&self) -> i64 {
                self.id
            }
            fn page(conn: &mut AnyConnection, after: Option<&i64>) -> QueryResult<Vec<Self>> {
                $table::table
                    .filter($table::id.gt(after.copied().unwrap_or(i64::MIN)))
                    .order($table::id.asc())
                    .limit(PAGE)
                    .select($row::as_select())
                    .load(conn)
            }
            fn insert(conn: &mut AnyConnection, rows: &[Self]) -> QueryResult<usize> {
                insert_rows!(conn, $table::table, rows)
            }
            fn into_row(self) -> Row {
                Row::$variant(self)
            }
        }
    };
}

id_table!(
    UserRow,
    users,
    Users,
    ["id", "username", "username_key", "email", "password_hash", "role", "created_at", "credentials_changed_at"]
);
id_table!(TagRow, tags, Tags, ["id", "name", "created_at"]);
id_table!(
    GifRow,
    gifs,
    Gifs,
    [
        "id",
        "share_id",
        "title",
        "description",
        "uploader_id",
        "uploaded_at",
        "view_count",
        "content_type",
        "content_size",
        "frame_count",
        "search_text",
    ]
);

impl Table for IdentityRow {
    const NAME: &'static str = "user_identities";
    const COLUMNS: &'static [&'static str] = &["issuer", "subject", "user_id", "email", "created_at"];
    /// (user_id, issuer) is unique too, and starts with a number.
    type Key = (i64, String);
    fn key(&self) -> (i64, String) {
        (self.user_id, self.issuer.clone())
    }
    fn page(conn: &mut AnyConnection, after: Option<&(i64, String)>) -> QueryResult<Vec<Self>> {
        let (user_id, issuer) = after.cloned().unwrap_or((i64::MIN, String::new()));
        // Text in code point order on both backends (PostgreSQL's default collation is the locale's),
        // so that the same rows make the same file.
        match conn {
            AnyConnection::Sqlite(c) => diesel::sql_query(
                "SELECT issuer, subject, user_id, email, created_at FROM user_identities \
                 WHERE user_id > ? OR (user_id = ? AND issuer > ?) ORDER BY user_id, issuer LIMIT ?",
            )
            .bind::<BigInt, _>(user_id)
            .bind::<BigInt, _>(user_id)
            .bind::<Text, _>(issuer)
            .bind::<BigInt, _>(PAGE)
            .load(c),
            AnyConnection::Postgresql(c) => diesel::sql_query(
                "SELECT issuer, subject, user_id, email, created_at FROM user_identities \
                 WHERE user_id > $1 OR (user_id = $1 AND issuer COLLATE \"C\" > $2) \
                 ORDER BY user_id, issuer COLLATE \"C\" LIMIT $3",
            )
            .bind::<BigInt, _>(user_id)
            .bind::<Text, _>(issuer)
            .bind::<BigInt, _>(PAGE)
            .load(c),
        }
    }
    fn insert(conn: &mut AnyConnection, rows: &[Self]) -> QueryResult<usize> {
        insert_rows!(conn, user_identities::table, rows)
    }
    fn into_row(self) -> Row {
        Row::UserIdentities(self)
    }
}

impl Table for RenditionRow {
    const NAME: &'static str = "gif_renditions";
    const COLUMNS: &'static [&'static str] = &["gif_id", "kind", "blob_key", "content_type", "size", "width", "height"];
    type Key = (i64, String);
    fn key(&self) -> (i64, String) {
        (self.gif_id, self.kind.clone())
    }
    fn page(conn: &mut AnyConnection, after: Option<&(i64, String)>) -> QueryResult<Vec<Self>> {
        let (gif_id, kind) = after.cloned().unwrap_or((i64::MIN, String::new()));
        // Text in code point order on both backends, as for identities.
        match conn {
            AnyConnection::Sqlite(c) => diesel::sql_query(
                "SELECT gif_id, kind, blob_key, content_type, size, width, height FROM gif_renditions \
                 WHERE gif_id > ? OR (gif_id = ? AND kind > ?) ORDER BY gif_id, kind LIMIT ?",
            )
            .bind::<BigInt, _>(gif_id)
            .bind::<BigInt, _>(gif_id)
            .bind::<Text, _>(kind)
            .bind::<BigInt, _>(PAGE)
            .load(c),
            AnyConnection::Postgresql(c) => diesel::sql_query(
                "SELECT gif_id, kind, blob_key, content_type, size, width, height FROM gif_renditions \
                 WHERE gif_id > $1 OR (gif_id = $1 AND kind COLLATE \"C\" > $2) \
                 ORDER BY gif_id, kind COLLATE \"C\" LIMIT $3",
            )
            .bind::<BigInt, _>(gif_id)
            .bind::<Text, _>(kind)
            .bind::<BigInt, _>(PAGE)
            .load(c),
        }
    }
    fn insert(conn: &mut AnyConnection, rows: &[Self]) -> QueryResult<usize> {
        insert_rows!(conn, gif_renditions::table, rows)
    }
    fn into_row(self) -> Row {
        Row::GifRenditions(self)
    }
}

impl Table for GifTagRow {
    const NAME: &'static str = "gif_tags";
    const COLUMNS: &'static [&'static str] = &["gif_id", "tag_id"];
    type Key = (i64, i64);
    fn key(&self) -> (i64, i64) {
        (self.gif_id, self.tag_id)
    }
    fn page(conn: &mut AnyConnection, after: Option<&(i64, i64)>) -> QueryResult<Vec<Self>> {
        let (gif, tag) = after.copied().unwrap_or((i64::MIN, i64::MIN));
        gif_tags::table
            .filter(gif_tags::gif_id.gt(gif).or(gif_tags::gif_id.eq(gif).and(gif_tags::tag_id.gt(tag))))
            .order((gif_tags::gif_id.asc(), gif_tags::tag_id.asc()))
            .limit(PAGE)
            .select(GifTagRow::as_select())
            .load(conn)
    }
    fn insert(conn: &mut AnyConnection, rows: &[Self]) -> QueryResult<usize> {
        insert_rows!(conn, gif_tags::table, rows)
    }
    fn into_row(self) -> Row {
        Row::GifTags(self)
    }
}

/// The columns of every table, in `TABLES` order.
fn known_columns() -> [(&'static str, &'static [&'static str]); 6] {
    [
        (UserRow::NAME, UserRow::COLUMNS),
        (IdentityRow::NAME, IdentityRow::COLUMNS),
        (TagRow::NAME, TagRow::COLUMNS),
        (GifRow::NAME, GifRow::COLUMNS),
        (RenditionRow::NAME, RenditionRow::COLUMNS),
        (GifTagRow::NAME, GifTagRow::COLUMNS),
    ]
}

// ---- header and trailer -----------------------------------------------------------------------

#[derive(Debug, Serialize, Deserialize)]
struct Header {
    format: String,
    version: u32,
    schema: String,
    exported_at: String,
    /// `sqlite` or `postgres` (informative).
    source: String,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Trailer {
    /// Always `FORMAT`: marks the trailer.
    end: String,
    counts: BTreeMap<String, u64>,
    /// The highest id ever handed out per serial table (at least the highest id present), so that
    /// ids of deleted rows are not handed out again after the move.
    sequences: BTreeMap<String, i64>,
    /// FNV-1a (64 bit) of the row lines' bytes, newlines included; against damage, not malice.
    fnv1a64: String,
}

/// Timestamps in the file have microseconds, the precision both backends hold: PostgreSQL keeps
/// no more, and SQLite rows written by the system clock carry nanoseconds no reader uses. Cutting
/// them here makes the same rows the same file, whichever backend they come from.
fn micros<S: serde::Serializer>(at: &NaiveDateTime, serializer: S) -> Result<S::Ok, S::Error> {
    use chrono::SubsecRound;
    at.trunc_subsecs(6).serialize(serializer)
}

struct Fnv1a(u64);

impl Fnv1a {
    fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
    fn update(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

// ---- schema checks ----------------------------------------------------------------------------

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

#[derive(QueryableByName)]
struct ValueRow {
    #[diesel(sql_type = BigInt)]
    value: i64,
}

/// The latest migration this binary has for the connection's backend: (name, version).
fn latest_migration(conn: &AnyConnection) -> Result<(String, String), TransferError> {
    let fail = |e: Box<dyn std::error::Error + Send + Sync>| TransferError::Database(e.to_string());
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

/// Checks that the database is at this binary's latest migration and has exactly the tables and
/// columns this module moves (a table added by a later migration but not here would be lost).
/// Returns the latest migration's name.
fn check_schema(conn: &mut AnyConnection) -> Result<String, TransferError> {
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
    for row in rows {
        let derived = row.table_name == "__diesel_schema_migrations"
            || row.table_name.starts_with("sqlite_")
            // SQLite's search index and its shadow tables, rebuilt by triggers from gifs.search_text
            || row.table_name == "gifs_fts"
            || row.table_name.starts_with("gifs_fts_");
        if !derived {
            found.entry(row.table_name).or_default().push(row.column_name);
        }
    }
    let mut problems = Vec::new();
    for (table, columns) in known_columns() {
        let Some(mut present) = found.remove(table) else {
            problems.push(format!("table {table} is missing"));
            continue;
        };
        present.sort();
        let mut expected: Vec<String> = columns.iter().map(|c| (*c).to_owned()).collect();
        expected.sort();
        if present != expected {
            problems.push(format!("table {table} has columns {present:?}, expected {expected:?}"));
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

// ---- transactions -----------------------------------------------------------------------------

// ---- export -----------------------------------------------------------------------------------

struct LineWriter<'w> {
    out: &'w mut dyn Write,
    buffer: Vec<u8>,
    checksum: Fnv1a,
}

impl LineWriter<'_> {
    fn line(&mut self, value: &impl Serialize, checksummed: bool) -> Result<(), TransferError> {
        self.buffer.clear();
        serde_json::to_writer(&mut self.buffer, value).map_err(|e| TransferError::Io(e.into()))?;
        self.buffer.push(b'\n');
        if checksummed {
            self.checksum.update(&self.buffer);
        }
        self.out.write_all(&self.buffer)?;
        Ok(())
    }
}

fn export_table<T: Table>(
    conn: &mut AnyConnection,
    writer: &mut LineWriter<'_>,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<u64, TransferError> {
    let mut after: Option<T::Key> = None;
    let mut rows = 0u64;
    loop {
        let page = T::page(conn, after.as_ref()).map_err(db_error)?;
        let full = page.len() as i64 == PAGE;
        after = page.last().map(T::key);
        for row in page {
            writer.line(&row.into_row(), true)?;
            rows += 1;
        }
        if !full {
            break;
        }
        progress(Progress { table: T::NAME, rows, done: false });
    }
    progress(Progress { table: T::NAME, rows, done: true });
    Ok(rows)
}

/// Writes every row of `db` to `out` as JSON Lines, from one consistent snapshot (a read
/// transaction; REPEATABLE READ on PostgreSQL), a page at a time. The database must be at this
/// binary's schema (run the migrations first). Blobs are not included.
///
/// # Errors
/// `UnknownSchema` when the database is not at this binary's schema, `Database`, or `Io` when
/// `out` fails.
pub fn export(
    db: &Database,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Summary, TransferError> {
    db.with_conn(|conn| Ok(export_on(conn, out, progress))).map_err(|e| TransferError::Database(e.to_string()))?
}

fn export_on(
    conn: &mut AnyConnection,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Summary, TransferError> {
    let (begin, source) = match conn {
        // Deferred: the snapshot starts at the first read and lasts until COMMIT (WAL).
        AnyConnection::Sqlite(_) => ("BEGIN", "sqlite"),
        AnyConnection::Postgresql(_) => ("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "postgres"),
    };
    in_transaction(conn, begin, db_error, |conn| {
        let schema = check_schema(conn)?;
        let mut writer = LineWriter { out, buffer: Vec::with_capacity(4096), checksum: Fnv1a::new() };
        let header = Header {
            format: FORMAT.to_owned(),
            version: VERSION,
            schema: schema.clone(),
            exported_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            source: source.to_owned(),
        };
        writer.line(&header, false)?;
        let counts = vec![
            (UserRow::NAME, export_table::<UserRow>(conn, &mut writer, progress)?),
            (IdentityRow::NAME, export_table::<IdentityRow>(conn, &mut writer, progress)?),
            (TagRow::NAME, export_table::<TagRow>(conn, &mut writer, progress)?),
            (GifRow::NAME, export_table::<GifRow>(conn, &mut writer, progress)?),
            (RenditionRow::NAME, export_table::<RenditionRow>(conn, &mut writer, progress)?),
            (GifTagRow::NAME, export_table::<GifTagRow>(conn, &mut writer, progress)?),
        ];
        let mut sequences = BTreeMap::new();
        for table in SERIAL_TABLES {
            sequences.insert(table.to_owned(), high_water_mark(conn, table)?);
        }
        let trailer = Trailer {
            end: FORMAT.to_owned(),
            counts: counts.iter().map(|(t, n)| ((*t).to_owned(), *n)).collect(),
            sequences,
            fnv1a64: writer.checksum.hex(),
        };
        writer.line(&trailer, false)?;
        writer.out.flush()?;
        Ok(Summary { schema, counts })
    })
}

/// The highest id `table`'s sequence has handed out (0 when none), at least its highest id.
fn high_water_mark(conn: &mut AnyConnection, table: &str) -> Result<i64, TransferError> {
    let sql = match conn {
        AnyConnection::Sqlite(_) => format!(
            "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = '{table}'), 0), \
             COALESCE((SELECT MAX(id) FROM {table}), 0)) AS value"
        ),
        AnyConnection::Postgresql(_) => format!(
            "SELECT GREATEST(COALESCE(pg_sequence_last_value(pg_get_serial_sequence('{table}', 'id')::regclass), 0), \
             COALESCE((SELECT MAX(id) FROM {table}), 0))::bigint AS value"
        ),
    };
    let row: ValueRow = diesel::sql_query(sql).get_result(conn).map_err(db_error)?;
    Ok(row.value)
}

// ---- import -----------------------------------------------------------------------------------

/// Rows waiting for a multi-row insert, per table.
#[derive(Default)]
struct Pending {
    users: Vec<UserRow>,
    identities: Vec<IdentityRow>,
    tags: Vec<TagRow>,
    gifs: Vec<GifRow>,
    renditions: Vec<RenditionRow>,
    gif_tags: Vec<GifTagRow>,
    len: usize,
}

impl Pending {
    fn push(&mut self, row: Row) {
        match row {
            Row::Users(r) => self.users.push(r),
            Row::UserIdentities(r) => self.identities.push(r),
            Row::Tags(r) => self.tags.push(r),
            Row::Gifs(r) => self.gifs.push(r),
            Row::GifRenditions(r) => self.renditions.push(r),
            Row::GifTags(r) => self.gif_tags.push(r),
        }
        self.len += 1;
    }

    /// Inserts everything pending, in dependency order. `line` is the file's current line: a row
    /// the database refuses (a missing reference, a duplicate) is the file's fault.
    fn flush(&mut self, conn: &mut AnyConnection, line: u64) -> Result<(), TransferError> {
        fn insert<T: Table>(conn: &mut AnyConnection, rows: &mut Vec<T>, line: u64) -> Result<(), TransferError> {
            use diesel::result::{DatabaseErrorKind as Kind, Error};
            if rows.is_empty() {
                return Ok(());
            }
            T::insert(conn, rows).map_err(|e| match e {
                Error::DatabaseError(
                    Kind::ForeignKeyViolation | Kind::UniqueViolation | Kind::CheckViolation | Kind::NotNullViolation,
                    _,
                ) => corrupt(line, format!("the {} rows up to here do not fit together: {e}", T::NAME)),
                other => TransferError::Database(format!("inserting into {}: {other}", T::NAME)),
            })?;
            rows.clear();
            Ok(())
        }
        insert(conn, &mut self.users, line)?;
        insert(conn, &mut self.identities, line)?;
        insert(conn, &mut self.tags, line)?;
        insert(conn, &mut self.gifs, line)?;
        insert(conn, &mut self.renditions, line)?;
        insert(conn, &mut self.gif_tags, line)?;
        self.len = 0;
        Ok(())
    }
}

/// Reads one line into `line`; `Ok(false)` at the end of the input.
fn next_line(input: &mut dyn BufRead, line: &mut Vec<u8>) -> Result<bool, TransferError> {
    line.clear();
    Ok(input.read_until(b'\n', line)? > 0)
}

fn corrupt(line: u64, reason: impl Into<String>) -> TransferError {
    TransferError::Corrupt { line, reason: reason.into() }
}

/// Reads and checks the header (the first line).
fn read_header(input: &mut dyn BufRead) -> Result<Header, TransferError> {
    let mut line = Vec::new();
    if !next_line(input, &mut line)? {
        return Err(TransferError::NotAnExport("the file is empty".into()));
    }
    let value: serde_json::Value = serde_json::from_slice(&line)
        .map_err(|_| TransferError::NotAnExport("the first line is not a JSON object".into()))?;
    if value.get("format").and_then(serde_json::Value::as_str) != Some(FORMAT) {
        return Err(TransferError::NotAnExport(format!("the first line has no \"format\":\"{FORMAT}\"")));
    }
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if v == u64::from(VERSION) => {}
        Some(v) => {
            return Err(TransferError::NotAnExport(format!(
                "format version {v}; this gifshelf reads version {VERSION}"
            )))
        }
        None => return Err(TransferError::NotAnExport("the header has no version".into())),
    }
    serde_json::from_value(value).map_err(|e| TransferError::NotAnExport(format!("bad header: {e}")))
}

/// Fills an empty, migrated database from an export: runs the migrations, checks that every table
/// is empty, inserts every row in one transaction, checks the counts and the checksum against the
/// trailer, and moves the id sequences past the imported ids. Any failure leaves the database as it
/// was (empty).
///
/// # Errors
/// `NotAnExport` or `SchemaMismatch` for a wrong header, `NotEmpty` when the target has rows,
/// `Corrupt` for a damaged or truncated file, `Database`, `Io`.
pub fn import(
    db: &Database,
    input: &mut dyn BufRead,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Summary, TransferError> {
    let header = read_header(input)?;
    db.migrate().map_err(|e| TransferError::Database(e.to_string()))?;
    db.with_conn(|conn| Ok(import_on(conn, &header, input, progress)))
        .map_err(|e| TransferError::Database(e.to_string()))?
}

fn import_on(
    conn: &mut AnyConnection,
    header: &Header,
    input: &mut dyn BufRead,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Summary, TransferError> {
    let begin = match conn {
        // Take the write lock up front: the emptiness check and the inserts are one unit.
        AnyConnection::Sqlite(_) => "BEGIN IMMEDIATE",
        AnyConnection::Postgresql(_) => "BEGIN",
    };
    in_transaction(conn, begin, db_error, |conn| {
        let schema = check_schema(conn)?;
        if header.schema != schema {
            return Err(TransferError::SchemaMismatch { file: header.schema.clone(), ours: schema });
        }
        check_empty(conn)?;

        let mut counts = [0u64; TABLES.len()];
        let mut current = 0usize;
        let mut pending = Pending::default();
        let mut checksum = Fnv1a::new();
        let mut line = Vec::with_capacity(4096);
        let mut number = 1u64; // the header
        let trailer = loop {
            number += 1;
            if !next_line(input, &mut line)? {
                return Err(corrupt(number, "the file ends without its trailer: it is truncated"));
            }
            let value: serde_json::Value = serde_json::from_slice(&line)
                .map_err(|e| corrupt(number, format!("not valid JSON ({e}); the file may be truncated or damaged")))?;
            if value.get("table").is_some() {
                checksum.update(&line);
                let row: Row = serde_json::from_value(value).map_err(|e| corrupt(number, e.to_string()))?;
                let table = row.table();
                if table < current {
                    return Err(corrupt(
                        number,
                        format!(
                            "a {} row after {} rows: rows must come in dependency order",
                            TABLES[table], TABLES[current]
                        ),
                    ));
                }
                while current < table {
                    progress(Progress { table: TABLES[current], rows: counts[current], done: true });
                    current += 1;
                }
                pending.push(row);
                counts[table] += 1;
                if pending.len >= PAGE as usize {
                    pending.flush(conn, number)?;
                    progress(Progress { table: TABLES[current], rows: counts[current], done: false });
                }
            } else if value.get("end").is_some() {
                let trailer: Trailer =
                    serde_json::from_value(value).map_err(|e| corrupt(number, format!("bad trailer: {e}")))?;
                break trailer;
            } else {
                return Err(corrupt(number, "neither a row nor the trailer"));
            }
        };
        pending.flush(conn, number)?;
        for (table, rows) in TABLES.iter().zip(counts).skip(current) {
            progress(Progress { table, rows, done: true });
        }
        let trailer_line = number;
        // Nothing may follow the trailer (but blank lines).
        loop {
            number += 1;
            if !next_line(input, &mut line)? {
                break;
            }
            if !line.iter().all(u8::is_ascii_whitespace) {
                return Err(corrupt(number, "data after the trailer"));
            }
        }
        verify_trailer(&trailer, trailer_line, &counts, &checksum)?;
        for table in SERIAL_TABLES {
            let mark = trailer.sequences.get(table).copied().unwrap_or(0);
            advance_sequence(conn, table, mark)?;
        }
        Ok(Summary { schema, counts: TABLES.iter().copied().zip(counts).collect() })
    })
}

fn verify_trailer(trailer: &Trailer, line: u64, counts: &[u64], checksum: &Fnv1a) -> Result<(), TransferError> {
    if trailer.end != FORMAT {
        return Err(corrupt(line, format!("the trailer's \"end\" is not \"{FORMAT}\"")));
    }
    for (table, rows) in TABLES.iter().zip(counts) {
        let expected = trailer.counts.get(*table).copied().unwrap_or(0);
        if expected != *rows {
            return Err(corrupt(line, format!("{rows} {table} row(s) in the file, the trailer says {expected}")));
        }
    }
    if let Some(unknown) = trailer.counts.keys().find(|t| !TABLES.contains(&t.as_str())) {
        return Err(corrupt(line, format!("the trailer counts an unknown table {unknown}")));
    }
    if trailer.fnv1a64 != checksum.hex() {
        return Err(corrupt(line, "the rows' checksum does not match the trailer: the file is damaged"));
    }
    Ok(())
}

fn check_empty(conn: &mut AnyConnection) -> Result<(), TransferError> {
    let mut non_empty = Vec::new();
    for table in TABLES {
        let row: ValueRow =
            diesel::sql_query(format!("SELECT COUNT(*) AS value FROM {table}")).get_result(conn).map_err(db_error)?;
        if row.value > 0 {
            non_empty.push(format!("{table}: {} row(s)", row.value));
        }
    }
    if non_empty.is_empty() {
        Ok(())
    } else {
        Err(TransferError::NotEmpty(non_empty.join(", ")))
    }
}

/// Makes the next id of `table` greater than every id in it and than `mark`.
fn advance_sequence(conn: &mut AnyConnection, table: &str, mark: i64) -> Result<(), TransferError> {
    let max: ValueRow = diesel::sql_query(format!("SELECT COALESCE(MAX(id), 0) AS value FROM {table}"))
        .get_result(conn)
        .map_err(db_error)?;
    let next_after = max.value.max(mark);
    match conn {
        AnyConnection::Postgresql(_) => {
            let sql = if next_after > 0 {
                format!("SELECT setval(pg_get_serial_sequence('{table}', 'id'), {next_after}, true)")
            } else {
                format!("SELECT setval(pg_get_serial_sequence('{table}', 'id'), 1, false)")
            };
            conn.batch_execute(&sql).map_err(db_error)?;
        }
        AnyConnection::Sqlite(_) => {
            // AUTOINCREMENT already went past the inserted ids; the mark may be higher still.
            if next_after > 0 {
                let updated = diesel::sql_query(format!(
                    "UPDATE sqlite_sequence SET seq = MAX(seq, {next_after}) WHERE name = '{table}'"
                ))
                .execute(conn)
                .map_err(db_error)?;
                if updated == 0 {
                    diesel::sql_query(format!(
                        "INSERT INTO sqlite_sequence (name, seq) VALUES ('{table}', {next_after})"
                    ))
                    .execute(conn)
                    .map_err(db_error)?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(value: impl Serialize) -> Vec<String> {
        match serde_json::to_value(value) {
            Ok(serde_json::Value::Object(map)) => map.keys().cloned().collect(),
            other => panic!("not an object: {other:?}"),
        }
    }

    /// The schema check compares the database with `COLUMNS`; the file holds the struct's fields.
    #[test]
    fn the_column_lists_are_the_row_fields_in_order() {
        fn same<T: Table + Default>() {
            let mut columns: Vec<&str> = T::COLUMNS.to_vec();
            let mut fields = keys(T::default());
            // serde_json's map sorts its keys
            columns.sort_unstable();
            fields.sort_unstable();
            assert_eq!(columns, fields, "{}", T::NAME);
        }
        same::<UserRow>();
        same::<IdentityRow>();
        same::<TagRow>();
        same::<GifRow>();
        same::<GifTagRow>();
        assert_eq!(known_columns().map(|(t, _)| t), TABLES);
    }

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

    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        let mut h = Fnv1a::new();
        assert_eq!(h.hex(), "cbf29ce484222325");
        h.update(b"a");
        assert_eq!(h.hex(), "af63dc4c8601ec8c");
    }
}
