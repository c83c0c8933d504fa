use gifshelf_domain::api_key::API_KEYS_PER_USER;
use gifshelf_domain::gif::TagName;
use gifshelf_domain::integration::INTEGRATIONS_MAX;
use gifshelf_domain::media::MediaRejection;
use gifshelf_domain::ports::{HashError, SignError};
use gifshelf_domain::{Cause, RepoError, Unique, ValidationError};

/// What a disabled account is told, whatever it presents.
pub const ACCOUNT_DISABLED: &str = "This account has been disabled. Ask an administrator.";

/// A request that clashes with what is stored (a 409). Each is its own error code, so a client
/// tells them apart without reading the sentence, which is the spec's text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Conflict {
    /// Another account has the username (registering, or renaming in Settings).
    #[error("Username is already taken")]
    UsernameTaken,
    /// Another account has the email (registering, or changing it in Settings).
    #[error("Email is already registered")]
    EmailTaken,
    /// A first third-party sign-in with the email of an account that signs in otherwise.
    #[error(
        "An account with this email already exists. Sign in with your username and password, then connect Google in Settings."
    )]
    EmailHasAccount,
    /// A first third-party sign-in found no free username to give the new account.
    #[error("Could not find a free username for this account. Please register instead.")]
    NoFreeUsername,
    /// Disconnecting the account's only way to sign in (no password, no other identity).
    #[error("This is your only way to sign in. Set a password in Settings before you disconnect it.")]
    LastSignInMethod,
    /// The provider identity is connected to another account.
    #[error("This Google account is already connected to another gifshelf account.")]
    IdentityLinkedElsewhere,
    /// The account has an identity of this provider already.
    #[error("A Google account is already connected. Disconnect it first.")]
    ProviderAlreadyLinked,
    /// Another tag has the name.
    #[error("The tag \"{}\" already exists", .0.as_str())]
    TagNameTaken(TagName),
    /// The caller has as many API keys as one may.
    #[error("You have {API_KEYS_PER_USER} API keys already. Revoke one you no longer use first.")]
    ApiKeyLimit,
    /// The server has as many chat integrations as it takes.
    #[error("There are {INTEGRATIONS_MAX} integrations already. Remove one that is no longer used first.")]
    IntegrationLimit,
    /// GIFs of a bulk request changed while it ran; nothing was applied.
    #[error("Some GIFs changed while the batch ran; nothing was changed. Please try again.")]
    ChangedMeanwhile,
    /// The change would leave the server without an active administrator.
    #[error("This is the last administrator. Make another member an administrator first.")]
    LastAdmin,
    /// An administrator tried to disable or delete their own account.
    #[error("You cannot disable or delete your own account.")]
    OwnAccount,
    /// A member reporting their own GIF (they can edit or delete it instead).
    #[error("You cannot report your own GIF.")]
    OwnGif,
    /// An admin acting on a report another admin closed meanwhile.
    #[error("This report has already been closed.")]
    ReportClosed,
    /// Any other uniqueness rule of the data (a share id clash, …).
    #[error("{} already exists", capitalise(.0.what()))]
    Exists(Unique),
}

/// What a use case can answer besides success. The HTTP adapter maps each variant to a status and
/// the `{error, code}` body; messages are sentences a user may read, except `Internal`'s, which only
/// goes to the log.
/// A wait as people say it: whole minutes, rounded up ("1 minute", "10 minutes").
fn in_minutes(secs: u64) -> String {
    match secs.div_ceil(60).max(1) {
        1 => "1 minute".to_owned(),
        n => format!("{n} minutes"),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error(transparent)]
    Validation(#[from] ValidationError),
    /// Missing, malformed or refused credentials.
    #[error("{0}")]
    Unauthorized(String),
    #[error("Token expired")]
    TokenExpired,
    /// A credential of a disabled account was used (a 401: the client signs out).
    #[error("{ACCOUNT_DISABLED}")]
    AccountDisabled,
    /// A disabled account tried to sign in (a 403: the sign-in screen shows why).
    #[error("{ACCOUNT_DISABLED}")]
    SignInDisabled,
    #[error("{0}")]
    Forbidden(String),
    /// A new account the registration policy does not let in.
    #[error(transparent)]
    Refused(#[from] crate::join::Refusal),
    #[error("{0}")]
    NotFound(String),
    #[error(transparent)]
    Conflict(#[from] Conflict),
    #[error("Too many failed login attempts. Try again in {retry_after_secs} seconds.")]
    TooManyRequests { retry_after_secs: u64 },
    /// The registration allowance of one client address is used up.
    #[error("Too many accounts were registered from this address. Try again in {}.", in_minutes(*retry_after_secs))]
    TooManyRegistrations { retry_after_secs: u64 },
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
    /// The uploaded bytes were refused: never `Busy` or `Internal`, which become `Unavailable`
    /// and `Internal` (see `From<MediaRejection>`).
    #[error(transparent)]
    BadMedia(MediaRejection),
    /// The upload is byte for byte a GIF of the library (after metadata stripping).
    #[error("This GIF is already in the library")]
    Duplicate { existing: gifshelf_domain::gif::GifId },
    /// A new GIF over the member's storage or daily upload quota (the message names it).
    #[error("{0}")]
    QuotaExceeded(String),
    /// A password reset link that was used, replaced, has expired or never existed.
    #[error("{}", crate::accounts::RESET_INVALID)]
    ResetInvalid,
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
            RepoError::Conflict(what) => AppError::Conflict(Conflict::Exists(what)),
            RepoError::Unavailable(cause) | RepoError::Retry(cause) => {
                tracing::warn!(error = %gifshelf_domain::error_chain(cause.as_ref()), "storage unavailable");
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

impl From<MediaRejection> for AppError {
    /// The image pipeline's answer: a refusal of the bytes stays one; a busy pipeline is a 503
    /// and a fault of ours an internal error, its cause kept.
    fn from(rejection: MediaRejection) -> Self {
        match rejection {
            busy @ MediaRejection::Busy => AppError::Unavailable(busy.to_string()),
            MediaRejection::Internal(cause) => AppError::Internal(cause),
            refused => AppError::BadMedia(refused),
        }
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
