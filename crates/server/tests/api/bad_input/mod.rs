//! The catalogue of `docs/bad-input.md`, one test per row, each asserting the expected outcome
//! over real HTTP: the status, the `{error, code}` body, that nothing was stored (no row, no blob, no
//! temp file) and that the server still answers. Hostile files are built here, in code.
//!
//! | bad-input.md row | test |
//! | --- | --- |
//! | Upload: size cap | `upload_size_cap_is_413_with_or_without_a_content_length` |
//! | Upload: lying type | `upload_lying_type_is_stored_as_the_sniffed_type` |
//! | Upload: not an image | `upload_not_an_image_is_400_and_unneeded_codecs_are_compiled_out` |
//! | Upload: corrupt | `upload_corrupt_files_are_400_invalid_image` |
//! | Upload: canvas bomb | `upload_canvas_bomb_is_400_and_memory_stays_flat` |
//! | Upload: pixel flood | `upload_pixel_flood_png_is_400_before_any_allocation` |
//! | Upload: frame flood | `upload_frame_flood_is_400_at_the_frame_cap` |
//! | Upload: animated WebP canvas | `upload_animated_webp_canvas_is_400_by_our_header_check` |
//! | Upload: slow decode | `upload_slow_decode_leaves_other_requests_unaffected` |
//! | Upload: parallel uploads | `upload_parallel_uploads_are_bounded_and_the_excess_gets_503` |
//! | Upload: file name | `upload_file_name_never_reaches_the_file_system` |
//! | Upload: metadata | `upload_metadata_gps_exif_is_dropped_and_orientation_applied` |
//! | Upload: polyglot | `upload_polyglot_is_served_as_an_image_never_as_html` |
//! | Serving: media | `serving_media_headers_come_from_the_server_not_the_upload` |
//! | Serving: the SPA | `serving_spa_csp_allows_only_our_own_scripts` |
//! | Accounts: passwords | `accounts_long_passwords_are_refused_never_truncated` |
//! | Accounts: login | `accounts_login_unknown_user_vs_wrong_password_look_the_same` |
//! | Accounts: brute force | `accounts_brute_force_is_throttled_and_forwarded_for_trusted_only_when_configured` |
//! | Accounts: JWT | `accounts_jwt_forged_or_expired_tokens_are_401_and_weak_secrets_stop_startup` |
//! | Accounts: stale tokens | `accounts_stale_tokens_of_renamed_unknown_or_repassworded_users_are_401` |
//! | Accounts: OpenID Connect | `accounts_oidc_bad_id_tokens_are_401_and_emails_never_link` (all cases: `google.rs`) |
//! | Access: another user's GIF | `access_other_users_gif_is_unchanged_and_owner_fields_are_ignored` |
//! | Access: admin endpoints | `access_admin_endpoints_are_403_for_non_admins_whatever_the_token_claims` |
//! | Access: share ids | `access_share_ids_are_random_and_a_deleted_link_looks_never_existing` |
//! | Reliability: kill -9 during an upload | `crates/server/tests/crash.rs` (a real process killed at each fail point) |
//! | Reliability: client abort, disk full | `reliability_client_abort_or_failed_write_leaves_nothing` |
//! | Reliability: SQLite concurrent writes | `reliability_sqlite_concurrent_writes_never_fail` |
//! | Reliability: pool exhausted | `reliability_pool_exhausted_is_a_fast_503` |
//! | Reliability: SIGTERM | `reliability_sigterm_lets_the_in_flight_upload_finish` |
//! | Reliability: logs | the log-hygiene test (written separately; not in this file) |
//!
//! Rows that make sense once (slow decode, parallel uploads, SIGTERM) are plain tests on SQLite;
//! every other row runs on SQLite and on PostgreSQL.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use gifshelf_http::dto::{
    ApiErrorBody, ErrorCode, GifDto, HealthDto, OverviewStats, PagedGifs, ProfileDto, RegisterRequest, TagDto,
    TokenResponse, UploadedGifDto,
};
use gifshelf_media::testing::{png_chunk, riff_chunk, sub_blocks, u24};
use reqwest::{Method, Response, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{
    animated_gif, canvas_bomb, claims_of, dto_of, error_of, json_of, png, probing_while, send, Backend, Client,
    TestApp, SECRET,
};
use crate::{app, on_both_backends};

// ---------------------------------------------------------------------------------------------
// Shared checks

/// The server still answers, database included.
async fn still_serving(app: &TestApp) {
    let health: HealthDto = app.anonymous().read("/api/health").await;
    assert_eq!(health.database, "ok");
}

/// No GIF row (through the API) and no file in the blob store, temp files included.
async fn nothing_stored(app: &TestApp, client: &Client) {
    assert!(app.stored_files().is_empty(), "nothing stored: {:?}", app.stored_files());
    let page: PagedGifs = client.read("/api/gifs/dtos").await;
    assert_eq!(page.total_elements, 0, "no row: {page:?}");
}

/// Every refused upload: the status and code, a sentence for a message, nothing stored, still serving.
async fn refused(app: &TestApp, client: &Client, response: Response, status: StatusCode, code: &str) -> String {
    let message = error_of(response, status, code).await;
    assert!(message.ends_with('.'), "a sentence: {message}");
    nothing_stored(app, client).await;
    still_serving(app).await;
    message
}

fn header(response: &Response, name: &str) -> String {
    response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
}

/// The peak resident memory of this process (the server runs inside it), in KiB. A test that reads
/// it runs alone in a process of its own (`gifshelf_testkit::alone`): no other test's memory counts.
fn peak_rss_kib() -> u64 {
    gifshelf_testkit::Memory::of_this_process().peak_kib
}

/// An allocation for any of the bombs below would be gigabytes; the margin is for the test's client
/// and the server's ordinary work.
const MEMORY_MARGIN_KIB: u64 = 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Raw requests: multipart bodies written byte for byte, and plain TCP for aborted or slow clients

const BOUNDARY: &str = "bad-input-boundary-7d9f";

/// A `multipart/form-data` upload whose file name reaches the server exactly as given.
fn multipart(file_name: &[u8], file: &[u8], title: &str) -> Vec<u8> {
    let mut body = format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"").into_bytes();
    body.extend_from_slice(file_name);
    body.extend_from_slice(b"\"\r\nContent-Type: image/gif\r\n\r\n");
    body.extend_from_slice(file);
    let data = json!({"title": title, "description": "", "tags": []});
    body.extend_from_slice(
        format!(
            "\r\n--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"gifData\"\r\n\
             Content-Type: application/json\r\n\r\n{data}\r\n--{BOUNDARY}--\r\n"
        )
        .as_bytes(),
    );
    body
}

async fn post_multipart(client: &Client, body: Vec<u8>) -> Response {
    let request = client
        .request(Method::POST, "/api/gifs")
        .header("content-type", format!("multipart/form-data; boundary={BOUNDARY}"))
        .body(body);
    send(request).await
}

/// The request head of an upload of `length` body bytes.
fn upload_head(host: &str, token: &str, length: usize) -> Vec<u8> {
    format!(
        "POST /api/gifs HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: multipart/form-data; boundary={BOUNDARY}\r\nContent-Length: {length}\r\n\r\n"
    )
    .into_bytes()
}

/// Reads one HTTP/1.1 response (with a Content-Length) from a blocking stream: status and body.
fn read_response(stream: &mut std::net::TcpStream) -> (u16, String) {
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap_or_else(|e| panic!("{e}"));
    let mut buf = Vec::new();
    let mut chunk = [0_u8; 8192];
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).to_string();
            let length = head
                .lines()
                .find_map(|l| l.split_once(':').filter(|(k, _)| k.eq_ignore_ascii_case("content-length")))
                .and_then(|(_, v)| v.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if buf.len() >= end + 4 + length {
                let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
                return (status, String::from_utf8_lossy(&buf[end + 4..end + 4 + length]).to_string());
            }
        }
        match stream.read(&mut chunk) {
            Ok(0) => panic!("connection closed before a whole response: {}", String::from_utf8_lossy(&buf)),
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) => panic!("reading the response: {e}; so far: {}", String::from_utf8_lossy(&buf)),
        }
    }
}

fn connect(addr: &str) -> std::net::TcpStream {
    std::net::TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"))
}

/// A connection the server has taken up: a health check was answered on it (kept alive).
fn served_connection(addr: &str) -> std::net::TcpStream {
    let mut stream = connect(addr);
    stream
        .write_all(format!("GET /api/health HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .unwrap_or_else(|e| panic!("{e}"));
    let (status, body) = read_response(&mut stream);
    assert_eq!(status, 200, "{body}");
    stream
}

mod access;
mod accounts;
mod files;
mod reliability;
mod serving;
mod upload;

use accounts::{mint, now};
use files::*;
