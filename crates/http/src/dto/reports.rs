//! Moderation: members' reports, the admins' queue and what they do to GIFs.

use gifshelf_domain::report::Report;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::iso;

/// `POST /api/gifs/{id}/reports`.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateReportRequest {
    #[ts(type = "\"spam\" | \"offensive\" | \"copyright\" | \"other\"")]
    pub reason: String,
    /// Optional words for the admins, at most 500 characters.
    #[serde(default)]
    #[ts(optional)]
    pub note: Option<String>,
}

/// The reported GIF as the queue shows it.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportedGifDto {
    #[ts(type = "number")]
    pub id: i64,
    pub title: String,
    /// For a signed-in reader: `/api/gifs/thumbnail/{id}`.
    pub thumbnail_url: String,
    /// The uploader's username.
    pub owner: String,
    /// Whether a moderator hid it (now).
    pub hidden: bool,
}

/// A report, open or closed.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReportDto {
    #[ts(type = "number")]
    pub id: i64,
    pub gif: ReportedGifDto,
    #[ts(type = "\"spam\" | \"offensive\" | \"copyright\" | \"other\"")]
    pub reason: String,
    /// Empty when the reporter wrote none.
    pub note: String,
    /// The reporter's username.
    pub reporter: String,
    /// ISO-8601, UTC.
    pub created_at: String,
    #[ts(type = "\"open\" | \"closed\"")]
    pub status: String,
    /// Null while open.
    #[ts(type = "\"hidden\" | \"dismissed\" | null")]
    pub resolution: Option<String>,
    /// The admin who closed it; null while open.
    pub resolved_by: Option<String>,
    /// ISO-8601, UTC; null while open.
    pub resolved_at: Option<String>,
}

impl From<&Report> for ReportDto {
    fn from(report: &Report) -> Self {
        Self {
            id: report.id.0,
            gif: ReportedGifDto {
                id: report.gif.id.0,
                title: report.gif.title.as_str().to_owned(),
                thumbnail_url: format!("/api/gifs/thumbnail/{}", report.gif.id.0),
                owner: report.gif.owner.as_str().to_owned(),
                hidden: report.gif.hidden,
            },
            reason: report.reason.as_str().to_owned(),
            note: report.note.as_str().to_owned(),
            reporter: report.reporter.as_str().to_owned(),
            created_at: iso(report.created_at),
            status: report.status().as_str().to_owned(),
            resolution: report.resolution.map(|r| r.as_str().to_owned()),
            resolved_by: report.resolved_by.as_ref().map(|u| u.as_str().to_owned()),
            resolved_at: report.resolved_at.map(iso),
        }
    }
}

/// One page of reports, in the gallery's page shape.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PagedReports {
    pub content: Vec<ReportDto>,
    pub current_page: u32,
    #[ts(type = "number")]
    pub total_pages: i64,
    #[ts(type = "number")]
    pub total_elements: i64,
    pub has_next: bool,
    pub has_previous: bool,
}

impl From<gifshelf_domain::gif::Page<Report>> for PagedReports {
    fn from(page: gifshelf_domain::gif::Page<Report>) -> Self {
        Self {
            current_page: page.request.page,
            total_pages: page.total_pages(),
            total_elements: page.total,
            has_next: page.has_next(),
            has_previous: page.has_previous(),
            content: page.items.iter().map(ReportDto::from).collect(),
        }
    }
}

/// `PUT /api/admin/reports/{id}`.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResolveReportRequest {
    /// `hide`: hide the GIF (its owner is shown the report's reason) and close all its open
    /// reports; `dismiss`: close this report only.
    #[ts(type = "\"hide\" | \"dismiss\"")]
    pub action: String,
}

/// `PUT /api/admin/gifs/{id}/visibility`.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VisibilityRequest {
    /// `true` hides the GIF, `false` restores it.
    pub hidden: bool,
    /// What its owner is shown when hidden (at most 200 characters; "Other" when absent).
    #[serde(default)]
    #[ts(optional)]
    pub reason: Option<String>,
}
