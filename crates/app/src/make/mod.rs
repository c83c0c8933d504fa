//! The GIF maker: `submit` checks everything a request can be refused for, keeps the source's
//! bytes in the blob store and queues the work (`make_gif` job); the job (`job.rs`) makes the GIF
//! and stores it through the normal upload; `status` tells its maker how far it came.

mod job;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use gifshelf_domain::gif::{Description, GifId, Rating, TagName, Title};
use gifshelf_domain::make::{MadeGifData, Make, MakeId, NewMake, Recipe, RecipeInput, SourceInfo};
use gifshelf_domain::ports::{BlobStore, Clock, GifMaker, IdGenerator, MakeRepository, UserRepository};
use gifshelf_domain::{RepoError, ValidationError};

use crate::auth::Actor;
use crate::gifs::{GifService, UrlImport};
use crate::AppError;

/// How large and long a source may be.
#[derive(Debug, Clone, Copy)]
pub struct MakerLimits {
    /// Bytes of a source (`GIFSHELF_MAX_VIDEO_MB`, 200 MB by default).
    pub max_source_bytes: u64,
    /// Length of a source video (`GIFSHELF_MAX_VIDEO_SECS`, 600 by default).
    pub max_source_secs: u32,
}

impl Default for MakerLimits {
    fn default() -> Self {
        Self { max_source_bytes: 200 * 1024 * 1024, max_source_secs: 600 }
    }
}

/// Where the new GIF is made from: exactly one of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MakeSource {
    /// Uploaded bytes (a video, a GIF or an animated WebP).
    File(Vec<u8>),
    /// A GIF of the library ("Edit a copy").
    Gif(GifId),
    /// A link, fetched as "From a link" fetches.
    Url(String),
}

/// A make as the HTTP layer received it.
#[derive(Debug, Clone)]
pub struct MakeInput {
    pub sources: Vec<MakeSource>,
    pub gif_data: MadeGifData,
    pub recipe: RecipeInput,
}

/// The ports and services the maker runs on.
pub struct MakerPorts {
    pub makes: Arc<dyn MakeRepository>,
    pub engine: Arc<dyn GifMaker>,
    pub blobs: Arc<dyn BlobStore>,
    pub users: Arc<dyn UserRepository>,
    pub ids: Arc<dyn IdGenerator>,
    pub clock: Arc<dyn Clock>,
    pub gifs: Arc<GifService>,
    pub url_import: Arc<UrlImport>,
}

/// The maker's use cases.
pub struct MakeService {
    makes: Arc<dyn MakeRepository>,
    engine: Arc<dyn GifMaker>,
    blobs: Arc<dyn BlobStore>,
    users: Arc<dyn UserRepository>,
    ids: Arc<dyn IdGenerator>,
    clock: Arc<dyn Clock>,
    gifs: Arc<GifService>,
    url_import: Arc<UrlImport>,
    limits: MakerLimits,
}

fn not_found() -> AppError {
    AppError::NotFound("No such GIF is being made.".into())
}

impl MakeService {
    pub fn new(ports: MakerPorts, limits: MakerLimits) -> Self {
        let MakerPorts { makes, engine, blobs, users, ids, clock, gifs, url_import } = ports;
        Self { makes, engine, blobs, users, ids, clock, gifs, url_import, limits }
    }

    pub fn limits(&self) -> MakerLimits {
        self.limits
    }

    /// Checks the form, the recipe and the source, keeps the source and queues the work.
    ///
    /// # Errors
    /// `Validation` for the form or the recipe (its field named), a source missing or doubled, an
    /// unknown `gifId`, a crop outside the picture, a start past the end or a video too long;
    /// `BadMedia` for a source that is no video or animation; `TooLarge` past
    /// [`MakerLimits::max_source_bytes`]; `QuotaExceeded` when the member has no room for another
    /// GIF; the link's errors as "From a link" answers them. Nothing is stored on any of them.
    #[tracing::instrument(skip_all, fields(user_id = current.id.0))]
    pub async fn submit(&self, current: &Actor, input: MakeInput) -> Result<MakeId, AppError> {
        check_form(&input.gif_data)?;
        let recipe = Recipe::parse(&input.recipe)?;
        // A member over their quota learns it now, not after the work (the upload checks again).
        self.gifs.check_quota(current, 0).await?;
        let [source] = <[MakeSource; 1]>::try_from(input.sources).map_err(|_| {
            ValidationError::new("file", "Give one source: a file, a GIF of the library (gifId) or a link (sourceUrl).")
        })?;
        let (bytes, source_gif) = self.source_bytes(current, source).await?;
        if bytes.len() as u64 > self.limits.max_source_bytes {
            return Err(self.too_large());
        }
        let bytes = Arc::new(bytes);
        let info = self.engine.inspect(bytes.clone()).await?;
        self.check_against(&recipe, &info)?;
        let source_key = format!("make/{}", self.ids.blob_prefix());
        let bytes = Arc::try_unwrap(bytes).unwrap_or_else(|shared| (*shared).clone());
        self.blobs
            .put(&source_key, bytes, "application/octet-stream")
            .await
            .map_err(|e| AppError::internal(format!("storing {source_key}: {e}")))?;
        let make = NewMake {
            owner: current.id,
            source_key: source_key.clone(),
            source_gif,
            recipe,
            gif_data: input.gif_data,
            at: self.clock.now(),
        };
        match self.makes.create(make).await {
            Ok(id) => {
                tracing::info!(make_id = id.0, video = info.video, "make queued");
                Ok(id)
            }
            Err(err) => {
                self.remove_source(&source_key).await;
                Err(AppError::from_repo(err))
            }
        }
    }

    fn too_large(&self) -> AppError {
        AppError::TooLarge(format!(
            "The source is larger than the {} MB limit.",
            self.limits.max_source_bytes / (1024 * 1024)
        ))
    }

    async fn source_bytes(&self, current: &Actor, source: MakeSource) -> Result<(Vec<u8>, Option<GifId>), AppError> {
        match source {
            MakeSource::File(bytes) if bytes.is_empty() => {
                Err(ValidationError::new("file", "Please select a file to make a GIF of.").into())
            }
            MakeSource::File(bytes) => Ok((bytes, None)),
            MakeSource::Url(url) => {
                let bytes = self.url_import.fetch(current, &url, self.limits.max_source_bytes).await?;
                Ok((bytes, None))
            }
            MakeSource::Gif(id) => {
                let unknown = || ValidationError::new("gifId", "No GIF of the library has this id.");
                let gif = match self.gifs.get(current, id).await {
                    Ok(gif) => gif,
                    Err(AppError::NotFound(_)) => return Err(unknown().into()),
                    Err(other) => return Err(other),
                };
                let original = gif
                    .rendition(gifshelf_domain::gif::RenditionKind::Original)
                    .ok_or_else(|| AppError::internal(format!("GIF {} has no original", id.0)))?;
                let bytes = self
                    .blobs
                    .get(&original.key)
                    .await
                    .map_err(|e| AppError::internal(format!("reading {}: {e}", original.key)))?;
                Ok((bytes, Some(id)))
            }
        }
    }

    /// What the recipe asks of the source it has.
    fn check_against(&self, recipe: &Recipe, info: &SourceInfo) -> Result<(), AppError> {
        if info.video && info.duration_ms / 1000 > self.limits.max_source_secs {
            return Err(ValidationError::new(
                "file",
                format!("The video is longer than {} seconds.", self.limits.max_source_secs),
            )
            .into());
        }
        recipe.check_crop(info.width, info.height)?;
        if recipe.start_ms >= info.duration_ms {
            return Err(ValidationError::new(
                "start",
                format!("The start is past the end of the source ({:.2} s).", f64::from(info.duration_ms) / 1000.0),
            )
            .into());
        }
        Ok(())
    }

    /// The make, for its maker or an admin.
    ///
    /// # Errors
    /// `NotFound` for an unknown id or someone else's make.
    pub async fn status(&self, current: &Actor, id: MakeId) -> Result<Make, AppError> {
        let make = match self.makes.find(id).await {
            Ok(make) => make,
            Err(RepoError::NotFound) => return Err(not_found()),
            Err(err) => return Err(AppError::from_repo(err)),
        };
        if make.owner != current.id && !current.is_admin() {
            return Err(not_found());
        }
        Ok(make)
    }

    async fn remove_source(&self, key: &str) {
        if let Err(err) = self.blobs.delete(key).await {
            tracing::warn!(%key, error = %err, "could not remove a maker source; fsck will");
        }
    }
}

/// The form as an upload checks it.
fn check_form(data: &MadeGifData) -> Result<(), AppError> {
    Title::parse(&data.title)?;
    Description::parse(&data.description)?;
    TagName::parse_list(&data.tags)?;
    data.rating.as_deref().map(Rating::parse).transpose()?;
    Ok(())
}
