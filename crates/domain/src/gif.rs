//! GIFs, tags and the rules of spec §5 for them.

use chrono::NaiveDateTime;

use crate::user::{UserId, Username};
use crate::ValidationError;

pub const TITLE_MAX: usize = 100;
pub const DESCRIPTION_MAX: usize = 500;
pub const TAG_NAME_MAX: usize = 50;
/// Most tags one GIF may carry (the editor shows ten suggestions; twenty is plenty).
pub const TAGS_PER_GIF_MAX: usize = 20;
/// Page size when the client gives none (spec §7), and the largest we serve.
pub const DEFAULT_PAGE_SIZE: u32 = 6;
pub const MAX_PAGE_SIZE: u32 = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GifId(pub i64);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TagId(pub i64);

/// A required title of at most 100 characters, trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Title(String);

impl Title {
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let title = raw.trim();
        if title.is_empty() {
            return Err(ValidationError::new("title", "Please enter a title for your GIF."));
        }
        if title.chars().count() > TITLE_MAX {
            return Err(ValidationError::new("title", format!("Title must be at most {TITLE_MAX} characters")));
        }
        if title.chars().any(char::is_control) {
            return Err(ValidationError::new("title", "Title must not contain control characters"));
        }
        Ok(Self(title.to_owned()))
    }

    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An optional description of at most 500 characters, trimmed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Description(String);

impl Description {
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let text = raw.trim();
        if text.chars().count() > DESCRIPTION_MAX {
            return Err(ValidationError::new(
                "description",
                format!("Description must be at most {DESCRIPTION_MAX} characters"),
            ));
        }
        if text.chars().any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r') {
            return Err(ValidationError::new("description", "Description must not contain control characters"));
        }
        Ok(Self(text.to_owned()))
    }

    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A tag name: trimmed, lower-cased, 1 to 50 characters, no control characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TagName(String);

impl TagName {
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let name = raw.trim().to_lowercase();
        if name.is_empty() {
            return Err(ValidationError::new("name", "Tag name must not be blank"));
        }
        if name.chars().count() > TAG_NAME_MAX {
            return Err(ValidationError::new("name", format!("Tag names must be at most {TAG_NAME_MAX} characters")));
        }
        if name.chars().any(char::is_control) {
            return Err(ValidationError::new("name", "Tag names must not contain control characters"));
        }
        Ok(Self(name))
    }

    /// Every name parsed, duplicates dropped (first occurrence kept), at most 20.
    pub fn parse_list<S: AsRef<str>>(raw: &[S]) -> Result<Vec<Self>, ValidationError> {
        let mut names: Vec<Self> = Vec::with_capacity(raw.len());
        for item in raw {
            let name = Self::parse(item.as_ref()).map_err(|e| ValidationError::new("tags", e.message))?;
            if !names.contains(&name) {
                names.push(name);
            }
        }
        if names.len() > TAGS_PER_GIF_MAX {
            return Err(ValidationError::new("tags", format!("A GIF can have at most {TAGS_PER_GIF_MAX} tags")));
        }
        Ok(names)
    }

    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A tag with how many GIFs carry it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    pub id: TagId,
    pub name: TagName,
    pub count: i64,
}

/// A tag as a GIF lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagRef {
    pub id: TagId,
    pub name: TagName,
}

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
}

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
}

impl RenditionKind {
    /// Every kind, in a stable order.
    pub const ALL: [Self; 11] = [
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

    pub fn size(self) -> RenditionSize {
        match self {
            Self::Original | Self::Medium | Self::Mp4 | Self::Webm => RenditionSize::Full,
            Self::Thumbnail | Self::Mp4Small | Self::WebmSmall => RenditionSize::Small,
            Self::Still => RenditionSize::Still,
            Self::Tiny => RenditionSize::Tiny,
            Self::Nano => RenditionSize::Nano,
            Self::FixedHeight => RenditionSize::FixedHeight,
        }
    }

    /// Whether a GIF with this many frames should end up with this kind. Videos and `medium`
    /// are for animations only; `medium` is then still optional (kept only when smaller), so it
    /// is never "missing".
    pub fn expected_for(self, frames: i32) -> bool {
        match self {
            Self::Medium => false,
            kind if kind.is_video() => frames > 1,
            _ => true,
        }
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

    /// Marks, for each size, the smallest animated file a browser should play. Videos compete
    /// only when the animation is `opaque` (MP4 has no transparency): on a pixel-art or
    /// transparent GIF whose video is larger or wrong, the GIF stays preferred. Stills are never
    /// preferred (they are not animations).
    #[must_use]
    pub fn with_preferred(mut self, opaque: bool) -> Self {
        let candidate = |r: &Rendition| r.kind != RenditionKind::Still && (opaque || !r.kind.is_video());
        let sizes: Vec<RenditionSize> = self.0.iter().map(|r| r.kind.size()).collect();
        for size in sizes {
            let best = self
                .0
                .iter()
                .filter(|r| r.kind.size() == size && candidate(r))
                .min_by_key(|r| (r.size, r.kind.is_video(), r.kind))
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

/// A stored GIF (or still image) with its renditions.
#[derive(Debug, Clone, PartialEq)]
pub struct Gif {
    pub id: GifId,
    pub share_id: String,
    pub title: Title,
    pub description: Description,
    pub tags: Vec<TagRef>,
    pub view_count: i64,
    pub uploader_id: UserId,
    pub uploader: Username,
    /// UTC.
    pub uploaded_at: NaiveDateTime,
    pub frame_count: i32,
    pub renditions: Renditions,
    /// How many people have the GIF among their favourites.
    pub favourite_count: i64,
    /// Whether the person asking has it among their favourites (false when nobody asks, as on a
    /// public share page).
    pub favourite: bool,
    /// How often it was posted from a chat app (a Tenor `registershare`, a slash command).
    pub share_count: i64,
}

impl Gif {
    /// Every blob the GIF keeps, one per rendition.
    pub fn blob_keys(&self) -> impl Iterator<Item = &str> {
        self.renditions.iter().map(|r| r.key.as_str())
    }

    pub fn rendition(&self, kind: RenditionKind) -> Option<&Rendition> {
        self.renditions.get(kind)
    }
}

/// What it takes to store a GIF; tags that do not exist yet are created.
#[derive(Debug, Clone)]
pub struct NewGif {
    pub share_id: String,
    pub title: Title,
    pub description: Description,
    pub tags: Vec<TagName>,
    pub uploader_id: UserId,
    pub uploaded_at: NaiveDateTime,
    pub frame_count: i32,
    /// The original is required: its type and size are the GIF's own (statistics group by them).
    pub renditions: Renditions,
    /// The stored original's fingerprints (duplicate detection).
    pub fingerprint: Fingerprint,
}

/// What identifies an image's content: the SHA-256 of the stored original (byte-identical
/// uploads), and a perceptual hash (the same picture resized or re-encoded).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fingerprint {
    /// Lower-case hex.
    pub sha256: String,
    /// `None` when no frame could be hashed.
    pub phash: Option<PerceptualHash>,
}

/// A 64-bit difference hash (dHash) of an image: each bit says whether a cell of a 9×8 grey grid
/// is brighter than its right neighbour. Close pictures have hashes a few bits apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PerceptualHash(pub u64);

/// Hashes at most this many bits apart are "likely the same picture". Measured on 3 real and 80
/// generated GIFs (`crates/media/tests/phash.rs`): 161 of 166 resized and re-encoded copies stay
/// within it (mean 1.6 bits), 2 of 3403 distinct pairs fall inside it (mean 32 bits apart).
pub const NEAR_DUPLICATE_BITS: u32 = 6;

impl PerceptualHash {
    /// How many bits differ.
    pub fn distance(self, other: Self) -> u32 {
        (self.0 ^ other.0).count_ones()
    }

    /// Whether the two hashes are close enough to be the same picture.
    pub fn is_near(self, other: Self) -> bool {
        self.distance(other) <= NEAR_DUPLICATE_BITS
    }

    /// The four 16-bit bands, most significant first: the indexed columns a lookup starts from
    /// (two hashes within 3 bits share at least one band whole).
    pub fn bands(self) -> [i32; 4] {
        [48, 32, 16, 0].map(|shift| i32::from((self.0 >> shift) as u16))
    }

    /// The bits as the signed 64-bit integer databases store.
    pub fn as_i64(self) -> i64 {
        i64::from_ne_bytes(self.0.to_ne_bytes())
    }

    pub fn from_i64(value: i64) -> Self {
        Self(u64::from_ne_bytes(value.to_ne_bytes()))
    }
}

/// A GIF named by its id and title (a link to it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GifSummary {
    pub id: GifId,
    pub title: Title,
}

/// The editable fields (spec §3 "Update payload").
#[derive(Debug, Clone)]
pub struct GifEdit {
    pub title: Title,
    pub description: Description,
    pub tags: Vec<TagName>,
    /// When the edit happens (UTC): the creation time of tags it creates.
    pub at: NaiveDateTime,
}

/// Which GIFs a list shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GifFilter {
    All,
    Tag(TagName),
    /// By uploader, compared case-insensitively.
    User(String),
    /// Every word must be found in the title, the description or a tag name (case-insensitive).
    Search(Vec<String>),
    /// A person's favourites. Here `Newest` and `Oldest` order by when they were favourited.
    Favourites(UserId),
}

/// The order of a list (`sort=`). Every order breaks ties by id, so pages never overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GifSort {
    /// Newest upload first (the spec's order).
    #[default]
    Newest,
    Oldest,
    /// Most views first.
    Views,
    /// Most favourited first.
    Favourites,
    /// Title A to Z, case-insensitively.
    Title,
}

impl GifSort {
    pub const ALL: [Self; 5] = [Self::Newest, Self::Oldest, Self::Views, Self::Favourites, Self::Title];

    /// The name the API takes (`newest`, `oldest`, `views`, `favourites`, `title`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Newest => "newest",
            Self::Oldest => "oldest",
            Self::Views => "views",
            Self::Favourites => "favourites",
            Self::Title => "title",
        }
    }

    /// # Errors
    /// A name that is none of [`GifSort::ALL`].
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        Self::ALL.into_iter().find(|s| s.as_str() == raw).ok_or_else(|| {
            ValidationError::new("sort", "Sort must be one of newest, oldest, views, favourites, title.")
        })
    }
}

/// Longest search term accepted, in bytes.
pub const SEARCH_TERM_MAX_BYTES: usize = 200;
/// Words of a search term that count; the rest are ignored.
pub const SEARCH_WORDS_MAX: usize = 16;

impl GifFilter {
    /// The search of product.md §10: split on white space, lower-cased, at most 16 words. An empty
    /// term lists everything.
    ///
    /// # Errors
    /// A term longer than 200 bytes.
    pub fn search(term: &str) -> Result<Self, ValidationError> {
        if term.len() > SEARCH_TERM_MAX_BYTES {
            return Err(ValidationError::new(
                "q",
                format!("The search term is too long (at most {SEARCH_TERM_MAX_BYTES} characters)."),
            ));
        }
        let words: Vec<String> = term.split_whitespace().map(str::to_lowercase).take(SEARCH_WORDS_MAX).collect();
        Ok(if words.is_empty() { Self::All } else { Self::Search(words) })
    }
}

/// A page request: page from 0, size 1 to 100.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    pub page: u32,
    pub size: u32,
}

impl PageRequest {
    pub fn new(page: Option<u32>, size: Option<u32>) -> Result<Self, ValidationError> {
        let size = size.unwrap_or(DEFAULT_PAGE_SIZE);
        if size == 0 || size > MAX_PAGE_SIZE {
            return Err(ValidationError::new("size", format!("Page size must be between 1 and {MAX_PAGE_SIZE}")));
        }
        let page = page.unwrap_or(0);
        if u64::from(page) * u64::from(size) > 10_000_000 {
            return Err(ValidationError::new("page", "Page is out of range"));
        }
        Ok(Self { page, size })
    }

    pub fn offset(&self) -> i64 {
        i64::from(self.page) * i64::from(self.size)
    }
}

/// One page of a list, with the total number of matches.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub request: PageRequest,
    pub total: i64,
}

impl<T> Page<T> {
    pub fn total_pages(&self) -> i64 {
        let size = i64::from(self.request.size);
        (self.total + size - 1) / size
    }

    pub fn has_next(&self) -> bool {
        i64::from(self.request.page) + 1 < self.total_pages()
    }

    pub fn has_previous(&self) -> bool {
        self.request.page > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles() {
        let long = "t".repeat(101);
        let cases: &[(&str, Option<&str>)] = &[
            ("  Dancing cat ", None),
            ("", Some("Please enter a title for your GIF.")),
            ("   ", Some("Please enter a title for your GIF.")),
            (&long, Some("Title must be at most 100 characters")),
            ("bell\u{7}", Some("Title must not contain control characters")),
        ];
        for (input, expected) in cases {
            assert_eq!(Title::parse(input).err().map(|e| e.message).as_deref(), *expected, "{input:?}");
        }
        assert_eq!(Title::parse(&"é".repeat(100)).map(|t| t.as_str().chars().count()), Ok(100));
        assert_eq!(Title::parse(" x ").map(|t| t.as_str().to_owned()), Ok("x".into()));
    }

    #[test]
    fn descriptions() {
        assert!(Description::parse("").is_ok());
        assert!(Description::parse(&"d".repeat(500)).is_ok());
        assert_eq!(
            Description::parse(&"d".repeat(501)).err().map(|e| e.message),
            Some("Description must be at most 500 characters".into())
        );
        assert!(Description::parse("two\nlines").is_ok());
    }

    #[test]
    fn tag_names_are_trimmed_lower_cased_and_bounded() {
        let cases: &[(&str, Result<&str, &str>)] = &[
            ("  Funny ", Ok("funny")),
            ("CATS", Ok("cats")),
            ("", Err("Tag name must not be blank")),
            ("  ", Err("Tag name must not be blank")),
            ("x\u{0}y", Err("Tag names must not contain control characters")),
        ];
        for (input, expected) in cases {
            let got = TagName::parse(input).map(|t| t.as_str().to_owned()).map_err(|e| e.message);
            assert_eq!(got.as_ref().map(String::as_str).map_err(String::as_str), *expected, "{input:?}");
        }
        assert!(TagName::parse(&"a".repeat(50)).is_ok());
        assert!(TagName::parse(&"a".repeat(51)).is_err());
    }

    #[test]
    fn tag_lists_drop_duplicates_and_have_a_cap() {
        let list = TagName::parse_list(&["Cat", "cat ", "dog"]).map(|l| l.into_iter().map(|t| t.0).collect::<Vec<_>>());
        assert_eq!(list, Ok(vec!["cat".to_owned(), "dog".to_owned()]));
        let many: Vec<String> = (0..21).map(|i| format!("t{i}")).collect();
        assert!(TagName::parse_list(&many).is_err());
        assert_eq!(TagName::parse_list(&["ok", " "]).err().map(|e| e.field), Some("tags"));
    }

    fn rendition(kind: RenditionKind, size: i64) -> Rendition {
        Rendition {
            kind,
            key: kind.as_str().into(),
            content_type: if kind.is_video() { "video/mp4" } else { "image/gif" }.into(),
            size,
            width: 1,
            height: 1,
            frames: 1,
            duration_ms: None,
            codec: None,
            preferred: false,
        }
    }

    fn preferred(set: &Renditions) -> Vec<&'static str> {
        set.iter().filter(|r| r.preferred).map(|r| r.kind.as_str()).collect()
    }

    #[test]
    fn the_smallest_animated_file_of_each_size_is_preferred() {
        use RenditionKind::*;
        // Photo-like: the videos are far smaller.
        let photo = Renditions::new([
            rendition(Original, 1000),
            rendition(Medium, 900),
            rendition(Mp4, 120),
            rendition(Webm, 100),
            rendition(Thumbnail, 300),
            rendition(Mp4Small, 40),
            rendition(WebmSmall, 50),
            rendition(Still, 10),
            rendition(Tiny, 90),
        ]);
        assert_eq!(preferred(&photo.clone().with_preferred(true)), ["tiny", "mp4_small", "webm"]);
        // Transparent: videos never compete.
        assert_eq!(preferred(&photo.with_preferred(false)), ["thumbnail", "tiny", "medium"]);
        // Pixel art: the video is larger, the GIF stays.
        let pixel_art = Renditions::new([rendition(Original, 500), rendition(Mp4, 800), rendition(Webm, 900)]);
        assert_eq!(preferred(&pixel_art.with_preferred(true)), ["original"]);
        // Equal sizes: the GIF (every browser plays it).
        let tie = Renditions::new([rendition(Thumbnail, 100), rendition(Mp4Small, 100)]);
        assert_eq!(preferred(&tie.with_preferred(true)), ["thumbnail"]);
    }

    #[test]
    fn videos_and_medium_are_for_animations_and_medium_is_optional() {
        assert!(RenditionKind::Mp4.expected_for(2));
        assert!(!RenditionKind::Mp4.expected_for(1));
        assert!(RenditionKind::Tiny.expected_for(1));
        assert!(!RenditionKind::Medium.expected_for(30));
        assert!(RenditionKind::Medium.made_for(30));
        assert!(!RenditionKind::Medium.made_for(1));
        assert_eq!(RenditionKind::WebmSmall.size(), RenditionSize::Small);
    }

    #[test]
    fn renditions_keep_one_per_kind_in_kind_order() {
        let r = |kind, key: &str| Rendition { key: key.into(), ..rendition(kind, 1) };
        let set = Renditions::new([
            r(RenditionKind::Still, "s"),
            r(RenditionKind::Original, "o1"),
            r(RenditionKind::Original, "o2"),
        ]);
        assert_eq!(set.iter().map(|x| x.key.as_str()).collect::<Vec<_>>(), ["o2", "s"]);
        assert_eq!(set.get(RenditionKind::Thumbnail), None);
        for kind in RenditionKind::ALL {
            assert_eq!(RenditionKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(RenditionKind::parse("static"), None);
    }

    #[test]
    fn extensions_follow_the_stored_type() {
        let cases = [
            ("image/gif", Some("gif")),
            ("image/png", Some("png")),
            ("image/jpeg", Some("jpg")),
            ("image/webp", Some("webp")),
            ("text/html", None),
        ];
        for (content_type, expected) in cases {
            assert_eq!(extension_for(content_type), expected, "{content_type}");
        }
    }

    #[test]
    fn search_terms() {
        assert_eq!(GifFilter::search("  "), Ok(GifFilter::All));
        assert_eq!(GifFilter::search(" Happy  CAT "), Ok(GifFilter::Search(vec!["happy".into(), "cat".into()])));
        let many = (0..20).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
        assert!(matches!(GifFilter::search(&many), Ok(GifFilter::Search(w)) if w.len() == 16));
        assert!(GifFilter::search(&"x".repeat(200)).is_ok());
        assert_eq!(
            GifFilter::search(&"x".repeat(201)).err().map(|e| e.message),
            Some("The search term is too long (at most 200 characters).".into())
        );
    }

    #[test]
    fn sorts_parse_their_own_names_only() {
        for sort in GifSort::ALL {
            assert_eq!(GifSort::parse(sort.as_str()), Ok(sort));
        }
        assert_eq!(GifSort::default(), GifSort::Newest);
        for bad in ["", "Newest", "random", "views desc"] {
            assert_eq!(GifSort::parse(bad).err().map(|e| e.field), Some("sort"), "{bad:?}");
        }
    }

    #[test]
    fn paging() {
        assert_eq!(PageRequest::new(None, None), Ok(PageRequest { page: 0, size: 6 }));
        assert!(PageRequest::new(Some(0), Some(0)).is_err());
        assert!(PageRequest::new(Some(0), Some(101)).is_err());
        let page = |p, total| Page::<()> { items: vec![], request: PageRequest { page: p, size: 12 }, total };
        assert_eq!((page(0, 0).total_pages(), page(0, 0).has_next(), page(0, 0).has_previous()), (0, false, false));
        assert_eq!((page(0, 13).total_pages(), page(0, 13).has_next()), (2, true));
        assert_eq!((page(1, 13).has_next(), page(1, 13).has_previous()), (false, true));
        assert_eq!(page(0, 12).total_pages(), 1);
    }
}
