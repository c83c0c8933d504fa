//! The fingerprints of GIFs, through which exact and near duplicates are found.

use async_trait::async_trait;

use crate::gif::{Fingerprint, GifId, GifSummary, PerceptualHash};
use crate::RepoError;

/// Perceptual hashes of stored GIFs: near duplicates, and the backfill of GIFs stored before
/// fingerprints were kept.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait FingerprintRepository: Send + Sync {
    /// GIFs whose perceptual hash is near this one (`PerceptualHash::is_near`), closest first, at
    /// most `limit`, leaving `except` out. Found through the indexed hash bands, never a full scan.
    ///
    /// # Errors
    /// Storage errors.
    async fn similar(
        &self,
        phash: PerceptualHash,
        except: Option<GifId>,
        limit: i64,
    ) -> Result<Vec<GifSummary>, RepoError>;

    /// The perceptual hash of a GIF (`None` when it has none).
    ///
    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn phash_of(&self, id: GifId) -> Result<Option<PerceptualHash>, RepoError>;

    /// Every group of two or more GIFs linked by near perceptual hashes, groups and members by id.
    ///
    /// # Errors
    /// Storage errors.
    async fn near_duplicate_groups(&self) -> Result<Vec<Vec<GifSummary>>, RepoError>;

    /// Up to `limit` GIFs with an id above `after` stored before fingerprints were kept, by id:
    /// ids with their original's blob key.
    ///
    /// # Errors
    /// Storage errors.
    async fn without_fingerprint(&self, after: GifId, limit: i64) -> Result<Vec<(GifId, String)>, RepoError>;

    /// Records the fingerprint of a GIF stored before fingerprints were kept.
    ///
    /// # Errors
    /// `NotFound`; `Conflict(Unique::Sha256)` when another GIF has the same original.
    async fn set_fingerprint(&self, id: GifId, fingerprint: &Fingerprint) -> Result<(), RepoError>;
}
