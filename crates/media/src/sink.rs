//! The outputs of the animation pipelines. A pipeline decodes and composites each frame once and
//! hands the whole canvas to every [`FrameSink`]; each sink resizes and encodes what it needs and
//! becomes one [`Rendition`] at the end. A new kind of rendition is one new sink and one
//! [`Output`] variant.

use gif::Repeat;

use crate::anim_encode::AnimEncoder;
use crate::resize::{Rect, Thumbnailer};
use crate::still::encode_static;
use crate::{Limits, MediaError, Rendition};

/// A rendition the pipelines can make (the original is a copy, see
/// [`strip_metadata`](crate::strip_metadata)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Output {
    /// At most `thumb_width` wide; an animated GIF when the source is animated.
    Thumbnail,
    /// The first frame at thumbnail size, as a still image.
    Still,
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
    fn frame(&mut self, frame: &CanvasFrame<'_>) -> Result<(), MediaError>;
    /// Whether later frames would still change the result.
    fn wants_more(&self) -> bool;
    /// Encodes the rendition.
    fn finish(self: Box<Self>) -> Result<Rendition, MediaError>;
}

/// The animated thumbnail: every frame resized, only the changed rectangle re-encoded.
struct AnimatedThumbnail {
    thumb: Thumbnailer,
    enc: AnimEncoder,
}

impl FrameSink for AnimatedThumbnail {
    fn frame(&mut self, frame: &CanvasFrame<'_>) -> Result<(), MediaError> {
        let changed = self.thumb.update(frame.rgba, frame.dirty, frame.opaque)?;
        self.enc.push(&self.thumb.rgba, changed, frame.delay, frame.own_table)
    }

    fn wants_more(&self) -> bool {
        true
    }

    fn finish(self: Box<Self>) -> Result<Rendition, MediaError> {
        let (width, height) = (self.thumb.width, self.thumb.height);
        Ok(Rendition { bytes: self.enc.finish()?, mime: "image/gif", width, height })
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
    fn frame(&mut self, frame: &CanvasFrame<'_>) -> Result<(), MediaError> {
        if let Some(mut thumb) = self.thumb.take() {
            thumb.update(frame.rgba, frame.dirty, frame.opaque)?;
            self.first = Some(thumb.rgba);
        }
        Ok(())
    }

    fn wants_more(&self) -> bool {
        self.first.is_none()
    }

    fn finish(self: Box<Self>) -> Result<Rendition, MediaError> {
        let first = self.first.ok_or_else(|| MediaError::Corrupt("The animation has no frames.".into()))?;
        encode_static(&first, self.width, self.height)
    }
}

/// The sinks of one upload, one per requested output, in the order asked.
pub(crate) struct Sinks(Vec<Box<dyn FrameSink>>);

impl Sinks {
    pub(crate) fn new(outputs: &[Output], source: &Source<'_>, limits: &Limits) -> Self {
        let (tw, th) = limits.thumb_size(source.width, source.height);
        let sinks = outputs
            .iter()
            .map(|output| -> Box<dyn FrameSink> {
                let thumb = Thumbnailer::new(source.width, source.height, tw, th);
                match output {
                    Output::Thumbnail => {
                        let keep_close = if (tw, th) == (source.width, source.height) { 0 } else { source.keep_close };
                        let enc =
                            AnimEncoder::new(tw, th, source.repeat, source.global_palette).with_keep_close(keep_close);
                        Box::new(AnimatedThumbnail { thumb, enc })
                    }
                    Output::Still => {
                        Box::new(StillThumbnail { width: tw, height: th, thumb: Some(thumb), first: None })
                    }
                }
            })
            .collect();
        Sinks(sinks)
    }

    /// Feeds one composited frame to every sink.
    pub(crate) fn frame(&mut self, frame: &CanvasFrame<'_>) -> Result<(), MediaError> {
        self.0.iter_mut().try_for_each(|sink| sink.frame(frame))
    }

    /// Whether decoding should go on. With no sinks at all the whole file is still decoded, as
    /// a check that it is sound.
    pub(crate) fn want_more(&self) -> bool {
        self.0.is_empty() || self.0.iter().any(|sink| sink.wants_more())
    }

    /// The renditions, in the order the outputs were asked for.
    pub(crate) fn finish(self) -> Result<Vec<Rendition>, MediaError> {
        self.0.into_iter().map(FrameSink::finish).collect()
    }
}
