//! What a session vouches for, and who third-party providers vouch for (product.md §10 "Auth and
//! tokens"). How a token spells it on the wire is the token adapter's business.

use crate::user::Role;
use crate::Cause;

/// What a session token says: whose session it is, the role it was issued with (informative: the
/// role that counts is the one stored now), and when it was issued and expires (seconds since the
/// epoch, UTC).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionClaims {
    pub username: String,
    pub role: Role,
    pub issued_at: i64,
    pub expires_at: i64,
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
    /// The hosted domain the provider vouches for (Google Workspace's `hd` claim), lower-cased.
    pub hosted_domain: Option<String>,
}

/// A provider identity as linked to an account (what Settings shows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkedIdentity {
    pub issuer: String,
    /// The email the provider shared when the identity was linked.
    pub email: Option<String>,
    /// UTC.
    pub linked_at: chrono::NaiveDateTime,
}

/// Why a third-party ID token was not accepted.
#[derive(Debug, thiserror::Error)]
pub enum IdentityError {
    /// Bad signature, wrong issuer or audience, expired, an algorithm we do not accept, malformed.
    /// The reason is for the log only.
    #[error("ID token refused: {0}")]
    Rejected(#[source] Cause),
    /// The provider's discovery document or keys could not be fetched.
    #[error("identity provider unavailable: {0}")]
    Unavailable(#[source] Cause),
}
