//! The `GifMaker` port on [`MediaService`]: sources read and GIFs made on the blocking pool, in
//! the service's slots (a make takes one as an upload does). A video is written to a private
//! temporary file for `ffprobe` and `ffmpeg` (they read nothing else); an animation goes through
//! gifshelf's own decoder.

use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use gifshelf_domain::make::{self, CaptionPosition, CaptionSize, MadeGif, SourceInfo};
use gifshelf_domain::media::MediaRejection;
use gifshelf_domain::ports::{GifMaker, MakeProgress};

use super::{is_video, make_from_video_and_mp4, probe_video, remake, Crop, Direction, Recipe};
use crate::caption::{Caption, CaptionPlace};
use crate::video::shown_delay;
use crate::{Ffmpeg, Limits, MediaKind, MediaService};

/// How often a running make's progress is told.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

fn no_video() -> MediaRejection {
    MediaRejection::UnsupportedType("This server makes GIFs of GIF and WebP animations only: ffmpeg is missing.".into())
}

fn still() -> MediaRejection {
    MediaRejection::UnsupportedType(
        "Only videos (MP4, WebM, MOV, MKV) and animations (GIF, animated WebP) can be made into a GIF.".into(),
    )
}

/// The engine's recipe of the port's.
pub(crate) fn engine_recipe(recipe: &make::Recipe) -> Recipe {
    Recipe {
        start_ms: recipe.start_ms,
        end_ms: Some(recipe.end_ms),
        crop: recipe.crop.map(|c| Crop { x: c.x, y: c.y, width: c.width, height: c.height }),
        width: Some(recipe.width),
        fps: Some(recipe.fps),
        speed: recipe.speed,
        direction: match recipe.direction {
            make::Direction::Forward => Direction::Forward,
            make::Direction::Reverse => Direction::Reverse,
            make::Direction::Boomerang => Direction::Boomerang,
        },
        loops: recipe.loops,
        caption: recipe.caption.as_ref().map(|c| Caption {
            text: c.text.clone(),
            place: match c.position {
                CaptionPosition::Top => CaptionPlace::Top,
                CaptionPosition::Bottom => CaptionPlace::Bottom,
            },
            size: match c.size {
                CaptionSize::S => crate::caption::CaptionSize::Small,
                CaptionSize::M => crate::caption::CaptionSize::Medium,
                CaptionSize::L => crate::caption::CaptionSize::Large,
            },
        }),
    }
}

/// The bytes in a private temporary file (deleted when dropped), for `ffmpeg` to read.
fn temp_copy(bytes: &[u8]) -> Result<tempfile::NamedTempFile, MediaRejection> {
    let fail = |e: std::io::Error| MediaRejection::internal(format!("writing the source video: {e}"));
    let mut file = tempfile::Builder::new().prefix("gifshelf-make-").tempfile().map_err(fail)?;
    file.write_all(bytes).map_err(fail)?;
    file.flush().map_err(fail)?;
    Ok(file)
}

/// What an animation holds (its size and one play's length); a still image is refused.
fn animation_info(bytes: &[u8], limits: &Limits) -> Result<SourceInfo, MediaRejection> {
    let (width, height, delays) = match crate::sniff(bytes) {
        Some(MediaKind::Gif) => {
            let info = crate::probe::gif_info(bytes, limits)?;
            (info.width, info.height, info.delays)
        }
        Some(MediaKind::Webp) => {
            let info = crate::webp::webp_info(bytes, limits)?;
            (info.width, info.height, info.delays)
        }
        Some(_) => return Err(still()),
        None => return Err(MediaRejection::unsupported()),
    };
    if delays.len() < 2 {
        return Err(still());
    }
    let duration_ms = delays.iter().map(|&d| shown_delay(d) * 10).sum();
    Ok(SourceInfo { video: false, width, height, duration_ms })
}

fn inspect(bytes: &[u8], limits: &Limits, ffmpeg: Option<&Ffmpeg>) -> Result<SourceInfo, MediaRejection> {
    if !is_video(bytes.get(..12).unwrap_or(bytes)) {
        return animation_info(bytes, limits);
    }
    let ffmpeg = ffmpeg.ok_or_else(no_video)?;
    let file = temp_copy(bytes)?;
    let info = probe_video(file.path(), ffmpeg)?;
    Ok(SourceInfo { video: true, width: info.width, height: info.height, duration_ms: info.duration_ms })
}

fn make(
    bytes: &[u8],
    recipe: &make::Recipe,
    limits: &Limits,
    ffmpeg: Option<&Ffmpeg>,
    progress: &(dyn Fn(f32) + Send + Sync),
) -> Result<MadeGif, MediaRejection> {
    let engine = engine_recipe(recipe);
    if is_video(bytes.get(..12).unwrap_or(bytes)) {
        let ffmpeg = ffmpeg.ok_or_else(no_video)?;
        let file = temp_copy(bytes)?;
        let info = probe_video(file.path(), ffmpeg)?;
        let made = make_from_video_and_mp4(file.path(), &info, &engine, ffmpeg, progress)?;
        return Ok(MadeGif { gif: crate::processor::encoded(made.gif), mp4: made.mp4.map(crate::processor::encoded) });
    }
    Ok(MadeGif { gif: crate::processor::encoded(remake(bytes, &engine, limits)?), mp4: None })
}

#[async_trait]
impl GifMaker for MediaService {
    async fn inspect(&self, bytes: Arc<Vec<u8>>) -> Result<SourceInfo, MediaRejection> {
        let permit = self.slot().await?;
        let (limits, ffmpeg) = (self.limits().clone(), self.ffmpeg());
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            inspect(&bytes, &limits, ffmpeg.as_deref())
        })
        .await
        .map_err(|e| MediaRejection::internal(format!("the maker's task failed: {e}")))?
    }

    async fn make(
        &self,
        bytes: Arc<Vec<u8>>,
        recipe: make::Recipe,
        progress: Arc<dyn MakeProgress>,
    ) -> Result<MadeGif, MediaRejection> {
        let permit = self.slot().await?;
        let (limits, ffmpeg) = (self.limits().clone(), self.ffmpeg());
        // The engine stores its share done here; it is told on twice a second.
        let share = Arc::new(AtomicU32::new(0_f32.to_bits()));
        let seen = share.clone();
        let work = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let report = move |p: f32| seen.store(p.to_bits(), Ordering::Relaxed);
            let run = || make(&bytes, &recipe, &limits, ffmpeg.as_deref(), &report);
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
                .unwrap_or_else(|_| Err(MediaRejection::internal("the maker failed unexpectedly")))
        });
        tokio::pin!(work);
        let mut tick = tokio::time::interval(PROGRESS_EVERY);
        let mut told = 0.0_f32;
        let made = loop {
            tokio::select! {
                made = &mut work => break made,
                _ = tick.tick() => {
                    let now = f32::from_bits(share.load(Ordering::Relaxed));
                    if now > told {
                        told = now;
                        progress.report(now).await;
                    }
                }
            }
        };
        made.map_err(|e| MediaRejection::internal(format!("the maker's task failed: {e}")))?
    }
}
