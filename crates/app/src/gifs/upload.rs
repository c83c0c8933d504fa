use std::sync::Arc;

use gifshelf_domain::failpoint::{fail_point, UPLOAD_AFTER_COMMIT};
use gifshelf_domain::gif::{
    extension_for, Description, Gif, NewGif, Rendition, RenditionKind, Renditions, TagName, Title,
};
use gifshelf_domain::media::{EncodedImage, MediaRejection};

use super::GifService;
use crate::auth::Actor;
use crate::{AppError, MediaProblem};

/// An upload as the HTTP layer received it.
#[derive(Debug, Clone)]
pub struct UploadInput {
    pub title: String,
    pub description: String,
    pub tags: Vec<String>,
    pub bytes: Arc<Vec<u8>>,
}

impl GifService {
    /// Stores an upload all or nothing: the blobs of every rendition are written first under fresh keys, the
    /// row is committed last, and on any failure every blob already written is deleted again.
    ///
    /// # Errors
    /// `Validation` for the form, `BadMedia` for refused bytes, `Unavailable` when busy,
    /// `Internal` when storage fails (nothing is left behind).
    #[tracing::instrument(skip_all, fields(user_id = current.id.0, bytes = input.bytes.len()))]
    pub async fn upload(&self, current: &Actor, input: UploadInput) -> Result<Gif, AppError> {
        let title = Title::parse(&input.title)?;
        let description = Description::parse(&input.description)?;
        let tags = TagName::parse_list(&input.tags)?;

        let processed = self.media.process(input.bytes, &STORED_KINDS).await.map_err(media_error)?;
        let prefix = format!("gifs/{}", self.ids.blob_prefix());
        let mut written: Vec<String> = Vec::with_capacity(processed.renditions.len());
        let mut renditions = Vec::with_capacity(processed.renditions.len());
        for (kind, image) in processed.renditions {
            let key = format!("{prefix}/{}.{}", key_stem(kind), extension_of(&image));
            let rendition = Rendition {
                kind,
                key: key.clone(),
                content_type: image.content_type.clone(),
                size: i64::try_from(image.bytes.len()).unwrap_or(i64::MAX),
                width: i32::try_from(image.width).unwrap_or(i32::MAX),
                height: i32::try_from(image.height).unwrap_or(i32::MAX),
            };
            if let Err(err) = self.blobs.put(&key, image.bytes, &image.content_type).await {
                self.remove_blobs(&written).await;
                return Err(AppError::internal(format!("storing {key}: {err}")));
            }
            written.push(key);
            renditions.push(rendition);
        }

        let new_gif = NewGif {
            share_id: self.ids.share_id(),
            title,
            description,
            tags,
            uploader_id: current.id,
            uploaded_at: self.clock.now(),
            frame_count: i32::try_from(processed.frames).unwrap_or(i32::MAX),
            renditions: Renditions::new(renditions),
        };
        match self.gifs.insert(new_gif).await {
            Ok(gif) => {
                fail_point(UPLOAD_AFTER_COMMIT);
                tracing::info!(gif_id = gif.id.0, renditions = gif.renditions.len(), "gif uploaded");
                Ok(gif)
            }
            Err(err) => {
                self.remove_blobs(&written).await;
                Err(AppError::from_repo(err))
            }
        }
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

/// What an upload stores at once: the original and what every screen shows.
const STORED_KINDS: [RenditionKind; 3] = [RenditionKind::Original, RenditionKind::Thumbnail, RenditionKind::Still];

/// The file name of a kind under the GIF's blob prefix (`static` for stills: the keys of GIFs
/// stored before renditions became rows).
fn key_stem(kind: RenditionKind) -> &'static str {
    match kind {
        RenditionKind::Original => "original",
        RenditionKind::Thumbnail => "thumbnail",
        RenditionKind::Still => "static",
    }
}

fn extension_of(image: &EncodedImage) -> &'static str {
    extension_for(&image.content_type).unwrap_or("bin")
}

pub(crate) fn media_error(rejection: MediaRejection) -> AppError {
    match rejection {
        MediaRejection::UnsupportedType(message) => {
            AppError::BadMedia { problem: MediaProblem::UnsupportedType, message }
        }
        MediaRejection::Invalid(message) => AppError::BadMedia { problem: MediaProblem::InvalidImage, message },
        MediaRejection::TooLarge(message) => AppError::BadMedia { problem: MediaProblem::ImageTooLarge, message },
        MediaRejection::Timeout => AppError::BadMedia {
            problem: MediaProblem::ImageTooComplex,
            message: "The image is too complex to process. Please try a smaller or shorter animation.".into(),
        },
        busy @ MediaRejection::Busy => AppError::Unavailable(busy.to_string()),
        MediaRejection::Internal(detail) => AppError::internal(detail),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use gifshelf_domain::gif::RenditionKind;
    use gifshelf_domain::media::{EncodedImage, MediaRejection, ProcessedMedia};
    use gifshelf_domain::ports::BlobError;
    use gifshelf_domain::user::{Role, UserId, Username};
    use gifshelf_domain::RepoError;

    use super::UploadInput;
    use crate::auth::Actor;
    use crate::gifs::test_support::{gif, now, Mocks};
    use crate::{AppError, MediaProblem};

    fn alice() -> Actor {
        Actor::session(UserId(1), Username::from_trusted("alice".into()), Role::User)
    }

    fn input(title: &str, tags: &[&str]) -> UploadInput {
        UploadInput {
            title: title.into(),
            description: "desc".into(),
            tags: tags.iter().map(|t| (*t).to_owned()).collect(),
            bytes: Arc::new(b"GIF89a...".to_vec()),
        }
    }

    /// What the processor answers for the kinds asked (the original: the stored bytes, 9 of them).
    fn processed(kinds: &[RenditionKind]) -> ProcessedMedia {
        let image = |kind| match kind {
            RenditionKind::Original => {
                EncodedImage { bytes: b"GIF89a...".to_vec(), content_type: "image/gif".into(), width: 640, height: 480 }
            }
            RenditionKind::Thumbnail => {
                EncodedImage { bytes: vec![1, 2, 3], content_type: "image/gif".into(), width: 320, height: 240 }
            }
            RenditionKind::Still => {
                EncodedImage { bytes: vec![1, 2, 3], content_type: "image/png".into(), width: 320, height: 240 }
            }
        };
        ProcessedMedia {
            content_type: "image/gif".into(),
            extension: "gif".into(),
            width: 640,
            height: 480,
            frames: 12,
            renditions: kinds.iter().map(|k| (*k, image(*k))).collect(),
        }
    }

    #[tokio::test]
    async fn stores_three_blobs_then_the_row_with_normalised_tags() {
        let mut m = Mocks::new();
        m.media.expect_process().returning(|_, kinds| Ok(processed(kinds)));
        m.blobs.expect_put().times(3).returning(|_, _, _| Ok(()));
        m.gifs
            .expect_insert()
            .withf(|g| {
                g.title.as_str() == "Dancing"
                    && g.tags.iter().map(|t| t.as_str()).collect::<Vec<_>>() == ["cats", "fun"]
                    && g.renditions.get(RenditionKind::Original).is_some_and(|r| {
                        r.key == "gifs/prefix/original.gif" && r.size == 9 && (r.width, r.height) == (640, 480)
                    })
                    && g.renditions.get(RenditionKind::Thumbnail).is_some_and(|r| r.key == "gifs/prefix/thumbnail.gif")
                    && g.renditions
                        .get(RenditionKind::Still)
                        .is_some_and(|r| r.key == "gifs/prefix/static.png" && r.content_type == "image/png")
                    && g.share_id == "s3cr3tShareId"
                    && g.frame_count == 12
                    && g.uploaded_at == now()
                    && g.uploader_id == UserId(1)
            })
            .returning(|_| Ok(gif(5, 1)));
        let result = m.service().upload(&alice(), input(" Dancing ", &["Cats", " cats", "FUN "])).await;
        assert!(result.is_ok(), "{result:?}");
    }

    #[tokio::test]
    async fn a_failing_blob_store_leaves_nothing_behind() {
        let mut m = Mocks::new();
        m.media.expect_process().returning(|_, kinds| Ok(processed(kinds)));
        let mut calls = 0;
        m.blobs.expect_put().times(2).returning(move |_, _, _| {
            calls += 1;
            if calls == 2 {
                Err(BlobError::Io("disk full".into()))
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
        m.blobs.expect_put().times(3).returning(|_, _, _| Ok(()));
        m.gifs.expect_insert().returning(|_| Err(RepoError::other("constraint")));
        m.blobs.expect_delete().times(3).returning(|_| Ok(()));
        let result = m.service().upload(&alice(), input("t", &[])).await;
        assert!(matches!(result, Err(AppError::Internal(_))), "{result:?}");
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
        let cases = [
            (
                MediaRejection::UnsupportedType("Only GIF, PNG, JPEG and WebP images are accepted.".into()),
                Some(MediaProblem::UnsupportedType),
            ),
            (MediaRejection::Invalid("The GIF is truncated.".into()), Some(MediaProblem::InvalidImage)),
            (
                MediaRejection::TooLarge("The image is 65535×65535 pixels; the limit is 8192×8192.".into()),
                Some(MediaProblem::ImageTooLarge),
            ),
            (MediaRejection::Timeout, Some(MediaProblem::ImageTooComplex)),
            (MediaRejection::Busy, None),
        ];
        for (rejection, code) in cases {
            let mut m = Mocks::new();
            let r = rejection.clone();
            m.media.expect_process().returning(move |_, _| Err(r.clone()));
            m.blobs.expect_put().never();
            m.gifs.expect_insert().never();
            let err = m.service().upload(&alice(), input("t", &[])).await.err();
            match code {
                Some(code) => {
                    assert!(matches!(&err, Some(AppError::BadMedia { problem, .. }) if *problem == code), "{err:?}")
                }
                None => assert!(matches!(err, Some(AppError::Unavailable(_))), "{err:?}"),
            }
        }
    }
}
