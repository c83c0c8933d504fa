//! What a session token says (product.md §10 "Auth and tokens").

/// The claims gifshelf signs: `sub` (username), `roles` (`ROLE_USER[,ROLE_ADMIN]`), `iat`, `exp`
/// (seconds since the epoch).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Claims {
    pub sub: String,
    pub roles: String,
    pub iat: i64,
    pub exp: i64,
}

/// A person an OpenID provider vouched for: who they are at that provider, and the email it shares.
/// Accounts are linked on (`issuer`, `subject`), never on the email alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExternalIdentity {
    pub issuer: String,
    pub subject: String,
    /// Lower-cased; `None` when the provider shares none.
    pub email: Option<String>,
    /// Whether the provider says it checked that the person owns `email`.
    pub email_verified: bool,
    /// A display name, when the provider gives one (a fallback for the username).
    pub name: Option<String>,
}

/// Why a third-party ID token was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    /// Bad signature, wrong issuer or audience, expired, an algorithm we do not accept, malformed.
    /// The reason is for the log only.
    #[error("ID token refused: {0}")]
    Rejected(String),
    /// The provider's discovery document or keys could not be fetched.
    #[error("identity provider unavailable: {0}")]
    Unavailable(String),
}
