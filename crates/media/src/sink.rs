//! The outputs of the animation pipelines. A pipeline decodes and composites each frame once and
//! hands the whole canvas to every [`FrameSink`]; each sink resizes and encodes what it needs and
//! becomes one [`Rendition`] at the end. A new kind of rendition is one new sink and one
//! [`Output`] variant.

use gif::Repeat;

use crate::anim_encode::AnimEncoder;
use crate::limits::{fit_height, fit_width};
use crate::resize::{Rect, Thumbnailer};
use crate::still::encode_static;
use crate::video::{shown_delay, Ffmpeg, Video, VideoSink};
use crate::{Limits, MediaRejection, Rendition};

/// A rendition the pipelines can make (the original is a copy, see
/// [`strip_metadata`](crate::strip_metadata)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Output {
    /// At most `thumb_width` wide; an animated GIF when the source is animated.
    Thumbnail,
    /// The first frame at thumbnail size, as a still image.
    Still,
    /// Like the thumbnail, at most 220 wide.
    Tiny,
    /// Like the thumbnail, at most 90 high.
    Nano,
    /// Like the thumbnail, 200 high (lower sources keep their height).
    FixedHeight,
    /// The animation re-encoded by our encoder at its own size.
    Medium,
    /// A video; every video of one upload comes from one `ffmpeg`.
    Video(Video),
    /// The sheet of distinct scenes that text is read from (`text`): a grayscale PNG.
    TextSheet,
    /// A new GIF made of the source by a maker recipe ([`Tools::recipe`]).
    Remake,
}

/// What some outputs need beyond the source: `ffmpeg` for videos, the recipe of a remake.
#[derive(Clone, Copy, Default)]
pub(crate) struct Tools<'a> {
    pub ffmpeg: Option<&'a Ffmpeg>,
    pub recipe: Option<&'a crate::maker::Recipe>,
}

impl<'a> Tools<'a> {
    pub(crate) fn ffmpeg(ffmpeg: Option<&'a Ffmpeg>) -> Self {
        Self { ffmpeg, recipe: None }
    }
}

impl Output {
    /// The size of this output for a `width`×`height` source: widths never upscale, the other
    /// side keeps the aspect ratio (rounded as the thumbnail's).
    pub(crate) fn size(self, limits: &Limits, width: u32, height: u32) -> (u32, u32) {
        match self {
            Output::Thumbnail | Output::Still => limits.thumb_size(width, height),
            Output::Tiny => fit_width(width, height, 220),
            Output::Nano => fit_height(width, height, 90),
            Output::FixedHeight => fit_height(width, height, 200),
            Output::Medium | Output::TextSheet | Output::Remake => (width, height),
            Output::Video(v) => v.size(limits, width, height),
        }
    }

    pub(crate) fn video(self) -> Option<Video> {
        match self {
            Output::Video(v) => Some(v),
            _ => None,
        }
    }
}

/// What every sink of one upload shares: the source canvas and its animation settings.
pub(crate) struct Source<'a> {
    pub width: u32,
    pub height: u32,
    pub repeat: Repeat,
    /// The source's global colour table, reused by GIF outputs for frames without their own.
    pub global_palette: Option<&'a [u8]>,
    /// Extra squared RGB error a resized GIF frame may keep to leave a pixel unchanged.
    pub keep_close: u32,
    /// Every frame's delay (hundredths of a second) from the header pass: videos need the
    /// timing before the first frame.
    pub delays: &'a [u16],
}

/// One composited frame: the whole canvas, RGBA.
pub(crate) struct CanvasFrame<'a> {
    pub rgba: &'a [u8],
    /// The part of the canvas that changed since the previous frame (the first frame: all of it).
    pub dirty: Rect,
    /// No pixel of the canvas is transparent.
    pub opaque: bool,
    /// In hundredths of a second.
    pub delay: u16,
    /// The source frame had its own colour table (always true for sources without tables).
    pub own_table: bool,
}

/// One output of the pipeline, fed every composited frame in order.
pub(crate) trait FrameSink {
    /// Takes the next frame.
    fn frame(&mut self, frame: &CanvasFrame<'_>) -> Result<(), MediaRejection>;
    /// Whether later frames would still change the result.
    fn wants_more(&self) -> bool;
    /// Encodes the renditions (one, except for the video sink: one per video asked for).
    fn finish(self: Box<Self>) -> Result<Vec<Rendition>, MediaRejection>;
}

/// An animated GIF at some size (the thumbnail, tiny, nano, fixed height, medium): every frame
/// resized, only the changed rectangle re-encoded.
struct AnimatedGif {
    thumb: Thumbnailer,
    enc: AnimEncoder,
    frames: u32,
    /// Hundredths of a second, as browsers show them.
    shown: u32,
}

impl FrameSink for AnimatedGif {
    fn frame(&mut self, frame: &CanvasFrame<'_>) -> Result<(), MediaRejection> {
        // Only the pixels over the source's changed area: the resampling kernel's reach beyond
        // it only blurs the edge a little, and rewriting those pixels in every frame costs
        // bytes. They are looked at again when a later change covers them.
        let changed =
            self.thumb.update(frame.rgba, frame.dirty, frame.opaque)?.intersect(&self.thumb.core(frame.dirty));
        self.frames += 1;
        self.shown += shown_delay(frame.delay);
        self.enc.push(&self.thumb.rgba, changed, frame.delay, frame.own_table)
    }

    fn wants_more(&self) -> bool {
        true
    }

    fn finish(self: Box<Self>) -> Result<Vec<Rendition>, MediaRejection> {
        let (width, height) = (self.thumb.width, self.thumb.height);
        // A single frame is a still image: it plays for no time.
        let duration_ms = if self.frames > 1 { self.shown * 10 } else { 0 };
        let bytes = self.enc.finish()?;
        Ok(vec![Rendition { bytes, mime: "image/gif", width, height, frames: self.frames, duration_ms, codec: None }])
    }
}

/// The static thumbnail: the first frame at thumbnail size, encoded once the big buffers are gone.
struct StillThumbnail {
    width: u32,
    height: u32,
    /// Dropped after the first frame.
    thumb: Option<Thumbnailer>,
    first: Option<Vec<u8>>,
}

impl FrameSink for StillThumbnail {
    fn frame(&mut self, frame: &CanvasFrame<'_>) -> Result<(), MediaRejection> {
        if let Some(mut thumb) = self.thumb.take() {
            thumb.update(frame.rgba, frame.dirty, frame.opaque)?;
            self.first = Some(thumb.rgba);
        }
        Ok(())
    }

    fn wants_more(&self) -> bool {
        self.first.is_none()
    }

    fn finish(self: Box<Self>) -> Result<Vec<Rendition>, MediaRejection> {
        let first = self.first.ok_or_else(|| MediaRejection::invalid("The animation has no frames."))?;
        Ok(vec![encode_static(&first, self.width, self.height)?])
    }
}

/// The sinks of one upload, one per requested output (one for all the videos), with where each
/// output's rendition comes from.
pub(crate) struct Sinks {
    sinks: Vec<Box<dyn FrameSink>>,
    /// For each output asked for, in order: its sink and its place among that sink's renditions.
    order: Vec<(usize, usize)>,
}

impl Sinks {
    /// Builds the sinks; starts `ffmpeg` when videos are asked for.
    ///
    /// # Errors
    /// Videos asked for without `ffmpeg`, or of a single frame; `ffmpeg` failing to start.
    pub(crate) fn new(
        outputs: &[Output],
        source: &Source<'_>,
        limits: &Limits,
        tools: Tools<'_>,
    ) -> Result<Self, MediaRejection> {
        let ffmpeg = tools.ffmpeg;
        let (sw, sh) = (source.width, source.height);
        let mut sinks: Vec<Box<dyn FrameSink>> = Vec::new();
        let mut order = Vec::with_capacity(outputs.len());
        let videos: Vec<Video> = outputs.iter().filter_map(|o| o.video()).collect();
        let mut video_sink = None;
        for &output in outputs {
            let (tw, th) = output.size(limits, sw, sh);
            let sink: Box<dyn FrameSink> = match output {
                Output::Video(v) => {
                    let at = videos.iter().position(|&w| w == v).unwrap_or(0);
                    if let Some(i) = video_sink {
                        order.push((i, at));
                        continue;
                    }
                    let ffmpeg = ffmpeg.ok_or_else(no_ffmpeg)?;
                    video_sink = Some(sinks.len());
                    order.push((sinks.len(), at));
                    Box::new(VideoSink::start(ffmpeg, &videos, limits, (sw, sh), source.delays)?)
                }
                Output::Remake => {
                    let recipe = tools.recipe.ok_or_else(|| crate::error::internal("a remake without its recipe"))?;
                    order.push((sinks.len(), 0));
                    Box::new(crate::maker::Remaker::new(recipe, source, limits)?)
                }
                Output::TextSheet => {
                    order.push((sinks.len(), 0));
                    Box::new(crate::text::TextSheet::new(sw, sh, source.delays.len()))
                }
                Output::Still => {
                    let thumb = Thumbnailer::new(sw, sh, tw, th);
                    order.push((sinks.len(), 0));
                    Box::new(StillThumbnail { width: tw, height: th, thumb: Some(thumb), first: None })
                }
                Output::Thumbnail | Output::Tiny | Output::Nano | Output::FixedHeight | Output::Medium => {
                    let thumb = Thumbnailer::new(sw, sh, tw, th);
                    let keep_close = if (tw, th) == (sw, sh) { 0 } else { source.keep_close };
                    let enc =
                        AnimEncoder::new(tw, th, source.repeat, source.global_palette).with_keep_close(keep_close);
                    order.push((sinks.len(), 0));
                    Box::new(AnimatedGif { thumb, enc, frames: 0, shown: 0 })
                }
            };
            sinks.push(sink);
        }
        Ok(Sinks { sinks, order })
    }

    /// Feeds one composited frame to every sink.
    pub(crate) fn frame(&mut self, frame: &CanvasFrame<'_>) -> Result<(), MediaRejection> {
        self.sinks.iter_mut().try_for_each(|sink| sink.frame(frame))
    }

    /// Whether decoding should go on. With no sinks at all the whole file is still decoded, as
    /// a check that it is sound.
    pub(crate) fn want_more(&self) -> bool {
        self.sinks.is_empty() || self.sinks.iter().any(|sink| sink.wants_more())
    }

    /// The renditions, in the order the outputs were asked for, then any further ones a sink
    /// made (the second text sheet).
    pub(crate) fn finish(self) -> Result<Vec<Rendition>, MediaRejection> {
        let mut made: Vec<Vec<Option<Rendition>>> = Vec::with_capacity(self.sinks.len());
        for sink in self.sinks {
            made.push(sink.finish()?.into_iter().map(Some).collect());
        }
        let mut out = self
            .order
            .into_iter()
            .map(|(sink, at)| {
                made.get_mut(sink)
                    .and_then(|r| r.get_mut(at))
                    .and_then(Option::take)
                    .ok_or_else(|| crate::error::internal("a rendition is missing"))
            })
            .collect::<Result<Vec<Rendition>, MediaRejection>>()?;
        out.extend(made.into_iter().flatten().flatten());
        Ok(out)
    }
}

/// Why a video cannot be made on this server.
pub(crate) fn no_ffmpeg() -> MediaRejection {
    MediaRejection::Internal(
        "Videos cannot be made on this server: ffmpeg with the libx264 and libvpx-vp9 encoders was not found.".into(),
    )
}
