//! JSON answers gzipped for clients that accept it.
//!
//! Only JSON: media is compressed already (and is served with ranges and without copies), and the
//! export archive holds GIFs. A body under [`MIN_BYTES`] goes as it is (gzip's header and the
//! client's work cost more than the bytes saved). The level is zlib's fastest: JSON lists of GIFs
//! shrink about five times at it, and `cargo xtask load --gzip` measures what it costs in
//! throughput (docs/operations.md has the figures).

use std::io::Write as _;

use actix_web::body::{BodySize, BoxBody, EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use flate2::write::GzEncoder;
use flate2::Compression;

/// Bodies smaller than this are sent as they are.
pub const MIN_BYTES: usize = 1024;

/// Whether an `Accept-Encoding` value takes gzip: named (or `*`) without `q=0`.
fn accepts_gzip(value: &str) -> bool {
    value.split(',').any(|item| {
        let mut parts = item.split(';').map(str::trim);
        let coding = parts.next().unwrap_or_default();
        let refused =
            parts.any(|p| p.strip_prefix("q=").is_some_and(|q| q.trim().parse::<f32>().is_ok_and(|q| q <= 0.0)));
        (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
    })
}

fn is_json(response: &ServiceResponse<impl MessageBody>) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

fn gzip(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(bytes.len() / 4), Compression::fast());
    encoder.write_all(bytes).ok()?;
    encoder.finish().ok()
}

/// The middleware: gzips a whole JSON body of at least [`MIN_BYTES`] when the request accepts it
/// (`Vary: Accept-Encoding` either way, for caches). Any other answer (media, archives, streams,
/// ranges) passes untouched.
pub async fn json<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<EitherBody<B>>, actix_web::Error> {
    let wanted = req.headers().get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).is_some_and(accepts_gzip);
    let response = next.call(req).await?;
    let large = matches!(response.response().body().size(), BodySize::Sized(n) if n >= MIN_BYTES as u64);
    if !large || !is_json(&response) || response.headers().contains_key(header::CONTENT_ENCODING) {
        return Ok(response.map_into_left_body());
    }
    let (request, response) = response.into_parts();
    let (mut head, body) = response.into_parts();
    head.headers_mut().append(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    let bytes = match body.try_into_bytes() {
        Ok(bytes) => bytes,
        Err(body) => return Ok(ServiceResponse::new(request, head.set_body(body)).map_into_left_body()),
    };
    let body = match wanted.then(|| gzip(&bytes)).flatten() {
        Some(gz) => {
            head.headers_mut().insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
            BoxBody::new(gz)
        }
        None => BoxBody::new(bytes),
    };
    Ok(ServiceResponse::new(request, head.set_body(body)).map_into_right_body())
}

#[cfg(test)]
mod tests {
    use super::accepts_gzip;

    #[test]
    fn accept_encoding_is_read_as_browsers_and_clients_send_it() {
        assert!(accepts_gzip("gzip, deflate, br"));
        assert!(accepts_gzip("br;q=1.0, gzip;q=0.8, *;q=0.1"));
        assert!(accepts_gzip("*"));
        assert!(accepts_gzip("GZIP"));
        assert!(!accepts_gzip("identity"));
        assert!(!accepts_gzip("br"));
        assert!(!accepts_gzip("gzip;q=0"));
        assert!(!accepts_gzip("gzip; q=0.0, identity"));
        assert!(!accepts_gzip(""));
    }
}
