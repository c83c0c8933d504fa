//! Errors of the domain layer.

/// A value did not satisfy a rule of the specification. The message is a sentence a user can read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ValidationError {
    /// The field the rule belongs to, in the API's spelling (`username`, `confirmPassword`, …).
    pub field: &'static str,
    pub message: String,
}

impl ValidationError {
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        Self { field, message: message.into() }
    }
}

/// A cause kept for the log: any error, boxed.
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

/// An error and every cause below it, `outer: inner: innermost`, for the log. A cause whose text
/// its error already ends with (`storage unavailable: {0}`) is not written twice.
pub fn error_chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let next = cause.to_string();
        if !text.ends_with(&next) {
            text.push_str(": ");
            text.push_str(&next);
        }
        source = cause.source();
    }
    text
}

/// The uniqueness rules of the data, one per unique constraint. Adapters tell them apart by the
/// constraint that fired, never by the wording of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unique {
    /// Two accounts cannot share a username (compared case-insensitively).
    Username,
    /// Two accounts cannot share an email.
    Email,
    /// A provider identity (issuer, subject) belongs to one account.
    Identity,
    /// An account has at most one identity per provider.
    IdentityPerProvider,
    /// Share ids are unique.
    ShareId,
    /// Tag names are unique.
    TagName,
    /// A GIF carries a tag once.
    GifTag,
    /// A GIF has one rendition of each kind.
    Rendition,
    /// A collection holds a GIF once.
    CollectionGif,
    /// A person favourites a GIF once.
    Favourite,
    /// The library keeps one GIF per stored original (byte for byte).
    Sha256,
    /// Two API keys never share a digest.
    ApiKey,
    /// A GIF's views, and a term's searches, have one count per day (written by upserts).
    DayCount,
    /// The same work is queued once (a job's dedup key, among jobs not given up on).
    Job,
    /// An account has one password reset link and one quota of its own.
    PerAccount,
    /// A shared rate-limit counter is one row per key (written by upserts).
    Counter,
}

impl Unique {
    /// What clashed, as a user would name it.
    pub fn what(self) -> &'static str {
        match self {
            Unique::Username => "username",
            Unique::Email => "email",
            Unique::Identity | Unique::IdentityPerProvider => "identity",
            Unique::ShareId => "share id",
            Unique::TagName => "tag",
            Unique::GifTag => "tag link",
            Unique::Rendition => "rendition",
            Unique::CollectionGif => "collection entry",
            Unique::Favourite => "favourite",
            Unique::Sha256 => "GIF",
            Unique::ApiKey => "API key",
            Unique::DayCount => "day's count",
            Unique::Job => "job",
            Unique::PerAccount => "account setting",
            Unique::Counter => "rate-limit counter",
        }
    }
}

/// What a repository adapter may report. Adapters translate their library's errors into these.
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    #[error("not found")]
    NotFound,
    /// A uniqueness rule was violated.
    #[error("{} already exists", .0.what())]
    Conflict(Unique),
    /// The store cannot take more work right now (pool exhausted, database down).
    #[error("storage unavailable: {0}")]
    Unavailable(#[source] Cause),
    /// The database aborted the transaction to resolve a conflict with another one (a deadlock);
    /// running it again is safe. Adapters retry before they let it out.
    #[error("transaction aborted by the database: {0}")]
    Retry(#[source] Cause),
    /// Anything else; the cause is kept for the log.
    #[error("storage failure: {0}")]
    Other(#[source] Cause),
}

impl RepoError {
    /// An unexpected failure with its cause (an error, or a message).
    pub fn other(cause: impl Into<Cause>) -> Self {
        Self::Other(cause.into())
    }

    /// The store is out of reach for now, with its cause (an error, or a message).
    pub fn unavailable(cause: impl Into<Cause>) -> Self {
        Self::Unavailable(cause.into())
    }
}
