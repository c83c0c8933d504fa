//! The `make_gif` job: the source read back from the blob store, the GIF made by the engine, then
//! stored through the normal upload (duplicates, renditions, metadata, whatever limits uploads
//! have). Nothing is stored before the upload, which is all or nothing, so a worker killed half
//! way leaves no half GIF; the job then runs again (its lease runs out) or fails with its error.
//!
//! A result byte for byte like a GIF of the library ends the make `done` with that GIF: the person
//! lands on the GIF they asked for, as the retry of a make whose worker died after storing it does.

use std::sync::Arc;

use gifshelf_domain::failpoint::{fail_point, MAKE_AFTER_ENGINE, MAKE_AFTER_UPLOAD};
use gifshelf_domain::gif::{GifId, RenditionKind};
use gifshelf_domain::make::{MadeGif, Make, MakeError, MakeId};
use gifshelf_domain::media::{EncodedImage, MediaRejection};
use gifshelf_domain::ports::{Clock, MakeProgress, MakeRepository};
use gifshelf_domain::RepoError;

use super::MakeService;
use crate::auth::Actor;
use crate::gifs::UploadInput;
use crate::AppError;

/// The share of the progress bar the engine's work takes (the upload takes the rest).
const ENGINE_SHARE: f32 = 0.85;
/// What the maker is told when the job gave up for a fault of ours (the cause goes to the log).
pub const MAKE_GAVE_UP: &str = "The GIF could not be made. Please try again later.";

/// The error code of the API's error shape that `err` is answered with.
pub fn error_code(err: &AppError) -> &'static str {
    match err {
        AppError::Validation(_) => "validation",
        AppError::BadMedia(MediaRejection::UnsupportedType(_)) => "unsupported_type",
        AppError::BadMedia(MediaRejection::InvalidImage { .. }) => "invalid_image",
        AppError::BadMedia(MediaRejection::ImageTooLarge(_)) => "image_too_large",
        AppError::BadMedia(MediaRejection::ImageTooComplex) => "image_too_complex",
        AppError::TooLarge(_) => "too_large",
        AppError::Duplicate { .. } => "duplicate",
        AppError::Forbidden(_) => "forbidden",
        AppError::NotFound(_) => "not_found",
        AppError::Unavailable(_) => "unavailable",
        AppError::QuotaExceeded(_) => "quota_exceeded",
        _ => "internal",
    }
}

/// Whether running the job again could end otherwise (a fault of ours, a busy server).
fn worth_retrying(err: &AppError) -> bool {
    matches!(
        err,
        AppError::Internal(_)
            | AppError::Unavailable(_)
            | AppError::RateLimited { .. }
            | AppError::BadMedia(MediaRejection::Busy)
    )
}

impl MakeService {
    /// Runs the make `id`: `Ok` when it is settled (done, or failed for a reason a retry would not
    /// change, its error kept for its maker); `Err` for a fault worth another attempt.
    ///
    /// # Errors
    /// `Internal`/`Unavailable` (the queue retries, then [`give_up`](Self::give_up)).
    #[tracing::instrument(skip(self), fields(make_id = id.0))]
    pub async fn run(&self, id: MakeId) -> Result<(), AppError> {
        let make = match self.makes.find(id).await {
            Ok(make) => make,
            Err(RepoError::NotFound) => return Ok(()),
            Err(err) => return Err(AppError::from_repo(err)),
        };
        if make.state.is_final() {
            self.remove_source(&make.source_key).await;
            return Ok(());
        }
        self.makes.progress(id, 0.0, self.clock.now()).await?;
        match self.make_and_store(&make).await {
            Ok(gif) => {
                self.makes.finish(id, gif, self.clock.now()).await?;
                self.remove_source(&make.source_key).await;
                tracing::info!(gif_id = gif.0, "make done");
                Ok(())
            }
            Err(err) if worth_retrying(&err) => Err(err),
            Err(err) => {
                tracing::info!(error = %err, "make refused");
                let error = MakeError { code: error_code(&err).to_owned(), message: err.to_string() };
                self.makes.fail(id, error, self.clock.now()).await?;
                self.remove_source(&make.source_key).await;
                Ok(())
            }
        }
    }

    /// Ends a make whose job was given up (its attempts used up): `failed`, its source removed.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn give_up(&self, id: MakeId, cause: &str) -> Result<(), AppError> {
        tracing::warn!(make_id = id.0, cause, "make given up");
        let make = match self.makes.find(id).await {
            Ok(make) => make,
            Err(RepoError::NotFound) => return Ok(()),
            Err(err) => return Err(AppError::from_repo(err)),
        };
        let error = MakeError { code: "internal".into(), message: MAKE_GAVE_UP.into() };
        self.makes.fail(id, error, self.clock.now()).await?;
        self.remove_source(&make.source_key).await;
        Ok(())
    }

    /// Makes the GIF and stores it as its maker's upload: the GIF's id.
    async fn make_and_store(&self, make: &Make) -> Result<GifId, AppError> {
        let bytes = match self.blobs.get(&make.source_key).await {
            Ok(bytes) => bytes,
            Err(gifshelf_domain::ports::BlobError::NotFound) => {
                return Err(AppError::NotFound("The source of this GIF is gone.".into()))
            }
            Err(err) => return Err(AppError::internal(format!("reading {}: {err}", make.source_key))),
        };
        let made = self.make_with_progress(make, bytes).await?;
        fail_point(MAKE_AFTER_ENGINE);
        let owner = self.users.find_by_id(make.owner).await.map_err(AppError::from_repo)?;
        let actor = Actor::session(owner.id, owner.username, owner.role);
        let data = make.gif_data.clone();
        let input = UploadInput {
            title: data.title,
            description: data.description,
            tags: data.tags,
            rating: data.rating,
            bytes: Arc::new(made.gif.bytes),
            // The caption drawn is the GIF's text: nothing to read.
            caption_text: make.recipe.caption.as_ref().map(|c| c.text.clone()),
        };
        // A video source's MP4 of the same pictures is the GIF's `mp4` rendition (the
        // renditions job then makes only the others).
        let extra: Vec<(RenditionKind, EncodedImage)> =
            made.mp4.into_iter().map(|mp4| (RenditionKind::Mp4, mp4)).collect();
        let gif = match self.gifs.upload_with(&actor, input, extra).await {
            Ok(uploaded) => uploaded.gif.id,
            // Made before: by this make (its worker died after storing it) or by anyone.
            Err(AppError::Duplicate { existing }) => {
                let ours = self.gifs.get(&actor, existing).await.is_ok_and(|gif| gif.uploader_id == make.owner);
                if !ours {
                    return Ok(existing);
                }
                existing
            }
            Err(err) => return Err(err),
        };
        if let Some(source) = make.source_gif {
            self.makes.set_made_from(gif, source).await?;
        }
        fail_point(MAKE_AFTER_UPLOAD);
        Ok(gif)
    }

    /// The engine's work, its progress written to the make as it goes.
    async fn make_with_progress(&self, make: &Make, bytes: Vec<u8>) -> Result<MadeGif, AppError> {
        let progress = Arc::new(ProgressWriter { makes: self.makes.clone(), clock: self.clock.clone(), id: make.id });
        let made = self.engine.make(Arc::new(bytes), make.recipe.clone(), progress).await?;
        self.makes.progress(make.id, ENGINE_SHARE, self.clock.now()).await?;
        Ok(made)
    }
}

/// Writes the engine's progress into the make's record (a failed write is only logged: the work
/// goes on).
struct ProgressWriter {
    makes: Arc<dyn MakeRepository>,
    clock: Arc<dyn Clock>,
    id: MakeId,
}

#[async_trait::async_trait]
impl MakeProgress for ProgressWriter {
    async fn report(&self, share: f32) {
        if let Err(err) = self.makes.progress(self.id, share * ENGINE_SHARE, self.clock.now()).await {
            tracing::warn!(make_id = self.id.0, error = %err, "the make's progress was not written");
        }
    }
}
