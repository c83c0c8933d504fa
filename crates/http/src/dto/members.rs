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
