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

/// What a repository adapter may report. Adapters translate their library's errors into these.
#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    #[error("not found")]
    NotFound,
    /// A uniqueness rule was violated; the string names what clashed (`username`, `email`, `tag`).
    #[error("{0} already exists")]
    Conflict(&'static str),
    /// The store cannot take more work right now (pool exhausted, database down).
    #[error("storage unavailable: {0}")]
    Unavailable(String),
    #[error("storage failure: {0}")]
    Other(String),
}
