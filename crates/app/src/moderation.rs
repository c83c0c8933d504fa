//! Moderation: members report GIFs; administrators read the queue, hide a reported GIF or dismiss
//! the report, and hide or restore any GIF directly. A hidden GIF is seen only by its owner and
//! administrators (`Gif::visible_to`); each action is one method with its audit record.

use std::sync::Arc;

use gifshelf_domain::audit::AuditAction;
use gifshelf_domain::gif::{Gif, GifId, Page, PageRequest};
use gifshelf_domain::ports::{Clock, GifRepository, ReportRepository};
use gifshelf_domain::report::{
    NewReport, Report, ReportId, ReportNote, ReportReason, ReportStatus, Resolution, VisibilityChange,
    HIDDEN_REASON_MAX,
};
use gifshelf_domain::{RepoError, ValidationError};

use crate::auth::Actor;
use crate::gifs::gif_not_found;
use crate::{AppError, Conflict};

/// The reason a GIF hidden directly shows its owner when the admin gave none.
pub const DEFAULT_HIDDEN_REASON: &str = "Other";

pub struct ModerationService {
    reports: Arc<dyn ReportRepository>,
    gifs: Arc<dyn GifRepository>,
    clock: Arc<dyn Clock>,
    audit: Option<crate::audit::Audit>,
}

fn report_not_found(err: RepoError) -> AppError {
    match err {
        RepoError::NotFound => AppError::NotFound("Report not found".into()),
        other => AppError::from_repo(other),
    }
}

/// "GIF #4 "Cat"", as the audit log names a GIF.
fn gif_words(id: GifId, title: &str) -> String {
    format!("GIF #{} \"{title}\"", id.0)
}

impl ModerationService {
    pub fn new(reports: Arc<dyn ReportRepository>, gifs: Arc<dyn GifRepository>, clock: Arc<dyn Clock>) -> Self {
        Self { reports, gifs, clock, audit: None }
    }

    /// The same service, recording what admins do in the audit log.
    #[must_use]
    pub fn with_audit(self, audit: crate::audit::Audit) -> Self {
        Self { audit: Some(audit), ..self }
    }

    async fn record(&self, actor: &Actor, action: AuditAction, target: String, detail: String) {
        if let Some(audit) = &self.audit {
            audit.record(actor, action, target, detail).await;
        }
    }

    /// Files a member's report of a GIF they can see and do not own. Reporting a GIF again while
    /// their report of it is open changes nothing and answers that report (`false`: not new).
    ///
    /// # Errors
    /// `Validation` (an unknown reason, a note over 500 characters); `NotFound` for a GIF the
    /// actor cannot see; `Conflict::OwnGif`.
    pub async fn report(
        &self,
        actor: &Actor,
        gif: GifId,
        reason: &str,
        note: &str,
    ) -> Result<(Report, bool), AppError> {
        let reason = ReportReason::parse(reason)?;
        let note = ReportNote::parse(note)?;
        let found = self.gifs.find(gif).await.map_err(gif_not_found)?;
        if !found.visible_to(actor.id, actor.is_admin()) {
            return Err(AppError::NotFound("GIF not found".into()));
        }
        if found.uploader_id == actor.id {
            return Err(Conflict::OwnGif.into());
        }
        let report = NewReport { gif, reporter: actor.id, reason, note, at: self.clock.now() };
        self.reports.file_report(report).await.map_err(gif_not_found)
    }

    /// A page of the queue: open reports oldest first, or closed ones most recently closed first.
    ///
    /// # Errors
    /// `Forbidden` unless the actor is an administrator.
    pub async fn reports(
        &self,
        actor: &Actor,
        status: ReportStatus,
        page: PageRequest,
    ) -> Result<Page<Report>, AppError> {
        actor.require_admin()?;
        Ok(self.reports.reports(status, page).await?)
    }

    /// Hides the reported GIF (its reason: the report's; every open report of it closes) or
    /// dismisses the report.
    ///
    /// # Errors
    /// `Forbidden` unless the actor is an administrator; `NotFound`; `Conflict::ReportClosed`
    /// when it was closed already.
    pub async fn resolve(&self, actor: &Actor, id: ReportId, resolution: Resolution) -> Result<Report, AppError> {
        actor.require_admin()?;
        let before = self.reports.report(id).await.map_err(report_not_found)?;
        if before.resolution.is_some() {
            return Err(Conflict::ReportClosed.into());
        }
        let (after, closed) =
            self.reports.resolve_report(id, resolution, actor.id, self.clock.now()).await.map_err(report_not_found)?;
        if !closed {
            return Err(Conflict::ReportClosed.into());
        }
        let target = gif_words(after.gif.id, after.gif.title.as_str());
        let detail = format!("report #{} by {}: {}", id.0, after.reporter.as_str(), after.reason.label());
        let action = match resolution {
            Resolution::Hidden => AuditAction::ReportHidden,
            Resolution::Dismissed => AuditAction::ReportDismissed,
        };
        self.record(actor, action, target, detail).await;
        Ok(after)
    }

    /// Hides a GIF (with the admin's reason, or "Other") or restores it.
    ///
    /// # Errors
    /// `Forbidden` unless the actor is an administrator; `Validation` for a reason over 200
    /// characters; `NotFound`.
    pub async fn set_hidden(
        &self,
        actor: &Actor,
        gif: GifId,
        hidden: bool,
        reason: Option<&str>,
    ) -> Result<Gif, AppError> {
        actor.require_admin()?;
        let change = if hidden {
            let reason = reason.map(str::trim).filter(|r| !r.is_empty()).unwrap_or(DEFAULT_HIDDEN_REASON);
            if reason.chars().count() > HIDDEN_REASON_MAX {
                return Err(ValidationError::new(
                    "reason",
                    format!("The reason is too long (at most {HIDDEN_REASON_MAX} characters)."),
                )
                .into());
            }
            VisibilityChange::Hide { reason: reason.to_owned() }
        } else {
            VisibilityChange::Restore
        };
        let changed =
            self.reports.set_visibility(gif, change, actor.id, self.clock.now()).await.map_err(gif_not_found)?;
        let target = gif_words(changed.id, changed.title.as_str());
        match &changed.hidden {
            Some(h) if hidden => {
                self.record(actor, AuditAction::GifHidden, target, format!("reason: {}", h.reason)).await
            }
            _ => self.record(actor, AuditAction::GifRestored, target, String::new()).await,
        }
        Ok(changed)
    }

    /// The hidden GIFs, most recently hidden first (the Moderation screen's list).
    ///
    /// # Errors
    /// `Forbidden` unless the actor is an administrator.
    pub async fn hidden(&self, actor: &Actor, page: PageRequest) -> Result<Page<Gif>, AppError> {
        actor.require_admin()?;
        Ok(self.reports.hidden_gifs(page).await?)
    }
}

#[cfg(test)]
#[path = "moderation_tests.rs"]
mod tests;
