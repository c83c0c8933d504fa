use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use gifshelf_domain::failpoint::{fail_point, BLOB_AFTER_RENAME, BLOB_AFTER_WRITE};
use gifshelf_domain::ports::{BlobChunk, BlobError, BlobInfo, BlobReader, BlobStore};

use crate::mapped::{Identity, MappedFiles, Slice, Window};

/// Where interrupted writes are left; swept by `sweep_partial_writes`.
const TEMP_DIR: &str = ".partial";

/// Blobs as files under one folder.
#[derive(Debug, Clone)]
pub struct LocalFolder {
    root: PathBuf,
    /// Small files served lately, kept mapped (shared by the clones).
    mapped: Arc<MappedFiles>,
}

impl LocalFolder {
    /// # Errors
    /// When the folder cannot be created.
    pub fn new(root: impl Into<PathBuf>) -> std::io::Result<Self> {
        let root = root.into();
        std::fs::create_dir_all(root.join(TEMP_DIR))?;
        Ok(Self { root, mapped: Arc::default() })
    }

    fn path_of(&self, key: &str) -> Result<PathBuf, BlobError> {
        crate::key::check(key)?;
        Ok(self.root.join(key))
    }
}

impl LocalFolder {
    /// The largest chunk `read` yields: what a response holds of a file at once, whatever its
    /// size. Each chunk of a large file is one read on the blocking pool, so a larger one costs
    /// fewer thread hand-offs, which (not the copying) bounded throughput at 64 KiB.
    pub const CHUNK: u64 = 1024 * 1024;
    /// Files up to this size are mapped whole and kept mapped while served often; larger ones are
    /// read a chunk at a time.
    pub const MAPPED_MAX: u64 = MappedFiles::MAX_FILE;
}

const CHUNK: u64 = LocalFolder::CHUNK;

/// `left` more bytes of an open file, read from where the previous chunk ended.
struct FileReader {
    file: Option<std::fs::File>,
    /// The first chunk, read with the open (one hand-off for files up to `CHUNK`).
    first: Option<Vec<u8>>,
    left: u64,
}

/// Reads the next `min(left, CHUNK)` bytes into a fresh buffer (not zeroed first: `read_to_end`
/// fills spare capacity); fewer bytes than asked means the file shrank, which blobs never do.
fn read_chunk(file: &std::fs::File, left: u64) -> Result<Vec<u8>, BlobError> {
    let want = left.min(CHUNK);
    let mut chunk = Vec::with_capacity(usize::try_from(want).unwrap_or(1 << 20));
    file.take(want).read_to_end(&mut chunk).map_err(io)?;
    if (chunk.len() as u64) < want {
        return Err(BlobError::io("the file ended early"));
    }
    Ok(chunk)
}

#[async_trait]
impl BlobReader for FileReader {
    async fn next_chunk(&mut self) -> Result<Option<BlobChunk>, BlobError> {
        if let Some(first) = self.first.take() {
            return Ok(Some(first.into()));
        }
        let Some(file) = self.file.take().filter(|_| self.left > 0) else {
            return Ok(None);
        };
        let left = self.left;
        let (file, chunk) = blocking(move || read_chunk(&file, left).map(|chunk| (file, chunk))).await?;
        self.left -= chunk.len() as u64;
        self.file = Some(file);
        Ok(Some(chunk.into()))
    }
}

/// A range of a mapped file, a chunk at a time: its bytes are sent from the mapping as they are.
struct MappedReader {
    window: Arc<Window>,
    next: usize,
    end: usize,
}

impl MappedReader {
    /// `range` (clamped) of `window`; its pages are in memory.
    fn new(window: Arc<Window>, range: Option<std::ops::Range<u64>>) -> Self {
        let (next, end) = clamp(range, window.len());
        Self { window, next, end }
    }

    /// Reads in what is not in memory of the range, on the blocking pool.
    async fn loaded(self) -> Result<Self, BlobError> {
        if self.window.resident(self.next..self.end) {
            return Ok(self);
        }
        blocking(move || {
            self.window.load(self.next..self.end);
            Ok(self)
        })
        .await
    }
}

#[async_trait]
impl BlobReader for MappedReader {
    async fn next_chunk(&mut self) -> Result<Option<BlobChunk>, BlobError> {
        if self.next >= self.end {
            return Ok(None);
        }
        let until = self.end.min(self.next.saturating_add(usize::try_from(CHUNK).unwrap_or(usize::MAX)));
        let slice = Slice { window: self.window.clone(), range: self.next..until };
        self.next = until;
        Ok(Some(BlobChunk::new(slice)))
    }
}

/// `range` within `0..len`, as a start and an end.
fn clamp(range: Option<std::ops::Range<u64>>, len: usize) -> (usize, usize) {
    let range = range.unwrap_or(0..len as u64);
    let clamp = |at: u64| usize::try_from(at).unwrap_or(usize::MAX).min(len);
    (clamp(range.start), clamp(range.end).max(clamp(range.start)))
}

/// Opens `path` at `range` (clamped to the file): a small file mapped whole (and kept mapped in
/// `mapped`) with the range's pages read in, a large one with its first chunk read.
fn open_at(
    path: &Path,
    range: Option<std::ops::Range<u64>>,
    mapped: &MappedFiles,
) -> Result<Box<dyn BlobReader>, BlobError> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Err(BlobError::NotFound),
        Err(err) => return Err(io(err)),
    };
    let meta = file.metadata().map_err(io)?;
    let len = meta.len();
    if len > 0 && len <= MappedFiles::MAX_FILE {
        let window = Arc::new(Window::map(&file, 0, usize::try_from(len).map_err(BlobError::io)?).map_err(io)?);
        mapped.keep(path.to_path_buf(), Identity::of(&meta), window.clone());
        let reader = MappedReader::new(window, range);
        reader.window.load(reader.next..reader.end);
        return Ok(Box::new(reader));
    }
    let range = range.unwrap_or(0..len);
    let left = range.end.min(len).saturating_sub(range.start);
    if left == 0 {
        return Ok(Box::new(FileReader { file: None, first: None, left: 0 }));
    }
    if range.start > 0 {
        file.seek(std::io::SeekFrom::Start(range.start)).map_err(io)?;
    }
    let first = read_chunk(&file, left)?;
    let left = left - first.len() as u64;
    Ok(Box::new(FileReader { file: Some(file), first: Some(first), left }))
}

fn io(err: std::io::Error) -> BlobError {
    BlobError::io(err)
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, BlobError> + Send + 'static,
) -> Result<T, BlobError> {
    tokio::task::spawn_blocking(f).await.map_err(BlobError::io)?
}

/// Write to a temp file in the store, fsync it, rename it into place, fsync the folder.
fn write_atomically(root: &Path, target: &Path, bytes: &[u8]) -> Result<(), BlobError> {
    let parent = target.parent().ok_or_else(|| BlobError::io("blob has no folder"))?;
    std::fs::create_dir_all(parent).map_err(io)?;
    let temp = root.join(TEMP_DIR).join(uuid::Uuid::new_v4().simple().to_string());
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fail_point(BLOB_AFTER_WRITE);
        std::fs::rename(&temp, target)?;
        fail_point(BLOB_AFTER_RENAME);
        std::fs::File::open(parent)?.sync_all()
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map_err(io)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<BlobInfo>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let meta = entry.metadata()?;
        if meta.is_dir() {
            walk(root, &path, out)?;
        } else if let Ok(relative) = path.strip_prefix(root) {
            let key = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            let modified = meta.modified().ok().map(|t| chrono::DateTime::<chrono::Utc>::from(t).naive_utc());
            out.push(BlobInfo { key, modified });
        }
    }
    Ok(())
}

#[async_trait]
impl BlobStore for LocalFolder {
    async fn put(&self, key: &str, bytes: Vec<u8>, _content_type: &str) -> Result<(), BlobError> {
        let target = self.path_of(key)?;
        self.mapped.forget(&target);
        let root = self.root.clone();
        blocking(move || write_atomically(&root, &target, &bytes)).await
    }

    async fn get(&self, key: &str) -> Result<Vec<u8>, BlobError> {
        let path = self.path_of(key)?;
        match tokio::fs::read(&path).await {
            Ok(bytes) => Ok(bytes),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Err(BlobError::NotFound),
            Err(err) => Err(io(err)),
        }
    }

    async fn read(&self, key: &str, range: Option<std::ops::Range<u64>>) -> Result<Box<dyn BlobReader>, BlobError> {
        let path = self.path_of(key)?;
        // A file served a moment ago is still mapped: no hand-off to the blocking pool when its
        // pages are still in memory. The path's metadata says whether it still names that file.
        if let Ok(meta) = std::fs::metadata(&path) {
            if let Some(window) = self.mapped.get(&path, Identity::of(&meta)) {
                return Ok(Box::new(MappedReader::new(window, range).loaded().await?));
            }
        }
        let mapped = self.mapped.clone();
        blocking(move || open_at(&path, range, &mapped)).await
    }

    async fn presigned_get(&self, key: &str, _expires: std::time::Duration) -> Result<Option<String>, BlobError> {
        self.path_of(key)?;
        Ok(None)
    }

    async fn delete(&self, key: &str) -> Result<(), BlobError> {
        let path = self.path_of(key)?;
        // Its mapping would keep the file's disk space until forgotten.
        self.mapped.forget(&path);
        match tokio::fs::remove_file(&path).await {
            Ok(()) => {
                // Tidy the now-empty per-GIF folder; failure (not empty) is fine.
                if let Some(parent) = path.parent().filter(|p| *p != self.root) {
                    let _ = tokio::fs::remove_dir(parent).await;
                }
                Ok(())
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(err) => Err(io(err)),
        }
    }

    async fn list(&self) -> Result<Vec<BlobInfo>, BlobError> {
        let root = self.root.clone();
        blocking(move || {
            let mut out = Vec::new();
            walk(&root, &root, &mut out).map_err(io)?;
            out.sort_by(|a, b| a.key.cmp(&b.key));
            Ok(out)
        })
        .await
    }

    async fn sweep_partial_writes(&self) -> Result<usize, BlobError> {
        let temp = self.root.join(TEMP_DIR);
        blocking(move || {
            let cutoff = std::time::SystemTime::now() - std::time::Duration::from_secs(600);
            let mut removed = 0;
            for entry in std::fs::read_dir(&temp).map_err(io)? {
                let entry = entry.map_err(io)?;
                let old = entry.metadata().and_then(|m| m.modified()).map(|m| m < cutoff).unwrap_or(true);
                if old && std::fs::remove_file(entry.path()).is_ok() {
                    removed += 1;
                }
            }
            Ok(removed)
        })
        .await
    }
}
