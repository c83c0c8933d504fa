//! The one place where errors become responses: status + `{"error": "...", "code": "..."}`.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse, ResponseError};
use gifshelf_app::{AppError, MediaProblem};

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
            AppError::Forbidden(m) => Self::new(StatusCode::FORBIDDEN, ErrorCode::Forbidden, m),
            AppError::NotFound(m) => Self::new(StatusCode::NOT_FOUND, ErrorCode::NotFound, m),
            AppError::Conflict(m) => Self::new(StatusCode::CONFLICT, ErrorCode::Conflict, m),
            err @ AppError::TooManyRequests { retry_after_secs } => Self {
                retry_after: Some(retry_after_secs),
                ..Self::new(StatusCode::TOO_MANY_REQUESTS, ErrorCode::TooManyRequests, err.to_string())
            },
            err @ AppError::RateLimited { retry_after_secs } => Self {
                retry_after: Some(retry_after_secs),
                ..Self::new(StatusCode::TOO_MANY_REQUESTS, ErrorCode::TooManyRequests, err.to_string())
            },
            AppError::Unavailable(m) => Self::new(StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable, m),
            AppError::NotConfigured(m) => Self::new(StatusCode::NOT_FOUND, ErrorCode::NotConfigured, m),
            AppError::UrlRefused(m) => Self::new(StatusCode::BAD_REQUEST, ErrorCode::UrlRefused, m),
            AppError::UrlFetchFailed(m) => Self::new(StatusCode::BAD_REQUEST, ErrorCode::UrlFetchFailed, m),
            AppError::TooLarge(m) => Self::new(StatusCode::PAYLOAD_TOO_LARGE, ErrorCode::TooLarge, m),
            AppError::BadMedia { problem, message } => {
                let code = match problem {
                    MediaProblem::UnsupportedType => ErrorCode::UnsupportedType,
                    MediaProblem::InvalidImage => ErrorCode::InvalidImage,
                    MediaProblem::ImageTooLarge => ErrorCode::ImageTooLarge,
                    MediaProblem::ImageTooComplex => ErrorCode::ImageTooComplex,
                };
                Self::new(StatusCode::BAD_REQUEST, code, message)
            }
            err @ AppError::Duplicate { existing } => Self {
                existing_id: Some(existing.0),
                ..Self::new(StatusCode::CONFLICT, ErrorCode::Duplicate, err.to_string())
            },
            AppError::Internal(cause) => {
                tracing::error!(error = %chain(cause.as_ref()), "internal error");
                Self::internal()
            }
        }
    }
}

/// An error and every cause below it, `outer: inner: innermost`, for the log.
fn chain(err: &(dyn std::error::Error + 'static)) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
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
