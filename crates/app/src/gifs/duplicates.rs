//! Duplicates: the GIFs one looks like, the groups an admin reviews, and fingerprints for GIFs
//! stored before they were kept.

use std::sync::Arc;

use gifshelf_domain::gif::{GifId, GifSummary};
use gifshelf_domain::{RepoError, Unique};

use super::{gif_not_found, GifService, LIKELY_DUPLICATES_MAX};
use crate::auth::Actor;
use crate::AppError;

/// GIFs are fingerprinted this many at a time.
const BACKFILL_BATCH: i64 = 100;

/// What a fingerprint backfill did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BackfillReport {
    pub fingerprinted: usize,
    /// GIFs byte for byte like another one of the library: left without a SHA-256, reported.
    pub identical_to_another: Vec<(GifId, GifId)>,
    /// GIFs whose original could not be read or decoded, with why.
    pub failed: Vec<(GifId, String)>,
}

impl GifService {
    /// The GIFs of the library that look like this one (near perceptual hashes), closest first,
    /// none of them hidden.
    ///
    /// # Errors
    /// `NotFound` ("GIF not found"), also for a hidden GIF the viewer may not see.
    pub async fn looks_like(&self, viewer: &crate::auth::Actor, id: GifId) -> Result<Vec<GifSummary>, AppError> {
        self.get(viewer, id).await?;
        match self.fingerprints.phash_of(id).await.map_err(gif_not_found)? {
            Some(phash) => Ok(self.fingerprints.similar(phash, Some(id), LIKELY_DUPLICATES_MAX).await?),
            None => Ok(Vec::new()),
        }
    }

    /// What uploading these bytes would meet, storing nothing: `Ok(Some(id))` when GIF `id` has the
    /// same stored original, `Ok(None)` when the upload would be stored.
    ///
    /// # Errors
    /// `BadMedia` for bytes an upload refuses, `Unavailable` when busy.
    pub async fn check(&self, bytes: Vec<u8>) -> Result<Option<GifId>, AppError> {
        let processed = self.media.process(Arc::new(bytes), &[]).await?;
        Ok(self.gifs.find_by_sha256(&processed.fingerprint.sha256).await?)
    }

    /// Every group of near duplicates, for an admin to review.
    ///
    /// # Errors
    /// `Forbidden` unless the actor is an admin.
    pub async fn duplicate_groups(&self, current: &Actor) -> Result<Vec<Vec<GifSummary>>, AppError> {
        current.require_admin()?;
        Ok(self.fingerprints.near_duplicate_groups().await?)
    }

    /// Fingerprints every GIF stored before fingerprints were kept (their originals are read and
    /// decoded again). `gifshelf fsck` runs it.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn backfill_fingerprints(&self) -> Result<BackfillReport, AppError> {
        let mut report = BackfillReport::default();
        let mut after = GifId(0);
        loop {
            let batch = self.fingerprints.without_fingerprint(after, BACKFILL_BATCH).await?;
            let Some((last, _)) = batch.last() else { break };
            after = *last;
            for (id, key) in batch {
                let bytes = match self.blobs.get(&key).await {
                    Ok(bytes) => bytes,
                    Err(err) => {
                        report.failed.push((id, err.to_string()));
                        continue;
                    }
                };
                let fingerprint = match self.media.process(Arc::new(bytes), &[]).await {
                    Ok(processed) => processed.fingerprint,
                    Err(err) => {
                        report.failed.push((id, err.to_string()));
                        continue;
                    }
                };
                match self.fingerprints.set_fingerprint(id, &fingerprint).await {
                    Ok(()) => report.fingerprinted += 1,
                    Err(RepoError::Conflict(Unique::Sha256)) => {
                        let twin = self.gifs.find_by_sha256(&fingerprint.sha256).await?.unwrap_or(id);
                        report.identical_to_another.push((id, twin));
                    }
                    Err(RepoError::NotFound) => {}
                    Err(other) => return Err(other.into()),
                }
            }
        }
        Ok(report)
    }
}
