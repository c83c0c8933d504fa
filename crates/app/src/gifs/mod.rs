//! GIFs: upload, list, view, edit, delete, media, tags, and the consistency sweep.

mod delete;
mod duplicates;
mod favourites;
mod from_url;
mod fsck;
mod list;
mod suggestions;
mod tags;
mod update;
mod upload;

use std::sync::Arc;

use gifshelf_domain::gif::{Gif, GifFile, GifId, Rating, RenditionKind};
use gifshelf_domain::ports::{
    BlobKeyIndex, BlobStore, Clock, FavouriteRepository, FingerprintRepository, GifRepository, IdGenerator,
    MediaProcessor, TagRepository, TermRepository,
};
use gifshelf_domain::RepoError;

pub use duplicates::BackfillReport;
pub use favourites::FavouriteState;
pub use from_url::{FetchLimits, UrlImport, UrlUploadInput, FETCH_BUSY};
pub use fsck::FsckReport;
pub use update::EditInput;
pub(crate) use upload::rendition_of;
pub use upload::{UploadInput, Uploaded, LIKELY_DUPLICATES_MAX};

use crate::auth::Actor;
use crate::AppError;

/// The GIF use cases with their ports.
pub struct GifService {
    pub(crate) gifs: Arc<dyn GifRepository>,
    /// Duplicates: what an upload looks like, the groups an admin reviews, the backfill.
    pub(crate) fingerprints: Arc<dyn FingerprintRepository>,
    /// What `fsck` compares with the blob store.
    pub(crate) blob_keys: Arc<dyn BlobKeyIndex>,
    pub(crate) tags: Arc<dyn TagRepository>,
    pub(crate) favourites: Arc<dyn FavouriteRepository>,
    pub(crate) blobs: Arc<dyn BlobStore>,
    pub(crate) media: Arc<dyn MediaProcessor>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) clock: Arc<dyn Clock>,
    /// Searches counted (first pages with results) and suggestions as people type.
    pub(crate) terms: Arc<dyn TermRepository>,
    /// The rating of an upload that names none (`GIFSHELF_DEFAULT_RATING`).
    pub(crate) default_rating: Rating,
    /// Storage and daily upload quotas every new GIF is checked against; none: unlimited.
    pub(crate) quotas: Option<Arc<crate::accounts::QuotaGate>>,
    /// Whether each new GIF's text is read (a `read_text` job with its row).
    pub(crate) reads_text: bool,
}

/// The ports the GIF use cases run on, named (ten of them: too many to pass in order).
pub struct GifPorts {
    pub gifs: Arc<dyn GifRepository>,
    pub fingerprints: Arc<dyn FingerprintRepository>,
    pub blob_keys: Arc<dyn BlobKeyIndex>,
    pub tags: Arc<dyn TagRepository>,
    pub favourites: Arc<dyn FavouriteRepository>,
    pub blobs: Arc<dyn BlobStore>,
    pub media: Arc<dyn MediaProcessor>,
    pub ids: Arc<dyn IdGenerator>,
    pub clock: Arc<dyn Clock>,
    pub terms: Arc<dyn TermRepository>,
}

impl GifService {
    pub fn new(ports: GifPorts) -> Self {
        let GifPorts { gifs, fingerprints, blob_keys, tags, favourites, blobs, media, ids, clock, terms } = ports;
        Self {
            gifs,
            fingerprints,
            blob_keys,
            tags,
            favourites,
            blobs,
            media,
            ids,
            clock,
            terms,
            default_rating: Rating::G,
            reads_text: false,
            quotas: None,
        }
    }

    /// The rating uploads get when they name none (`g` unless configured).
    #[must_use]
    pub fn with_default_rating(mut self, rating: Rating) -> Self {
        self.default_rating = rating;
        self
    }

    /// The same service, queueing the reading of the text in every new GIF (Tesseract is there).
    #[must_use]
    pub fn with_text_reading(mut self, reads: bool) -> Self {
        self.reads_text = reads;
        self
    }

    /// The same service, checking every new GIF against the uploader's quotas.
    #[must_use]
    pub fn with_quotas(mut self, quotas: Arc<crate::accounts::QuotaGate>) -> Self {
        self.quotas = Some(quotas);
        self
    }

    /// Whether `current` has room for one more GIF of `adding` bytes under their quotas.
    ///
    /// # Errors
    /// `QuotaExceeded` naming the quota; storage errors.
    pub async fn check_quota(&self, current: &Actor, adding: i64) -> Result<(), AppError> {
        match &self.quotas {
            Some(quotas) => quotas.check(current.id, adding).await,
            None => Ok(()),
        }
    }

    /// A GIF by id as `viewer` may see it, without counting a view.
    ///
    /// # Errors
    /// `NotFound` ("GIF not found"), also for a hidden GIF that is neither the viewer's nor asked
    /// for by an admin.
    pub async fn get(&self, viewer: &Actor, id: GifId) -> Result<Gif, AppError> {
        let gif = self.gifs.find(id).await.map_err(gif_not_found)?;
        seen_by(gif, viewer)
    }

    /// A GIF's file of `kind` (`None` while it has none) as `viewer` may read it: the media
    /// routes' lookup, which reads nothing else.
    ///
    /// # Errors
    /// As [`Self::get`].
    pub async fn file(&self, viewer: &Actor, id: GifId, kind: RenditionKind) -> Result<GifFile, AppError> {
        let file = self.gifs.find_file(id, kind).await.map_err(gif_not_found)?;
        if file.visible_to(viewer.id, viewer.is_admin()) {
            Ok(file)
        } else {
            Err(AppError::NotFound("GIF not found".into()))
        }
    }
}

/// The GIF when `viewer` may see it; a hidden GIF is "not found" to everyone else.
pub(crate) fn seen_by(gif: Gif, viewer: &Actor) -> Result<Gif, AppError> {
    if gif.visible_to(viewer.id, viewer.is_admin()) {
        Ok(gif)
    } else {
        Err(AppError::NotFound("GIF not found".into()))
    }
}

pub(crate) fn gif_not_found(err: RepoError) -> AppError {
    match err {
        RepoError::NotFound => AppError::NotFound("GIF not found".into()),
        other => AppError::from_repo(other),
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use chrono::{NaiveDate, NaiveDateTime};
    use gifshelf_domain::gif::{
        Description, Gif, GifId, Rendition, RenditionKind, Renditions, TagId, TagName, TagRef, Title,
    };
    use gifshelf_domain::ports::{
        MockBlobKeyIndex, MockBlobStore, MockClock, MockFavouriteRepository, MockFingerprintRepository,
        MockGifRepository, MockIdGenerator, MockMediaProcessor, MockTagRepository, MockTermRepository,
    };
    use gifshelf_domain::user::{UserId, Username};

    pub fn now() -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 22).and_then(|d| d.and_hms_opt(12, 0, 0)).unwrap_or_default()
    }

    fn rendition(kind: RenditionKind, key: &str) -> Rendition {
        Rendition {
            kind,
            key: key.into(),
            content_type: "image/gif".into(),
            size: 10,
            width: 10,
            height: 10,
            frames: 2,
            duration_ms: Some(200),
            codec: None,
            preferred: kind != RenditionKind::Still,
        }
    }

    pub fn gif(id: i64, uploader: i64) -> Gif {
        Gif {
            id: GifId(id),
            share_id: "share".into(),
            title: Title::from_trusted("A gif".into()),
            description: Description::default(),
            tags: vec![TagRef { id: TagId(1), name: TagName::from_trusted("cats".into()) }],
            view_count: 0,
            uploader_id: UserId(uploader),
            uploader: Username::from_trusted(format!("user{uploader}")),
            uploaded_at: now(),
            frame_count: 3,
            favourite_count: 0,
            share_count: 0,
            made_from: None,
            favourite: false,
            rating: gifshelf_domain::gif::Rating::G,
            hidden: None,
            caption_text: None,
            transparent: Some(false),
            renditions: Renditions::new([
                rendition(RenditionKind::Original, "gifs/p/original.gif"),
                rendition(RenditionKind::Thumbnail, "gifs/p/thumbnail.gif"),
                rendition(RenditionKind::Still, "gifs/p/static.png"),
            ]),
        }
    }

    pub struct Mocks {
        pub gifs: MockGifRepository,
        pub fingerprints: MockFingerprintRepository,
        pub blob_keys: MockBlobKeyIndex,
        pub tags: MockTagRepository,
        pub favourites: MockFavouriteRepository,
        pub blobs: MockBlobStore,
        pub media: MockMediaProcessor,
        pub ids: MockIdGenerator,
        pub clock: MockClock,
        pub terms: MockTermRepository,
    }

    impl Mocks {
        pub fn new() -> Self {
            let mut clock = MockClock::new();
            clock.expect_now().return_const(now());
            let mut ids = MockIdGenerator::new();
            ids.expect_share_id().return_const("s3cr3tShareId".to_owned());
            ids.expect_blob_prefix().return_const("prefix".to_owned());
            // Nobody has favourites unless a test says otherwise.
            let mut favourites = MockFavouriteRepository::new();
            favourites.expect_favourited_among().returning(|_, _| Ok(Vec::new()));
            Self {
                gifs: MockGifRepository::new(),
                fingerprints: MockFingerprintRepository::new(),
                blob_keys: MockBlobKeyIndex::new(),
                tags: MockTagRepository::new(),
                favourites,
                blobs: MockBlobStore::new(),
                media: MockMediaProcessor::new(),
                ids,
                clock,
                terms: MockTermRepository::new(),
            }
        }

        pub fn service(self) -> super::GifService {
            use std::sync::Arc;
            super::GifService::new(super::GifPorts {
                gifs: Arc::new(self.gifs),
                fingerprints: Arc::new(self.fingerprints),
                blob_keys: Arc::new(self.blob_keys),
                tags: Arc::new(self.tags),
                favourites: Arc::new(self.favourites),
                blobs: Arc::new(self.blobs),
                media: Arc::new(self.media),
                ids: Arc::new(self.ids),
                clock: Arc::new(self.clock),
                terms: Arc::new(self.terms),
            })
        }
    }
}
