//! Copying every blob from one store to another (`gifshelf migrate-storage`).

use futures_util::StreamExt;
use gifshelf_domain::ports::{BlobError, BlobStore};
use sha2::{Digest, Sha256};

/// Blobs copied at once: enough to hide a remote store's latency, few enough to bound memory
/// (each holds one blob twice).
const CONCURRENCY: usize = 4;

/// Where a migration stands; given to the progress callback after each blob.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MigrationProgress {
    /// Blobs in the source.
    pub total: usize,
    /// Blobs handled so far (copied, skipped or failed).
    pub done: usize,
    pub copied: usize,
    /// Already at the target with the same size and SHA-256.
    pub skipped: usize,
    pub failed: usize,
    /// Bytes written to the target.
    pub bytes_copied: u64,
}

/// The outcome of a whole migration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MigrationReport {
    pub progress: MigrationProgress,
    /// Each blob that could not be copied or verified, with the reason.
    pub failures: Vec<(String, String)>,
}

enum Outcome {
    Copied(u64),
    Skipped,
}

/// Copies every blob `from` lists to `to`, blob by blob, and verifies each copy by reading it back.
///
/// Resumable: a blob already at the target with the same size and SHA-256 is skipped, so running
/// it again after an interruption copies only what is missing or different (a truncated or
/// corrupted copy is written again). A blob that fails is reported and the others go on.
///
/// # Errors
/// `Io` only when the source cannot be listed; per-blob failures are in the report.
pub async fn migrate(
    from: &dyn BlobStore,
    to: &dyn BlobStore,
    mut on_progress: impl FnMut(&MigrationProgress),
) -> Result<MigrationReport, BlobError> {
    let keys: Vec<String> = from.list().await?.into_iter().map(|blob| blob.key).collect();
    let mut report = MigrationReport {
        progress: MigrationProgress { total: keys.len(), ..MigrationProgress::default() },
        ..Default::default()
    };
    on_progress(&report.progress);
    let mut results = futures_util::stream::iter(keys)
        .map(|key| async move {
            let outcome = copy_one(from, to, &key).await;
            (key, outcome)
        })
        .buffer_unordered(CONCURRENCY);
    while let Some((key, outcome)) = results.next().await {
        let progress = &mut report.progress;
        progress.done += 1;
        match outcome {
            Ok(Outcome::Copied(bytes)) => {
                progress.copied += 1;
                progress.bytes_copied += bytes;
            }
            Ok(Outcome::Skipped) => progress.skipped += 1,
            Err(reason) => {
                progress.failed += 1;
                tracing::warn!(key = %key, reason = %reason, "blob not migrated");
                report.failures.push((key, reason));
            }
        }
        on_progress(&report.progress);
    }
    report.failures.sort();
    Ok(report)
}

async fn copy_one(from: &dyn BlobStore, to: &dyn BlobStore, key: &str) -> Result<Outcome, String> {
    let bytes = match from.get(key).await {
        Ok(bytes) => bytes,
        Err(BlobError::NotFound) => return Err("gone from the source since it was listed".into()),
        Err(err) => return Err(format!("reading the source: {err}")),
    };
    let size = bytes.len();
    let digest = Sha256::digest(&bytes);
    match to.get(key).await {
        Ok(existing) if existing.len() == size && Sha256::digest(&existing) == digest => return Ok(Outcome::Skipped),
        Ok(_) | Err(BlobError::NotFound) => {}
        Err(err) => return Err(format!("reading the target: {err}")),
    }
    to.put(key, bytes, content_type(key)).await.map_err(|e| format!("writing the target: {e}"))?;
    let written = to.get(key).await.map_err(|e| format!("reading the copy back: {e}"))?;
    if written.len() != size {
        return Err(format!("the copy has {} bytes instead of {size}", written.len()));
    }
    if Sha256::digest(&written) != digest {
        return Err(format!(
            "the copy's SHA-256 is {} instead of {}",
            hex::encode(Sha256::digest(&written)),
            hex::encode(digest)
        ));
    }
    Ok(Outcome::Copied(size as u64))
}

/// The content type a blob was stored with, from its key's extension (the server names them so).
fn content_type(key: &str) -> &'static str {
    match key.rsplit_once('.').map(|(_, ext)| ext) {
        Some("gif") => "image/gif",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("webp") => "image/webp",
        _ => "application/octet-stream",
    }
}
