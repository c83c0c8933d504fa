//! The file: its header, row lines and trailer, how values are written, and the checksum.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};

use chrono::NaiveDateTime;
use serde::{Deserialize, Serialize, Serializer};

use super::TransferError;

/// The first line's `format`.
pub const FORMAT: &str = "gifshelf-export";
/// The file layout's version (not the schema's: that is the header's `schema`).
pub const VERSION: u32 = 1;

/// The first line.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Header {
    pub(super) format: String,
    pub(super) version: u32,
    pub(super) schema: String,
    pub(super) exported_at: String,
    /// `sqlite` or `postgres` (informative).
    pub(super) source: String,
}

/// One row line: `{"table":"users","row":{…}}`.
#[derive(Serialize)]
pub(super) struct RowLine<'a, T> {
    pub(super) table: &'a str,
    pub(super) row: &'a T,
}

/// The last line.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Trailer {
    /// Always `FORMAT`: marks the trailer.
    pub(super) end: String,
    pub(super) counts: BTreeMap<String, u64>,
    /// The highest id ever handed out per serial table (at least the highest id present), so that
    /// ids of deleted rows are not handed out again after the move.
    pub(super) sequences: BTreeMap<String, i64>,
    /// FNV-1a (64 bit) of the row lines' bytes, newlines included; against damage, not malice.
    pub(super) fnv1a64: String,
}

/// A column's value as the file holds it. Every column type of the list needs one (a new type
/// fails to compile until it has one).
pub(super) trait FileValue {
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
}

macro_rules! as_serde {
    ($($type:ty),+) => {
        $(impl FileValue for $type {
            fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.serialize(serializer)
            }
        })+
    };
}
as_serde!(i64, i32, bool, String);

/// Timestamps in the file have microseconds, the precision both backends hold: PostgreSQL keeps
/// no more, and SQLite rows written by the system clock carry nanoseconds no reader uses. Cutting
/// them here makes the same rows the same file, whichever backend they come from.
impl FileValue for NaiveDateTime {
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use chrono::SubsecRound;
        self.trunc_subsecs(6).serialize(serializer)
    }
}

impl<T: FileValue> FileValue for Option<T> {
    fn write<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Inner<'a, T>(&'a T);
        impl<T: FileValue> Serialize for Inner<'_, T> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                self.0.write(serializer)
            }
        }
        match self {
            Some(value) => serializer.serialize_some(&Inner(value)),
            None => serializer.serialize_none(),
        }
    }
}

/// `serialize_with` of every column of the list.
pub(super) fn in_file<T: FileValue, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    value.write(serializer)
}

pub(super) struct Fnv1a(u64);

impl Fnv1a {
    pub(super) fn new() -> Self {
        Self(0xcbf2_9ce4_8422_2325)
    }
    pub(super) fn update(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    pub(super) fn hex(&self) -> String {
        format!("{:016x}", self.0)
    }
}

/// Writes lines, checksumming the row lines.
pub(super) struct LineWriter<'w> {
    pub(super) out: &'w mut dyn Write,
    buffer: Vec<u8>,
    pub(super) checksum: Fnv1a,
}

impl<'w> LineWriter<'w> {
    pub(super) fn new(out: &'w mut dyn Write) -> Self {
        Self { out, buffer: Vec::with_capacity(4096), checksum: Fnv1a::new() }
    }

    pub(super) fn line(&mut self, value: &impl Serialize, checksummed: bool) -> Result<(), TransferError> {
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

/// Reads one line into `line`; `Ok(false)` at the end of the input.
pub(super) fn next_line(input: &mut dyn BufRead, line: &mut Vec<u8>) -> Result<bool, TransferError> {
    line.clear();
    Ok(input.read_until(b'\n', line)? > 0)
}

/// Reads and checks the header (the first line).
pub(super) fn read_header(input: &mut dyn BufRead) -> Result<Header, TransferError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_vectors() {
        let mut h = Fnv1a::new();
        assert_eq!(h.hex(), "cbf29ce484222325");
        h.update(b"a");
        assert_eq!(h.hex(), "af63dc4c8601ec8c");
    }
}
