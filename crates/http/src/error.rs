//! The one place where errors become responses: status + `{"error": "...", "code": "..."}`.

use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpResponse, ResponseError};
use gifshelf_app::AppError;

use crate::dto::ApiErrorBody;

/// An error on its way to the client.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self { status, code, message: message.into(), retry_after: None }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, "bad_request", message)
    }

    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "not_found", message)
    }

    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "unauthorized", message)
    }
}

impl From<AppError> for ApiError {
    fn from(err: AppError) -> Self {
        match err {
            AppError::Validation(v) => Self::new(StatusCode::BAD_REQUEST, "validation", v.message),
            AppError::Unauthorized(m) => Self::new(StatusCode::UNAUTHORIZED, "unauthorized", m),
            AppError::TokenExpired => Self::new(StatusCode::UNAUTHORIZED, "token_expired", "Token expired"),
            AppError::Forbidden(m) => Self::new(StatusCode::FORBIDDEN, "forbidden", m),
            AppError::NotFound(m) => Self::new(StatusCode::NOT_FOUND, "not_found", m),
            AppError::Conflict(m) => Self::new(StatusCode::CONFLICT, "conflict", m),
            err @ AppError::TooManyRequests { retry_after_secs } => Self {
                retry_after: Some(retry_after_secs),
                ..Self::new(StatusCode::TOO_MANY_REQUESTS, "too_many_requests", err.to_string())
            },
            AppError::Unavailable(m) => Self::new(StatusCode::SERVICE_UNAVAILABLE, "unavailable", m),
            AppError::NotConfigured(m) => Self::new(StatusCode::NOT_FOUND, "not_configured", m),
            AppError::BadMedia { code, message } => Self::new(StatusCode::BAD_REQUEST, code, message),
            AppError::Internal(detail) => {
                tracing::error!(error = %detail, "internal error");
                Self::internal()
            }
        }
    }
}

impl ApiError {
    pub fn internal() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
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
        response.json(ApiErrorBody { error: self.message.clone(), code: self.code.to_owned() })
    }
}

/// Malformed JSON bodies get a 400 (or 413) in our shape, not actix's plain text.
pub fn json_config() -> web::JsonConfig {
    web::JsonConfig::default().limit(64 * 1024).error_handler(|err, _req| {
        use actix_web::error::JsonPayloadError;
        let api = match &err {
            JsonPayloadError::OverflowKnownLength { .. } | JsonPayloadError::Overflow { .. } => {
                ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, "too_large", "The request body is too large.")
            }
            JsonPayloadError::ContentType => ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "unsupported_media_type",
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
