//! Members (admins): the accounts of the server, their roles and whether they may sign in.

use gifshelf_domain::member::Member;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::iso;

/// An account on the Members list.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberDto {
    #[ts(type = "number")]
    pub id: i64,
    pub username: String,
    pub email: String,
    #[ts(type = "\"user\" | \"admin\"")]
    pub role: String,
    #[ts(type = "\"active\" | \"disabled\"")]
    pub status: String,
    /// When the account was made (RFC 3339, UTC).
    pub created_at: String,
    /// When a session of it was last used, to the hour; null when never.
    pub last_seen_at: Option<String>,
    #[ts(type = "number")]
    pub gif_count: i64,
    /// The stored bytes of the member's GIFs: originals and every rendition.
    #[ts(type = "number")]
    pub storage_bytes: i64,
}

impl From<&Member> for MemberDto {
    fn from(member: &Member) -> Self {
        let user = &member.user;
        Self {
            id: user.id.0,
            username: user.username.as_str().to_owned(),
            email: user.email.as_str().to_owned(),
            role: user.role.as_str().to_lowercase(),
            status: if user.disabled_at.is_some() { "disabled" } else { "active" }.to_owned(),
            created_at: iso(user.created_at),
            last_seen_at: user.last_seen_at.map(iso),
            gif_count: member.gif_count,
            storage_bytes: member.storage_bytes,
        }
    }
}

/// One page of members, in the gallery's page shape.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PagedMembers {
    pub content: Vec<MemberDto>,
    pub current_page: u32,
    #[ts(type = "number")]
    pub total_pages: i64,
    #[ts(type = "number")]
    pub total_elements: i64,
    pub has_next: bool,
    pub has_previous: bool,
}

impl From<gifshelf_domain::gif::Page<Member>> for PagedMembers {
    fn from(page: gifshelf_domain::gif::Page<Member>) -> Self {
        Self {
            current_page: page.request.page,
            total_pages: page.total_pages(),
            total_elements: page.total,
            has_next: page.has_next(),
            has_previous: page.has_previous(),
            content: page.items.iter().map(MemberDto::from).collect(),
        }
    }
}

/// `PUT /api/admin/users/{id}`: what to change; an absent field keeps what is stored.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateMemberRequest {
    #[serde(default)]
    #[ts(optional, type = "\"user\" | \"admin\"")]
    pub role: Option<String>,
    #[serde(default)]
    #[ts(optional, type = "\"active\" | \"disabled\"")]
    pub status: Option<String>,
}

/// A quota: `GET/PUT /api/admin/quotas` (null: unlimited) and `GET/PUT /api/admin/users/{id}/quota`
/// (null: the default). An absent field is null.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QuotaDto {
    /// Bytes of stored GIFs (originals and renditions).
    #[serde(default)]
    #[ts(type = "number | null")]
    pub storage_bytes: Option<i64>,
    /// New GIFs per UTC day.
    #[serde(default)]
    #[ts(type = "number | null")]
    pub uploads_per_day: Option<i64>,
}

impl From<gifshelf_domain::account::Quota> for QuotaDto {
    fn from(quota: gifshelf_domain::account::Quota) -> Self {
        Self { storage_bytes: quota.storage_bytes, uploads_per_day: quota.uploads_per_day }
    }
}

/// `POST /api/admin/users/{id}/password-reset`: the one-time link to pass on.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordResetLinkDto {
    /// The absolute link (`/reset/{token}`); shown once, only its digest is stored.
    pub url: String,
    /// When it stops working (RFC 3339, UTC).
    pub expires_at: String,
}

/// `POST /api/auth/password-reset`: the link's token and the new password.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResetPasswordRequest {
    pub token: String,
    pub password: String,
}

/// `GET /api/settings/usage`: what the member uses and may use (a null limit: unlimited).
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UsageDto {
    #[ts(type = "number")]
    pub storage_bytes: i64,
    #[ts(type = "number | null")]
    pub storage_limit: Option<i64>,
    #[ts(type = "number")]
    pub uploads_today: i64,
    #[ts(type = "number | null")]
    pub uploads_per_day: Option<i64>,
}
