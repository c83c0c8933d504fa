//! Reports and what moderators do to GIFs.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::gif::{Gif, GifId, Page, PageRequest};
use crate::report::{NewReport, Report, ReportId, ReportStatus, Resolution, VisibilityChange};
use crate::user::UserId;
use crate::RepoError;

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait ReportRepository: Send + Sync {
    /// Files a report, unless its reporter already has an open one on the GIF: then that one is
    /// answered and nothing is stored. The flag says whether the report is new.
    ///
    /// # Errors
    /// `NotFound` when the GIF is gone; storage errors.
    async fn file_report(&self, report: NewReport) -> Result<(Report, bool), RepoError>;

    /// One page of reports: open ones oldest first, closed ones most recently closed first.
    ///
    /// # Errors
    /// Storage errors.
    async fn reports(&self, status: ReportStatus, page: PageRequest) -> Result<Page<Report>, RepoError>;

    /// # Errors
    /// `NotFound` when no report has this id.
    async fn report(&self, id: ReportId) -> Result<Report, RepoError>;

    /// Closes an open report, in one transaction: `Hidden` hides its GIF with the report's reason
    /// and closes every open report of that GIF; `Dismissed` closes this one only. The flag says
    /// whether this call closed it: a report closed meanwhile is answered as it is, unchanged.
    ///
    /// # Errors
    /// `NotFound` when no report has this id.
    async fn resolve_report(
        &self,
        id: ReportId,
        resolution: Resolution,
        by: UserId,
        at: NaiveDateTime,
    ) -> Result<(Report, bool), RepoError>;

    /// Hides a GIF (closing its open reports as hidden) or restores it; the GIF as it is now.
    ///
    /// # Errors
    /// `NotFound` when no GIF has this id.
    async fn set_visibility(
        &self,
        gif: GifId,
        change: VisibilityChange,
        by: UserId,
        at: NaiveDateTime,
    ) -> Result<Gif, RepoError>;

    /// The hidden GIFs, most recently hidden first.
    ///
    /// # Errors
    /// Storage errors.
    async fn hidden_gifs(&self, page: PageRequest) -> Result<Page<Gif>, RepoError>;
}
