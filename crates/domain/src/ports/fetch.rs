//! Fetching the image a user named by a link.

use async_trait::async_trait;

/// Why an image named by a link could not be fetched. Messages are sentences a user may read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The link breaks a rule: not http(s), credentials in it, or an address that is not public.
    #[error("{0}")]
    Refused(String),
    /// The image is over the size limit.
    #[error("{0}")]
    TooLarge(String),
    /// A page that names no image (`og:image`), or no video nor image for the maker.
    #[error("{0}")]
    NoImage(String),
    /// The link could not be reached or answered with an error, too slowly or with too many redirects.
    #[error("{0}")]
    Failed(String),
}

/// Fetches the image a user named by a link, from the server, under rules that keep it from reaching
/// private addresses.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait UrlFetcher: Send + Sync {
    /// The bytes at `url`, at most `max_bytes` of them; when the link answers with an HTML page,
    /// the bytes of the image the page names in `og:image` (fetched under the same rules).
    ///
    /// # Errors
    /// `Refused`, `TooLarge`, `NoImage` or `Failed` (see `FetchError`).
    async fn fetch_image(&self, url: &str, max_bytes: u64) -> Result<Vec<u8>, FetchError>;

    /// The bytes at `url`, at most `max_bytes` of them; when the link answers with an HTML page,
    /// the bytes of the video it names (`og:video`, `og:video:url`, `og:video:secure_url`,
    /// `twitter:player:stream`), else of its `og:image`, each fetched under the same rules (the
    /// maker's `sourceUrl`).
    ///
    /// # Errors
    /// As [`fetch_image`](Self::fetch_image); `NoImage` for a page that names neither.
    async fn fetch_video(&self, url: &str, max_bytes: u64) -> Result<Vec<u8>, FetchError>;
}
