//! A stored GIF, what it takes to store one, and what an edit changes.

use chrono::NaiveDateTime;

use super::fingerprint::Fingerprint;
use super::renditions::{Rendition, RenditionKind, Renditions};
use super::values::{CaptionText, Description, GifId, Rating, TagName, TagRef, Title};
use crate::job::Task;
use crate::user::{UserId, Username};

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
    pub rating: Rating,
    /// The GIF this one was made from in the maker ("Edit a copy"), while that one exists.
    pub made_from: Option<GifSummary>,
    /// Set when a moderator hid the GIF: then only its owner and admins see it.
    pub hidden: Option<Hidden>,
    /// The text in the GIF ("Text in this GIF"): `None` while it was not read or has none.
    pub caption_text: Option<CaptionText>,
    /// Some pixel of some frame is transparent (GIPHY's stickers are these GIFs); `None` while
    /// not known (stored before it was recorded, until the renditions backfill looks).
    pub transparent: Option<bool>,
}

/// One file of a GIF with what deciding who may read it takes: the media routes' lookup, which
/// reads neither tags nor the other files.
#[derive(Debug, Clone, PartialEq)]
pub struct GifFile {
    pub gif_id: GifId,
    pub share_id: String,
    pub uploader_id: UserId,
    /// A moderator hid the GIF.
    pub hidden: bool,
    /// `None` when the GIF has no file of the kind asked for (yet).
    pub rendition: Option<Rendition>,
}

impl GifFile {
    /// The file of `kind` of a GIF already loaded whole.
    pub fn of(gif: &Gif, kind: RenditionKind) -> Self {
        Self {
            gif_id: gif.id,
            share_id: gif.share_id.clone(),
            uploader_id: gif.uploader_id,
            hidden: gif.hidden.is_some(),
            rendition: gif.rendition(kind).cloned(),
        }
    }

    /// As [`Gif::visible_to`].
    pub fn visible_to(&self, viewer: UserId, admin: bool) -> bool {
        seen(self.hidden, self.uploader_id, viewer, admin)
    }
}

/// Anyone sees a GIF while it is not hidden; its owner and admins once a moderator hid it.
fn seen(hidden: bool, uploader: UserId, viewer: UserId, admin: bool) -> bool {
    !hidden || admin || uploader == viewer
}

/// A moderator hid the GIF, when and why (the reason its owner is shown).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hidden {
    /// UTC.
    pub at: NaiveDateTime,
    pub reason: String,
}

impl Gif {
    /// Whether `viewer` may see the GIF: anyone while it is not hidden; its owner and admins
    /// once a moderator hid it.
    pub fn visible_to(&self, viewer: UserId, admin: bool) -> bool {
        seen(self.hidden.is_some(), self.uploader_id, viewer, admin)
    }

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
    pub rating: Rating,
    /// The original is required: its type and size are the GIF's own (statistics group by them).
    pub renditions: Renditions,
    /// The stored original's fingerprints (duplicate detection).
    pub fingerprint: Fingerprint,
    /// The jobs queued with the row, in its transaction, each made from the new GIF's id
    /// (`Task::MakeRenditions`): a GIF is never stored without the work it needs.
    pub jobs: Vec<fn(GifId) -> Task>,
    /// Text known at upload (the caption the maker drew): stored as edited, so that reading the
    /// GIF's frames later does not replace it.
    pub caption_text: Option<CaptionText>,
    /// Some pixel of some frame is transparent (what the pipeline saw decoding every frame).
    pub transparent: bool,
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
    /// `None` keeps the GIF's rating.
    pub rating: Option<Rating>,
    /// `None` keeps the GIF's text; `Some(None)` clears it. Either way set, it is kept over later
    /// reads of the frames.
    pub caption_text: Option<Option<CaptionText>>,
    /// When the edit happens (UTC): the creation time of tags it creates.
    pub at: NaiveDateTime,
}
