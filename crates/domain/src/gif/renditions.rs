//! The files a GIF is kept as: their kinds, sizes and content types.

/// The file extension for an image content type gifshelf stores.
pub fn extension_for(content_type: &str) -> Option<&'static str> {
    match content_type {
        "image/gif" => Some("gif"),
        "image/png" => Some("png"),
        "image/jpeg" => Some("jpg"),
        "image/webp" => Some("webp"),
        "video/mp4" => Some("mp4"),
        "video/webm" => Some("webm"),
        _ => None,
    }
}

/// The kinds of file a GIF is kept as. A new kind (a video, a size a chat client asks for) is one
/// variant here; it is stored as one more row, never as new columns. Widths never upscale and
/// heights keep the aspect ratio.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RenditionKind {
    /// The bytes as uploaded (metadata aside).
    Original,
    /// Every frame, at most 320 px wide.
    Thumbnail,
    /// The first frame, same width, a still format.
    Still,
    /// Animated GIF at most 220 wide (Tenor's `tinygif`).
    Tiny,
    /// Animated GIF at most 90 high (Tenor's `nanogif`).
    Nano,
    /// Animated, 200 high (GIPHY's `fixed_height`), never upscaled.
    FixedHeight,
    /// The GIF at its own size, re-optimised; kept only when at least 10 % smaller than the original.
    Medium,
    /// H.264 in MP4 (yuv420p, even dimensions, `+faststart`) at the original size.
    Mp4,
    /// H.264 in MP4 at most 320 wide.
    Mp4Small,
    /// VP9 in WebM at the original size.
    Webm,
    /// VP9 in WebM at most 320 wide.
    WebmSmall,
    /// Animated WebP (lossy, with alpha) at the original size.
    Webp,
    /// Animated WebP, 200 high like `fixed_height`.
    WebpFixedHeight,
    /// Animated WebP at most 220 wide like `tiny`.
    WebpTiny,
    /// Animated WebP at most 90 high like `nano`.
    WebpNano,
    /// The first frame as a still WebP (lossy, with alpha) at most [`POSTER_WIDTH`] wide: what the
    /// detail page paints first, at its display size, before the animation arrives.
    Poster,
}

/// The widest poster: the detail page's frame on a phone (about 380 CSS pixels at a device pixel
/// ratio of 1.75) and most of it on a desktop, at a few kilobytes.
pub const POSTER_WIDTH: u32 = 640;

/// The display sizes renditions come in; within one size a browser plays the smallest file of
/// those it supports (the `preferred` one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RenditionSize {
    /// The original's dimensions: `original`, `medium`, `mp4`, `webm`.
    Full,
    /// The gallery's: `thumbnail`, `mp4_small`, `webm_small`.
    Small,
    Still,
    Tiny,
    Nano,
    FixedHeight,
    /// The detail page's first paint: `poster`.
    Poster,
}

impl RenditionKind {
    /// Every kind, in a stable order.
    pub const ALL: [Self; 16] = [
        Self::Original,
        Self::Thumbnail,
        Self::Still,
        Self::Tiny,
        Self::Nano,
        Self::FixedHeight,
        Self::Medium,
        Self::Mp4,
        Self::Mp4Small,
        Self::Webm,
        Self::WebmSmall,
        Self::Webp,
        Self::WebpFixedHeight,
        Self::WebpTiny,
        Self::WebpNano,
        Self::Poster,
    ];

    /// What an upload stores before it answers: the original and what every screen shows.
    pub const AT_UPLOAD: [Self; 3] = [Self::Original, Self::Thumbnail, Self::Still];

    /// The name stored and shown (`original`, `mp4_small`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Original => "original",
            Self::Thumbnail => "thumbnail",
            Self::Still => "still",
            Self::Tiny => "tiny",
            Self::Nano => "nano",
            Self::FixedHeight => "fixed_height",
            Self::Medium => "medium",
            Self::Mp4 => "mp4",
            Self::Mp4Small => "mp4_small",
            Self::Webm => "webm",
            Self::WebmSmall => "webm_small",
            Self::Webp => "webp",
            Self::WebpFixedHeight => "webp_fixed_height",
            Self::WebpTiny => "webp_tiny",
            Self::WebpNano => "webp_nano",
            Self::Poster => "poster",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }

    /// The stem of its file names, in the blob store and in downloads by id: the kind's name,
    /// but `static` for stills (the names GIFs had before renditions became rows).
    pub fn file_stem(self) -> &'static str {
        match self {
            Self::Still => "static",
            other => other.as_str(),
        }
    }

    pub fn is_video(self) -> bool {
        matches!(self, Self::Mp4 | Self::Mp4Small | Self::Webm | Self::WebmSmall)
    }

    /// The animated WebPs.
    pub fn is_webp(self) -> bool {
        matches!(self, Self::Webp | Self::WebpFixedHeight | Self::WebpTiny | Self::WebpNano)
    }

    /// One frame, never an animation: the static thumbnail and the poster.
    pub fn is_still(self) -> bool {
        matches!(self, Self::Still | Self::Poster)
    }

    /// Made by the `ffmpeg` child from the composited frames (the videos and the WebPs), and so
    /// only where `ffmpeg` is; of a still image too (its one frame, a one-second loop).
    pub fn needs_ffmpeg(self) -> bool {
        self.is_video() || self.needs_libwebp()
    }

    /// Encoded by `libwebp`, so made only where `ffmpeg` has it: the animated WebPs and the poster.
    pub fn needs_libwebp(self) -> bool {
        self.is_webp() || self == Self::Poster
    }

    pub fn size(self) -> RenditionSize {
        match self {
            Self::Original | Self::Medium | Self::Mp4 | Self::Webm | Self::Webp => RenditionSize::Full,
            Self::Thumbnail | Self::Mp4Small | Self::WebmSmall => RenditionSize::Small,
            Self::Still => RenditionSize::Still,
            Self::Tiny | Self::WebpTiny => RenditionSize::Tiny,
            Self::Nano | Self::WebpNano => RenditionSize::Nano,
            Self::FixedHeight | Self::WebpFixedHeight => RenditionSize::FixedHeight,
            Self::Poster => RenditionSize::Poster,
        }
    }

    /// Whether a GIF with this many frames should end up with this kind: every kind but
    /// `medium`, which is for animations only and then still optional (kept only when smaller),
    /// so it is never "missing". A still image gets videos and WebPs too (a one-second loop), so
    /// that the chat APIs name a real file of each format.
    pub fn expected_for(self, frames: i32) -> bool {
        self != Self::Medium && frames > 0
    }

    /// Whether the job that makes renditions should try this kind for a GIF with this many frames.
    pub fn made_for(self, frames: i32) -> bool {
        self.expected_for(frames) || (self == Self::Medium && frames > 1)
    }
}

/// One stored file of a GIF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendition {
    pub kind: RenditionKind,
    /// Where the bytes live in the blob store; chosen by the server, never from a file name.
    pub key: String,
    pub content_type: String,
    pub size: i64,
    pub width: i32,
    pub height: i32,
    /// Frames in the file (1 for stills; a video may have fewer than the GIF when the GIF
    /// repeats identical frames).
    pub frames: i32,
    /// Total play time of one loop; `None` when not known (files stored before it was recorded).
    pub duration_ms: Option<i32>,
    /// The video codec (`h264`, `vp9`); `None` for images.
    pub codec: Option<String>,
    /// The smallest animated file of its size a browser should play (see [`Renditions::with_preferred`]).
    pub preferred: bool,
}

impl Rendition {
    /// The extension that matches the stored bytes (`bin` for a type we never store).
    pub fn extension(&self) -> &'static str {
        extension_for(&self.content_type).unwrap_or("bin")
    }
}

/// The files of a GIF, at most one per kind, in kind order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Renditions(Vec<Rendition>);

impl Renditions {
    /// Keeps the last rendition of each kind and orders them by kind.
    pub fn new(renditions: impl IntoIterator<Item = Rendition>) -> Self {
        let mut items: Vec<Rendition> = Vec::new();
        for rendition in renditions {
            items.retain(|r| r.kind != rendition.kind);
            items.push(rendition);
        }
        items.sort_by_key(|r| r.kind);
        Self(items)
    }

    pub fn get(&self, kind: RenditionKind) -> Option<&Rendition> {
        self.0.iter().find(|r| r.kind == kind)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Rendition> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Marks, for each size, the smallest animated file a browser should play. Stills and posters
    /// are never preferred (they are not animations). The animated WebPs (lossy, with alpha)
    /// compete when the GIF is an animation: every browser plays them with their transparency, and
    /// on a transparent animation they are often a third of its GIF. Videos compete only when the
    /// animation is also `opaque` (MP4 has no transparency): on a pixel-art or transparent GIF whose
    /// video is larger or wrong, the GIF or the WebP stays preferred. At equal sizes the GIF wins,
    /// then the video.
    #[must_use]
    pub fn with_preferred(mut self, opaque: bool, animated: bool) -> Self {
        let candidate = |r: &Rendition| {
            !r.kind.is_still() && (!r.kind.is_webp() || animated) && (!r.kind.is_video() || (opaque && animated))
        };
        let sizes: Vec<RenditionSize> = self.0.iter().map(|r| r.kind.size()).collect();
        for size in sizes {
            let best = self
                .0
                .iter()
                .filter(|r| r.kind.size() == size && candidate(r))
                .min_by_key(|r| (r.size, r.kind.is_webp(), r.kind.is_video(), r.kind))
                .map(|r| r.kind);
            for r in self.0.iter_mut().filter(|r| r.kind.size() == size) {
                r.preferred = Some(r.kind) == best;
            }
        }
        self
    }

    pub fn into_vec(self) -> Vec<Rendition> {
        self.0
    }
}
