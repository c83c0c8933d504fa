//! The chat-compatible APIs: Tenor v2 (also at Commet's fixed Klipy paths), GIPHY v1 and Stoat's
//! gifbox, each in its own shapes and error bodies, opened by an API key (in the query or in the
//! path: `/api/k/{key}/…`), rate limited per key, with CORS for browser clients. GIFs are named by
//! their share id and every media URL is a public share-id URL (docs/chat.md).

pub(crate) mod commands;
mod formats;
mod gifbox;
mod giphy;
mod tenor;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::{from_fn, Next};
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use gifshelf_app::chat::Window;
use gifshelf_app::keys::ChatCaller;
use gifshelf_app::AppError;
use serde::de::DeserializeOwned;

use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(web::scope("/api/tenor/v2").wrap(from_fn(cors)).configure(tenor::routes))
        .service(web::scope("/proxy/klipy/api/v2").wrap(from_fn(cors)).configure(tenor::routes))
        .service(web::scope("/proxy/klipy/media").wrap(from_fn(cors)).configure(formats::klipy_media))
        .service(web::scope("/api/giphy/v1").wrap(from_fn(cors)).configure(giphy::routes))
        .service(web::scope("/api/gifbox").wrap(from_fn(cors)).configure(gifbox::routes))
        .service(
            web::scope("/api/k/{key}")
                .wrap(from_fn(cors))
                .service(web::scope("/tenor/v2").configure(tenor::routes))
                .service(web::scope("/giphy/v1").configure(giphy::routes))
                .service(web::scope("/gifbox").configure(gifbox::routes))
                .default_service(web::to(|| async { ChatError::not_found(Dialect::Gifbox).error_response() })),
        );
}

/// Browser clients (Zulip, Jitsi, Stoat's web client, GIPHY's SDK) call these APIs from their own
/// pages: never with cookies; a preflight may ask for any header (Stoat sends `X-Session-Token`),
/// since no credential of gifshelf's travels in a header here. With keys, any page may read the
/// answers (`*`: the page must hold a key). Anonymously, only pages of the configured origins may
/// (`GIFSHELF_CHAT_API_CORS_ORIGINS`), or else any page a member visits could read the library of
/// an intranet server through the member's browser.
async fn cors(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let cors = req.app_data::<web::Data<AppState>>().map(|state| state.settings.chat_cors.clone()).unwrap_or_default();
    let allowed = allowed_origin(&req, &cors);
    let listed = matches!(cors, crate::ChatCors::Origins(_));
    if req.method() == Method::OPTIONS {
        let asked = req.headers().get(header::ACCESS_CONTROL_REQUEST_HEADERS).cloned();
        let mut response = HttpResponse::NoContent();
        if let Some(origin) = &allowed {
            response
                .insert_header((header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone()))
                .insert_header((header::ACCESS_CONTROL_ALLOW_METHODS, "GET, OPTIONS"))
                .insert_header((header::ACCESS_CONTROL_MAX_AGE, "86400"));
            if let Some(asked) = asked {
                response.insert_header((header::ACCESS_CONTROL_ALLOW_HEADERS, asked));
            }
        }
        if listed {
            response.insert_header((header::VARY, "Origin"));
        }
        return Ok(req.into_response(response.finish()).map_into_right_body());
    }
    let mut response = next.call(req).await?;
    let headers = response.headers_mut();
    if let Some(origin) = allowed {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, HeaderValue::from_static("Retry-After"));
    }
    if listed {
        headers.append(header::VARY, HeaderValue::from_static("Origin"));
    }
    Ok(response.map_into_left_body())
}

/// The `Access-Control-Allow-Origin` a request gets: `*` with keys; anonymously, its own `Origin`
/// when that is listed, else none.
fn allowed_origin(req: &ServiceRequest, cors: &crate::ChatCors) -> Option<HeaderValue> {
    match cors {
        crate::ChatCors::AnyOrigin => Some(HeaderValue::from_static("*")),
        crate::ChatCors::Origins(list) => {
            let origin = req.headers().get(header::ORIGIN)?;
            let text = origin.to_str().ok()?.to_ascii_lowercase();
            list.contains(&text).then(|| origin.clone())
        }
    }
}

/// Which API answers, and so in which shape its errors go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Tenor,
    Giphy,
    Gifbox,
}

/// An error of a chat API, written in that API's own shape.
#[derive(Debug)]
pub struct ChatError {
    dialect: Dialect,
    status: StatusCode,
    message: String,
    retry_after: Option<u64>,
}

impl ChatError {
    pub fn new(dialect: Dialect, status: StatusCode, message: impl Into<String>) -> Self {
        Self { dialect, status, message: message.into(), retry_after: None }
    }

    pub fn bad_request(dialect: Dialect, message: impl Into<String>) -> Self {
        Self::new(dialect, StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(dialect: Dialect) -> Self {
        Self::new(dialect, StatusCode::NOT_FOUND, "Not found.")
    }

    /// A use case's error: its status and sentence from the one table (`error.rs`), which also
    /// logs an internal error's causes.
    pub fn from_app(dialect: Dialect, err: AppError) -> Self {
        let ApiError { status, message, retry_after, .. } = ApiError::from(err);
        Self { dialect, status, message, retry_after }
    }

    /// Google's name of the status (Tenor's errors are Google API errors).
    fn google_status(&self) -> &'static str {
        match self.status {
            StatusCode::BAD_REQUEST | StatusCode::URI_TOO_LONG => "INVALID_ARGUMENT",
            StatusCode::UNAUTHORIZED => "UNAUTHENTICATED",
            StatusCode::FORBIDDEN => "PERMISSION_DENIED",
            StatusCode::NOT_FOUND => "NOT_FOUND",
            StatusCode::TOO_MANY_REQUESTS => "RESOURCE_EXHAUSTED",
            StatusCode::SERVICE_UNAVAILABLE => "UNAVAILABLE",
            _ => "INTERNAL",
        }
    }

    /// The `reason` of Google's error details.
    fn google_reason(&self) -> &'static str {
        match self.status {
            StatusCode::UNAUTHORIZED => "API_KEY_INVALID",
            StatusCode::TOO_MANY_REQUESTS => "RATE_LIMIT_EXCEEDED",
            StatusCode::NOT_FOUND => "NOT_FOUND",
            StatusCode::BAD_REQUEST | StatusCode::URI_TOO_LONG => "INVALID_ARGUMENT",
            _ => "INTERNAL",
        }
    }

    /// The `type` of a Stoat (Revolt) error.
    fn stoat_type(&self) -> &'static str {
        match self.status {
            StatusCode::BAD_REQUEST | StatusCode::URI_TOO_LONG => "InvalidOperation",
            StatusCode::UNAUTHORIZED => "InvalidCredentials",
            StatusCode::NOT_FOUND => "NotFound",
            StatusCode::TOO_MANY_REQUESTS => "TooManyRequests",
            _ => "InternalError",
        }
    }
}

impl std::fmt::Display for ChatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl ResponseError for ChatError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let code = self.status.as_u16();
        let body = match self.dialect {
            Dialect::Tenor => serde_json::json!({
                "error": {
                    "code": code,
                    "message": self.message,
                    "status": self.google_status(),
                    "details": [{
                        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                        "reason": self.google_reason(),
                        "domain": "gifshelf",
                    }],
                }
            }),
            Dialect::Giphy => serde_json::json!({
                "data": [],
                "meta": {"status": code, "msg": self.message, "response_id": ""},
                "message": self.message,
            }),
            Dialect::Gifbox => {
                let mut body = serde_json::json!({"type": self.stoat_type(), "message": self.message});
                if let Some(secs) = self.retry_after {
                    body["retry_after"] = serde_json::json!(secs * 1000);
                }
                body
            }
        };
        let mut response = HttpResponse::build(self.status);
        response.insert_header((header::CACHE_CONTROL, "no-store"));
        if let Some(secs) = self.retry_after {
            response.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        response.json(body)
    }
}

/// A use case's error in the dialect's shape.
pub(crate) trait OrChat<T> {
    fn or_chat(self, dialect: Dialect) -> Result<T, ChatError>;
}

impl<T> OrChat<T> for Result<T, AppError> {
    fn or_chat(self, dialect: Dialect) -> Result<T, ChatError> {
        self.map_err(|e| ChatError::from_app(dialect, e))
    }
}

/// A required comma-separated list of GIF ids (`ids=a,b`), at most `max`.
pub(crate) fn id_list(dialect: Dialect, ids: Option<&str>, max: u32) -> Result<Vec<String>, ChatError> {
    let ids: Vec<String> =
        ids.unwrap_or_default().split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect();
    if ids.is_empty() {
        return Err(ChatError::bad_request(dialect, "ids is required: a comma-separated list of GIF ids."));
    }
    if ids.len() > max as usize {
        return Err(ChatError::bad_request(dialect, format!("At most {max} ids at a time.")));
    }
    Ok(ids)
}

/// The key a request presents: in the path (`/api/k/{key}/…`) or in the dialect's query parameter.
fn presented_key(req: &HttpRequest, dialect: Dialect) -> Option<String> {
    if let Some(key) = req.match_info().get("key") {
        return Some(key.to_owned());
    }
    let name = match dialect {
        Dialect::Tenor => "key",
        Dialect::Giphy => "api_key",
        Dialect::Gifbox => return None,
    };
    web::Query::<std::collections::HashMap<String, String>>::from_query(req.query_string())
        .ok()
        .and_then(|q| q.get(name).cloned())
}

/// Lets the request in (a valid key within its rate, or anonymous use when it is on).
pub(crate) async fn admit(state: &AppState, req: &HttpRequest, dialect: Dialect) -> Result<ChatCaller, ChatError> {
    let client = crate::client::client_ip(req, &state.settings);
    state.chat_gate.admit(presented_key(req, dialect).as_deref(), client).await.or_chat(dialect)
}

/// The query string as `T` (unknown parameters ignored); a malformed one is a 400 in the dialect.
pub(crate) fn params<T: DeserializeOwned>(req: &HttpRequest, dialect: Dialect) -> Result<T, ChatError> {
    web::Query::<T>::from_query(req.query_string())
        .map(web::Query::into_inner)
        .map_err(|e| ChatError::bad_request(dialect, format!("Invalid query parameters: {e}")))
}

/// A whole number parameter, `default` when absent or empty.
pub(crate) fn number(dialect: Dialect, name: &str, value: Option<&str>, default: u32) -> Result<u32, ChatError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(default),
        Some(v) => v.parse::<u32>().map_err(|_| {
            ChatError::bad_request(dialect, format!("Invalid value for {name}: expected a whole number, got \"{v}\"."))
        }),
    }
}

/// A window of `limit` results (clamped to `max`) from `offset`.
pub(crate) fn window(dialect: Dialect, offset: u32, limit: u32, max: u32) -> Result<Window, ChatError> {
    Window::new(offset, limit.clamp(1, max)).or_chat(dialect)
}

/// A search query: at most `max` characters (GIPHY answers 414 past 50, the others past 100).
pub(crate) fn query(dialect: Dialect, q: Option<&str>, max: usize) -> Result<String, ChatError> {
    let q = q.unwrap_or_default().trim();
    if q.chars().count() > max {
        return Err(ChatError::new(
            dialect,
            StatusCode::URI_TOO_LONG,
            format!("The search query is too long (at most {max} characters)."),
        ));
    }
    Ok(q.to_owned())
}

/// A JSON answer, never cached: results follow the library, and a revoked key must stop at once.
pub(crate) fn answer(body: &impl serde::Serialize) -> HttpResponse {
    HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-store")).json(body)
}
