//! The `MediaProcessor` port: [`process`](crate::process) on the blocking pool, at most a few at a
//! time, so that a burst of uploads can take neither every core nor all memory.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use gifshelf_domain::gif::{Fingerprint, PerceptualHash, RenditionKind};
use gifshelf_domain::media::{EncodedImage, MediaRejection, ProcessedMedia};
use gifshelf_domain::ports::MediaProcessor;
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use crate::sink::{no_ffmpeg, Output};
use crate::video::Video;
use crate::{Ffmpeg, Limits, Rendition};

/// Runs the pipeline with bounded concurrency. An upload that cannot get a slot within
/// `queue_wait` is answered "busy" (503) instead of piling up.
#[derive(Debug, Clone)]
pub struct MediaService {
    limits: Limits,
    slots: Arc<Semaphore>,
    queue_wait: Duration,
    ffmpeg: Option<Arc<Ffmpeg>>,
    tesseract: Option<Arc<crate::text::Tesseract>>,
}

impl MediaService {
    /// `concurrency` jobs at once (each takes at most about `limits.max_canvas_pixels * 12` bytes,
    /// plus its `ffmpeg` child's memory limit when it makes videos). Without
    /// [`with_video`](Self::with_video) no videos are made.
    pub fn new(limits: Limits, concurrency: usize, queue_wait: Duration) -> Self {
        Self { limits, slots: Arc::new(Semaphore::new(concurrency.max(1))), queue_wait, ffmpeg: None, tesseract: None }
    }

    /// The `ffmpeg` videos are made with (see [`Ffmpeg::detect`]); `None`: no videos, and
    /// [`can_make`](MediaProcessor::can_make) says so.
    #[must_use]
    pub fn with_video(mut self, ffmpeg: Option<Ffmpeg>) -> Self {
        self.ffmpeg = ffmpeg.map(Arc::new);
        self
    }

    /// The `tesseract` text is read with (see [`Tesseract::detect`](crate::text::Tesseract::detect));
    /// `None`: [`read_text`](gifshelf_domain::ports::TextReader::read_text) fails.
    #[must_use]
    pub fn with_text(mut self, tesseract: Option<crate::text::Tesseract>) -> Self {
        self.tesseract = tesseract.map(Arc::new);
        self
    }

    pub(crate) fn tesseract(&self) -> Option<Arc<crate::text::Tesseract>> {
        self.tesseract.clone()
    }

    /// A slot of the pool, or `Busy` when none frees up within `queue_wait`.
    pub(crate) async fn slot(&self) -> Result<tokio::sync::OwnedSemaphorePermit, MediaRejection> {
        tokio::time::timeout(self.queue_wait, self.slots.clone().acquire_owned())
            .await
            .map_err(|_| MediaRejection::Busy)?
            .map_err(|_| MediaRejection::Busy)
    }

    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    pub(crate) fn ffmpeg(&self) -> Option<Arc<Ffmpeg>> {
        self.ffmpeg.clone()
    }

    /// How many jobs could start now without waiting for a slot.
    pub fn free_slots(&self) -> usize {
        self.slots.available_permits()
    }
}

pub(crate) fn encoded(r: Rendition) -> EncodedImage {
    EncodedImage {
        bytes: r.bytes,
        content_type: r.mime.to_owned(),
        width: r.width,
        height: r.height,
        frames: r.frames,
        duration_ms: r.duration_ms,
        codec: r.codec.map(str::to_owned),
    }
}

/// The pipeline output that makes a rendition kind; `None` for the original, a copy.
fn output_of(kind: RenditionKind) -> Option<Output> {
    match kind {
        RenditionKind::Original => None,
        RenditionKind::Thumbnail => Some(Output::Thumbnail),
        RenditionKind::Still => Some(Output::Still),
        RenditionKind::Tiny => Some(Output::Tiny),
        RenditionKind::Nano => Some(Output::Nano),
        RenditionKind::FixedHeight => Some(Output::FixedHeight),
        RenditionKind::Medium => Some(Output::Medium),
        RenditionKind::Mp4 => Some(Output::Video(Video::Mp4)),
        RenditionKind::Mp4Small => Some(Output::Video(Video::Mp4Small)),
        RenditionKind::Webm => Some(Output::Video(Video::Webm)),
        RenditionKind::WebmSmall => Some(Output::Video(Video::WebmSmall)),
        RenditionKind::Webp => Some(Output::Video(Video::Webp)),
        RenditionKind::WebpFixedHeight => Some(Output::Video(Video::WebpFixedHeight)),
        RenditionKind::WebpTiny => Some(Output::Video(Video::WebpTiny)),
        RenditionKind::WebpNano => Some(Output::Video(Video::WebpNano)),
        RenditionKind::Poster => Some(Output::Video(Video::Poster)),
    }
}

/// Decodes the upload once, with one sink per rendition kind asked for, and answers the
/// renditions in the order asked.
fn render(
    bytes: &[u8],
    limits: &Limits,
    kinds: &[RenditionKind],
    ffmpeg: Option<&Ffmpeg>,
) -> Result<ProcessedMedia, MediaRejection> {
    for (i, kind) in kinds.iter().enumerate() {
        if kinds[..i].contains(kind) {
            return Err(MediaRejection::internal(format!("the {} rendition was asked for twice", kind.as_str())));
        }
    }
    let outputs: Vec<Output> = kinds.iter().copied().filter_map(output_of).collect();
    let made = crate::make(bytes, limits, &outputs, crate::sink::Tools::ffmpeg(ffmpeg))?;
    let mime = made.kind.mime().to_owned();
    // What is stored as the original, and so what a byte-identical upload is told apart by.
    let stripped = crate::strip_metadata(bytes)?;
    let fingerprint =
        Fingerprint { sha256: hex::encode(Sha256::digest(&stripped)), phash: made.phash.map(PerceptualHash) };
    let mut original = Some(stripped);
    let mut made_renditions = made.renditions.into_iter();
    let mut renditions = Vec::with_capacity(kinds.len());
    for &kind in kinds {
        let image = match output_of(kind) {
            None => EncodedImage {
                bytes: original.take().ok_or_else(|| MediaRejection::internal("the original was asked for twice"))?,
                content_type: mime.clone(),
                width: made.width,
                height: made.height,
                frames: made.frames,
                duration_ms: made.duration_ms,
                codec: None,
            },
            Some(_) => made_renditions
                .next()
                .map(encoded)
                .ok_or_else(|| MediaRejection::internal(format!("the {} rendition is missing", kind.as_str())))?,
        };
        renditions.push((kind, image));
    }
    Ok(ProcessedMedia {
        content_type: mime,
        extension: made.kind.extension().to_owned(),
        width: made.width,
        height: made.height,
        frames: made.frames,
        renditions,
        fingerprint,
        opaque: made.opaque,
    })
}

#[async_trait]
impl MediaProcessor for MediaService {
    async fn process(&self, bytes: Arc<Vec<u8>>, kinds: &[RenditionKind]) -> Result<ProcessedMedia, MediaRejection> {
        // Cheap refusals first, without waiting for a slot.
        crate::probe(&bytes, &self.limits)?;
        if kinds.iter().any(|k| k.needs_ffmpeg()) && self.ffmpeg.is_none() {
            return Err(no_ffmpeg());
        }
        let permit = tokio::time::timeout(self.queue_wait, self.slots.clone().acquire_owned())
            .await
            .map_err(|_| MediaRejection::Busy)?
            .map_err(|_| MediaRejection::Busy)?;
        let limits = self.limits.clone();
        let kinds = kinds.to_vec();
        let ffmpeg = self.ffmpeg.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            render(&bytes, &limits, &kinds, ffmpeg.as_deref())
        })
        .await
        .map_err(|e| MediaRejection::internal(format!("image task failed: {e}")))?
    }

    fn can_make(&self, kind: RenditionKind) -> bool {
        match &self.ffmpeg {
            _ if !kind.needs_ffmpeg() => true,
            Some(ffmpeg) => !kind.needs_libwebp() || ffmpeg.makes_webp(),
            None => false,
        }
    }
}
