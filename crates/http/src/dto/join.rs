//! Who may join: the registration policy and invitations.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `GET`/`PUT /api/admin/registration`.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegistrationPolicyDto {
    /// `open` (anyone), `invite` (only with an invitation) or `closed` (admins invite people).
    #[ts(type = "\"open\" | \"invite\" | \"closed\"")]
    pub mode: String,
    /// Email domains new accounts must have (lower-cased host names, at most 50); empty: any.
    pub allowed_domains: Vec<String>,
    /// Whether members who are not admins may make invitations.
    pub members_may_invite: bool,
}

/// `POST /api/invites`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateInviteRequest {
    /// 1 to 1000; default 1.
    #[serde(default)]
    #[ts(optional, type = "number")]
    pub max_uses: Option<i64>,
    /// 1 to 720; default 168 (a week).
    #[serde(default)]
    #[ts(optional, type = "number")]
    pub expires_in_hours: Option<i64>,
    /// The role of the accounts it makes: `user` (default) or `admin` (admins only).
    #[serde(default)]
    #[ts(optional, type = "\"user\" | \"admin\"")]
    pub role: Option<String>,
}

/// An invitation (its token is only in the answer that made it).
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InviteDto {
    #[ts(type = "number")]
    pub id: i64,
    #[ts(type = "number")]
    pub max_uses: i64,
    #[ts(type = "number")]
    pub uses: i64,
    /// ISO-8601, UTC.
    pub expires_at: String,
    /// ISO-8601, UTC.
    pub created_at: String,
    #[ts(type = "\"user\" | \"admin\"")]
    pub role: String,
    /// The username of who made it.
    pub created_by: String,
}

/// A new invitation: `token` and `url` are in this answer only.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedInviteDto {
    #[ts(type = "number")]
    pub id: i64,
    pub token: String,
    /// `{origin}/join/{token}`: the link to send.
    pub url: String,
    #[ts(type = "number")]
    pub max_uses: i64,
    #[ts(type = "number")]
    pub uses: i64,
    /// ISO-8601, UTC.
    pub expires_at: String,
    #[ts(type = "\"user\" | \"admin\"")]
    pub role: String,
    pub created_by: String,
}

pub fn role_name(role: gifshelf_domain::user::Role) -> String {
    match role {
        gifshelf_domain::user::Role::Admin => "admin".into(),
        gifshelf_domain::user::Role::User => "user".into(),
    }
}

impl From<&gifshelf_domain::join::Invite> for InviteDto {
    fn from(invite: &gifshelf_domain::join::Invite) -> Self {
        Self {
            id: invite.id.0,
            max_uses: invite.max_uses,
            uses: invite.uses,
            expires_at: super::iso(invite.expires_at),
            created_at: super::iso(invite.created_at),
            role: role_name(invite.role),
            created_by: invite.created_by_name.as_str().to_owned(),
        }
    }
}

impl From<&gifshelf_domain::join::RegistrationPolicy> for RegistrationPolicyDto {
    fn from(policy: &gifshelf_domain::join::RegistrationPolicy) -> Self {
        Self {
            mode: policy.mode.as_str().to_owned(),
            allowed_domains: policy.allowed_domains.iter().map(|d| d.as_str().to_owned()).collect(),
            members_may_invite: policy.members_may_invite,
        }
    }
}
