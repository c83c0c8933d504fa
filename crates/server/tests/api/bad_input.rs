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
    animated_gif, canvas_bomb, claims_of, dto_of, error_of, json_of, png, send, Backend, Client, TestApp, SECRET,
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

/// The test process's peak resident memory (the server runs inside it), in KiB.
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// An allocation for any of the bombs below would be gigabytes; a small margin is left for the
/// other tests that run at the same time in this process.
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

// ---------------------------------------------------------------------------------------------
// Hostile files

/// GIF LZW data (min code size 2) for `pixels` pixels of one colour: the n-th code stands for n
/// pixels, so a run of k pixels takes about √(2k) codes, and the table is never cleared (once it is
/// full every 12-bit code stands for 4091 pixels). A frame of millions of pixels is a few kilobytes.
fn lzw_run(colour: u8, pixels: usize) -> Vec<u8> {
    let mut codes: Vec<u16> = vec![4, u16::from(colour)];
    let mut left = pixels.saturating_sub(1);
    let mut next: u16 = 6;
    while left > 0 {
        let code = next.min(4095);
        let run = usize::from(code) - 4;
        if left >= run {
            codes.push(code);
            left -= run;
            next = next.saturating_add(1);
        } else {
            codes.push(if left == 1 { u16::from(colour) } else { (left + 4) as u16 });
            left = 0;
        }
    }
    codes.push(5);
    // Widths as the decoder reads them: the first code after the clear adds no entry; each later
    // one adds one, and the width grows when the next free code reaches a power of two.
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0_u32, 0_u32);
    for (i, &code) in codes.iter().enumerate() {
        let next_free = 6 + i.saturating_sub(2);
        let width = if i == 0 { 3 } else { (usize::BITS - next_free.leading_zeros()).clamp(3, 12) };
        acc |= u32::from(code) << bits;
        bits += width;
        while bits >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            bits -= 8;
        }
    }
    if bits > 0 {
        out.push(acc as u8);
    }
    out
}

/// A valid GIF of `frames` full-canvas frames of `w`×`h`, alternating two colours, each frame a
/// few bytes of "deferred clear" LZW: little to upload, `w`×`h`×`frames` pixels of work. A comment
/// pads it to `pad_to` bytes.
fn run_gif(w: u16, h: u16, frames: usize, pad_to: usize) -> Vec<u8> {
    let mut out = b"GIF89a".to_vec();
    out.extend_from_slice(&w.to_le_bytes());
    out.extend_from_slice(&h.to_le_bytes());
    out.extend_from_slice(&[0x81, 0, 0]);
    out.extend_from_slice(&[255, 0, 0, 0, 0, 255, 0, 255, 0, 255, 255, 255]);
    out.extend_from_slice(b"\x21\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00");
    let pixels = usize::from(w) * usize::from(h);
    let data = [sub_blocks(&lzw_run(0, pixels)), sub_blocks(&lzw_run(1, pixels))];
    for k in 0..frames {
        out.extend_from_slice(&[0x21, 0xF9, 4, 0, 4, 0, 0, 0, 0x2C, 0, 0, 0, 0]);
        out.extend_from_slice(&w.to_le_bytes());
        out.extend_from_slice(&h.to_le_bytes());
        out.extend_from_slice(&[0, 2]);
        out.extend_from_slice(&data[k % 2]);
    }
    if pad_to > out.len() + 8 {
        out.extend_from_slice(&[0x21, 0xFE]);
        let filler = vec![b'.'; (pad_to - out.len() - 4) * 255 / 256];
        out.extend(sub_blocks(&filler));
    }
    out.push(0x3B);
    out
}

/// A PNG of a few dozen bytes that declares 50000×50000 RGBA pixels (10 GB decoded).
fn png_pixel_flood() -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = 50_000_u32.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&50_000_u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    out.extend(png_chunk(b"IHDR", &ihdr));
    out.extend(png_chunk(b"IDAT", &[0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]));
    out.extend(png_chunk(b"IEND", &[]));
    out
}

/// An animated WebP (VP8X with the animation flag, ANIM, `frames` ANMF chunks) declaring a
/// `w`×`h` canvas and full-canvas frames, with no image data at all.
fn webp_animation(w: u32, h: u32, frames: usize) -> Vec<u8> {
    let mut body = b"WEBP".to_vec();
    let mut vp8x = vec![0x02, 0, 0, 0];
    vp8x.extend_from_slice(&u24(w - 1));
    vp8x.extend_from_slice(&u24(h - 1));
    body.extend(riff_chunk(b"VP8X", &vp8x));
    body.extend(riff_chunk(b"ANIM", &[0, 0, 0, 0, 0, 0]));
    for _ in 0..frames {
        let mut frame = Vec::new();
        frame.extend_from_slice(&u24(0));
        frame.extend_from_slice(&u24(0));
        frame.extend_from_slice(&u24(w - 1));
        frame.extend_from_slice(&u24(h - 1));
        frame.extend_from_slice(&u24(100));
        frame.push(0);
        body.extend(riff_chunk(b"ANMF", &frame));
    }
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend(body);
    out
}

/// GPS coordinates as EXIF rationals (48°51'29.64"N 2°17'40.20"E), recognisable in any output.
fn gps_rationals() -> Vec<u8> {
    let mut out = Vec::new();
    for (n, d) in [(48_u32, 1_u32), (51, 1), (2964, 100), (2, 1), (17, 1), (4020, 100)] {
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&d.to_le_bytes());
    }
    out
}

/// A `w`×`h` JPEG, red on the stored left half and blue on the right, with a hand-written APP1
/// EXIF segment: IFD0 with the orientation and a GPS IFD pointer, and the GPS IFD.
fn jpeg_with_gps(w: u32, h: u32, orientation: u16) -> Vec<u8> {
    use image::ImageEncoder;
    let pixels: Vec<u8> = (0..w * h).flat_map(|i| if i % w < w / 2 { [255, 0, 0] } else { [0, 0, 255] }).collect();
    let mut plain = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut plain, 90)
        .write_image(&pixels, w, h, image::ExtendedColorType::Rgb8)
        .unwrap_or_else(|e| panic!("{e}"));
    let entry = |tag: u16, kind: u16, count: u32, value: [u8; 4]| {
        let mut e = tag.to_le_bytes().to_vec();
        e.extend_from_slice(&kind.to_le_bytes());
        e.extend_from_slice(&count.to_le_bytes());
        e.extend_from_slice(&value);
        e
    };
    // TIFF header (8) + IFD0 (2 + 2×12 + 4 = 30) → the GPS IFD at 38 (2 + 4×12 + 4 = 54) → the
    // rationals at 92 (latitude) and 116 (longitude).
    let mut tiff = b"II*\0".to_vec();
    tiff.extend_from_slice(&8_u32.to_le_bytes());
    tiff.extend_from_slice(&2_u16.to_le_bytes());
    let [o0, o1] = orientation.to_le_bytes();
    tiff.extend(entry(0x0112, 3, 1, [o0, o1, 0, 0]));
    tiff.extend(entry(0x8825, 4, 1, 38_u32.to_le_bytes()));
    tiff.extend_from_slice(&0_u32.to_le_bytes());
    tiff.extend_from_slice(&4_u16.to_le_bytes());
    tiff.extend(entry(0x0001, 2, 2, *b"N\0\0\0"));
    tiff.extend(entry(0x0002, 5, 3, 92_u32.to_le_bytes()));
    tiff.extend(entry(0x0003, 2, 2, *b"E\0\0\0"));
    tiff.extend(entry(0x0004, 5, 3, 116_u32.to_le_bytes()));
    tiff.extend_from_slice(&0_u32.to_le_bytes());
    assert_eq!(tiff.len(), 92);
    tiff.extend(gps_rationals());
    let mut app1 = b"Exif\0\0".to_vec();
    app1.extend_from_slice(&tiff);
    let mut out = vec![0xFF, 0xD8, 0xFF, 0xE1];
    out.extend_from_slice(&((app1.len() + 2) as u16).to_be_bytes());
    out.extend_from_slice(&app1);
    out.extend_from_slice(&plain[2..]);
    out
}

/// A GIF that is also a valid script: `GIF89a=\t0\t/* …binary… */;alert(document.domain);//…`.
/// The width's high byte and the height's are tabs, so the canvas is 2365×2352 (within the
/// limits); the flags and background bytes open the comment; a GIF comment closes it.
fn gif_js_polyglot() -> Vec<u8> {
    let mut out = b"GIF89a=\t0\t/*\0".to_vec();
    // One 1×1 frame with its own two-colour table.
    out.extend_from_slice(&[0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0x80, 255, 0, 0, 0, 0, 255, 2, 2, 0x44, 0x01, 0]);
    out.extend_from_slice(&[0x21, 0xFE]);
    out.extend(sub_blocks(b"*/;alert(document.domain);//"));
    out.push(0x3B);
    out
}

/// A valid GIF followed, after its trailer, by an HTML page with a script.
fn gif_then_html() -> Vec<u8> {
    let mut out = animated_gif(16, 16, 2);
    out.extend_from_slice(b"<!doctype html><html><body><script>alert(document.cookie)</script></body></html>");
    out
}

// ---------------------------------------------------------------------------------------------
// Upload and the image pipeline

async fn upload_size_cap_is_413_with_or_without_a_content_length(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let max = 10 * 1024 * 1024;
    // Exactly at the limit passes the size check (and is then refused for its bytes).
    let at_limit = alice.upload("x.gif", vec![b'G'; max], "at the limit", "", &[]).await;
    refused(&app, &alice, at_limit, StatusCode::BAD_REQUEST, "unsupported_type").await;
    let over = alice.upload("x.gif", vec![b'G'; max + 1], "one byte over", "", &[]).await;
    let message = refused(&app, &alice, over, StatusCode::PAYLOAD_TOO_LARGE, "too_large").await;
    assert_eq!(message, "The file is larger than the 10 MB limit.");

    // A chunked body, with no Content-Length, is cut off at the limit as it streams in.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        (0..10).map(|_| Ok(vec![b'G'; 1024 * 1024])).chain([Ok(vec![b'G'])]).collect();
    let part = reqwest::multipart::Part::stream(reqwest::Body::wrap_stream(futures_util::stream::iter(chunks)))
        .file_name("x.gif");
    let form =
        reqwest::multipart::Form::new().part("file", part).text("gifData", json!({"title": "chunked"}).to_string());
    let chunked = send(alice.request(Method::POST, "/api/gifs").multipart(form)).await;
    refused(&app, &alice, chunked, StatusCode::PAYLOAD_TOO_LARGE, "too_large").await;

    // A declared length far over the limit is refused before a byte of the body is read.
    let addr = app.socket_address().to_owned();
    let head = upload_head(&addr, alice.token(), 1 << 30);
    let (status, body) = tokio::task::spawn_blocking(move || {
        let mut stream = connect(&addr);
        stream.write_all(&head).unwrap_or_else(|e| panic!("{e}"));
        read_response(&mut stream)
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status, 413, "{body}");
    let body: ApiErrorBody = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(body.code, ErrorCode::TooLarge);
    nothing_stored(&app, &alice).await;
    still_serving(&app).await;
}

async fn upload_lying_type_is_stored_as_the_sniffed_type(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    // PNG bytes, named x.gif, sent as image/gif.
    let gif: GifDto =
        dto_of(alice.upload("x.gif", png(40, 30), "a png in disguise", "", &[]).await, StatusCode::CREATED).await;
    assert_eq!(gif.content_type, "image/png");
    let id = gif.id;
    for path in ["content", "thumbnail", "static-thumbnail"] {
        let served = alice.get(&format!("/api/gifs/{path}/{id}")).await;
        assert_eq!(header(&served, "content-type"), "image/png", "{path}");
        assert!(served.bytes().await.unwrap_or_default().starts_with(b"\x89PNG"), "{path}");
    }
    let files = app.stored_files();
    assert!(
        files.iter().any(|f| f.ends_with("/original.png")) && !files.iter().any(|f| f.contains(".gif")),
        "{files:?}"
    );
    still_serving(&app).await;
}

async fn upload_not_an_image_is_400_and_unneeded_codecs_are_compiled_out(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let cases: [(&str, &[u8]); 8] = [
        ("x.gif", b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"><script>alert(2)</script></svg>"),
        ("x.png", b"<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
        ("x.gif", b"<!doctype html><html><body><script>alert(document.cookie)</script></body></html>"),
        ("x.gif", b"just some text, renamed to .gif\n"),
        ("x.png", b"II*\0\x08\0\0\0\x01\0\0\x01\x03\0\x01\0\0\0\x01\0\0\0\0\0\0\0"),
        ("x.gif", b"MM\0*\0\0\0\x08\0\x01\x01\0\0\x03\0\0\0\x01\0\x01\0\0\0\0\0\0"),
        (
            "x.gif",
            b"BM\x3a\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0\x01\0\0\0\x01\0\0\0\x01\0\x18\0\0\0\0\0\x04\0\0\0\
              \0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\xff\0",
        ),
        ("x.png", b"\0\0\x01\0\x01\0\x10\x10\0\0\x01\0\x20\0\x68\x04\0\0\x16\0\0\0"),
    ];
    for (name, bytes) in cases {
        let message = refused(
            &app,
            &alice,
            alice.upload(name, bytes.to_vec(), "not an image", "", &[]).await,
            StatusCode::BAD_REQUEST,
            "unsupported_type",
        )
        .await;
        assert_eq!(message, "The file is not a supported image; upload a GIF, PNG, JPEG or WebP file.");
    }
    // The image crate is built with its default features off: only the four codecs we accept.
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let line = manifest.lines().find(|l| l.starts_with("image = ")).unwrap_or_else(|| panic!("no image dependency"));
    assert!(line.contains("default-features = false"), "{line}");
    let features = line.split("features = [").nth(1).and_then(|f| f.split(']').next()).unwrap_or_default();
    let mut features: Vec<&str> = features.split(',').map(|f| f.trim().trim_matches('"')).collect();
    features.sort_unstable();
    assert_eq!(features, ["gif", "jpeg", "png", "webp"], "{line}");
}

async fn upload_corrupt_files_are_400_invalid_image(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let whole = animated_gif(64, 48, 3);
    // Header, screen descriptor and the 256-colour table: 13 + 768 bytes.
    let header_only = &whole[..13 + 768];
    let mut state = 0x2545_f491_u32;
    let mut noise = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state >> 7) as u8
            })
            .collect()
    };
    let mut garbage_blocks = header_only.to_vec();
    garbage_blocks.push(0x01);
    garbage_blocks.extend(noise(600));
    // A well-formed 64×48 frame whose compressed data is noise.
    let mut garbage_pixels = header_only.to_vec();
    garbage_pixels.extend_from_slice(&[0x2C, 0, 0, 0, 0, 64, 0, 48, 0, 0, 8]);
    garbage_pixels.extend(sub_blocks(&noise(300)));
    garbage_pixels.push(0x3B);
    let mut no_frames = header_only.to_vec();
    no_frames.push(0x3B);
    let still = png(40, 30);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        // Cut inside its first frame (a file cut after complete frames keeps them, as browsers do).
        ("GIF cut inside its first frame", whole[..13 + 768 + 60].to_vec()),
        ("GIF signature only", b"GIF89a".to_vec()),
        ("garbage after the header", garbage_blocks),
        ("garbage LZW data", garbage_pixels),
        ("zero frames", no_frames),
        ("truncated PNG", still[..still.len() / 2].to_vec()),
    ];
    for (case, bytes) in cases {
        let response = alice.upload("x.gif", bytes, case, "", &[]).await;
        let message = refused(&app, &alice, response, StatusCode::BAD_REQUEST, "invalid_image").await;
        if case == "zero frames" {
            assert_eq!(message, "The GIF file contains no frames.");
        }
    }
}

async fn upload_canvas_bomb_is_400_and_memory_stays_flat(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let bomb = canvas_bomb();
    assert!(bomb.len() < 70, "{} bytes", bomb.len());
    let before = peak_rss_kib();
    let response = alice.upload("bomb.gif", bomb, "canvas bomb", "", &[]).await;
    let message = refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_large").await;
    assert_eq!(message, "The image is 65535×65535 pixels; the limit is 8192×8192.");
    // A 65535×65535 canvas is 17 GB; had it been allocated the process would have aborted.
    assert!(peak_rss_kib().saturating_sub(before) < MEMORY_MARGIN_KIB, "memory grew");
}

async fn upload_pixel_flood_png_is_400_before_any_allocation(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let flood = png_pixel_flood();
    assert!(flood.len() < 100, "{} bytes", flood.len());
    let before = peak_rss_kib();
    let response = alice.upload("flood.png", flood, "pixel flood", "", &[]).await;
    let message = refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_large").await;
    assert!(message.contains("50000×50000"), "{message}");
    assert!(peak_rss_kib().saturating_sub(before) < MEMORY_MARGIN_KIB, "memory grew");
}

async fn upload_frame_flood_is_400_at_the_frame_cap(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    // 3000 real 512×512 frames (each decodes to its full size): a few MB of file.
    let flood = run_gif(512, 512, 3000, 0);
    assert!((1_000_000..10_000_000).contains(&flood.len()), "{} bytes", flood.len());
    let before = peak_rss_kib();
    let response = alice.upload("frames.gif", flood, "frame flood", "", &[]).await;
    let message = refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_large").await;
    assert_eq!(message, "The animation has more than 2000 frames, which is the limit.");
    assert!(peak_rss_kib().saturating_sub(before) < MEMORY_MARGIN_KIB, "memory grew");
}

async fn upload_animated_webp_canvas_is_400_by_our_header_check(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let before = peak_rss_kib();
    let response = alice.upload("anim.webp", webp_animation(16383, 16383, 50), "webp canvas", "", &[]).await;
    let message = refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_large").await;
    assert!(message.contains("16383×16383"), "{message}");
    // Within the dimensions, but 100 frames of 16 megapixels: over the decoding budget.
    let response = alice.upload("anim.webp", webp_animation(4000, 4000, 100), "webp frames", "", &[]).await;
    refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_large").await;
    assert!(peak_rss_kib().saturating_sub(before) < MEMORY_MARGIN_KIB, "memory grew");
}

async fn upload_file_name_never_reaches_the_file_system(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let long = "n".repeat(300) + ".gif";
    let names: [&[u8]; 8] = [
        b"../../x.gif",
        b"..\\..\\x.gif",
        b"/etc/passwd",
        b"x\0.gif",
        long.as_bytes(),
        b"x\r\nContent-Type: text/html\r\n\r\n<script>alert(1)</script>.gif",
        "\u{202e}fig.exe.gif".as_bytes(),
        b"x\".gif",
    ];
    let mut stored = Vec::new();
    for name in names {
        let shown = String::from_utf8_lossy(name).to_string();
        let response = post_multipart(&alice, multipart(name, &alice.fresh_gif(), "odd name")).await;
        match response.status() {
            StatusCode::CREATED => {
                let gif: UploadedGifDto = dto_of(response, StatusCode::CREATED).await;
                assert_eq!(gif.gif.content_type, "image/gif", "{shown:?}");
                let answer = serde_json::to_string(&gif).unwrap_or_default();
                for needle in ["x.gif", "passwd", "fig.exe", "nnnnnnnn", "<script"] {
                    assert!(!answer.contains(needle), "the name is not echoed: {answer}");
                }
                stored.push(gif.gif.id);
            }
            // A name that breaks the part's header is a clean 400.
            _ => {
                // Untyped on purpose: the check is that the body has its two keys and no other.
                let body = json_of(response, StatusCode::BAD_REQUEST).await;
                assert_eq!(body.as_object().map(|o| o.len()), Some(2), "{shown:?}: {body}");
                assert!(
                    ["bad_request", "unsupported_type"].contains(&body["code"].as_str().unwrap_or_default()),
                    "{shown:?}: {body}"
                );
            }
        }
    }
    assert!(stored.len() >= 5, "the ordinary odd names are accepted: {stored:?}");
    // Every file is under a key the server made: gifs/<32 hex>/<rendition>.<type>.
    let files = app.stored_files();
    assert_eq!(files.len(), 3 * stored.len(), "{files:?}");
    let media = app.data_dir.join("media").display().to_string();
    for file in &files {
        let key = file.strip_prefix(&media).unwrap_or_default();
        let parts: Vec<&str> = key.trim_start_matches('/').split('/').collect();
        assert_eq!(parts.len(), 3, "{key}");
        assert_eq!(parts[0], "gifs", "{key}");
        assert!(parts[1].len() == 32 && parts[1].bytes().all(|b| b.is_ascii_hexdigit()), "{key}");
        assert!(["original.gif", "thumbnail.gif", "static.png"].contains(&parts[2]), "{key}");
    }
    // Nothing named after the upload anywhere around the data folder.
    let root = app.data_dir.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            assert!(
                !["x.gif", "passwd", "fig", "nnnn", "script"].iter().any(|n| name.contains(n)),
                "{}",
                entry.path().display()
            );
            if entry.path().is_dir() {
                stack.push(entry.path());
            }
        }
    }
    // Where a name could be shown, the server shows its own.
    for id in stored {
        let served = alice.get(&format!("/api/gifs/content/{id}")).await;
        assert_eq!(header(&served, "content-disposition"), format!("inline; filename=\"gif-{id}-original.gif\""));
    }
    still_serving(&app).await;
}

async fn upload_metadata_gps_exif_is_dropped_and_orientation_applied(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    // Stored 600×300, orientation 6 (rotate 90° clockwise): displayed 300×600.
    let photo = jpeg_with_gps(600, 300, 6);
    let gif: GifDto =
        dto_of(alice.upload("photo.jpg", photo.clone(), "holiday", "", &[]).await, StatusCode::CREATED).await;
    assert_eq!(gif.content_type, "image/jpeg");
    assert_eq!((gif.content_width, gif.content_height), (300, 600));
    let id = gif.id;
    let gps = gps_rationals();
    // The stored original keeps its pixels and its orientation, and loses its GPS position.
    let original = alice.get(&format!("/api/gifs/content/{id}")).await.bytes().await.unwrap_or_default().to_vec();
    assert!(!original.windows(gps.len()).any(|w| w == gps.as_slice()), "the original carries the GPS position");
    assert_eq!(usize::try_from(gif.content_size).ok(), Some(original.len()), "contentSize is the stored size");
    let pixels = |bytes: &[u8]| image::load_from_memory(bytes).unwrap_or_else(|e| panic!("{e}")).to_rgb8().into_raw();
    assert!(pixels(&original) == pixels(&photo), "the original's pixels are the upload's");
    let probed = gifshelf_media::probe(&original, &gifshelf_media::Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((probed.width, probed.height), (300, 600), "still shown upright");
    for path in ["thumbnail", "static-thumbnail"] {
        let bytes = alice.get(&format!("/api/gifs/{path}/{id}")).await.bytes().await.unwrap_or_default().to_vec();
        assert!(!bytes.windows(4).any(|w| w == b"Exif"), "{path} carries EXIF");
        assert!(!bytes.windows(gps.len()).any(|w| w == gps.as_slice()), "{path} carries the GPS position");
        let image = image::load_from_memory(&bytes).unwrap_or_else(|e| panic!("{path}: {e}")).to_rgb8();
        assert_eq!(image.dimensions(), (300, 600), "{path}");
        // The stored left (red) half is on top once rotated.
        let (top, bottom) = (image.get_pixel(150, 100), image.get_pixel(150, 500));
        assert!(top[0] > 200 && top[2] < 60, "{path}: top is {top:?}");
        assert!(bottom[2] > 200 && bottom[0] < 60, "{path}: bottom is {bottom:?}");
    }
    still_serving(&app).await;
}

async fn upload_polyglot_is_served_as_an_image_never_as_html(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    for (name, bytes) in [("x.js", gif_js_polyglot()), ("x.html", gif_then_html())] {
        let gif: GifDto =
            dto_of(alice.upload(name, bytes.clone(), "polyglot", "", &[]).await, StatusCode::CREATED).await;
        assert_eq!(gif.content_type, "image/gif", "{name}");
        let (id, share) = (gif.id, gif.share_id);
        for path in [format!("/api/gifs/content/{id}"), format!("/s/{share}.gif")] {
            let served = alice.get(&path).await;
            assert_eq!(served.status(), StatusCode::OK, "{path}");
            assert_eq!(header(&served, "content-type"), "image/gif", "{path}");
            assert_eq!(header(&served, "x-content-type-options"), "nosniff", "{path}");
            assert_eq!(header(&served, "content-security-policy"), "sandbox; default-src 'none'", "{path}");
            assert!(header(&served, "content-disposition").starts_with("inline; filename=\""), "{path}");
            // Stored without what is not the picture: the comment and the bytes after the
            // trailer (where the script was) are gone, the pixels are the upload's.
            let served = served.bytes().await.unwrap_or_default();
            let expected = gifshelf_media::strip_metadata(&bytes).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(served.as_ref(), expected.as_slice(), "{path}: the upload without its metadata");
            assert!(!served.windows(5).any(|w| w == b"alert"), "{path}: the script is gone");
        }
        // The thumbnails are re-encoded images: no trace of the script.
        let thumb = alice.get(&format!("/api/gifs/thumbnail/{id}")).await.bytes().await.unwrap_or_default();
        assert!(!thumb.windows(5).any(|w| w == b"alert"), "{name}");
    }
    still_serving(&app).await;
}

/// A valid GIF with a lot of decoding work in a small file: `frames` frames of 2048×2048 (about a
/// second of work per 50 frames on one core).
fn work_bomb(frames: usize, pad_to: usize) -> Vec<u8> {
    run_gif(2048, 2048, frames, pad_to)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upload_slow_decode_leaves_other_requests_unaffected() {
    let app = app!(Backend::Sqlite, &[("GIFSHELF_MEDIA_WORKERS", "1")]);
    let alice = app.user("alice").await;
    let bomb = work_bomb(48, 0);
    assert!(bomb.len() < 1024 * 1024, "{} bytes", bomb.len());
    // A decoder accepts it: the first frame is whole.
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bomb.as_slice()).unwrap_or_else(|e| panic!("{e}"));
    let frame = decoder.read_next_frame().unwrap_or_else(|e| panic!("{e}")).map(|f| f.buffer.len());
    assert_eq!(frame, Some(2048 * 2048));

    let started = Instant::now();
    let upload = alice.upload("work.gif", bomb, "slow", "", &[]);
    let others = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        for _ in 0..5 {
            let asked = Instant::now();
            still_serving(&app).await;
            alice.read::<PagedGifs>("/api/gifs/dtos").await;
            assert!(asked.elapsed() < Duration::from_secs(10), "other requests did not wait for the decode");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    };
    let (response, ()) = tokio::join!(upload, others);
    // Bounded: it finishes, or the processing timeout (20 s) answers for it.
    assert!(started.elapsed() < Duration::from_secs(90), "the upload hung");
    match response.status() {
        StatusCode::CREATED => {
            let gif: GifDto = dto_of(response, StatusCode::CREATED).await;
            assert_eq!(gif.frame_count, 48);
        }
        _ => {
            refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_complex").await;
        }
    }
    still_serving(&app).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn upload_parallel_uploads_are_bounded_and_the_excess_gets_503() {
    let app = app!(Backend::Sqlite, &[("GIFSHELF_MEDIA_WORKERS", "1"), ("GIFSHELF_MAX_UPLOAD_MB", "2")]);
    let alice = app.user("alice").await;
    // 20 uploads of the size limit at once, each a couple of seconds of decoding: one decodes at a
    // time, and those that cannot start within the queue wait (10 s) are told the server is busy.
    let bomb = work_bomb(96, 2 * 1024 * 1024 - 4096);
    assert!(bomb.len() > 2 * 1024 * 1024 - 8192 && bomb.len() < 2 * 1024 * 1024, "{}", bomb.len());
    let before = peak_rss_kib();
    let started = Instant::now();
    let titles: Vec<String> = (0..20).map(|i| format!("upload {i}")).collect();
    // Each a different file (the library refuses byte-identical uploads): a shade of its first colour.
    let bombs = (0..20u8).map(|i| {
        let mut bomb = bomb.clone();
        bomb[15] = i;
        bomb
    });
    let responses =
        join_all(titles.iter().zip(bombs).map(|(title, bomb)| alice.upload("max.gif", bomb, title, "", &[]))).await;
    assert!(started.elapsed() < Duration::from_secs(180), "the uploads hung");
    let (mut created, mut busy, mut timed_out) = (0, 0, 0);
    for response in responses {
        match response.status() {
            StatusCode::CREATED => created += 1,
            // On a very slow machine a job may also reach the processing timeout.
            StatusCode::BAD_REQUEST => {
                error_of(response, StatusCode::BAD_REQUEST, "image_too_complex").await;
                timed_out += 1;
            }
            _ => {
                let message = error_of(response, StatusCode::SERVICE_UNAVAILABLE, "unavailable").await;
                assert_eq!(message, "The server is busy processing other uploads. Please try again in a moment.");
                busy += 1;
            }
        }
    }
    assert!(created + timed_out >= 1 && busy >= 1, "{created} stored, {busy} busy, {timed_out} timed out");
    assert!(peak_rss_kib().saturating_sub(before) < MEMORY_MARGIN_KIB, "memory grew");
    // Exactly the stored ones exist, each with its three files.
    let page: PagedGifs = alice.read("/api/gifs/dtos").await;
    assert_eq!(usize::try_from(page.total_elements).ok(), Some(created));
    assert_eq!(app.stored_files().len(), 3 * created, "{:?}", app.stored_files());
    still_serving(&app).await;
}

// ---------------------------------------------------------------------------------------------
// Serving

/// `directive → sources` of a Content-Security-Policy.
fn csp_directives(csp: &str) -> std::collections::HashMap<String, Vec<String>> {
    csp.split(';')
        .filter_map(|d| {
            let mut words = d.split_whitespace();
            Some((words.next()?.to_owned(), words.map(str::to_owned).collect()))
        })
        .collect()
}

async fn serving_media_headers_come_from_the_server_not_the_upload(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let gif: GifDto =
        dto_of(alice.upload("evil.html", animated_gif(32, 32, 2), "a gif", "", &[]).await, StatusCode::CREATED).await;
    let still: GifDto =
        dto_of(alice.upload("evil.svg", png(32, 32), "a png", "", &[]).await, StatusCode::CREATED).await;
    let cases = [
        (gif.id, "content", "image/gif", "original.gif"),
        (gif.id, "thumbnail", "image/gif", "thumbnail.gif"),
        (gif.id, "static-thumbnail", "image/png", "static.png"),
        (still.id, "content", "image/png", "original.png"),
    ];
    for (id, path, content_type, name) in cases {
        let url = format!("/api/gifs/{path}/{id}");
        let check = |response: &Response, status: StatusCode| {
            assert_eq!(response.status(), status, "{url}");
            assert_eq!(header(response, "x-content-type-options"), "nosniff", "{url}");
            assert_eq!(header(response, "content-security-policy"), "sandbox; default-src 'none'", "{url}");
            assert_eq!(
                header(response, "content-disposition"),
                format!("inline; filename=\"gif-{id}-{name}\""),
                "{url}"
            );
        };
        let whole = alice.get(&url).await;
        check(&whole, StatusCode::OK);
        assert_eq!(header(&whole, "content-type"), content_type, "{url}");
        let etag = header(&whole, "etag");
        let again = send(alice.request(Method::GET, &url).header("if-none-match", &etag)).await;
        check(&again, StatusCode::NOT_MODIFIED);
        let part = send(alice.request(Method::GET, &url).header("range", "bytes=0-3")).await;
        check(&part, StatusCode::PARTIAL_CONTENT);
        assert_eq!(header(&part, "content-type"), content_type, "{url}");
    }
    // The raw share link is served the same way.
    let share = &gif.share_id;
    let raw = app.anonymous().get(&format!("/s/{share}.gif")).await;
    assert_eq!(
        (header(&raw, "content-type").as_str(), header(&raw, "x-content-type-options").as_str()),
        ("image/gif", "nosniff")
    );
    assert_eq!(header(&raw, "content-security-policy"), "sandbox; default-src 'none'");
    still_serving(&app).await;
}

async fn serving_spa_csp_allows_only_our_own_scripts(backend: Backend) {
    let app = app!(backend);
    for path in
        ["/", "/login", "/gifs/1", "/%3Cscript%3Ealert(1)%3C/script%3E", "/?q=%3Cscript%3Ealert(1)%3C/script%3E"]
    {
        let response = app.anonymous().get(path).await;
        // A path the file server will not map is refused; either way the policy is there.
        let status = response.status();
        assert!(
            status == StatusCode::OK || (status == StatusCode::BAD_REQUEST && path.contains("script")),
            "{path}: {status}"
        );
        let csp = csp_directives(&header(&response, "content-security-policy"));
        let scripts = csp.get("script-src").cloned().unwrap_or_default();
        assert_eq!(scripts.first().map(String::as_str), Some("'self'"), "{path}: {csp:?}");
        assert!(scripts[1..].iter().all(|s| s.starts_with("'sha256-")), "only hashed inline scripts: {scripts:?}");
        for (directive, value) in
            [("object-src", "'none'"), ("base-uri", "'none'"), ("frame-ancestors", "'none'"), ("default-src", "'self'")]
        {
            assert_eq!(csp.get(directive).cloned().unwrap_or_default(), [value], "{path}: {directive}");
        }
        assert!(!format!("{csp:?}").contains("google"), "{csp:?}");
        assert_eq!(header(&response, "x-frame-options"), "DENY");
        // Nothing from the request is written into the page.
        let page = response.text().await.unwrap_or_default();
        assert!(!page.contains("alert"), "{path}: {page}");
        assert!(page.contains("gifshelf spa") || status != StatusCode::OK, "{path}: {page}");
    }
    // API answers are JSON, never HTML, even when they quote the request.
    let api = app.anonymous().get("/api/%3Cscript%3E").await;
    assert_eq!(header(&api, "x-content-type-options"), "nosniff");
    error_of(api, StatusCode::NOT_FOUND, "not_found").await;

    // Google's sign-in origin is allowed only when Google sign-in is configured.
    let google = app!(backend, &[("GIFSHELF_GOOGLE_CLIENT_ID", "abc.apps.googleusercontent.com")]);
    let csp = csp_directives(&header(&google.anonymous().get("/").await, "content-security-policy"));
    let scripts = csp.get("script-src").cloned().unwrap_or_default();
    assert!(scripts.contains(&"https://accounts.google.com/gsi/client".to_owned()), "{scripts:?}");
    assert_eq!(csp.get("object-src").cloned().unwrap_or_default(), ["'none'"]);
    still_serving(&app).await;
}

// ---------------------------------------------------------------------------------------------
// Accounts and tokens

/// Claims as JSON, untyped on purpose: the tests forge tokens with claims ours never have.
fn mint(claims: &Value, algorithm: jsonwebtoken::Algorithm, secret: &str) -> String {
    let key = jsonwebtoken::EncodingKey::from_secret(secret.as_bytes());
    jsonwebtoken::encode(&jsonwebtoken::Header::new(algorithm), claims, &key).unwrap_or_else(|e| panic!("{e}"))
}

fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

async fn oidc_sign_in(app: &TestApp, id_token: String) -> Response {
    app.anonymous().post_json("/api/auth/google", &json!({ "token": id_token })).await
}

fn median(mut values: Vec<Duration>) -> Duration {
    values.sort_unstable();
    values.get(values.len() / 2).copied().unwrap_or_default()
}

async fn accounts_long_passwords_are_refused_never_truncated(backend: Backend) {
    let app = app!(backend);
    let too_long = "p".repeat(73);
    let multibyte = "€".repeat(25); // 25 characters, 75 bytes
    for password in [too_long.as_str(), multibyte.as_str()] {
        let body = RegisterRequest {
            username: "alice".to_owned(),
            email: "alice@example.com".to_owned(),
            password: password.to_owned(),
            confirm_password: password.to_owned(),
        };
        let response = app.anonymous().post_json("/api/auth/register", &body).await;
        let message = error_of(response, StatusCode::BAD_REQUEST, "validation").await;
        assert_eq!(message, "Password must be at most 72 bytes");
    }
    // 72 bytes is allowed, and every one of them counts: a 73rd byte makes a wrong password.
    let exact = "q".repeat(72);
    let _: ProfileDto = dto_of(app.register("alice", &exact).await, StatusCode::CREATED).await;
    let alice = app.sign_in("alice", &exact).await;
    error_of(app.login("alice", &format!("{exact}x")).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    error_of(app.login("alice", &exact[..71]).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    // The same rule when the password changes.
    let change = json!({"newPassword": too_long, "confirmPassword": too_long});
    let message =
        error_of(alice.put_json("/api/settings/password", &change).await, StatusCode::BAD_REQUEST, "validation").await;
    assert_eq!(message, "Password must be at most 72 bytes");
    app.sign_in("alice", &exact).await;
    still_serving(&app).await;
}

async fn accounts_login_unknown_user_vs_wrong_password_look_the_same(backend: Backend) {
    // A realistic bcrypt cost, so that skipping the hash would show.
    let app = app!(backend, &[("GIFSHELF_BCRYPT_COST", "10"), ("GIFSHELF_LOGIN_MAX_FAILURES", "100")]);
    let _: ProfileDto = dto_of(app.register("alice", "secret1").await, StatusCode::CREATED).await;
    let (mut wrong, mut unknown) = (Vec::new(), Vec::new());
    let mut bodies = Vec::new();
    for i in 0..5 {
        for (username, times) in [("alice", &mut wrong), (&*format!("nobody{i}"), &mut unknown)] {
            let started = Instant::now();
            let response = app.login(username, "wrong-password").await;
            times.push(started.elapsed());
            let mut headers: Vec<String> =
                response.headers().keys().map(|k| k.as_str().to_owned()).filter(|k| k != "date").collect();
            headers.sort();
            let status = response.status();
            let body = response.text().await.unwrap_or_default();
            bodies.push((status, body, headers));
        }
    }
    assert!(bodies.windows(2).all(|w| w[0] == w[1]), "same status, body and headers: {bodies:?}");
    assert_eq!(bodies[0].0, StatusCode::UNAUTHORIZED);
    let (wrong, unknown) = (median(wrong), median(unknown));
    // A generous bound: an unknown user that skipped bcrypt would be ~100 times faster.
    assert!(unknown * 4 >= wrong && wrong * 4 >= unknown, "wrong password {wrong:?}, unknown user {unknown:?}");
}

async fn accounts_brute_force_is_throttled_and_forwarded_for_trusted_only_when_configured(backend: Backend) {
    // Not behind a trusted proxy: X-Forwarded-For is ignored, the peer address counts.
    let app = app!(
        backend,
        &[
            ("GIFSHELF_LOGIN_MAX_FAILURES", "3"),
            ("GIFSHELF_LOGIN_LOCKOUT_SECS", "60"),
            ("GIFSHELF_LOGIN_IP_MAX_FAILURES", "6")
        ]
    );
    let _: ProfileDto = dto_of(app.register("alice", "secret1").await, StatusCode::CREATED).await;
    let _: ProfileDto = dto_of(app.register("bob", "secret1").await, StatusCode::CREATED).await;
    let login_from = |username: &'static str, password: &'static str, forwarded: String| {
        let body = json!({"username": username, "password": password});
        app.anonymous().request(Method::POST, "/api/auth/login").header("x-forwarded-for", forwarded).json(&body).send()
    };
    for i in 0..3 {
        let response =
            login_from("alice", "wrong-password", format!("10.0.0.{i}")).await.unwrap_or_else(|e| panic!("{e}"));
        error_of(response, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    // The account is locked, even for the right password.
    let locked = login_from("alice", "secret1", "10.0.1.1".into()).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(header(&locked, "retry-after"), "60");
    error_of(locked, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
    app.sign_in("bob", "secret1").await;
    for i in 0..3 {
        let response =
            login_from("nobody", "wrong-password", format!("10.0.2.{i}")).await.unwrap_or_else(|e| panic!("{e}"));
        error_of(response, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    // Six failures from this peer, whatever the header claimed: the address is blocked.
    let blocked = login_from("bob", "secret1", "192.0.2.77".into()).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(!header(&blocked, "retry-after").is_empty());
    error_of(blocked, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;

    // Behind a trusted proxy: the forwarded address is the client.
    let proxied = app!(
        backend,
        &[("GIFSHELF_TRUST_PROXY", "true"), ("GIFSHELF_LOGIN_IP_MAX_FAILURES", "3"), ("GIFSHELF_BCRYPT_COST", "6")]
    );
    let _: ProfileDto = dto_of(proxied.register("carol", "secret1").await, StatusCode::CREATED).await;
    let login_via = |username: &str, password: &str, forwarded: &str| {
        let body = json!({"username": username, "password": password});
        proxied
            .anonymous()
            .request(Method::POST, "/api/auth/login")
            .header("x-forwarded-for", forwarded)
            .json(&body)
            .send()
    };
    for i in 0..3 {
        let response =
            login_via(&format!("guess{i}"), "wrong-password", "203.0.113.7").await.unwrap_or_else(|e| panic!("{e}"));
        error_of(response, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    let blocked = login_via("carol", "secret1", "203.0.113.7").await.unwrap_or_else(|e| panic!("{e}"));
    error_of(blocked, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
    let other = login_via("carol", "secret1", "198.51.100.2").await.unwrap_or_else(|e| panic!("{e}"));
    let _: TokenResponse = dto_of(other, StatusCode::OK).await;

    // A login storm runs bcrypt on the blocking pool: the server keeps answering meanwhile.
    // (Sixteen accounts: attempts count before the password check, so one account's burst
    // would be throttled after the fifth.)
    let storm = join_all((0..16).map(|i| {
        let forwarded = format!("198.51.100.{}", 10 + i);
        async move { login_via(&format!("storm{i}"), "secret1", &forwarded).await.map(|r| r.status()) }
    }));
    let health = async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let asked = Instant::now();
        still_serving(&proxied).await;
        asked.elapsed()
    };
    let (statuses, waited) = tokio::join!(storm, health);
    assert!(statuses.iter().all(|s| s.as_ref().is_ok_and(|s| *s == StatusCode::UNAUTHORIZED)), "{statuses:?}");
    assert!(waited < Duration::from_secs(10), "health waited {waited:?}");
}

async fn accounts_jwt_forged_or_expired_tokens_are_401_and_weak_secrets_stop_startup(backend: Backend) {
    use jsonwebtoken::Algorithm;
    let app = app!(backend);
    let alice = app.user("alice").await;
    app.user("bob").await;
    let claims = |sub: &str, exp: Value| json!({"sub": sub, "roles": "ROLE_USER", "iat": now(), "exp": exp});
    let valid = claims("bob", json!(now() + 3600));
    let parts: Vec<&str> = alice.token().split('.').collect();
    let admin_bob = b64(json!({"sub": "bob", "roles": "ROLE_USER,ROLE_ADMIN", "iat": now(), "exp": now() + 3600})
        .to_string()
        .as_bytes());
    let header_none = b64(br#"{"alg":"none","typ":"JWT"}"#);
    let header_rs256 = b64(br#"{"alg":"RS256","typ":"JWT"}"#);
    let payload = b64(valid.to_string().as_bytes());
    let hs256 = mint(&valid, Algorithm::HS256, SECRET);
    let hs256_signature = hs256.rsplit('.').next().unwrap_or_default().to_owned();
    let mut no_exp = valid.clone();
    if let Some(claims) = no_exp.as_object_mut() {
        claims.remove("exp");
    }
    let cases = [
        ("alg none, no signature", format!("{header_none}.{payload}.")),
        ("alg none, with a signature", format!("{header_none}.{payload}.{hs256_signature}")),
        ("RS256 header on an HMAC signature", format!("{header_rs256}.{payload}.{hs256_signature}")),
        ("HS384 with our secret", mint(&valid, Algorithm::HS384, SECRET)),
        ("HS512 with our secret", mint(&valid, Algorithm::HS512, SECRET)),
        ("tampered claims", format!("{}.{admin_bob}.{}", parts[0], parts[2])),
        ("another secret", mint(&valid, Algorithm::HS256, "another-secret-another-secret-another-secret")),
        ("missing exp", mint(&no_exp, Algorithm::HS256, SECRET)),
        ("non-numeric exp", mint(&claims("bob", json!("tomorrow")), Algorithm::HS256, SECRET)),
        ("object exp", mint(&claims("bob", json!({"at": 1})), Algorithm::HS256, SECRET)),
        ("not a JWT", "a.b.c".to_owned()),
    ];
    for (case, bad) in cases {
        let response = app.with_token(&bad).get("/api/settings/profile").await;
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{case}");
        error_of(response, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    // The leeway is seconds, not jsonwebtoken's default minute.
    for seconds_ago in [30, 3600] {
        let expired = mint(&claims("bob", json!(now() - seconds_ago)), Algorithm::HS256, SECRET);
        let response = app.with_token(&expired).get("/api/settings/profile").await;
        let message = error_of(response, StatusCode::UNAUTHORIZED, "token_expired").await;
        assert_eq!(message, "Token expired", "{seconds_ago} s ago");
    }
    // The control: a well-formed token is accepted.
    let profile: ProfileDto = app.with_token(&hs256).read("/api/settings/profile").await;
    assert_eq!(profile.username, "bob");

    // A configured secret under 256 bits stops startup with a clear message.
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let vars = [
        ("GIFSHELF_BIND", "127.0.0.1:0".to_owned()),
        ("GIFSHELF_DATA_DIR", dir.path().display().to_string()),
        ("GIFSHELF_DATABASE_URL", format!("sqlite://{}", dir.path().join("weak.db").display())),
        ("GIFSHELF_JWT_SECRET", "short-secret-0123456789".to_owned()),
    ];
    let settings = gifshelf_server::Settings::from_sources(None, |name: &str| {
        vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.clone())
    })
    .unwrap_or_else(|e| panic!("{e}"));
    match gifshelf_server::Application::build(&settings) {
        Ok(_) => panic!("a weak secret was accepted"),
        Err(err) => assert!(err.to_string().contains("too weak") && err.to_string().contains("256 bits"), "{err}"),
    }
    still_serving(&app).await;
}

async fn accounts_stale_tokens_of_renamed_unknown_or_repassworded_users_are_401(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    // Renamed: the old token names a user that no longer exists under that name.
    let renamed = alice.put_json("/api/settings/profile", &json!({"username": "alicia", "email": null})).await;
    let _: ProfileDto = dto_of(renamed, StatusCode::OK).await;
    error_of(alice.get("/api/settings/profile").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    // There is no account deletion; a token for a user that does not exist is what one would look like.
    let ghost = app.with_token(&mint(
        &json!({"sub": "ghost", "roles": "ROLE_USER", "iat": now(), "exp": now() + 3600}),
        jsonwebtoken::Algorithm::HS256,
        SECRET,
    ));
    error_of(ghost.get("/api/gifs/dtos").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    // Issued before a password change: refused (tokens carry whole seconds).
    let second_session = app.sign_in("bob", "secret1").await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let changed = bob
        .put_json("/api/settings/password", &json!({"newPassword": "newsecret", "confirmPassword": "newsecret"}))
        .await;
    let fresh: TokenResponse = dto_of(changed, StatusCode::OK).await;
    for stale in [&bob, &second_session] {
        error_of(stale.get("/api/settings/profile").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    let profile: ProfileDto = app.with_token(&fresh.token).read("/api/settings/profile").await;
    assert_eq!(profile.username, "bob");
    still_serving(&app).await;
}

async fn accounts_oidc_bad_id_tokens_are_401_and_emails_never_link(backend: Backend) {
    use gifshelf_auth::testing::FakeOidcProvider;
    const CLIENT: &str = "bad-input.apps.example.com";
    let provider = FakeOidcProvider::start().await;
    let app = app!(backend, &[("GIFSHELF_GOOGLE_CLIENT_ID", CLIENT), ("GIFSHELF_OIDC_ISSUER", provider.issuer())]);
    let valid = provider.claims(CLIENT, "sub-1", "eve@example.com", true);
    // The provider's claims as JSON, untyped on purpose: each case forges one of them.
    let with = |key: &str, value: Value| {
        let mut claims = valid.clone();
        claims[key] = value;
        provider.mint(&claims)
    };
    let stranger = FakeOidcProvider::start().await;
    let mut unknown_kid = provider.header();
    unknown_kid.kid = Some("key-404".into());
    let mut hs256 = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    hs256.kid = provider.header().kid;
    let cases = [
        ("wrong issuer", with("iss", json!("https://accounts.google.com"))),
        ("wrong audience", with("aud", json!("someone-else"))),
        ("extra untrusted audience", with("aud", json!([CLIENT, "someone-else"]))),
        ("expired", with("exp", json!(now() - 300))),
        ("bad signature", stranger.mint_with_header(&provider.header(), &valid)),
        ("unknown key id", provider.mint_with_header(&unknown_kid, &valid)),
        ("alg none", format!("{}.{}.", b64(br#"{"alg":"none"}"#), b64(valid.to_string().as_bytes()))),
        (
            "HS256",
            jsonwebtoken::encode(&hs256, &valid, &jsonwebtoken::EncodingKey::from_secret(CLIENT.as_bytes()))
                .unwrap_or_else(|e| panic!("{e}")),
        ),
    ];
    for (case, token) in cases {
        let message = error_of(oidc_sign_in(&app, token).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
        assert_eq!(message, "Google login failed", "{case}");
    }
    // A local account is never taken over through its email, verified by the provider or not.
    app.user("frank").await;
    for verified in [false, true] {
        let token = provider.mint(&provider.claims(CLIENT, "sub-f", "frank@example.com", verified));
        error_of(oidc_sign_in(&app, token).await, StatusCode::CONFLICT, "email_taken").await;
    }
    // Identities are keyed on the subject, not the email: a new email is the same account.
    let first = provider.mint(&provider.claims(CLIENT, "sub-g", "grace@example.com", true));
    let session: TokenResponse = dto_of(oidc_sign_in(&app, first).await, StatusCode::OK).await;
    assert_eq!(claims_of(&session.token).sub, "grace");
    let moved = provider.mint(&provider.claims(CLIENT, "sub-g", "grace@elsewhere.example", true));
    let session: TokenResponse = dto_of(oidc_sign_in(&app, moved).await, StatusCode::OK).await;
    assert_eq!(claims_of(&session.token).sub, "grace");
    still_serving(&app).await;
}

// ---------------------------------------------------------------------------------------------
// Access control

async fn access_other_users_gif_is_unchanged_and_owner_fields_are_ignored(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let gif = alice.upload_gif("Mine", "original", &["cats"]).await;
    let id = gif.id;
    let path = format!("/api/gifs/{id}");
    let hijack = json!({
        "title": "Hijacked", "description": "x", "tags": ["pwned"],
        "uploadedBy": "bob", "role": "ADMIN", "viewCount": 999
    });
    error_of(bob.put_json(&path, &hijack).await, StatusCode::FORBIDDEN, "forbidden").await;
    for other in [&bob, &admin] {
        error_of(other.delete(&path).await, StatusCode::FORBIDDEN, "forbidden").await;
    }
    error_of(bob.put_json("/api/gifs/987654", &hijack).await, StatusCode::NOT_FOUND, "not_found").await;
    let unchanged = alice.gif(id).await;
    assert_eq!(
        (unchanged.title.as_str(), unchanged.description.as_str(), unchanged.uploaded_by.as_str()),
        ("Mine", "original", "alice")
    );
    assert_eq!(unchanged.tags.len(), 1);
    assert_eq!(app.stored_files().len(), 3, "the blobs are still there");
    let tags: Vec<TagDto> = alice.read("/api/tags").await;
    assert!(tags.iter().all(|t| !t.name.contains("pwned")), "{tags:?}");

    // The owner's own edit ignores the fields the server owns.
    let edited: GifDto = dto_of(alice.put_json(&path, &hijack).await, StatusCode::OK).await;
    assert_eq!((edited.title.as_str(), edited.uploaded_by.as_str()), ("Hijacked", "alice"));
    assert!(edited.view_count < 999, "{edited:?}");
    // A role in a registration or a profile body is ignored too.
    let register = json!({
        "username": "mallory", "email": "m@example.com", "password": "secret1", "confirmPassword": "secret1",
        "role": "ADMIN", "roles": "ROLE_USER,ROLE_ADMIN"
    });
    let _: ProfileDto =
        dto_of(app.anonymous().post_json("/api/auth/register", &register).await, StatusCode::CREATED).await;
    let mallory = app.sign_in("mallory", "secret1").await;
    assert_eq!(claims_of(mallory.token()).roles, "ROLE_USER");
    let promote = json!({"username": "mallory", "email": null, "role": "ADMIN"});
    let _: ProfileDto = dto_of(mallory.put_json("/api/settings/profile", &promote).await, StatusCode::OK).await;
    error_of(mallory.get("/api/stats").await, StatusCode::FORBIDDEN, "forbidden").await;
    still_serving(&app).await;
}

async fn access_admin_endpoints_are_403_for_non_admins_whatever_the_token_claims(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let bob = app.user("bob").await;
    bob.upload_gif("a", "", &["kitty"]).await;
    let created: TagDto = dto_of(bob.post("/api/tags?name=empty-one").await, StatusCode::CREATED).await;
    let tag = created.id;
    let tags = |list: Vec<TagDto>| list.into_iter().map(|t| (t.id, t.name, t.count)).collect::<Vec<_>>();
    let before = tags(admin.read("/api/tags").await);
    // A correctly signed token for bob that claims the admin role: the stored role decides.
    let forged = app.with_token(&mint(
        &json!({"sub": "bob", "roles": "ROLE_USER,ROLE_ADMIN", "iat": now(), "exp": now() + 3600}),
        jsonwebtoken::Algorithm::HS256,
        SECRET,
    ));
    let endpoints = [
        (Method::PUT, format!("/api/tags/{tag}?name=renamed")),
        (Method::DELETE, format!("/api/tags/{tag}")),
        (Method::DELETE, "/api/tags/empty".to_owned()),
        (Method::GET, "/api/stats".to_owned()),
        (Method::GET, "/api/stats/detailed".to_owned()),
        (Method::GET, "/api/stats/detailed/size/0-100KB".to_owned()),
        (Method::GET, "/api/stats/detailed/tag/kitty".to_owned()),
        (Method::GET, "/api/stats/detailed/activity/casual".to_owned()),
        (Method::GET, "/api/stats/detailed/content-type?type=image%2Fgif".to_owned()),
    ];
    for (method, path) in &endpoints {
        for client in [&bob, &forged] {
            let response = send(client.request(method.clone(), path)).await;
            let message = error_of(response, StatusCode::FORBIDDEN, "forbidden").await;
            assert_eq!(message, "This needs an administrator account.", "{method} {path}");
        }
        let anonymous = send(app.anonymous().request(method.clone(), path)).await;
        error_of(anonymous, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    assert_eq!(tags(admin.read("/api/tags").await), before, "nothing changed");
    // The control: the admin may.
    let stats: OverviewStats = admin.read("/api/stats").await;
    assert_eq!(stats.total_gifs, 1);
    still_serving(&app).await;
}

async fn access_share_ids_are_random_and_a_deleted_link_looks_never_existing(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let mut ids = Vec::new();
    for n in 0..6 {
        let gif = alice.upload_gif(&format!("gif {n}"), "", &[]).await;
        ids.push((gif.id, gif.share_id));
    }
    for (_, share) in &ids {
        // At least 96 bits: 16 or more URL-safe base64 characters.
        assert!(share.len() >= 16, "{share}");
        assert!(share.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{share}");
    }
    let mut shares: Vec<&String> = ids.iter().map(|(_, s)| s).collect();
    shares.sort();
    shares.dedup();
    assert_eq!(shares.len(), ids.len(), "distinct");
    let prefixes: std::collections::HashSet<&str> = shares.iter().map(|s| &s[..4]).collect();
    assert!(prefixes.len() > 1, "not sequential: {shares:?}");

    let (id, share) = ids[0].clone();
    let delete = alice.delete(&format!("/api/gifs/{id}")).await;
    assert_eq!(delete.status(), StatusCode::NO_CONTENT);
    let never = "A".repeat(share.len());
    for suffix in ["", ".gif"] {
        let gone = app.anonymous().get(&format!("/s/{share}{suffix}")).await;
        let missing = app.anonymous().get(&format!("/s/{never}{suffix}")).await;
        assert_eq!(gone.status(), StatusCode::NOT_FOUND);
        assert_eq!(missing.status(), StatusCode::NOT_FOUND);
        assert_eq!(header(&gone, "content-type"), header(&missing, "content-type"));
        assert_eq!(gone.text().await.unwrap_or_default(), missing.text().await.unwrap_or_default(), "{suffix}");
    }
    still_serving(&app).await;
}

// ---------------------------------------------------------------------------------------------
// Reliability

async fn reliability_client_abort_or_failed_write_leaves_nothing(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let body = multipart(b"big.gif", &animated_gif(400, 300, 6), "aborted");
    assert!(body.len() > 100_000, "{}", body.len());

    // A raw client that sends half the body and hangs up.
    let addr = app.socket_address().to_owned();
    let (head, half) = (upload_head(&addr, alice.token(), body.len()), body[..body.len() / 2].to_vec());
    tokio::task::spawn_blocking(move || {
        let mut stream = connect(&addr);
        stream.write_all(&head).unwrap_or_else(|e| panic!("{e}"));
        stream.write_all(&half).unwrap_or_else(|e| panic!("{e}"));
        std::thread::sleep(Duration::from_millis(200));
        let _ = stream.shutdown(std::net::Shutdown::Both);
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));

    // A client whose body stream fails half way.
    let (first, _) = body.split_at(body.len() / 2);
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        vec![Ok(first.to_vec()), Err(std::io::Error::other("client gave up"))];
    let failed = alice
        .request(Method::POST, "/api/gifs")
        .header("content-type", format!("multipart/form-data; boundary={BOUNDARY}"))
        .body(reqwest::Body::wrap_stream(futures_util::stream::iter(chunks)))
        .send()
        .await;
    assert!(failed.is_err(), "the request failed on the client side");
    tokio::time::sleep(Duration::from_millis(300)).await;
    nothing_stored(&app, &alice).await;
    still_serving(&app).await;

    // The disk refuses the write (here: the temp folder is not a folder): a 500, nothing left.
    let partial = app.data_dir.join("media").join(".partial");
    std::fs::remove_dir_all(&partial).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&partial, b"not a folder").unwrap_or_else(|e| panic!("{e}"));
    let response = alice.upload("x.gif", animated_gif(16, 16, 2), "disk full", "", &[]).await;
    assert!(!header(&response, "x-request-id").is_empty(), "a 5xx carries the request id");
    let message = error_of(response, StatusCode::INTERNAL_SERVER_ERROR, "internal").await;
    assert_eq!(message, "Something went wrong on our side. Please try again later.");
    std::fs::remove_file(&partial).unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir(&partial).unwrap_or_else(|e| panic!("{e}"));
    nothing_stored(&app, &alice).await;
    still_serving(&app).await;
    // And the next upload is whole.
    alice.upload_gif("fine", "", &[]).await;
    assert_eq!(app.stored_files().len(), 3, "{:?}", app.stored_files());
}

async fn reliability_sqlite_concurrent_writes_never_fail(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_DB_MAX_CONNECTIONS", "8"), ("GIFSHELF_MEDIA_WORKERS", "2")]);
    let admin = app.admin().await;
    let seed = admin.upload_gif("seed", "", &["seed"]).await;
    let seed_id = seed.id;
    let names: Vec<String> = (0..12).map(|i| format!("user{i:02}")).collect();
    let registered = join_all(names.iter().map(|n| app.register(n, "secret1"))).await;
    assert!(
        registered.iter().all(|r| r.status() == StatusCode::CREATED),
        "{:?}",
        registered.iter().map(Response::status).collect::<Vec<_>>()
    );
    let logins = join_all(names.iter().map(|n| app.login(n, "secret1"))).await;
    let mut users = Vec::new();
    for login in logins {
        let session: TokenResponse = dto_of(login, StatusCode::OK).await;
        users.push(app.with_token(&session.token));
    }

    // Uploads sharing a new tag, views of one GIF, tag creations and edits, all at once.
    let mut requests = Vec::new();
    for (i, user) in users.iter().enumerate() {
        let form_tags = ["shared", "common"];
        requests.push(
            user.request(Method::POST, "/api/gifs").multipart(
                reqwest::multipart::Form::new()
                    .part("file", reqwest::multipart::Part::bytes(user.fresh_gif()).file_name("x.gif"))
                    .text(
                        "gifData",
                        json!({"title": format!("upload {i}"), "description": "", "tags": form_tags}).to_string(),
                    ),
            ),
        );
        for _ in 0..3 {
            requests.push(user.request(Method::GET, &format!("/api/gifs/dto/{seed_id}")));
        }
        requests.push(user.request(Method::POST, &format!("/api/tags?name=tag{i:02}")));
    }
    for n in 0..4 {
        requests.push(
            admin
                .request(Method::PUT, &format!("/api/gifs/{seed_id}"))
                .json(&json!({"title": format!("seed {n}"), "description": "", "tags": ["seed"]})),
        );
    }
    let total = requests.len();
    let answers = join_all(requests.into_iter().map(|r| async move {
        let response = r.send().await.unwrap_or_else(|e| panic!("{e}"));
        let status = response.status();
        (status, response.text().await.unwrap_or_default())
    }))
    .await;
    for (status, body) in &answers {
        assert!(status.is_success(), "{status}: {body}");
        assert!(!body.contains("locked"), "{body}");
    }
    assert_eq!(answers.len(), total);
    let page: PagedGifs = admin.read("/api/gifs/dtos").await;
    assert_eq!(page.total_elements, 13);
    // No view was lost: 36 counted above, and this one.
    assert_eq!(admin.gif(seed_id).await.view_count, 37);
    let shared: TagDto = admin.read("/api/tags/shared").await;
    assert_eq!(shared.count, 12);
    assert_eq!(app.stored_files().len(), 13 * 3);
    still_serving(&app).await;
}

async fn reliability_pool_exhausted_is_a_fast_503(backend: Backend) {
    use diesel::connection::SimpleConnection;
    use diesel::Connection;
    // One connection, held by a write that waits on a lock taken from outside the server.
    let app = app!(backend, &[("GIFSHELF_DB_MAX_CONNECTIONS", "1")]);
    let alice = app.user("alice").await;
    let url = app.database_url().to_owned();
    let mut holder: Box<dyn SimpleConnection> = match backend {
        Backend::Sqlite => Box::new(
            diesel::SqliteConnection::establish(url.trim_start_matches("sqlite://")).unwrap_or_else(|e| panic!("{e}")),
        ),
        Backend::Postgres => Box::new(diesel::PgConnection::establish(&url).unwrap_or_else(|e| panic!("{e}"))),
    };
    let lock = match backend {
        Backend::Sqlite => "BEGIN IMMEDIATE",
        Backend::Postgres => "BEGIN; LOCK TABLE users IN EXCLUSIVE MODE",
    };
    holder.batch_execute(lock).unwrap_or_else(|e| panic!("{e}"));
    let writer = app.register("bob", "secret1");
    let probe = async {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let asked = Instant::now();
            let response = alice.get("/api/gifs/dtos").await;
            if response.status() == StatusCode::SERVICE_UNAVAILABLE {
                let waited = asked.elapsed();
                let message = error_of(response, StatusCode::SERVICE_UNAVAILABLE, "unavailable").await;
                assert_eq!(message, "The server is busy. Please try again in a moment.");
                assert!(waited < Duration::from_secs(15), "the 503 took {waited:?}");
                break;
            }
            assert_eq!(response.status(), StatusCode::OK, "before the writer holds the connection");
            assert!(Instant::now() < deadline, "never saw the pool exhausted");
        }
        holder.batch_execute("ROLLBACK").unwrap_or_else(|e| panic!("{e}"));
    };
    let (registered, ()) = tokio::join!(writer, probe);
    // Once the lock is gone the waiting write completes.
    let _: ProfileDto = dto_of(registered, StatusCode::CREATED).await;
    app.sign_in("bob", "secret1").await;
    still_serving(&app).await;
}

/// A `gifshelf serve` process of the SIGTERM row; killed on drop if still running.
struct Process {
    child: std::process::Child,
    url: String,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn serve_process(database_url: &str, data: &std::path::Path) -> Process {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("{e}"));
    let web = data.join("web");
    std::fs::create_dir_all(&web).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(web.join("index.html"), crate::helpers::INDEX_HTML).unwrap_or_else(|e| panic!("{e}"));
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_gifshelf"))
        .arg("serve")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("GIFSHELF_BIND", format!("127.0.0.1:{port}"))
        .env("GIFSHELF_DATABASE_URL", database_url)
        .env("GIFSHELF_DATA_DIR", data.join("data"))
        .env("GIFSHELF_WEB_DIR", &web)
        .env("GIFSHELF_JWT_SECRET", SECRET)
        .env("GIFSHELF_BCRYPT_COST", "4")
        .env("GIFSHELF_HTTP_WORKERS", "2")
        .env("GIFSHELF_WORKERS", "0")
        .env("GIFSHELF_LOG", "warn")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn gifshelf: {e}"));
    let process = Process { child, url: format!("http://127.0.0.1:{port}") };
    let deadline = Instant::now() + Duration::from_secs(60);
    while !reqwest::get(format!("{}/api/health", process.url)).await.is_ok_and(|r| r.status().is_success()) {
        assert!(Instant::now() < deadline, "the server did not come up");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    process
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reliability_sigterm_lets_the_in_flight_upload_finish() {
    let db = gifshelf_db::testing::TestDb::sqlite();
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let mut server = serve_process(&db.url, data.path()).await;
    let client = reqwest::Client::new();
    let account =
        json!({"username": "alice", "email": "alice@example.com", "password": "secret1", "confirmPassword": "secret1"});
    let registered = client
        .post(format!("{}/api/auth/register", server.url))
        .json(&account)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(registered.status(), StatusCode::CREATED);
    let login = client
        .post(format!("{}/api/auth/login", server.url))
        .json(&json!({"username": "alice", "password": "secret1"}))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let TokenResponse { token } = dto_of(login, StatusCode::OK).await;

    // Half an upload is on the wire when SIGTERM arrives; the rest follows.
    let addr = server.url.trim_start_matches("http://").to_owned();
    let pid = server.child.id();
    let (status, body) = tokio::task::spawn_blocking(move || {
        let body = multipart(b"x.gif", &animated_gif(64, 48, 3), "in flight");
        let mut stream = connect(&addr);
        stream.write_all(&upload_head(&addr, &token, body.len())).unwrap_or_else(|e| panic!("{e}"));
        stream.write_all(&body[..body.len() / 2]).unwrap_or_else(|e| panic!("{e}"));
        std::thread::sleep(Duration::from_millis(300));
        let killed = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status();
        assert!(killed.is_ok_and(|s| s.success()), "kill -TERM");
        std::thread::sleep(Duration::from_millis(500));
        stream.write_all(&body[body.len() / 2..]).unwrap_or_else(|e| panic!("{e}"));
        read_response(&mut stream)
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status, 201, "the in-flight upload finished: {body}");

    // Then the server exits, cleanly.
    let deadline = Instant::now() + Duration::from_secs(40);
    let exit = loop {
        if let Some(exit) = server.child.try_wait().unwrap_or_else(|e| panic!("{e}")) {
            break exit;
        }
        assert!(Instant::now() < deadline, "the server did not exit after SIGTERM");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(exit.success(), "{exit:?}");

    // The data is consistent: after a restart the GIF is listed and its files are served.
    let server = serve_process(&db.url, data.path()).await;
    let login = client
        .post(format!("{}/api/auth/login", server.url))
        .json(&json!({"username": "alice", "password": "secret1"}))
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let TokenResponse { token } = dto_of(login, StatusCode::OK).await;
    let page: PagedGifs = dto_of(
        client
            .get(format!("{}/api/gifs/dtos", server.url))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{e}")),
        StatusCode::OK,
    )
    .await;
    assert_eq!(page.total_elements, 1);
    let id = page.content[0].id;
    for path in ["content", "thumbnail", "static-thumbnail"] {
        let served = client
            .get(format!("{}/api/gifs/{path}/{id}", server.url))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(served.status(), StatusCode::OK, "{path}");
    }
}

on_both_backends!(
    upload_size_cap_is_413_with_or_without_a_content_length,
    upload_lying_type_is_stored_as_the_sniffed_type,
    upload_not_an_image_is_400_and_unneeded_codecs_are_compiled_out,
    upload_corrupt_files_are_400_invalid_image,
    upload_canvas_bomb_is_400_and_memory_stays_flat,
    upload_pixel_flood_png_is_400_before_any_allocation,
    upload_frame_flood_is_400_at_the_frame_cap,
    upload_animated_webp_canvas_is_400_by_our_header_check,
    upload_file_name_never_reaches_the_file_system,
    upload_metadata_gps_exif_is_dropped_and_orientation_applied,
    upload_polyglot_is_served_as_an_image_never_as_html,
    serving_media_headers_come_from_the_server_not_the_upload,
    serving_spa_csp_allows_only_our_own_scripts,
    accounts_long_passwords_are_refused_never_truncated,
    accounts_login_unknown_user_vs_wrong_password_look_the_same,
    accounts_brute_force_is_throttled_and_forwarded_for_trusted_only_when_configured,
    accounts_jwt_forged_or_expired_tokens_are_401_and_weak_secrets_stop_startup,
    accounts_stale_tokens_of_renamed_unknown_or_repassworded_users_are_401,
    accounts_oidc_bad_id_tokens_are_401_and_emails_never_link,
    access_other_users_gif_is_unchanged_and_owner_fields_are_ignored,
    access_admin_endpoints_are_403_for_non_admins_whatever_the_token_claims,
    access_share_ids_are_random_and_a_deleted_link_looks_never_existing,
    reliability_client_abort_or_failed_write_leaves_nothing,
    reliability_sqlite_concurrent_writes_never_fail,
    reliability_pool_exhausted_is_a_fast_503
);
