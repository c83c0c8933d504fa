//! Request and response bodies. The frontend's types in `frontend/src/api/generated/` are generated
//! from these with ts-rs (`cargo xtask gen-types`); a test fails when they are stale.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Debug, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ApiErrorBody {
    /// A sentence a person can read.
    pub error: String,
    /// A stable machine code (`validation`, `unauthorized`, `token_expired`, …).
    pub code: String,
}

#[derive(Debug, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LoginRequest {
    pub username: String,
    pub password: String,
}

#[derive(Debug, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TokenResponse {
    pub token: String,
}

#[derive(Debug, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RegisterRequest {
    pub username: String,
    pub email: String,
    pub password: String,
    pub confirm_password: String,
}

#[derive(Debug, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProfileDto {
    pub username: String,
    pub email: String,
}

#[derive(Debug, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdateProfileRequest {
    pub username: String,
    /// Omitted or null: the email stays as it is.
    #[serde(default)]
    pub email: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChangePasswordRequest {
    pub new_password: String,
    pub confirm_password: String,
}

/// `GET /api/config`: what the SPA needs to know about this server before sign-in.
#[derive(Debug, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PublicConfig {
    pub google_client_id: Option<String>,
    #[ts(type = "number")]
    pub max_upload_bytes: u64,
    pub version: String,
}

#[derive(Debug, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HealthDto {
    pub status: String,
    pub database: String,
}

/// Every exported type, for the generator and the freshness test.
#[macro_export]
macro_rules! for_each_dto {
    ($m:ident) => {
        $m!(
            ApiErrorBody,
            LoginRequest,
            TokenResponse,
            RegisterRequest,
            ProfileDto,
            UpdateProfileRequest,
            ChangePasswordRequest,
            PublicConfig,
            HealthDto
        );
    };
}

/// `(file name, contents)` of every generated TypeScript file.
pub fn typescript_files() -> Vec<(String, String)> {
    let mut files = Vec::new();
    macro_rules! collect {
        ($($t:ident),*) => {
            $(
                files.push((
                    format!("{}.ts", <$t as TS>::name()),
                    <$t as TS>::export_to_string().unwrap_or_else(|e| format!("// export failed: {e}\n")),
                ));
            )*
        };
    }
    for_each_dto!(collect);
    files
}
