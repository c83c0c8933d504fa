//! The audit log (admins).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::iso;

/// Who acted: a member (by the name they had then), or null for the server itself.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditActorDto {
    #[ts(type = "number")]
    pub id: i64,
    pub username: String,
}

/// One admin or security event.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEventDto {
    #[ts(type = "number")]
    pub id: i64,
    /// ISO-8601, UTC.
    pub at: String,
    /// Null when the server itself acted (the command line, a start-up conversion).
    pub actor: Option<AuditActorDto>,
    /// What happened: `user.role_changed`, `user.disabled`, `user.enabled`, `user.deleted`,
    /// `user.password_changed`, `user.password_reset_link`, `user.password_reset`,
    /// `user.quota_changed`, `invitation.made`, `invitation.revoked`, `registration.changed`,
    /// `integration.added`, `integration.removed`, `integration.secret_removed`, `api_key.made`,
    /// `api_key.revoked`, `gif.hidden`, `gif.restored`, `report.dismissed`, `report.hidden`,
    /// `integration.max_rating_changed`.
    pub action: String,
    /// What it was done to, in words.
    pub target: String,
    pub detail: String,
    /// The client's address, when the event came through a request.
    pub address: Option<String>,
}

/// A page of the audit log, newest first, in the gallery's page shape.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PagedAuditEvents {
    pub content: Vec<AuditEventDto>,
    pub current_page: u32,
    #[ts(type = "number")]
    pub total_pages: i64,
    #[ts(type = "number")]
    pub total_elements: i64,
    pub has_next: bool,
    pub has_previous: bool,
}

impl From<gifshelf_domain::gif::Page<gifshelf_domain::audit::AuditEvent>> for PagedAuditEvents {
    fn from(page: gifshelf_domain::gif::Page<gifshelf_domain::audit::AuditEvent>) -> Self {
        use gifshelf_domain::audit::AuditActor;
        Self {
            current_page: page.request.page,
            total_pages: page.total_pages(),
            total_elements: page.total,
            has_next: page.has_next(),
            has_previous: page.has_previous(),
            content: page
                .items
                .into_iter()
                .map(|event| AuditEventDto {
                    id: event.id,
                    at: iso(event.at),
                    actor: match event.actor {
                        AuditActor::Member { id, username } => Some(AuditActorDto { id: id.0, username }),
                        AuditActor::System => None,
                    },
                    action: event.action_name,
                    target: event.target,
                    detail: event.detail,
                    address: event.address,
                })
                .collect(),
        }
    }
}
