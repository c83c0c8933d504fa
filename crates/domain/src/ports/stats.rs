//! The dashboard's figures.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::gif::TagName;
use crate::stats::{ActivityLevel, DetailedFigures, GifStat, OverviewFigures, SizeBucket, UserStat};
use crate::RepoError;

/// The dashboard's figures: aggregate queries, never loops over every row.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait StatsRepository: Send + Sync {
    /// `today` and `week` are the UTC instants "today" and "this week" start at.
    ///
    /// # Errors
    /// Storage errors.
    async fn overview(&self, today: NaiveDateTime, week: NaiveDateTime, top: i64)
        -> Result<OverviewFigures, RepoError>;

    /// Daily uploads for the 7 days starting at `first_day` (UTC), and the distributions.
    ///
    /// # Errors
    /// Storage errors.
    async fn detailed(&self, first_day: chrono::NaiveDate, top: i64) -> Result<DetailedFigures, RepoError>;

    /// # Errors
    /// Storage errors.
    async fn gifs_in_bucket(&self, bucket: SizeBucket, limit: i64) -> Result<Vec<GifStat>, RepoError>;

    /// # Errors
    /// Storage errors.
    async fn gifs_with_tag(&self, tag: &TagName, limit: i64) -> Result<Vec<GifStat>, RepoError>;

    /// # Errors
    /// Storage errors.
    async fn gifs_of_type(&self, content_type: &str, limit: i64) -> Result<Vec<GifStat>, RepoError>;

    /// # Errors
    /// Storage errors.
    async fn users_at_level(&self, level: ActivityLevel, limit: i64) -> Result<Vec<UserStat>, RepoError>;
}
