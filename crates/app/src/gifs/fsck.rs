use std::collections::HashSet;

use super::GifService;
use crate::AppError;

/// Blobs younger than this are never removed: they may belong to an upload in progress on this or
/// another instance (blobs are written before their row is committed).
pub const ORPHAN_GRACE_MINUTES: i64 = 10;

/// What a consistency sweep found and did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FsckReport {
    pub blobs: usize,
    pub orphans_removed: Vec<String>,
    pub orphans_too_young: usize,
    pub partial_writes_removed: usize,
    /// Keys that rows refer to but the store lacks (cannot be repaired; reported).
    pub missing_blobs: Vec<String>,
}

impl GifService {
    /// Removes blobs no row refers to (older than the grace period) and leftovers of interrupted
    /// writes, and reports rows whose blobs are missing. `dry_run` only reports.
    ///
    /// # Errors
    /// When the database or the blob store cannot be listed.
    pub async fn fsck(&self, dry_run: bool) -> Result<FsckReport, AppError> {
        let mut report = FsckReport::default();
        if !dry_run {
            report.partial_writes_removed = self.blobs.sweep_partial_writes().await.map_err(AppError::internal)?;
        }
        let stored = self.blobs.list().await.map_err(AppError::internal)?;
        let referenced: HashSet<String> = self.blob_keys.all_blob_keys().await?.into_iter().collect();
        report.blobs = stored.len();
        let cutoff = self.clock.now() - chrono::Duration::minutes(ORPHAN_GRACE_MINUTES);
        let stored_keys: HashSet<&str> = stored.iter().map(|b| b.key.as_str()).collect();
        for blob in &stored {
            if referenced.contains(&blob.key) {
                continue;
            }
            if blob.modified.is_some_and(|m| m > cutoff) {
                report.orphans_too_young += 1;
                continue;
            }
            if !dry_run {
                self.blobs.delete(&blob.key).await.map_err(AppError::internal)?;
            }
            report.orphans_removed.push(blob.key.clone());
        }
        report.missing_blobs = referenced.iter().filter(|k| !stored_keys.contains(k.as_str())).cloned().collect();
        report.missing_blobs.sort();
        if !report.orphans_removed.is_empty() || !report.missing_blobs.is_empty() || report.partial_writes_removed > 0 {
            tracing::warn!(?report, "fsck found inconsistencies");
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::ports::BlobInfo;

    use crate::gifs::test_support::{now, Mocks};

    #[tokio::test]
    async fn removes_old_orphans_keeps_young_ones_and_reports_missing_blobs() {
        let mut m = Mocks::new();
        m.blobs.expect_sweep_partial_writes().returning(|| Ok(2));
        m.blobs.expect_list().returning(|| {
            Ok(vec![
                BlobInfo { key: "gifs/a/original.gif".into(), modified: Some(now() - chrono::Duration::hours(2)) },
                BlobInfo { key: "gifs/orphan/original.gif".into(), modified: Some(now() - chrono::Duration::hours(2)) },
                BlobInfo {
                    key: "gifs/uploading/original.gif".into(),
                    modified: Some(now() - chrono::Duration::minutes(1)),
                },
            ])
        });
        m.blob_keys
            .expect_all_blob_keys()
            .returning(|| Ok(vec!["gifs/a/original.gif".into(), "gifs/a/static.png".into()]));
        m.blobs.expect_delete().withf(|k| k == "gifs/orphan/original.gif").times(1).returning(|_| Ok(()));
        let report = m.service().fsck(false).await.unwrap_or_default();
        assert_eq!(report.orphans_removed, vec!["gifs/orphan/original.gif".to_owned()]);
        assert_eq!(report.orphans_too_young, 1);
        assert_eq!(report.partial_writes_removed, 2);
        assert_eq!(report.missing_blobs, vec!["gifs/a/static.png".to_owned()]);
    }
}
