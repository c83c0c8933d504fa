use std::sync::Arc;

use gifshelf_domain::failpoint::{fail_point, UPLOAD_AFTER_COMMIT};
use gifshelf_domain::gif::{
    extension_for, CaptionText, Description, Gif, GifSummary, NewGif, Rating, Rendition, RenditionKind, Renditions,
    TagName, Title,
};
use gifshelf_domain::job::Task;
use gifshelf_domain::media::EncodedImage;
use gifshelf_domain::{RepoError, Unique};

use super::GifService;
use crate::auth::Actor;
use crate::AppError;

/// At most this many likely duplicates are named for one GIF.
pub const LIKELY_DUPLICATES_MAX: i64 = 5;

/// A stored upload, with the GIFs of the library it looks like (near perceptual hashes).
#[derive(Debug, Clone)]
pub struct Uploaded {
    pub gif: Gif,
    pub likely_duplicates: Vec<GifSummary>,
}

/// An upload as the HTTP layer received it.
#[derive(Debug, Clone)]
pub struct UploadInput {
    pub title: String,
    pub description: String,
    pub tags: Vec<String>,
    /// `g`, `pg`, `pg-13` or `r`; `None`: the configured default.
    pub rating: Option<String>,
    pub bytes: Arc<Vec<u8>>,
    /// Text known to be in the GIF (the caption the maker drew): kept as its text, and the frames
    /// are then not read.
    pub caption_text: Option<String>,
}

impl GifService {
    /// Stores an upload all or nothing: the blobs of every rendition are written first under fresh keys, the
    /// row is committed last, and on any failure every blob already written is deleted again.
    ///
    /// # Errors
    /// `Validation` for the form, `BadMedia` for refused bytes, `Duplicate` when the library has
    /// the same stored original, `Unavailable` when busy, `Internal` when storage fails (nothing
    /// is left behind).
    pub async fn upload(&self, current: &Actor, input: UploadInput) -> Result<Uploaded, AppError> {
        self.upload_with(current, input, Vec::new()).await
    }

    /// [`upload`](Self::upload), storing `extra` renditions made elsewhere with the ones made of
    /// the upload (the maker's MP4 of a video source): the renditions job then makes only the
    /// kinds still missing. A kind the upload makes itself is not replaced.
    ///
    /// # Errors
    /// As [`upload`](Self::upload); `extra` counts towards the member's quota.
    #[tracing::instrument(skip_all, fields(user_id = current.id.0, bytes = input.bytes.len()))]
    pub async fn upload_with(
        &self,
        current: &Actor,
        input: UploadInput,
        extra: Vec<(RenditionKind, EncodedImage)>,
    ) -> Result<Uploaded, AppError> {
        let title = Title::parse(&input.title)?;
        let description = Description::parse(&input.description)?;
        let tags = TagName::parse_list(&input.tags)?;
        let rating = input.rating.as_deref().map(Rating::parse).transpose()?.unwrap_or(self.default_rating);
        let caption_text = input.caption_text.as_deref().map(CaptionText::parse).transpose()?.flatten();

        let mut processed = self.media.process(input.bytes, &RenditionKind::AT_UPLOAD).await?;
        for (kind, image) in extra {
            if processed.renditions.iter().all(|(made, _)| *made != kind) {
                processed.renditions.push((kind, image));
            }
        }
        let fingerprint = processed.fingerprint.clone();
        if let Some(existing) = self.gifs.find_by_sha256(&fingerprint.sha256).await? {
            return Err(AppError::Duplicate { existing });
        }
        let likely_duplicates = match fingerprint.phash {
            Some(phash) => self.fingerprints.similar(phash, None, LIKELY_DUPLICATES_MAX).await?,
            None => Vec::new(),
        };
        if let Some(quotas) = &self.quotas {
            // Every new GIF comes through here (upload, from a link, import, the maker).
            let adding = processed.renditions.iter().map(|(_, image)| image.bytes.len()).sum::<usize>();
            quotas.check(current.id, i64::try_from(adding).unwrap_or(i64::MAX)).await?;
        }
        let (written, renditions) = self.store_renditions(processed.renditions).await?;

        let new_gif = NewGif {
            share_id: self.ids.share_id(),
            title,
            description,
            tags,
            uploader_id: current.id,
            uploaded_at: self.clock.now(),
            frame_count: i32::try_from(processed.frames).unwrap_or(i32::MAX),
            rating,
            renditions: Renditions::new(renditions).with_preferred(processed.opaque, processed.frames > 1),
            fingerprint,
            jobs: if self.reads_text && caption_text.is_none() {
                vec![Task::MakeRenditions, Task::ReadText]
            } else {
                vec![Task::MakeRenditions]
            },
            caption_text,
            transparent: !processed.opaque,
        };
        let sha256 = new_gif.fingerprint.sha256.clone();
        match self.gifs.insert(new_gif).await {
            Ok(gif) => {
                // The renditions job was queued in the row's transaction.
                fail_point(UPLOAD_AFTER_COMMIT);
                tracing::info!(
                    gif_id = gif.id.0,
                    renditions = gif.renditions.len(),
                    likely_duplicates = likely_duplicates.len(),
                    "gif uploaded"
                );
                Ok(Uploaded { gif, likely_duplicates })
            }
            Err(err) => {
                self.remove_blobs(&written).await;
                match err {
                    // The same file uploaded at the same moment: the other upload won.
                    RepoError::Conflict(Unique::Sha256) => match self.gifs.find_by_sha256(&sha256).await? {
                        Some(existing) => Err(AppError::Duplicate { existing }),
                        None => Err(AppError::from_repo(err)),
                    },
                    other => Err(AppError::from_repo(other)),
                }
            }
        }
    }

    /// Stores each file of a new GIF under one fresh prefix: the keys written and the renditions;
    /// on a failure, what was written is removed again.
    async fn store_renditions(
        &self,
        images: Vec<(RenditionKind, EncodedImage)>,
    ) -> Result<(Vec<String>, Vec<Rendition>), AppError> {
        let prefix = format!("gifs/{}", self.ids.blob_prefix());
        let mut written: Vec<String> = Vec::with_capacity(images.len());
        let mut renditions = Vec::with_capacity(images.len());
        for (kind, image) in images {
            let rendition = rendition_of(kind, &image, &prefix);
            let key = rendition.key.clone();
            if let Err(err) = self.blobs.put(&key, image.bytes, &image.content_type).await {
                self.remove_blobs(&written).await;
                return Err(AppError::internal(format!("storing {key}: {err}")));
            }
            written.push(key);
            renditions.push(rendition);
        }
        Ok((written, renditions))
    }

    /// Best effort: a blob that cannot be removed now is an orphan `gifshelf fsck` removes later.
    pub(crate) async fn remove_blobs(&self, keys: &[String]) {
        for key in keys {
            if let Err(err) = self.blobs.delete(key).await {
                tracing::warn!(%key, error = %err, "could not remove a blob; fsck will");
            }
        }
    }
}

/// The row of a freshly encoded file stored under `prefix` (`preferred` is decided over the
/// whole set).
pub(crate) fn rendition_of(kind: RenditionKind, image: &EncodedImage, prefix: &str) -> Rendition {
    Rendition {
        kind,
        key: format!("{prefix}/{}.{}", kind.file_stem(), extension_of(image)),
        content_type: image.content_type.clone(),
        size: i64::try_from(image.bytes.len()).unwrap_or(i64::MAX),
        width: i32::try_from(image.width).unwrap_or(i32::MAX),
        height: i32::try_from(image.height).unwrap_or(i32::MAX),
        frames: i32::try_from(image.frames).unwrap_or(i32::MAX),
        duration_ms: i32::try_from(image.duration_ms).ok(),
        codec: image.codec.clone(),
        preferred: false,
    }
}

fn extension_of(image: &EncodedImage) -> &'static str {
    extension_for(&image.content_type).unwrap_or("bin")
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use gifshelf_domain::gif::{Fingerprint, GifId, GifSummary, PerceptualHash, RenditionKind, Title};
    use gifshelf_domain::media::{EncodedImage, MediaRejection, ProcessedMedia};
    use gifshelf_domain::ports::BlobError;
    use gifshelf_domain::user::{Role, UserId, Username};
    use gifshelf_domain::{RepoError, Unique};

    use super::UploadInput;
    use crate::auth::Actor;
    use crate::gifs::test_support::{gif, now, Mocks};
    use crate::AppError;

    fn alice() -> Actor {
        Actor::session(UserId(1), Username::from_trusted("alice".into()), Role::User)
    }

    fn input(title: &str, tags: &[&str]) -> UploadInput {
        UploadInput {
            title: title.into(),
            description: "desc".into(),
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            rating: None,
            bytes: Arc::new(b"GIF89a...".to_vec()),
            caption_text: None,
        }
    }

    /// What the processor answers for the kinds asked (the original: the stored bytes, 9 of them).
    fn processed(kinds: &[RenditionKind]) -> ProcessedMedia {
        let image = |kind| {
            let (bytes, content_type, width, height, frames) = match kind {
                RenditionKind::Original => (b"GIF89a...".to_vec(), "image/gif", 640, 480, 12),
                RenditionKind::Still => (vec![1, 2, 3], "image/png", 320, 240, 1),
                _ => (vec![1, 2, 3], "image/gif", 320, 240, 12),
            };
            EncodedImage {
                bytes,
                content_type: content_type.into(),
                width,
                height,
                frames,
                duration_ms: frames * 100,
                codec: None,
            }
        };
        ProcessedMedia {
            content_type: "image/gif".into(),
            extension: "gif".into(),
            width: 640,
            height: 480,
            frames: 12,
            renditions: kinds.iter().map(|k| (*k, image(*k))).collect(),
            fingerprint: Fingerprint { sha256: "ab".repeat(32), phash: Some(PerceptualHash(0xF0F0)) },
            opaque: true,
        }
    }

    /// A library without this GIF or any like it.
    fn new_to_the_library(m: &mut Mocks) {
        m.gifs.expect_find_by_sha256().returning(|_| Ok(None));
        m.fingerprints.expect_similar().returning(|_, _, _| Ok(Vec::new()));
    }

    #[tokio::test]
    async fn stores_three_blobs_then_the_row_with_normalised_tags_then_queues_the_other_renditions() {
        let mut m = Mocks::new();
        m.media.expect_process().returning(|_, kinds| Ok(processed(kinds)));
        new_to_the_library(&mut m);
        m.blobs.expect_put().times(3).returning(|_, _, _| Ok(()));
        m.gifs
            .expect_insert()
            .withf(|g| {
                g.title.as_str() == "Dancing"
                    && g.jobs.iter().map(|job| job(GifId(5))).collect::<Vec<_>>()
                        == [gifshelf_domain::job::Task::MakeRenditions(GifId(5))]
                    && g.tags.iter().map(|t| t.as_str()).collect::<Vec<_>>() == ["cats", "fun"]
                    && g.renditions.get(RenditionKind::Original).is_some_and(|r| {
                        r.key == "gifs/prefix/original.gif" && r.size == 9 && (r.width, r.height) == (640, 480)
                    })
                    && g.renditions.get(RenditionKind::Thumbnail).is_some_and(|r| {
                        r.key == "gifs/prefix/thumbnail.gif"
                            && r.preferred
                            && r.frames == 12
                            && r.duration_ms == Some(1200)
                    })
                    && g.renditions
                        .get(RenditionKind::Still)
                        .is_some_and(|r| r.key == "gifs/prefix/static.png" && r.content_type == "image/png")
                    && g.share_id == "s3cr3tShareId"
                    && g.frame_count == 12
                    && g.uploaded_at == now()
                    && g.uploader_id == UserId(1)
                    && g.fingerprint.sha256 == "ab".repeat(32)
            })
            .returning(|_| Ok(gif(5, 1)));
        let result = m.service().upload(&alice(), input(" Dancing ", &["Cats", " cats", "FUN "])).await;
        assert!(result.is_ok(), "{result:?}");
    }

    #[tokio::test]
    async fn a_failing_blob_store_leaves_nothing_behind() {
        let mut m = Mocks::new();
        m.media.expect_process().returning(|_, kinds| Ok(processed(kinds)));
        new_to_the_library(&mut m);
        let mut calls = 0;
        m.blobs.expect_put().times(2).returning(move |_, _, _| {
            calls += 1;
            if calls == 2 {
                Err(BlobError::io("disk full"))
            } else {
                Ok(())
            }
        });
        m.blobs.expect_delete().withf(|k| k == "gifs/prefix/original.gif").times(1).returning(|_| Ok(()));
        m.gifs.expect_insert().never();
        let result = m.service().upload(&alice(), input("t", &[])).await;
        assert!(matches!(result, Err(AppError::Internal(_))), "{result:?}");
    }

    #[tokio::test]
    async fn a_failing_repository_removes_every_written_blob() {
        let mut m = Mocks::new();
        m.media.expect_process().returning(|_, kinds| Ok(processed(kinds)));
        new_to_the_library(&mut m);
        m.blobs.expect_put().times(3).returning(|_, _, _| Ok(()));
        m.gifs.expect_insert().returning(|_| Err(RepoError::other("constraint")));
        m.blobs.expect_delete().times(3).returning(|_| Ok(()));
        let result = m.service().upload(&alice(), input("t", &[])).await;
        assert!(matches!(result, Err(AppError::Internal(_))), "{result:?}");
    }

    #[tokio::test]
    async fn a_byte_identical_upload_is_refused_before_any_blob_is_written() {
        let mut m = Mocks::new();
        m.media.expect_process().returning(|_, kinds| Ok(processed(kinds)));
        m.gifs.expect_find_by_sha256().withf(|sha| sha == "ab".repeat(32)).returning(|_| Ok(Some(GifId(7))));
        m.blobs.expect_put().never();
        m.gifs.expect_insert().never();
        let result = m.service().upload(&alice(), input("t", &[])).await;
        assert!(matches!(result, Err(AppError::Duplicate { existing: GifId(7) })), "{result:?}");
    }

    #[tokio::test]
    async fn the_same_file_uploaded_at_the_same_moment_loses_to_the_first_and_leaves_nothing() {
        let mut m = Mocks::new();
        m.media.expect_process().returning(|_, kinds| Ok(processed(kinds)));
        let mut lookups = 0;
        m.gifs.expect_find_by_sha256().times(2).returning(move |_| {
            lookups += 1;
            Ok((lookups == 2).then_some(GifId(8)))
        });
        m.fingerprints.expect_similar().returning(|_, _, _| Ok(Vec::new()));
        m.blobs.expect_put().times(3).returning(|_, _, _| Ok(()));
        m.gifs.expect_insert().returning(|_| Err(RepoError::Conflict(Unique::Sha256)));
        m.blobs.expect_delete().times(3).returning(|_| Ok(()));
        let result = m.service().upload(&alice(), input("t", &[])).await;
        assert!(matches!(result, Err(AppError::Duplicate { existing: GifId(8) })), "{result:?}");
    }

    #[tokio::test]
    async fn a_look_alike_is_stored_and_named() {
        let mut m = Mocks::new();
        m.media.expect_process().returning(|_, kinds| Ok(processed(kinds)));
        m.gifs.expect_find_by_sha256().returning(|_| Ok(None));
        m.fingerprints
            .expect_similar()
            .withf(|h, except, _| *h == PerceptualHash(0xF0F0) && except.is_none())
            .returning(|_, _, _| Ok(vec![GifSummary { id: GifId(3), title: Title::from_trusted("Cat".into()) }]));
        m.blobs.expect_put().times(3).returning(|_, _, _| Ok(()));
        m.gifs.expect_insert().returning(|_| Ok(gif(5, 1)));
        let uploaded = m.service().upload(&alice(), input("t", &[])).await.ok();
        assert_eq!(
            uploaded.map(|u| u.likely_duplicates.into_iter().map(|d| d.id).collect::<Vec<_>>()),
            Some(vec![GifId(3)])
        );
    }

    #[tokio::test]
    async fn form_errors_come_before_any_media_work() {
        let mut m = Mocks::new();
        m.media.expect_process().never();
        let service = m.service();
        let err = service.upload(&alice(), input("  ", &[])).await.err();
        assert!(
            matches!(&err, Some(AppError::Validation(v)) if v.message == "Please enter a title for your GIF."),
            "{err:?}"
        );
        let err = service.upload(&alice(), input("ok", &["  "])).await.err();
        assert!(matches!(&err, Some(AppError::Validation(v)) if v.field == "tags"), "{err:?}");
    }

    #[tokio::test]
    async fn refused_bytes_become_clear_errors_and_store_nothing() {
        type Rejection = fn() -> MediaRejection;
        type Expected = fn(&AppError) -> bool;
        let cases: [(Rejection, Expected); 6] = [
            (
                || MediaRejection::UnsupportedType("Only GIF, PNG, JPEG and WebP images are accepted.".into()),
                |e| matches!(e, AppError::BadMedia(MediaRejection::UnsupportedType(_))),
            ),
            (
                || MediaRejection::invalid("The GIF is truncated."),
                |e| matches!(e, AppError::BadMedia(MediaRejection::InvalidImage { .. })),
            ),
            (
                || MediaRejection::ImageTooLarge("The image is 65535×65535 pixels; the limit is 8192×8192.".into()),
                |e| matches!(e, AppError::BadMedia(MediaRejection::ImageTooLarge(_))),
            ),
            (|| MediaRejection::ImageTooComplex, |e| matches!(e, AppError::BadMedia(MediaRejection::ImageTooComplex))),
            (|| MediaRejection::Busy, |e| matches!(e, AppError::Unavailable(_))),
            (|| MediaRejection::internal("ffmpeg died"), |e| matches!(e, AppError::Internal(_))),
        ];
        for (rejection, expected) in cases {
            let mut m = Mocks::new();
            m.media.expect_process().returning(move |_, _| Err(rejection()));
            m.blobs.expect_put().never();
            m.gifs.expect_insert().never();
            let err = m.service().upload(&alice(), input("t", &[])).await.err();
            assert!(err.as_ref().is_some_and(expected), "{err:?}");
        }
    }
}
