//! What a session token says (design.md §3 "Auth and tokens").

/// The claims gifshelf signs: `sub` (username), `roles` (`ROLE_USER[,ROLE_ADMIN]`), `iat`, `exp`
/// (seconds since the epoch).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Claims {
    pub sub: String,
    pub roles: String,
    pub iat: i64,
    pub exp: i64,
}
