//! Error answers: the body every failure has and its machine codes.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The stable machine code of every error answer. The SPA's generated `ErrorCode` type is this
/// list, so a new code is one variant here and the compiler shows every place that must know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A malformed request: query, path, body or upload form.
    BadRequest,
    /// A field broke a rule of the product (spec §5).
    Validation,
    /// No token, or one that is refused.
    Unauthorized,
    /// The session token has expired.
    TokenExpired,
    /// The account was disabled by an administrator: its credentials are refused (401) and
    /// signing in is refused (403).
    AccountDisabled,
    /// The change would leave no active administrator.
    LastAdmin,
    /// An administrator cannot disable or delete their own account.
    OwnAccount,
    /// Signed in, but not allowed (not the owner, not an admin).
    Forbidden,
    /// Registration is closed: nobody registers without an invitation.
    RegistrationClosed,
    /// Registration needs an invitation.
    InvitationRequired,
    /// The invitation has expired, been used up or been revoked.
    InvitationInvalid,
    /// The email's domain (or the Google Workspace domain) is not one the server allows.
    EmailDomainNotAllowed,
    NotFound,
    /// A clash with what is stored that has no code of its own.
    Conflict,
    /// Another account has the username.
    UsernameTaken,
    /// Another account has the email.
    EmailTaken,
    /// The sign-in method is the account's last one: set a password before disconnecting it.
    LastSignInMethod,
    /// The provider identity is connected to another account.
    IdentityTaken,
    /// The account has an identity of this provider already.
    ProviderAlreadyLinked,
    /// A first third-party sign-in found no free username.
    NoFreeUsername,
    /// Another tag has the name.
    TagNameTaken,
    /// A share id clashed with another one.
    ShareIdTaken,
    /// The caller has as many API keys as one may.
    ApiKeyLimit,
    /// The server has as many chat integrations as it takes.
    IntegrationLimit,
    /// GIFs of a bulk request changed while it ran; nothing was applied.
    ChangedMeanwhile,
    /// A member cannot report their own GIF.
    OwnGif,
    /// The report was closed already (by another admin).
    ReportClosed,
    /// The body is over its limit.
    TooLarge,
    /// The body is not of the expected type.
    UnsupportedMediaType,
    /// The body took too long to arrive.
    RequestTimeout,
    /// Too many attempts; see `Retry-After`.
    TooManyRequests,
    /// The server is busy or a dependency is down; try again shortly.
    Unavailable,
    /// A feature this server was not configured for.
    NotConfigured,
    /// Uploaded bytes that are no supported image.
    UnsupportedType,
    /// A damaged or incomplete image.
    InvalidImage,
    /// An image over a size limit.
    ImageTooLarge,
    /// An image too much work to process.
    ImageTooComplex,
    /// A link the server will not fetch (not http(s), credentials, a private address).
    UrlRefused,
    /// A link the server could not fetch (unreachable, an error answer, too slow, redirects).
    UrlFetchFailed,
    /// The upload is byte for byte a GIF of the library; `existingId` names it.
    Duplicate,
    /// A new GIF over the member's storage or daily upload quota; the message names it.
    QuotaExceeded,
    /// A password reset link that was used, replaced, has expired or never existed.
    ResetInvalid,
    /// A fault of ours.
    Internal,
}

#[derive(Debug, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApiErrorBody {
    /// A sentence a person can read.
    pub error: String,
    /// A stable machine code.
    pub code: ErrorCode,
    /// With `duplicate` only: the GIF of the library the upload is identical to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub existing_id: Option<i64>,
}
