//! Prometheus metrics: `GET /metrics` (text format) and the middleware that counts every request
//! by its route pattern (never the raw path, so ids and keys make no new series) and status.
//!
//! The recorder is `metrics-exporter-prometheus`'s, installed once per process without an HTTP
//! listener of its own; gifshelf serves its rendering here, to the addresses allowed
//! (`GIFSHELF_METRICS_ALLOW`, judged by the TCP peer, never `X-Forwarded-For`) or a bearer token.

use std::net::IpAddr;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::http::StatusCode;
use actix_web::middleware::Next;
use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use futures_util::future::BoxFuture;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use subtle::ConstantTimeEq;

use crate::dto::ErrorCode;
use crate::{ApiError, AppState};

/// Seconds: from a cached answer to a slow upload.
const LATENCY_BUCKETS: &[f64] = &[0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];

/// Who may read `/metrics`, and the gauges read when it is.
#[derive(Clone)]
pub struct MetricsEndpoint {
    pub handle: PrometheusHandle,
    /// Whether a connection from this address may read them.
    pub allow: Arc<dyn Fn(IpAddr) -> bool + Send + Sync>,
    /// A bearer token that may read them from anywhere (behind a proxy on the same host).
    pub token: Option<String>,
    /// Sets the gauges read at scrape time (the job queue, the database pool).
    pub refresh: Arc<dyn Fn() -> BoxFuture<'static, ()> + Send + Sync>,
}

/// The process's recorder, installed on first use.
///
/// # Errors
/// When another recorder was installed first.
pub fn prometheus_handle() -> Result<PrometheusHandle, String> {
    static HANDLE: OnceLock<Result<PrometheusHandle, String>> = OnceLock::new();
    HANDLE
        .get_or_init(|| {
            PrometheusBuilder::new()
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), LATENCY_BUCKETS)
                .map_err(|e| e.to_string())?
                .install_recorder()
                .map_err(|e| e.to_string())
        })
        .clone()
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/metrics", web::get().to(metrics));
}

/// The metrics in Prometheus' text format.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "meta",
    summary = "Prometheus metrics (allowed addresses or the metrics token only)",
    responses(
        (status = 200, description = "Prometheus text format", content_type = "text/plain", body = String),
        (status = 403, description = "Not an allowed address and no valid metrics token (`forbidden`)", body = crate::dto::ApiErrorBody),
        (status = 404, description = "Metrics are off (`not_found`)", body = crate::dto::ApiErrorBody)
    )
)]
pub(crate) async fn metrics(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    let Some(endpoint) = &state.metrics else {
        return ApiError::not_found("Metrics are off.").error_response();
    };
    let from_allowed = req.peer_addr().is_some_and(|peer| (endpoint.allow)(canonical(peer.ip())));
    let bearer =
        req.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "));
    let with_token = match (&endpoint.token, bearer) {
        (Some(token), Some(given)) => bool::from(token.as_bytes().ct_eq(given.as_bytes())),
        _ => false,
    };
    if !from_allowed && !with_token {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            ErrorCode::Forbidden,
            "Metrics are for the allowed addresses (GIFSHELF_METRICS_ALLOW) or the metrics token.",
        )
        .error_response();
    }
    (endpoint.refresh)().await;
    HttpResponse::Ok().content_type("text/plain; version=0.0.4; charset=utf-8").body(endpoint.handle.render())
}

/// An IPv4 peer seen on an IPv6 socket (`::ffff:127.0.0.1`) is that IPv4 address.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// Counts every request by method, route pattern and status, with its latency; uploads and
/// chat API calls get counters of their own.
pub(crate) async fn record(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let method = req.method().as_str().to_owned();
    let response = next.call(req).await?;
    let seconds = started.elapsed().as_secs_f64();
    let route = response.request().match_pattern().unwrap_or_else(|| "unmatched".to_owned());
    let status = response.status().as_u16().to_string();
    metrics::histogram!("http_request_duration_seconds", "method" => method.clone(), "route" => route.clone())
        .record(seconds);
    if method == "POST" && route == "/api/gifs" {
        metrics::counter!("gifshelf_uploads_total", "status" => status.clone()).increment(1);
        metrics::histogram!("gifshelf_upload_duration_seconds").record(seconds);
    }
    if let Some(integration) = chat_integration(&route) {
        metrics::counter!("gifshelf_chat_api_requests_total", "integration" => integration, "status" => status.clone())
            .increment(1);
    }
    metrics::counter!("http_requests_total", "method" => method, "route" => route, "status" => status).increment(1);
    Ok(response)
}

/// Which chat integration a route pattern belongs to.
fn chat_integration(route: &str) -> Option<&'static str> {
    let route = route.strip_prefix("/api/k/{key}").map_or(route, |rest| rest);
    if route.starts_with("/api/tenor/") || route.starts_with("/tenor/") || route.starts_with("/proxy/klipy/") {
        Some("tenor")
    } else if route.starts_with("/api/giphy/") || route.starts_with("/giphy/") {
        Some("giphy")
    } else if route.starts_with("/api/gifbox") || route.starts_with("/gifbox") {
        Some("gifbox")
    } else if route == "/api/chat/command" {
        Some("slash")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_routes_are_named_by_integration() {
        assert_eq!(chat_integration("/api/tenor/v2/search"), Some("tenor"));
        assert_eq!(chat_integration("/api/k/{key}/giphy/v1/gifs/search"), Some("giphy"));
        assert_eq!(chat_integration("/api/gifbox/search"), Some("gifbox"));
        assert_eq!(chat_integration("/api/chat/command"), Some("slash"));
        assert_eq!(chat_integration("/api/gifs/{id}"), None);
    }

    #[test]
    fn mapped_ipv4_peers_are_ipv4() {
        let mapped: IpAddr = "::ffff:127.0.0.1".parse().unwrap_or_else(|e| panic!("{e}"));
        assert!(canonical(mapped).is_loopback() && canonical(mapped).is_ipv4());
    }
}
