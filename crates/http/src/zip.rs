//! A ZIP archive written front to back, one entry at a time, never seeking and never holding an
//! entry whole: each entry is stored (not compressed: GIFs, PNGs and JPEGs are compressed already)
//! with a local header, its bytes as they arrive, and a data descriptor with the CRC-32 computed on
//! the way. Offsets past 4 GiB use the ZIP64 records, so a whole library fits.
//!
//! The writer is sans-I/O: every call returns the bytes to send next.

use chrono::{Datelike, NaiveDateTime, Timelike};

const LOCAL_HEADER: u32 = 0x0403_4b50;
const DATA_DESCRIPTOR: u32 = 0x0807_4b50;
const CENTRAL_HEADER: u32 = 0x0201_4b50;
const END_OF_CENTRAL_DIRECTORY: u32 = 0x0605_4b50;
const ZIP64_END: u32 = 0x0606_4b50;
const ZIP64_LOCATOR: u32 = 0x0706_4b50;
/// Bit 3: sizes and CRC follow the data; bit 11: names are UTF-8.
const FLAGS: u16 = (1 << 3) | (1 << 11);
/// 4.5: ZIP64.
const VERSION: u16 = 45;
const MAX32: u64 = 0xFFFF_FFFF;

struct Entry {
    name: Vec<u8>,
    dos_time: u16,
    dos_date: u16,
    crc: u32,
    size: u64,
    offset: u64,
}

/// The archive being written.
pub struct ZipWriter {
    offset: u64,
    entries: Vec<Entry>,
    current: Option<(Entry, crc32fast::Hasher)>,
}

impl Default for ZipWriter {
    fn default() -> Self {
        Self::new()
    }
}

fn dos_time(at: NaiveDateTime) -> (u16, u16) {
    let year = at.year().clamp(1980, 2107);
    let date = ((year - 1980) as u16) << 9 | (at.month() as u16) << 5 | at.day() as u16;
    let time = (at.hour() as u16) << 11 | (at.minute() as u16) << 5 | (at.second() as u16 / 2);
    (time, date)
}

impl ZipWriter {
    pub fn new() -> Self {
        Self { offset: 0, entries: Vec::new(), current: None }
    }

    /// Starts an entry (ending the one before, whose descriptor comes first in the answer).
    pub fn start(&mut self, name: &str, modified: NaiveDateTime) -> Vec<u8> {
        let mut out = self.end_entry();
        let (dos_time, dos_date) = dos_time(modified);
        let entry = Entry { name: name.as_bytes().to_vec(), dos_time, dos_date, crc: 0, size: 0, offset: self.offset };
        let mut header = Vec::with_capacity(30 + entry.name.len());
        header.extend_from_slice(&LOCAL_HEADER.to_le_bytes());
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&FLAGS.to_le_bytes());
        header.extend_from_slice(&0_u16.to_le_bytes()); // stored
        header.extend_from_slice(&entry.dos_time.to_le_bytes());
        header.extend_from_slice(&entry.dos_date.to_le_bytes());
        header.extend_from_slice(&[0; 12]); // CRC and sizes: in the data descriptor
        header.extend_from_slice(&(entry.name.len() as u16).to_le_bytes());
        header.extend_from_slice(&0_u16.to_le_bytes());
        header.extend_from_slice(&entry.name);
        self.offset += header.len() as u64;
        out.extend_from_slice(&header);
        self.current = Some((entry, crc32fast::Hasher::new()));
        out
    }

    /// Counts bytes of the current entry; the caller sends them as they are.
    pub fn data(&mut self, chunk: &[u8]) {
        if let Some((entry, crc)) = self.current.as_mut() {
            crc.update(chunk);
            entry.size += chunk.len() as u64;
            self.offset += chunk.len() as u64;
        }
    }

    fn end_entry(&mut self) -> Vec<u8> {
        let Some((mut entry, crc)) = self.current.take() else {
            return Vec::new();
        };
        entry.crc = crc.finalize();
        let mut out = Vec::with_capacity(24);
        out.extend_from_slice(&DATA_DESCRIPTOR.to_le_bytes());
        out.extend_from_slice(&entry.crc.to_le_bytes());
        // Entries are single uploads, far below 4 GiB: the 32-bit form.
        out.extend_from_slice(&(entry.size.min(MAX32) as u32).to_le_bytes());
        out.extend_from_slice(&(entry.size.min(MAX32) as u32).to_le_bytes());
        self.offset += out.len() as u64;
        self.entries.push(entry);
        out
    }

    /// Ends the last entry and writes the central directory.
    pub fn finish(mut self) -> Vec<u8> {
        let mut out = self.end_entry();
        let directory_start = self.offset;
        let mut directory = Vec::new();
        for entry in &self.entries {
            let zip64 = entry.offset >= MAX32;
            directory.extend_from_slice(&CENTRAL_HEADER.to_le_bytes());
            directory.extend_from_slice(&VERSION.to_le_bytes()); // made by
            directory.extend_from_slice(&VERSION.to_le_bytes()); // needed
            directory.extend_from_slice(&FLAGS.to_le_bytes());
            directory.extend_from_slice(&0_u16.to_le_bytes());
            directory.extend_from_slice(&entry.dos_time.to_le_bytes());
            directory.extend_from_slice(&entry.dos_date.to_le_bytes());
            directory.extend_from_slice(&entry.crc.to_le_bytes());
            directory.extend_from_slice(&(entry.size.min(MAX32) as u32).to_le_bytes());
            directory.extend_from_slice(&(entry.size.min(MAX32) as u32).to_le_bytes());
            directory.extend_from_slice(&(entry.name.len() as u16).to_le_bytes());
            directory.extend_from_slice(&(if zip64 { 12_u16 } else { 0 }).to_le_bytes());
            directory.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
            directory.extend_from_slice(&(0o100_644_u32 << 16).to_le_bytes()); // a regular file, rw-r--r--
            directory.extend_from_slice(&(entry.offset.min(MAX32) as u32).to_le_bytes());
            directory.extend_from_slice(&entry.name);
            if zip64 {
                directory.extend_from_slice(&1_u16.to_le_bytes());
                directory.extend_from_slice(&8_u16.to_le_bytes());
                directory.extend_from_slice(&entry.offset.to_le_bytes());
            }
        }
        let directory_size = directory.len() as u64;
        out.extend_from_slice(&directory);
        let count = self.entries.len() as u64;
        let end_start = directory_start + directory_size;
        if end_start >= MAX32 || directory_start >= MAX32 || count >= 0xFFFF {
            out.extend_from_slice(&ZIP64_END.to_le_bytes());
            out.extend_from_slice(&44_u64.to_le_bytes());
            out.extend_from_slice(&VERSION.to_le_bytes());
            out.extend_from_slice(&VERSION.to_le_bytes());
            out.extend_from_slice(&[0; 8]); // this disk, directory disk
            out.extend_from_slice(&count.to_le_bytes());
            out.extend_from_slice(&count.to_le_bytes());
            out.extend_from_slice(&directory_size.to_le_bytes());
            out.extend_from_slice(&directory_start.to_le_bytes());
            out.extend_from_slice(&ZIP64_LOCATOR.to_le_bytes());
            out.extend_from_slice(&0_u32.to_le_bytes());
            out.extend_from_slice(&end_start.to_le_bytes());
            out.extend_from_slice(&1_u32.to_le_bytes());
        }
        out.extend_from_slice(&END_OF_CENTRAL_DIRECTORY.to_le_bytes());
        out.extend_from_slice(&[0; 4]); // disks
        out.extend_from_slice(&(count.min(0xFFFF) as u16).to_le_bytes());
        out.extend_from_slice(&(count.min(0xFFFF) as u16).to_le_bytes());
        out.extend_from_slice(&(directory_size.min(MAX32) as u32).to_le_bytes());
        out.extend_from_slice(&(directory_start.min(MAX32) as u32).to_le_bytes());
        out.extend_from_slice(&0_u16.to_le_bytes());
        out
    }
}
