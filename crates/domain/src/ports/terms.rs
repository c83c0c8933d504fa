//! What people search for: trending terms and suggestions for the chat apps' pickers.

use async_trait::async_trait;
use chrono::NaiveDate;

use crate::search::{Audience, Suggestion};
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

    /// What starts with `prefix` (lower case), at most `per_kind` of each kind, each kind's best
    /// first: tag names (on most GIFs first), titles lower-cased (most viewed GIFs first), words of
    /// the text in GIFs (in most GIFs first) and searched terms (searched most first). Only GIFs
    /// `audience` may see lend their tags, titles and words.
    ///
    /// # Errors
    /// Storage errors.
    async fn suggestions(&self, prefix: &str, audience: Audience, per_kind: i64) -> Result<Vec<Suggestion>, RepoError>;
}
