//! The request log's span: what `tracing-actix-web` records of each request, with the API keys of
//! the chat APIs taken out of the path and query (`/api/k/{key}/…`, `?key=`, `?api_key=`), since a
//! request log is read by more people than the keys' owners.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::{Error, HttpMessage};
use tracing::field::Empty;
use tracing::Span;
use tracing_actix_web::{DefaultRootSpanBuilder, RequestId, RootSpanBuilder};

/// What replaces a key in the log.
pub const REDACTED: &str = "[redacted]";

/// The query parameters that carry keys (Tenor's `key`, GIPHY's `api_key`).
const KEY_PARAMETERS: [&str; 2] = ["key", "api_key"];

/// `tracing-actix-web`'s default span, with `http.target` redacted.
pub struct RedactingRootSpan;

impl RootSpanBuilder for RedactingRootSpan {
    fn on_request_start(request: &ServiceRequest) -> Span {
        let target = redact_target(request.uri().path_and_query().map_or("", |p| p.as_str()));
        // The route is the template (`/api/k/{key}/tenor/v2/search`), never the key itself.
        let route = request.match_pattern().unwrap_or_else(|| "default".into());
        let request_id = request.extensions().get::<RequestId>().map(ToString::to_string).unwrap_or_default();
        let user_agent =
            request.headers().get(actix_web::http::header::USER_AGENT).and_then(|h| h.to_str().ok()).unwrap_or("");
        let connection = request.connection_info();
        tracing::info_span!(
            "HTTP request",
            http.method = %request.method(),
            http.route = %route,
            http.flavor = ?request.version(),
            http.scheme = %connection.scheme(),
            http.host = %connection.host(),
            http.client_ip = %connection.realip_remote_addr().unwrap_or(""),
            http.user_agent = %user_agent,
            http.target = %target,
            http.status_code = Empty,
            otel.name = %format!("{} {route}", request.method()),
            otel.kind = "server",
            otel.status_code = Empty,
            request_id = %request_id,
            exception.message = Empty,
            exception.details = Empty,
        )
    }

    fn on_request_end<B: MessageBody>(span: Span, outcome: &Result<ServiceResponse<B>, Error>) {
        DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}

/// A path and query as logged: the segment after `/api/k/` and the values of `key` and `api_key`
/// (however their names are percent-encoded or cased) become `[redacted]`.
pub fn redact_target(target: &str) -> String {
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (target, None),
    };
    let mut out = match path.strip_prefix("/api/k/") {
        Some(rest) => match rest.split_once('/') {
            Some((_, after)) => format!("/api/k/{REDACTED}/{after}"),
            None => format!("/api/k/{REDACTED}"),
        },
        None => path.to_owned(),
    };
    if let Some(query) = query {
        let pairs: Vec<String> = query
            .split('&')
            .map(|pair| match pair.split_once('=') {
                Some((name, _)) if is_key_parameter(name) => format!("{name}={REDACTED}"),
                _ => pair.to_owned(),
            })
            .collect();
        out.push('?');
        out.push_str(&pairs.join("&"));
    }
    out
}

/// Whether a query parameter's name, decoded as the query parser decodes it, names a key.
fn is_key_parameter(name: &str) -> bool {
    let mut decoded = Vec::with_capacity(name.len());
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                i += 3;
            }
            (b'+', _) => {
                decoded.push(b' ');
                i += 1;
            }
            (byte, _) => {
                decoded.push(byte);
                i += 1;
            }
        }
    }
    let decoded = String::from_utf8_lossy(&decoded).to_ascii_lowercase();
    KEY_PARAMETERS.contains(&decoded.trim())
}

#[cfg(test)]
mod tests {
    use super::redact_target;

    #[test]
    fn keys_leave_the_path_and_the_query() {
        let cases = [
            ("/api/k/gs_Secret123/tenor/v2/search?q=cat", "/api/k/[redacted]/tenor/v2/search?q=cat"),
            ("/api/k/gs_Secret123", "/api/k/[redacted]"),
            (
                "/api/tenor/v2/search?q=cat&key=gs_Secret123&limit=2",
                "/api/tenor/v2/search?q=cat&key=[redacted]&limit=2",
            ),
            ("/api/giphy/v1/gifs/trending?api_key=gs_Secret123", "/api/giphy/v1/gifs/trending?api_key=[redacted]"),
            (
                "/api/tenor/v2/featured?k%65y=gs_Secret123&KEY=gs_Other",
                "/api/tenor/v2/featured?k%65y=[redacted]&KEY=[redacted]",
            ),
            ("/api/gifs/dtos?page=1&keyword=cats", "/api/gifs/dtos?page=1&keyword=cats"),
            ("/s/abc.gif", "/s/abc.gif"),
        ];
        for (target, logged) in cases {
            assert_eq!(redact_target(target), logged, "{target}");
        }
    }
}
