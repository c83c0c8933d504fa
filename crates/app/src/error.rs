use gifshelf_domain::ports::{HashError, SignError};
use gifshelf_domain::{Cause, RepoError, ValidationError};

/// Why uploaded bytes were refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaProblem {
    /// Not a GIF, PNG, JPEG or WebP.
    UnsupportedType,
    /// Damaged or incomplete.
    InvalidImage,
    /// Over a size limit (dimensions, frames, pixels).
    ImageTooLarge,
    /// Too much work to process in time.
    ImageTooComplex,
}

/// What a use case can answer besides success. The HTTP adapter maps each variant to a status and
/// the `{error, code}` body; messages are sentences a user may read, except `Internal`'s, which only
/// goes to the log.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Validation(#[from] ValidationError),
    /// Missing, malformed or refused credentials.
    #[error("{0}")]
    Unauthorized(String),
    #[error("Token expired")]
    TokenExpired,
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("Too many failed login attempts. Try again in {retry_after_secs} seconds.")]
    TooManyRequests { retry_after_secs: u64 },
    /// Too many requests from one caller of the chat APIs.
    #[error("Too many requests. Try again in {retry_after_secs} seconds.")]
    RateLimited { retry_after_secs: u64 },
    #[error("{0}")]
    Unavailable(String),
    /// A feature this server was not configured for (third-party sign-in without a client id).
    #[error("{0}")]
    NotConfigured(String),
    /// A link the server will not fetch (not http(s), credentials in it, a private address).
    #[error("{0}")]
    UrlRefused(String),
    /// A link the server could not fetch (unreachable, an error answer, too slow, too many redirects).
    #[error("{0}")]
    UrlFetchFailed(String),
    /// Bytes over the upload limit.
    #[error("{0}")]
    TooLarge(String),
    /// The uploaded bytes were refused; `problem` says why.
    #[error("{message}")]
    BadMedia { problem: MediaProblem, message: String },
    /// The upload is byte for byte a GIF of the library (after metadata stripping).
    #[error("This GIF is already in the library")]
    Duplicate { existing: gifshelf_domain::gif::GifId },
    /// A fault of ours; the cause goes to the log with its whole chain, never to the client.
    #[error("internal error: {0}")]
    Internal(#[source] Cause),
}

impl AppError {
    /// An internal error with its cause (an error, or a message).
    pub fn internal(cause: impl Into<Cause>) -> Self {
        Self::Internal(cause.into())
    }

    /// Translates a repository error where no domain meaning applies.
    pub fn from_repo(err: RepoError) -> Self {
        match err {
            RepoError::NotFound => AppError::NotFound("Not found".into()),
            RepoError::Conflict(what) => AppError::Conflict(format!("{} already exists", capitalise(what.what()))),
            RepoError::Unavailable(msg) | RepoError::Retry(msg) => {
                tracing::warn!(error = %msg, "storage unavailable");
                AppError::Unavailable("The server is busy. Please try again in a moment.".into())
            }
            RepoError::Other(cause) => AppError::Internal(cause),
        }
    }
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

impl From<RepoError> for AppError {
    fn from(err: RepoError) -> Self {
        Self::from_repo(err)
    }
}

impl From<HashError> for AppError {
    fn from(err: HashError) -> Self {
        match err {
            HashError::Busy => AppError::Unavailable("The server is busy. Please try again in a moment.".into()),
            failed @ HashError::Failed(_) => AppError::internal(failed),
        }
    }
}

impl From<SignError> for AppError {
    fn from(err: SignError) -> Self {
        AppError::internal(err)
    }
}
