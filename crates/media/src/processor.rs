//! The `MediaProcessor` port: [`process`](crate::process) on the blocking pool, at most a few at a
//! time, so that a burst of uploads can take neither every core nor all memory.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use gifshelf_domain::gif::RenditionKind;
use gifshelf_domain::media::{EncodedImage, MediaRejection, ProcessedMedia};
use gifshelf_domain::ports::MediaProcessor;
use tokio::sync::Semaphore;

use crate::{Limits, MediaError, Rendition};

/// Runs the pipeline with bounded concurrency. An upload that cannot get a slot within
/// `queue_wait` is answered "busy" (503) instead of piling up.
#[derive(Debug, Clone)]
pub struct MediaService {
    limits: Limits,
    slots: Arc<Semaphore>,
    queue_wait: Duration,
}

impl MediaService {
    /// `concurrency` jobs at once (each takes at most about `limits.max_canvas_pixels * 12` bytes).
    pub fn new(limits: Limits, concurrency: usize, queue_wait: Duration) -> Self {
        Self { limits, slots: Arc::new(Semaphore::new(concurrency.max(1))), queue_wait }
    }
}

fn encoded(r: Rendition) -> EncodedImage {
    EncodedImage { bytes: r.bytes, content_type: r.mime.to_owned(), width: r.width, height: r.height }
}

fn rejection(err: MediaError) -> MediaRejection {
    match err {
        e @ MediaError::UnsupportedType => MediaRejection::UnsupportedType(e.to_string()),
        MediaError::Corrupt(m) => MediaRejection::Invalid(m),
        MediaError::TooLarge(m) => MediaRejection::TooLarge(m),
        MediaError::Timeout => MediaRejection::Timeout,
        MediaError::Internal(m) => MediaRejection::Internal(m),
    }
}

#[async_trait]
impl MediaProcessor for MediaService {
    async fn process(&self, bytes: Arc<Vec<u8>>, kinds: &[RenditionKind]) -> Result<ProcessedMedia, MediaRejection> {
        // Cheap refusals first, without waiting for a slot.
        crate::probe(&bytes, &self.limits).map_err(rejection)?;
        let permit = tokio::time::timeout(self.queue_wait, self.slots.clone().acquire_owned())
            .await
            .map_err(|_| MediaRejection::Busy)?
            .map_err(|_| MediaRejection::Busy)?;
        let limits = self.limits.clone();
        let kinds = kinds.to_vec();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let processed = crate::process(&bytes, &limits).map_err(rejection)?;
            let mime = processed.kind.mime().to_owned();
            let (mut thumbnail, mut still) = (Some(processed.thumbnail), Some(processed.static_thumbnail));
            let mut renditions = Vec::with_capacity(kinds.len());
            for kind in kinds {
                let image = match kind {
                    RenditionKind::Original => Some(EncodedImage {
                        bytes: crate::strip_metadata(&bytes).map_err(rejection)?,
                        content_type: mime.clone(),
                        width: processed.width,
                        height: processed.height,
                    }),
                    RenditionKind::Thumbnail => thumbnail.take().map(encoded),
                    RenditionKind::Still => still.take().map(encoded),
                }
                .ok_or_else(|| {
                    MediaRejection::Internal(format!("the {} rendition was asked for twice", kind.as_str()))
                })?;
                renditions.push((kind, image));
            }
            Ok(ProcessedMedia {
                content_type: mime,
                extension: processed.kind.extension().to_owned(),
                width: processed.width,
                height: processed.height,
                frames: processed.frames,
                renditions,
            })
        })
        .await
        .map_err(|e| MediaRejection::Internal(format!("image task failed: {e}")))?
    }
}
