//! A blob file read as windows mapped into memory. A response sends each window's bytes straight
//! from the page cache, with no copy into a buffer first; a window is unmapped once sent, so a slow
//! download holds a window or two, never its whole file. A window whose pages are not all in memory
//! is read in on the blocking pool, so a cold file never stalls the thread that answers requests.
//!
//! Mapping is safe because blobs never change in place: a put writes a new file and renames it
//! over the key, a delete unlinks it, and a mapping keeps the bytes of the file it was made of.

// mmap(2), mincore(2) and madvise(2) have no safe wrapper in std; every call is on a mapping this
// module made and owns.
#![allow(unsafe_code)]

use std::collections::HashMap;
use std::ffi::c_void;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::{Arc, Mutex, OnceLock};

/// `len` bytes of a file, mapped read-only; unmapped on drop.
pub(crate) struct Window {
    /// The mapping's start, page-aligned (the file offset rounded down to a page).
    map: NonNull<c_void>,
    map_len: usize,
    /// Where the window's bytes start in the mapping.
    skip: usize,
    len: usize,
}

// SAFETY: the mapping is read-only and owned by the window alone; reading it from any thread is
// fine, and it is unmapped once, on drop.
unsafe impl Send for Window {}
// SAFETY: as above; `&Window` only ever reads.
unsafe impl Sync for Window {}

fn page_size() -> u64 {
    static PAGE: OnceLock<u64> = OnceLock::new();
    // SAFETY: sysconf reads a constant of the system.
    *PAGE.get_or_init(|| u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096).max(1))
}

impl Window {
    /// Maps `len` (> 0) bytes of `file` from `offset`. Nothing is read yet.
    pub(crate) fn map(file: &std::fs::File, offset: u64, len: usize) -> std::io::Result<Self> {
        let page = page_size();
        let aligned = offset - offset % page;
        let skip = usize::try_from(offset - aligned).map_err(std::io::Error::other)?;
        let map_len = skip + len;
        let at = libc::off_t::try_from(aligned).map_err(std::io::Error::other)?;
        // SAFETY: a fresh read-only shared mapping of an open file, placed by the kernel; it
        // stays valid after the file is closed, and is unmapped on drop.
        let map = unsafe {
            libc::mmap(std::ptr::null_mut(), map_len, libc::PROT_READ, libc::MAP_SHARED, file.as_raw_fd(), at)
        };
        if map == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        let map = NonNull::new(map).ok_or_else(|| std::io::Error::other("mmap returned NULL"))?;
        // SAFETY: advice on the mapping just made; its failure changes nothing but read-ahead.
        unsafe { libc::madvise(map.as_ptr(), map_len, libc::MADV_SEQUENTIAL) };
        Ok(Self { map, map_len, skip, len })
    }

    /// The pages (start, length in bytes) of the mapping that hold `range` of the window.
    fn pages_of(&self, range: &std::ops::Range<usize>) -> (*mut c_void, usize) {
        let page = usize::try_from(page_size()).unwrap_or(4096);
        let from = (self.skip + range.start) / page * page;
        let to = (self.skip + range.end).min(self.map_len);
        // SAFETY (of the pointer's use by callers): `from` lies inside the mapping.
        (self.map.as_ptr().cast::<u8>().wrapping_add(from).cast(), to.saturating_sub(from))
    }

    /// Whether every page of `range` (of the window's bytes) is in memory: reading it will not
    /// wait for the disk.
    pub(crate) fn resident(&self, range: std::ops::Range<usize>) -> bool {
        let (start, len) = self.pages_of(&range);
        if len == 0 {
            return true;
        }
        let page = usize::try_from(page_size()).unwrap_or(4096);
        let mut pages = vec![0_u8; len.div_ceil(page)];
        // SAFETY: `start..start + len` lies in the live mapping, page-aligned at its start, and
        // `pages` has one byte per page of it.
        let status = unsafe { libc::mincore(start, len, pages.as_mut_ptr()) };
        status == 0 && pages.iter().all(|p| p & 1 == 1)
    }

    /// Reads the pages of `range` (of the window's bytes) in, waiting for the disk: call it on
    /// the blocking pool.
    pub(crate) fn load(&self, range: std::ops::Range<usize>) {
        #[cfg(target_os = "linux")]
        {
            let (start, len) = self.pages_of(&range);
            // SAFETY: advice on pages of a live mapping; it only faults them in.
            if len == 0 || unsafe { libc::madvise(start, len, libc::MADV_POPULATE_READ) } == 0 {
                return;
            }
        }
        // An older kernel: touch a byte of every page.
        let page = usize::try_from(page_size()).unwrap_or(4096);
        let bytes = &self.as_ref()[range];
        let mut sum = 0_u8;
        for at in (0..bytes.len()).step_by(page) {
            sum = sum.wrapping_add(bytes[at]);
        }
        std::hint::black_box(sum);
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }
}

impl AsRef<[u8]> for Window {
    fn as_ref(&self) -> &[u8] {
        // SAFETY: `skip + len` bytes from `map` are mapped and readable while `self` lives; the
        // file is never changed in place (see the module's comment).
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<u8>().add(self.skip), self.len) }
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `map`, unmapped only here.
        unsafe { libc::munmap(self.map.as_ptr(), self.map_len) };
    }
}

/// A range of a window, shared with its other readers.
pub(crate) struct Slice {
    pub(crate) window: Arc<Window>,
    pub(crate) range: std::ops::Range<usize>,
}

impl AsRef<[u8]> for Slice {
    fn as_ref(&self) -> &[u8] {
        &(*self.window).as_ref()[self.range.clone()]
    }
}

/// What a mapped file was made from: a file replaced or removed since does not match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Identity {
    dev: u64,
    ino: u64,
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Identity {
    pub(crate) fn of(meta: &std::fs::Metadata) -> Self {
        use std::os::unix::fs::MetadataExt as _;
        Self { dev: meta.dev(), ino: meta.ino(), len: meta.len(), modified: meta.modified().ok() }
    }
}

struct Kept {
    window: Arc<Window>,
    identity: Identity,
    used: u64,
}

#[derive(Default)]
struct Files {
    by_path: HashMap<PathBuf, Kept>,
    bytes: usize,
    clock: u64,
}

/// Small files kept mapped whole while they are served: serving a hot file again costs neither a
/// read nor a page fault. The least recently served go first once the kept files pass
/// [`MappedFiles::MAX_BYTES`]; a kept file is used only while its path still names it.
#[derive(Default)]
pub(crate) struct MappedFiles {
    files: Mutex<Files>,
}

impl std::fmt::Debug for MappedFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("MappedFiles")
    }
}

impl MappedFiles {
    /// Larger files are read a chunk at a time instead: a slow download of one holds a chunk or
    /// two, not the whole file.
    pub(crate) const MAX_FILE: u64 = 8 << 20;
    /// The most kept mapped at once.
    const MAX_BYTES: usize = 64 << 20;

    /// The kept mapping of `path`, while `identity` (the file the path names now) is the one mapped.
    pub(crate) fn get(&self, path: &Path, identity: Identity) -> Option<Arc<Window>> {
        let mut files = self.files.lock().ok()?;
        files.clock += 1;
        let clock = files.clock;
        let kept = files.by_path.get_mut(path)?;
        if kept.identity != identity {
            let gone = files.by_path.remove(path).map_or(0, |k| k.window.len());
            files.bytes -= gone;
            return None;
        }
        kept.used = clock;
        Some(kept.window.clone())
    }

    /// Keeps `window`, the whole of the file `path` names, making room by forgetting the least
    /// recently served.
    pub(crate) fn keep(&self, path: PathBuf, identity: Identity, window: Arc<Window>) {
        let Ok(mut files) = self.files.lock() else { return };
        if let Some(old) = files.by_path.remove(&path) {
            files.bytes -= old.window.len();
        }
        while files.bytes + window.len() > Self::MAX_BYTES {
            let Some(oldest) = files.by_path.iter().min_by_key(|(_, k)| k.used).map(|(p, _)| p.clone()) else {
                break;
            };
            let gone = files.by_path.remove(&oldest).map_or(0, |k| k.window.len());
            files.bytes -= gone;
        }
        files.clock += 1;
        files.bytes += window.len();
        let used = files.clock;
        files.by_path.insert(path, Kept { window, identity, used });
    }

    /// Forgets the mapping of `path` (its file is replaced or removed).
    pub(crate) fn forget(&self, path: &Path) {
        let Ok(mut files) = self.files.lock() else { return };
        if let Some(old) = files.by_path.remove(path) {
            files.bytes -= old.window.len();
        }
    }
}
