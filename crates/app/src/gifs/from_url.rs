use std::sync::Arc;

use gifshelf_domain::gif::{Description, TagName, Title};
use gifshelf_domain::media::MediaRejection;
use gifshelf_domain::ports::{FetchError, UrlFetcher};

use super::{GifService, UploadInput, Uploaded};
use crate::auth::Actor;
use crate::AppError;

/// An upload whose image the server fetches from a link.
#[derive(Debug, Clone)]
pub struct UrlUploadInput {
    pub url: String,
    pub title: String,
    pub description: String,
    pub tags: Vec<String>,
}

/// "From a link": fetch the image, then store it exactly as an upload.
pub struct UrlImport {
    gifs: Arc<GifService>,
    fetcher: Arc<dyn UrlFetcher>,
    max_bytes: u64,
}

impl UrlImport {
    pub fn new(gifs: Arc<GifService>, fetcher: Arc<dyn UrlFetcher>, max_bytes: u64) -> Self {
        Self { gifs, fetcher, max_bytes }
    }

    /// Checks the form, fetches the image (at most the upload limit) and uploads it.
    ///
    /// # Errors
    /// `Validation` for the form (before anything is fetched), `UrlRefused`, `UrlFetchFailed`,
    /// `TooLarge`, `BadMedia` for a page without an image, then whatever `GifService::upload` answers.
    #[tracing::instrument(skip_all, fields(user_id = current.id.0))]
    pub async fn upload_from_url(&self, current: &Actor, input: UrlUploadInput) -> Result<Uploaded, AppError> {
        Title::parse(&input.title)?;
        Description::parse(&input.description)?;
        TagName::parse_list(&input.tags)?;
        let bytes = self.fetcher.fetch_image(input.url.trim(), self.max_bytes).await.map_err(fetch_error)?;
        self.gifs
            .upload(
                current,
                UploadInput {
                    title: input.title,
                    description: input.description,
                    tags: input.tags,
                    bytes: Arc::new(bytes),
                },
            )
            .await
    }
}

fn fetch_error(err: FetchError) -> AppError {
    tracing::info!(error = %err, "link not fetched");
    match err {
        FetchError::Refused(message) => AppError::UrlRefused(message),
        FetchError::Failed(message) => AppError::UrlFetchFailed(message),
        FetchError::TooLarge(message) => AppError::TooLarge(message),
        FetchError::NoImage(message) => AppError::BadMedia(MediaRejection::UnsupportedType(message)),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use gifshelf_domain::media::MediaRejection;
    use gifshelf_domain::ports::{FetchError, MockUrlFetcher};
    use gifshelf_domain::user::{Role, UserId, Username};

    use super::{UrlImport, UrlUploadInput};
    use crate::auth::Actor;
    use crate::gifs::test_support::Mocks;
    use crate::AppError;

    fn alice() -> Actor {
        Actor::session(UserId(1), Username::from_trusted("alice".into()), Role::User)
    }

    fn input(title: &str) -> UrlUploadInput {
        UrlUploadInput {
            url: " https://example.com/cat.gif ".into(),
            title: title.into(),
            description: String::new(),
            tags: vec![],
        }
    }

    #[tokio::test]
    async fn form_errors_come_before_any_fetch() {
        let mut fetcher = MockUrlFetcher::new();
        fetcher.expect_fetch_image().never();
        let import = UrlImport::new(Arc::new(Mocks::new().service()), Arc::new(fetcher), 100);
        let err = import.upload_from_url(&alice(), input("  ")).await.err();
        assert!(matches!(err, Some(AppError::Validation(_))), "{err:?}");
    }

    #[tokio::test]
    async fn fetch_errors_become_their_answers_and_nothing_is_processed() {
        type Expected = fn(&AppError) -> bool;
        let cases: [(FetchError, Expected); 4] = [
            (FetchError::Refused("private".into()), |e| matches!(e, AppError::UrlRefused(m) if m == "private")),
            (FetchError::Failed("404".into()), |e| matches!(e, AppError::UrlFetchFailed(_))),
            (FetchError::TooLarge("big".into()), |e| matches!(e, AppError::TooLarge(_))),
            (FetchError::NoImage("no og:image".into()), |e| {
                matches!(e, AppError::BadMedia(MediaRejection::UnsupportedType(_)))
            }),
        ];
        for (fetch_error, expected) in cases {
            let mut mocks = Mocks::new();
            mocks.media.expect_process().never();
            let mut fetcher = MockUrlFetcher::new();
            fetcher
                .expect_fetch_image()
                .withf(|url, max| url == "https://example.com/cat.gif" && *max == 100)
                .returning(move |_, _| Err(fetch_error.clone()));
            let import = UrlImport::new(Arc::new(mocks.service()), Arc::new(fetcher), 100);
            let err = import.upload_from_url(&alice(), input("Cat")).await.err();
            assert!(err.as_ref().is_some_and(expected), "{err:?}");
        }
    }
}
