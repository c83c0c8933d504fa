//! What people search for: trending terms and suggestions for the chat apps' pickers.

use async_trait::async_trait;
use chrono::NaiveDate;

use crate::RepoError;

/// What people search for and the words they could mean: trending terms and suggestions for the
/// chat apps' pickers.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait TermRepository: Send + Sync {
    /// Counts one search for `term` (already normalised) on `day`.
    ///
    /// # Errors
    /// Storage errors.
    async fn record_search(&self, term: &str, day: NaiveDate) -> Result<(), RepoError>;

    /// The terms searched most since `since`, most first, at most `limit`.
    ///
    /// # Errors
    /// Storage errors.
    async fn trending_terms(&self, since: NaiveDate, limit: i64) -> Result<Vec<String>, RepoError>;

    /// Tag names and GIF titles (lower-cased) that start with `prefix` (lower-case), tags used on
    /// most GIFs first, then titles of the most viewed GIFs; each once, at most `limit`.
    ///
    /// # Errors
    /// Storage errors.
    async fn suggest_terms(&self, prefix: &str, limit: i64) -> Result<Vec<String>, RepoError>;
}
