//! The one place where errors become responses: status + `{"error": "...", "code": "..."}`.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse, ResponseError};
use gifshelf_app::join::Refusal;
use gifshelf_app::{AppError, Conflict};
use gifshelf_domain::media::MediaRejection;
use gifshelf_domain::{error_chain, Unique};

use crate::dto::{ApiErrorBody, ErrorCode};

/// An error on its way to the client.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: String,
    pub retry_after: Option<u64>,
    /// The GIF a `duplicate` upload is identical to.
    pub existing_id: Option<i64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), retry_after: None, existing_id: None }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, ErrorCode::BadRequest, message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, ErrorCode::NotFound, message)
    }

    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized, message)
    }
}

impl From<AppError> for ApiError {
    fn from(err: AppError) -> Self {
        match err {
            AppError::Validation(v) => Self::new(StatusCode::BAD_REQUEST, ErrorCode::Validation, v.message),
            AppError::Unauthorized(m) => Self::new(StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized, m),
            AppError::TokenExpired => Self::new(StatusCode::UNAUTHORIZED, ErrorCode::TokenExpired, "Token expired"),
            err @ AppError::AccountDisabled => {
                Self::new(StatusCode::UNAUTHORIZED, ErrorCode::AccountDisabled, err.to_string())
            }
            err @ AppError::SignInDisabled => {
                Self::new(StatusCode::FORBIDDEN, ErrorCode::AccountDisabled, err.to_string())
            }
            AppError::Forbidden(m) => Self::new(StatusCode::FORBIDDEN, ErrorCode::Forbidden, m),
            AppError::Refused(refusal) => {
                let code = match refusal {
                    Refusal::RegistrationClosed => ErrorCode::RegistrationClosed,
                    Refusal::InvitationRequired => ErrorCode::InvitationRequired,
                    Refusal::InvitationInvalid => ErrorCode::InvitationInvalid,
                    Refusal::EmailDomainNotAllowed => ErrorCode::EmailDomainNotAllowed,
                };
                Self::new(StatusCode::FORBIDDEN, code, refusal.to_string())
            }
            AppError::NotFound(m) => Self::new(StatusCode::NOT_FOUND, ErrorCode::NotFound, m),
            AppError::Conflict(conflict) => {
                Self::new(StatusCode::CONFLICT, conflict_code(&conflict), conflict.to_string())
            }
            err @ AppError::TooManyRequests { retry_after_secs } => Self {
                retry_after: Some(retry_after_secs),
                ..Self::new(StatusCode::TOO_MANY_REQUESTS, ErrorCode::TooManyRequests, err.to_string())
            },
            err
            @ (AppError::TooManyRegistrations { retry_after_secs } | AppError::RateLimited { retry_after_secs }) => {
                Self {
                    retry_after: Some(retry_after_secs),
                    ..Self::new(StatusCode::TOO_MANY_REQUESTS, ErrorCode::TooManyRequests, err.to_string())
                }
            }
            AppError::Unavailable(m) => Self::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable, m),
            AppError::NotConfigured(m) => Self::new(StatusCode::NOT_FOUND, ErrorCode::NotConfigured, m),
            AppError::UrlRefused(m) => Self::new(StatusCode::BAD_REQUEST, ErrorCode::UrlRefused, m),
            AppError::UrlFetchFailed(m) => Self::new(StatusCode::BAD_REQUEST, ErrorCode::UrlFetchFailed, m),
            AppError::TooLarge(m) => Self::new(StatusCode::PAYLOAD_TOO_LARGE, ErrorCode::TooLarge, m),
            AppError::BadMedia(rejection) => Self::from(rejection),
            AppError::QuotaExceeded(m) => Self::new(StatusCode::TOO_MANY_REQUESTS, ErrorCode::QuotaExceeded, m),
            err @ AppError::ResetInvalid => {
                Self::new(StatusCode::BAD_REQUEST, ErrorCode::ResetInvalid, err.to_string())
            }
            err @ AppError::Duplicate { existing } => Self {
                existing_id: Some(existing.0),
                ..Self::new(StatusCode::CONFLICT, ErrorCode::Duplicate, err.to_string())
            },
            AppError::Internal(cause) => {
                tracing::error!(error = %error_chain(cause.as_ref()), "internal error");
                Self::internal()
            }
        }
    }
}

impl From<MediaRejection> for ApiError {
    fn from(rejection: MediaRejection) -> Self {
        let code = match &rejection {
            MediaRejection::UnsupportedType(_) => ErrorCode::UnsupportedType,
            MediaRejection::InvalidImage { .. } => ErrorCode::InvalidImage,
            MediaRejection::ImageTooLarge(_) => ErrorCode::ImageTooLarge,
            MediaRejection::ImageTooComplex => ErrorCode::ImageTooComplex,
            MediaRejection::Busy => {
                return Self::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable, rejection.to_string())
            }
            MediaRejection::Internal(_) => return Self::from(AppError::Internal(Box::new(rejection))),
        };
        if let MediaRejection::InvalidImage { cause: Some(cause), .. } = &rejection {
            tracing::info!(error = %error_chain(cause.as_ref()), "image refused as damaged");
        }
        Self::new(StatusCode::BAD_REQUEST, code, rejection.to_string())
    }
}

/// The code of each clash: the rule that was broken, named.
fn conflict_code(conflict: &Conflict) -> ErrorCode {
    match conflict {
        Conflict::UsernameTaken | Conflict::Exists(Unique::Username) => ErrorCode::UsernameTaken,
        Conflict::EmailTaken | Conflict::EmailHasAccount | Conflict::Exists(Unique::Email) => ErrorCode::EmailTaken,
        Conflict::LastSignInMethod => ErrorCode::LastSignInMethod,
        Conflict::IdentityLinkedElsewhere | Conflict::Exists(Unique::Identity) => ErrorCode::IdentityTaken,
        Conflict::ProviderAlreadyLinked | Conflict::Exists(Unique::IdentityPerProvider) => {
            ErrorCode::ProviderAlreadyLinked
        }
        Conflict::NoFreeUsername => ErrorCode::NoFreeUsername,
        Conflict::TagNameTaken(_) | Conflict::Exists(Unique::TagName) => ErrorCode::TagNameTaken,
        Conflict::Exists(Unique::ShareId) => ErrorCode::ShareIdTaken,
        Conflict::ApiKeyLimit => ErrorCode::ApiKeyLimit,
        Conflict::IntegrationLimit => ErrorCode::IntegrationLimit,
        Conflict::ChangedMeanwhile => ErrorCode::ChangedMeanwhile,
        Conflict::LastAdmin => ErrorCode::LastAdmin,
        Conflict::OwnAccount => ErrorCode::OwnAccount,
        Conflict::OwnGif => ErrorCode::OwnGif,
        Conflict::ReportClosed => ErrorCode::ReportClosed,
        Conflict::Exists(_) => ErrorCode::Conflict,
    }
}

impl ApiError {
    pub fn internal() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::Internal,
            "Something went wrong on our side. Please try again later.",
        )
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status);
        if let Some(secs) = self.retry_after {
            response.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        response.json(ApiErrorBody { error: self.message.clone(), code: self.code, existing_id: self.existing_id })
    }
}

/// Malformed JSON bodies get a 400 (or 413) in our shape, not actix's plain text.
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default().limit(64 * 1024).error_handler(|err, _req| {
        use actix_web::error::JsonPayloadError;
        let api = match &err {
            JsonPayloadError::OverflowKnownLength { .. } | JsonPayloadError::Overflow { .. } => {
                ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, ErrorCode::TooLarge, "The request body is too large.")
            }
            JsonPayloadError::ContentType => ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                ErrorCode::UnsupportedMediaType,
                "Send the body as application/json.",
            ),
            JsonPayloadError::Deserialize(e) => ApiError::bad_request(format!("The request body is not valid: {e}")),
            _ => ApiError::bad_request("The request body could not be read."),
        };
        api.into()
    })
}

pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default()
        .error_handler(|err, _req| ApiError::bad_request(format!("Invalid query parameters: {err}")).into())
}

pub fn path_config() -> web::PathConfig {
    web::PathConfig::default().error_handler(|err, _req| ApiError::bad_request(format!("Invalid path: {err}")).into())
}
