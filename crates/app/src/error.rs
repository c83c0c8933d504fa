use gifshelf_domain::{RepoError, ValidationError};

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
    #[error("{0}")]
    Unavailable(String),
    /// A feature this server was not configured for (third-party sign-in without a client id).
    #[error("{0}")]
    NotConfigured(String),
    /// The uploaded bytes were refused; `code` says why (`unsupported_type`, `invalid_image`,
    /// `image_too_large`, `image_too_complex`).
    #[error("{message}")]
    BadMedia { code: &'static str, message: String },
    #[error("internal error: {0}")]
    Internal(String),
}

impl AppError {
    /// Translates a repository error where no domain meaning applies.
    pub fn from_repo(err: RepoError) -> Self {
        match err {
            RepoError::NotFound => AppError::NotFound("Not found".into()),
            RepoError::Conflict(what) => AppError::Conflict(format!("{} already exists", capitalise(what))),
            RepoError::Unavailable(msg) => {
                tracing::warn!(error = %msg, "storage unavailable");
                AppError::Unavailable("The server is busy. Please try again in a moment.".into())
            }
            RepoError::Other(msg) => AppError::Internal(msg),
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
