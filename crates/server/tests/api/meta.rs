use gifshelf_http::dto::PublicConfig;
use reqwest::{Method, StatusCode};

use crate::helpers::{error_of, hashed_asset, json_of, send, Backend, HASHED_ASSET};
use crate::{app, on_both_backends};

async fn health_checks_the_database(backend: Backend) {
    let app = app!(backend);
    // The exact wire shape: monitors read these two keys.
    let body = json_of(app.anonymous().get("/api/health").await, StatusCode::OK).await;
    assert_eq!(body, serde_json::json!({"status": "ok", "database": "ok"}));
}

async fn config_is_public_and_tells_what_the_server_offers(backend: Backend) {
    let app = app!(backend);
    let config: PublicConfig = app.anonymous().read("/api/config").await;
    assert_eq!(config.google_client_id, None);
    assert_eq!(config.max_upload_bytes, 10 * 1024 * 1024);
    assert_eq!(config.version, env!("CARGO_PKG_VERSION"));

    let app = app!(
        backend,
        &[("GIFSHELF_GOOGLE_CLIENT_ID", "abc.apps.googleusercontent.com"), ("GIFSHELF_MAX_UPLOAD_MB", "3")]
    );
    let config: PublicConfig = app.anonymous().read("/api/config").await;
    assert_eq!(config.google_client_id.as_deref(), Some("abc.apps.googleusercontent.com"));
    assert_eq!(config.max_upload_bytes, 3 * 1024 * 1024);
    let csp = app
        .anonymous()
        .get("/")
        .await
        .headers()
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    assert!(csp.unwrap_or_default().contains("https://accounts.google.com/gsi/client"));
}

async fn spa_history_fallback_serves_index_for_client_routes(backend: Backend) {
    let app = app!(backend);
    let anonymous = app.anonymous();
    for path in ["/", "/login", "/gifs/12", "/settings?x=1", "/deep/unknown/path"] {
        let response = anonymous.get(path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(response.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("no-cache"), "{path}");
        assert!(response.text().await.unwrap_or_default().contains("gifshelf spa"), "{path}");
    }
    let asset = anonymous.get("/app.js").await;
    assert_eq!(asset.status(), StatusCode::OK);
    assert_eq!(asset.text().await.unwrap_or_default(), "console.log('hi')");
}

/// The app's files go out compressed to a browser that accepts it, the hashed build files may be
/// kept for a year, and `index.html` is never cached; the API and media are not compressed here.
async fn spa_files_are_compressed_and_hashed_ones_cached_for_good(backend: Backend) {
    let app = app!(backend);
    let raw = reqwest::Client::builder().build().unwrap_or_else(|e| panic!("{e}"));
    let get = |path: &str, gzip: bool| {
        let request = raw.get(app.url(path));
        if gzip { request.header("accept-encoding", "gzip") } else { request }.send()
    };
    let asset = get(&format!("/assets/{HASHED_ASSET}"), true).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(asset.status(), StatusCode::OK);
    let header =
        |r: &reqwest::Response, name: &str| r.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    assert_eq!(header(&asset, "content-encoding").as_deref(), Some("gzip"));
    assert_eq!(header(&asset, "cache-control").as_deref(), Some("public, max-age=31536000, immutable"));
    let body = asset.bytes().await.unwrap_or_default();
    assert_eq!(body.get(..2), Some(&[0x1f, 0x8b][..]), "a gzip stream");
    assert!(body.len() * 4 < hashed_asset().len(), "{} bytes for {}", body.len(), hashed_asset().len());

    let plain = get(&format!("/assets/{HASHED_ASSET}"), false).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(header(&plain, "content-encoding"), None);
    assert_eq!(plain.text().await.unwrap_or_default(), hashed_asset(), "the same file for a client without gzip");

    let index = get("/gifs/12", true).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(header(&index, "cache-control").as_deref(), Some("no-cache"));
    let missing = get("/assets/main.00000000.js", true).await.unwrap_or_else(|e| panic!("{e}"));
    assert_ne!(header(&missing, "cache-control").as_deref(), Some("public, max-age=31536000, immutable"));
    let api = get("/api/health", true).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(header(&api, "content-encoding"), None, "the API is not compressed by the SPA's layer");
}

async fn unknown_api_paths_are_json_404s(backend: Backend) {
    let app = app!(backend);
    let message = error_of(app.anonymous().get("/api/nothing/here").await, StatusCode::NOT_FOUND, "not_found").await;
    assert_eq!(message, "No API endpoint at /api/nothing/here");
}

async fn security_headers_and_request_ids_on_every_response(backend: Backend) {
    let app = app!(backend);
    for path in ["/", "/api/health", "/api/settings/profile", "/api/nope"] {
        let response = app.anonymous().get(path).await;
        let header =
            |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        let csp = header("content-security-policy");
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self' 'sha256-"), "the inline theme script is allowed by hash: {csp}");
        assert!(
            csp.contains("frame-ancestors 'none'")
                && csp.contains("object-src 'none'")
                && csp.contains("base-uri 'none'"),
            "{csp}"
        );
        assert!(!csp.contains("google"), "{csp}");
        assert_eq!(header("x-content-type-options"), "nosniff", "{path}");
        assert_eq!(header("referrer-policy"), "strict-origin-when-cross-origin", "{path}");
        assert_eq!(header("x-frame-options"), "DENY", "{path}");
        assert_eq!(header("x-request-id").len(), 36, "{path}: a uuid request id");
    }
}

async fn malformed_bodies_get_the_error_shape(backend: Backend) {
    let app = app!(backend);
    let anonymous = app.anonymous();
    let login = || anonymous.request(Method::POST, "/api/auth/login").header("content-type", "application/json");
    let response = send(login().body("{not json")).await;
    let message = error_of(response, StatusCode::BAD_REQUEST, "bad_request").await;
    assert!(message.starts_with("The request body is not valid"), "{message}");

    let huge = format!("{{\"username\":\"{}\",\"password\":\"x\"}}", "a".repeat(100_000));
    error_of(send(login().body(huge)).await, StatusCode::PAYLOAD_TOO_LARGE, "too_large").await;

    let missing_field = anonymous.post_json("/api/auth/register", &serde_json::json!({"username": "abc"})).await;
    error_of(missing_field, StatusCode::BAD_REQUEST, "bad_request").await;
}

/// Gzip decoded, for the assertions on compressed answers.
fn gunzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Read as _;
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes).read_to_end(&mut out).unwrap_or_else(|e| panic!("not gzip: {e}"));
    out
}

async fn json_answers_are_gzipped_when_accepted_and_media_never(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let mut gif = admin.upload_gif("Compressed cat", "a list long enough to be worth compressing", &["cats"]).await;
    for n in 0..5 {
        gif = admin.upload_gif(&format!("Compressed cat {n}"), "", &["cats"]).await;
    }
    let header =
        |r: &reqwest::Response, name: &str| r.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let list = || admin.request(Method::GET, "/api/gifs/dtos?page=0&size=12");

    let plain = send(list()).await;
    assert_eq!(header(&plain, "content-encoding"), None, "no Accept-Encoding: as it is");
    let plain = plain.bytes().await.unwrap_or_default();
    let zipped = send(list().header("accept-encoding", "gzip, deflate, br")).await;
    assert_eq!(zipped.status(), StatusCode::OK);
    assert_eq!(header(&zipped, "content-encoding").as_deref(), Some("gzip"));
    assert_eq!(header(&zipped, "vary").as_deref(), Some("Accept-Encoding"));
    let zipped = zipped.bytes().await.unwrap_or_default();
    assert!(zipped.len() * 3 < plain.len(), "{} gzipped bytes for {}", zipped.len(), plain.len());
    assert_eq!(gunzip(&zipped), plain.to_vec(), "the same JSON");
    // Refused with q=0: as it is.
    let refused = send(list().header("accept-encoding", "gzip;q=0, identity")).await;
    assert_eq!(header(&refused, "content-encoding"), None);

    // A small answer is not worth it; media is compressed already.
    let small = send(admin.request(Method::GET, "/api/health").header("accept-encoding", "gzip")).await;
    assert_eq!(header(&small, "content-encoding"), None);
    let media = send(
        admin
            .request(Method::GET, &format!("/api/gifs/{}/files/original.gif", gif.id))
            .header("accept-encoding", "gzip"),
    )
    .await;
    assert_eq!(media.status(), StatusCode::OK);
    assert_eq!(header(&media, "content-encoding"), None);
    assert!(media.bytes().await.unwrap_or_default().starts_with(b"GIF8"));
}

on_both_backends!(
    json_answers_are_gzipped_when_accepted_and_media_never,
    health_checks_the_database,
    config_is_public_and_tells_what_the_server_offers,
    spa_history_fallback_serves_index_for_client_routes,
    spa_files_are_compressed_and_hashed_ones_cached_for_good,
    unknown_api_paths_are_json_404s,
    security_headers_and_request_ids_on_every_response,
    malformed_bodies_get_the_error_shape
);
