//! Export: every row of every listed table, from one consistent snapshot, a page at a time.

use std::collections::BTreeMap;
use std::io::Write;

use diesel::RunQueryDsl;

use super::format::{Header, LineWriter, RowLine, Trailer, FORMAT, VERSION};
use super::table::{page, Table};
use super::{db_error, schema_check, tables, Progress, Summary, TransferError, ValueRow, PAGE};
use crate::connection::{in_transaction, AnyConnection, Database};

/// Writes every row of `db` to `out` as JSON Lines, from one consistent snapshot (a read
/// transaction; REPEATABLE READ on PostgreSQL), a page at a time. The database must be at this
/// binary's schema (run the migrations first). Blobs are not included. `exported_at` is the
/// header's stamp (the caller's clock).
///
/// # Errors
/// `UnknownSchema` when the database is not at this binary's schema, `Database`, or `Io` when
/// `out` fails.
pub fn export(
    db: &Database,
    out: &mut dyn Write,
    exported_at: chrono::NaiveDateTime,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Summary, TransferError> {
    db.with_conn(|conn| Ok(export_on(conn, out, exported_at, progress)))
        .map_err(|e| TransferError::Database(Box::new(e)))?
}

fn export_on(
    conn: &mut AnyConnection,
    out: &mut dyn Write,
    exported_at: chrono::NaiveDateTime,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Summary, TransferError> {
    let (begin, source) = match conn {
        // Deferred: the snapshot starts at the first read and lasts until COMMIT (WAL).
        AnyConnection::Sqlite(_) => ("BEGIN", "sqlite"),
        AnyConnection::Postgresql(_) => ("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "postgres"),
    };
    in_transaction(conn, begin, db_error, |conn| {
        let schema = schema_check::check(conn)?;
        let mut writer = LineWriter::new(out);
        let header = Header {
            format: FORMAT.to_owned(),
            version: VERSION,
            schema: schema.clone(),
            exported_at: exported_at.and_utc().to_rfc3339_opts(chrono::SecondsFormat::Micros, true),
            source: source.to_owned(),
        };
        writer.line(&header, false)?;
        let mut counts = Vec::with_capacity(tables::LIST.len());
        for table in tables::LIST {
            counts.push((table.name(), table.export(conn, &mut writer, progress)?));
        }
        let mut sequences = BTreeMap::new();
        for table in tables::LIST.iter().filter(|t| t.serial()) {
            sequences.insert(table.name().to_owned(), high_water_mark(conn, table.name())?);
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

/// Writes every row of `T`, a page at a time; returns how many.
pub(super) fn export_table<T: Table>(
    conn: &mut AnyConnection,
    writer: &mut LineWriter<'_>,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<u64, TransferError> {
    let mut after: Option<T::Key> = None;
    let mut rows = 0u64;
    loop {
        let page = page::<T>(conn, after).map_err(db_error)?;
        let full = page.len() as i64 == PAGE;
        after = page.last().map(T::key);
        for row in &page {
            writer.line(&RowLine { table: T::NAME, row }, true)?;
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
