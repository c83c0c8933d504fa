//! Import: an export file into an empty database, in one transaction, checked against its trailer.

use std::io::BufRead;

use diesel::connection::SimpleConnection;
use diesel::RunQueryDsl;

use super::format::{next_line, read_header, Fnv1a, Header, Trailer, FORMAT};
use super::table::Table;
use super::{corrupt, db_error, schema_check, tables, Progress, Summary, TransferError, ValueRow, PAGE};
use crate::connection::{in_transaction, AnyConnection, Database};

/// Rows of one table waiting for a multi-row insert.
pub(super) trait Batch {
    /// Adds a row line's `row`.
    fn push(&mut self, row: serde_json::Value) -> Result<(), serde_json::Error>;
    /// Inserts the rows and empties the batch. `line` is the file's current line: a row the
    /// database refuses (a missing reference, a duplicate) is the file's fault.
    fn insert(&mut self, conn: &mut AnyConnection, line: u64) -> Result<(), TransferError>;
}

/// The [`Batch`] of `T`.
pub(super) struct Rows<T>(Vec<T>);

impl<T> Default for Rows<T> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<T: Table> Batch for Rows<T> {
    fn push(&mut self, row: serde_json::Value) -> Result<(), serde_json::Error> {
        self.0.push(serde_json::from_value(row)?);
        Ok(())
    }

    fn insert(&mut self, conn: &mut AnyConnection, line: u64) -> Result<(), TransferError> {
        use diesel::result::{DatabaseErrorKind as Kind, Error};
        if self.0.is_empty() {
            return Ok(());
        }
        T::insert(conn, &self.0).map_err(|e| match e {
            Error::DatabaseError(
                Kind::ForeignKeyViolation | Kind::UniqueViolation | Kind::CheckViolation | Kind::NotNullViolation,
                _,
            ) => corrupt(line, format!("the {} rows up to here do not fit together: {e}", T::NAME)),
            other => TransferError::Database(format!("inserting into {}: {other}", T::NAME).into()),
        })?;
        self.0.clear();
        Ok(())
    }
}

/// Rows waiting for a multi-row insert: a batch per table, in list order.
struct Pending {
    batches: Vec<Box<dyn Batch>>,
    len: usize,
}

impl Pending {
    fn new() -> Self {
        Self { batches: tables::LIST.iter().map(|t| t.batch()).collect(), len: 0 }
    }

    fn push(&mut self, table: usize, row: serde_json::Value) -> Result<(), serde_json::Error> {
        self.batches[table].push(row)?;
        self.len += 1;
        Ok(())
    }

    /// Inserts everything pending, in dependency order.
    fn flush(&mut self, conn: &mut AnyConnection, line: u64) -> Result<(), TransferError> {
        for batch in &mut self.batches {
            batch.insert(conn, line)?;
        }
        self.len = 0;
        Ok(())
    }
}

/// A row line's table (its position in the list) and row.
fn row_line(value: serde_json::Value) -> Result<(usize, serde_json::Value), String> {
    let serde_json::Value::Object(mut line) = value else {
        return Err("a row line is a JSON object".into());
    };
    if let Some(unknown) = line.keys().find(|k| *k != "table" && *k != "row") {
        return Err(format!("unknown field `{unknown}` in a row line"));
    }
    let name = line.get("table").and_then(serde_json::Value::as_str).ok_or("the row line's table is not a string")?;
    let table = tables::NAMES
        .iter()
        .position(|t| *t == name)
        .ok_or_else(|| format!("unknown table `{name}`, expected one of {:?}", tables::NAMES))?;
    let row = line.remove("row").ok_or("missing field `row`")?;
    Ok((table, row))
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
    db.migrate().map_err(|e| TransferError::Database(Box::new(e)))?;
    db.with_conn(|conn| Ok(import_on(conn, &header, input, progress)))
        .map_err(|e| TransferError::Database(Box::new(e)))?
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
        let schema = schema_check::check(conn)?;
        if header.schema != schema {
            return Err(TransferError::SchemaMismatch { file: header.schema.clone(), ours: schema });
        }
        check_empty(conn)?;

        let mut rows = Loaded { counts: vec![0u64; tables::NAMES.len()], current: 0, pending: Pending::new() };
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
                rows.take(conn, value, number, progress)?;
            } else if value.get("end").is_some() {
                let trailer: Trailer =
                    serde_json::from_value(value).map_err(|e| corrupt(number, format!("bad trailer: {e}")))?;
                break trailer;
            } else {
                return Err(corrupt(number, "neither a row nor the trailer"));
            }
        };
        rows.pending.flush(conn, number)?;
        let names = tables::NAMES;
        let Loaded { counts, current, .. } = rows;
        for (table, rows) in names.iter().zip(&counts).skip(current) {
            progress(Progress { table, rows: *rows, done: true });
        }
        nothing_after_trailer(input, &mut line, number)?;
        verify_trailer(&trailer, number, &counts, &checksum)?;
        for table in tables::LIST.iter().filter(|t| t.serial()) {
            let mark = trailer.sequences.get(table.name()).copied().unwrap_or(0);
            advance_sequence(conn, table.name(), mark)?;
        }
        Ok(Summary { schema, counts: names.iter().copied().zip(counts).collect() })
    })
}

/// The rows read so far: how many of each table, the table being read, and those not yet written.
struct Loaded {
    counts: Vec<u64>,
    current: usize,
    pending: Pending,
}

impl Loaded {
    /// Queues one row line (written a page at a time), in dependency order, and reports
    /// each table as it ends.
    fn take(
        &mut self,
        conn: &mut AnyConnection,
        value: serde_json::Value,
        number: u64,
        progress: &mut dyn FnMut(Progress<'_>),
    ) -> Result<(), TransferError> {
        let names = tables::NAMES;
        let (table, row) = row_line(value).map_err(|e| corrupt(number, e))?;
        if table < self.current {
            return Err(corrupt(
                number,
                format!(
                    "a {} row after {} rows: rows must come in dependency order",
                    names[table], names[self.current]
                ),
            ));
        }
        self.pending.push(table, row).map_err(|e| corrupt(number, e.to_string()))?;
        while self.current < table {
            progress(Progress { table: names[self.current], rows: self.counts[self.current], done: true });
            self.current += 1;
        }
        self.counts[table] += 1;
        if self.pending.len >= PAGE as usize {
            self.pending.flush(conn, number)?;
            progress(Progress { table: names[self.current], rows: self.counts[self.current], done: false });
        }
        Ok(())
    }
}

/// Nothing may follow the trailer (on line `trailer_line`) but blank lines.
fn nothing_after_trailer(input: &mut dyn BufRead, line: &mut Vec<u8>, trailer_line: u64) -> Result<(), TransferError> {
    let mut number = trailer_line;
    loop {
        number += 1;
        if !next_line(input, line)? {
            return Ok(());
        }
        if !line.iter().all(u8::is_ascii_whitespace) {
            return Err(corrupt(number, "data after the trailer"));
        }
    }
}

fn verify_trailer(trailer: &Trailer, line: u64, counts: &[u64], checksum: &Fnv1a) -> Result<(), TransferError> {
    if trailer.end != FORMAT {
        return Err(corrupt(line, format!("the trailer's \"end\" is not \"{FORMAT}\"")));
    }
    for (table, rows) in tables::NAMES.iter().zip(counts) {
        let expected = trailer.counts.get(*table).copied().unwrap_or(0);
        if expected != *rows {
            return Err(corrupt(line, format!("{rows} {table} row(s) in the file, the trailer says {expected}")));
        }
    }
    if let Some(unknown) = trailer.counts.keys().find(|t| !tables::NAMES.contains(&t.as_str())) {
        return Err(corrupt(line, format!("the trailer counts an unknown table {unknown}")));
    }
    if trailer.fnv1a64 != checksum.hex() {
        return Err(corrupt(line, "the rows' checksum does not match the trailer: the file is damaged"));
    }
    Ok(())
}

fn check_empty(conn: &mut AnyConnection) -> Result<(), TransferError> {
    let mut non_empty = Vec::new();
    for table in tables::NAMES {
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
