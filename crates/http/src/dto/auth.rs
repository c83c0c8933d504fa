//! Signing in and registering.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::iso;

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginRequest {
    pub username: String,
    pub password: String,
}

/// `POST /api/auth/google`: the ID token ("credential") the provider's sign-in gave the browser.
#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GoogleLoginRequest {
    pub token: String,
    /// An invitation token, for a first sign-in that makes an account.
    #[serde(default)]
    #[ts(optional)]
    pub invite: Option<String>,
}

/// A provider identity connected to your account (Settings, "Connected sign-in").
#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IdentityDto {
    /// The provider's issuer URL (`https://accounts.google.com`).
    pub issuer: String,
    /// The email the provider shared when it was connected.
    pub email: Option<String>,
    /// ISO-8601, UTC.
    pub linked_at: String,
}

impl From<&gifshelf_domain::auth::LinkedIdentity> for IdentityDto {
    fn from(identity: &gifshelf_domain::auth::LinkedIdentity) -> Self {
        Self { issuer: identity.issuer.clone(), email: identity.email.clone(), linked_at: iso(identity.linked_at) }
    }
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenResponse {
    pub token: String,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisterRequest {
    pub username: String,
    pub email: String,
    pub password: String,
    pub confirm_password: String,
    /// An invitation token (from a `/join/{token}` link).
    #[serde(default)]
    #[ts(optional)]
    pub invite: Option<String>,
}
