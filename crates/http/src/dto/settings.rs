//! Your profile and password (Settings).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProfileDto {
    pub username: String,
    pub email: String,
    /// False for an account made by a third-party sign-in that never set a password: it sets one
    /// without a current password.
    pub has_password: bool,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateProfileRequest {
    pub username: String,
    /// Omitted or null: the email stays as it is.
    #[serde(default)]
    pub email: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChangePasswordRequest {
    /// Required when the account has a password (`hasPassword` in the profile); an account made by
    /// a third-party sign-in sets its first password without it.
    #[serde(default)]
    #[ts(optional)]
    pub current_password: Option<String>,
    pub new_password: String,
    pub confirm_password: String,
}
