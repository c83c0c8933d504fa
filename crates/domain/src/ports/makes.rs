//! The maker's records (what to make, how far it came) and its engine.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::gif::GifId;
use crate::make::{MadeGif, Make, MakeError, MakeId, NewMake, Recipe, SourceInfo};
use crate::media::MediaRejection;
use crate::RepoError;

/// The makes: each stored with its `make_gif` job, then moved on by that job.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait MakeRepository: Send + Sync {
    /// Stores the make `queued` and its job (due at `make.at`) in one transaction.
    ///
    /// # Errors
    /// Storage errors (then neither is stored).
    async fn create(&self, make: NewMake) -> Result<MakeId, RepoError>;

    /// # Errors
    /// `NotFound` for an unknown id.
    async fn find(&self, id: MakeId) -> Result<Make, RepoError>;

    /// `running` at `progress` (0 to 1), unless it is done or failed already.
    ///
    /// # Errors
    /// Storage errors.
    async fn progress(&self, id: MakeId, progress: f32, at: NaiveDateTime) -> Result<(), RepoError>;

    /// `done` with the GIF made.
    ///
    /// # Errors
    /// Storage errors.
    async fn finish(&self, id: MakeId, gif: GifId, at: NaiveDateTime) -> Result<(), RepoError>;

    /// `failed` with why, unless it is done already.
    ///
    /// # Errors
    /// Storage errors.
    async fn fail(&self, id: MakeId, error: MakeError, at: NaiveDateTime) -> Result<(), RepoError>;

    /// Records that `gif` was made from `source` (unless it names a source already, or `source`
    /// is gone).
    ///
    /// # Errors
    /// Storage errors.
    async fn set_made_from(&self, gif: GifId, source: GifId) -> Result<(), RepoError>;
}

/// Where a running make's progress goes (its record), told now and then while the engine works.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait MakeProgress: Send + Sync {
    /// `share`: how much of the engine's work is done, 0 to 1.
    async fn report(&self, share: f32);
}

/// Reads sources and makes GIFs of them by a recipe: videos through a sandboxed `ffmpeg`,
/// animations (GIF, WebP) through gifshelf's own decoder; encoded by gifshelf's encoder.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait GifMaker: Send + Sync {
    /// What the source holds: bytes sniffed first (a video, an animated GIF or WebP), then read
    /// (`ffprobe` for a video).
    ///
    /// # Errors
    /// `UnsupportedType` for anything else (a still image, an unknown container or codec, no
    /// video stream), `InvalidImage` for one that cannot be read.
    async fn inspect(&self, bytes: Arc<Vec<u8>>) -> Result<SourceInfo, MediaRejection>;

    /// The new GIF, and for a video source an MP4 of the same pictures (see [`MadeGif`]);
    /// `progress` is told how far it came (0 to 1) now and then (twice a second at most).
    ///
    /// # Errors
    /// The source's or the recipe's rejections; `Internal` when a tool fails.
    async fn make(
        &self,
        bytes: Arc<Vec<u8>>,
        recipe: Recipe,
        progress: Arc<dyn MakeProgress>,
    ) -> Result<MadeGif, MediaRejection>;
}
