//! Getting GIFs in from a link (`POST /api/gifs/from-url`, with its address rules) and out as
//! oEmbed. The images come from little HTTP servers on loopback made by each test; loopback is
//! allowed (`GIFSHELF_URL_FETCH_ALLOW`) only in the tests that fetch from them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use gifshelf_http::dto::{ApiErrorBody, ErrorCode, GifDto, OembedResponse, PagedGifs};
use reqwest::StatusCode;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::helpers::{animated_gif, dto_of, error_of, Backend, TestApp};
use crate::{app, on_both_backends};

/// What the origin answers for a path.
#[derive(Clone)]
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    /// Send `Content-Length` (else the body ends when the connection closes).
    length: bool,
    /// Wait this long before answering.
    delay: Duration,
}

impl Reply {
    fn ok(content_type: &str, body: Vec<u8>) -> Self {
        Self {
            status: 200,
            headers: vec![("Content-Type".into(), content_type.into())],
            body,
            length: true,
            delay: Duration::ZERO,
        }
    }

    fn redirect(to: &str) -> Self {
        Self {
            status: 302,
            headers: vec![("Location".into(), to.into())],
            body: Vec::new(),
            length: true,
            delay: Duration::ZERO,
        }
    }
}

/// A tiny HTTP/1.1 server on 127.0.0.1 answering from a table, counting the requests it got.
struct Origin {
    port: u16,
    hits: Arc<AtomicUsize>,
}

impl Origin {
    async fn start(routes: Vec<(&str, Reply)>) -> Self {
        let routes: Arc<HashMap<String, Reply>> =
            Arc::new(routes.into_iter().map(|(path, reply)| (path.to_owned(), reply)).collect());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap_or_else(|e| panic!("{e}"));
        let port = listener.local_addr().unwrap_or_else(|e| panic!("{e}")).port();
        let hits = Arc::new(AtomicUsize::new(0));
        let counter = hits.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let routes = routes.clone();
                let counter = counter.clone();
                tokio::spawn(async move {
                    let mut request = Vec::new();
                    let mut buf = [0u8; 1024];
                    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                        match socket.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.extend_from_slice(&buf[..n]),
                        }
                    }
                    counter.fetch_add(1, Ordering::SeqCst);
                    let text = String::from_utf8_lossy(&request);
                    let path = text.split_whitespace().nth(1).unwrap_or("/").to_owned();
                    let reply = routes
                        .get(&path)
                        .cloned()
                        .unwrap_or(Reply { status: 404, ..Reply::ok("text/plain", b"not here".to_vec()) });
                    tokio::time::sleep(reply.delay).await;
                    let mut head = format!("HTTP/1.1 {} X\r\nConnection: close\r\n", reply.status);
                    for (name, value) in &reply.headers {
                        head.push_str(&format!("{name}: {value}\r\n"));
                    }
                    if reply.length {
                        head.push_str(&format!("Content-Length: {}\r\n", reply.body.len()));
                    }
                    head.push_str("\r\n");
                    let _ = socket.write_all(head.as_bytes()).await;
                    for chunk in reply.body.chunks(64 * 1024) {
                        if socket.write_all(chunk).await.is_err() {
                            return;
                        }
                    }
                    let _ = socket.shutdown().await;
                });
            }
        });
        Self { port, hits }
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

const LOOPBACK_ALLOWED: &[(&str, &str)] = &[("GIFSHELF_URL_FETCH_ALLOW", "127.0.0.0/8")];

async fn from_url(app: &TestApp, token: &str, url: &str) -> reqwest::Response {
    app.send_json(
        reqwest::Method::POST,
        "/api/gifs/from-url",
        Some(token),
        &json!({"url": url, "title": "From a link", "description": "fetched", "tags": ["Linked"]}),
    )
    .await
}

/// Nothing half-stored: no GIF listed, no file in the media folder.
async fn nothing_stored(app: &TestApp, token: &str) {
    let page: PagedGifs = dto_of(app.get("/api/gifs/dtos", Some(token)).await, StatusCode::OK).await;
    assert!(page.content.is_empty(), "{page:?}");
    assert_eq!(app.stored_files(), Vec::<String>::new());
}

fn page_naming(image: &str) -> Reply {
    Reply::ok(
        "text/html; charset=utf-8",
        format!(
            "<!doctype html><html><head><title>Funny cat</title>\
             <meta property=\"og:title\" content=\"Funny cat\">\
             <meta property=\"og:image\" content=\"{image}\"></head><body>A page</body></html>"
        )
        .into_bytes(),
    )
}

async fn an_image_a_redirect_and_an_og_image_page_are_stored(backend: Backend) {
    let app = app!(backend, LOOPBACK_ALLOWED);
    let token = app.signed_in("alice").await;
    let origin = Origin::start(vec![
        ("/cat.gif", Reply::ok("image/gif", animated_gif(40, 30, 3))),
        ("/dog.gif", Reply::ok("image/gif", animated_gif(40, 32, 3))),
        ("/bird.gif", Reply::ok("image/gif", animated_gif(42, 30, 3))),
        ("/moved", Reply::redirect("/dog.gif")),
        ("/gifs/funny-cat-123", page_naming("/bird.gif")),
    ])
    .await;

    let gif: GifDto = dto_of(from_url(&app, &token, &origin.url("/cat.gif")).await, StatusCode::CREATED).await;
    assert_eq!(gif.title, "From a link");
    assert_eq!(gif.description, "fetched");
    assert_eq!(gif.tags.first().map(|t| t.name.as_str()), Some("linked"));
    assert_eq!((gif.content_width, gif.content_height), (40, 30));
    assert_eq!(gif.frame_count, 3);

    let _: GifDto = dto_of(from_url(&app, &token, &origin.url("/moved")).await, StatusCode::CREATED).await;
    let from_page: GifDto =
        dto_of(from_url(&app, &token, &origin.url("/gifs/funny-cat-123")).await, StatusCode::CREATED).await;
    assert_eq!(from_page.content_type, "image/gif");

    let id = gif.id;
    // The same file again, whatever link leads to it, is the GIF already in the library.
    let again: ApiErrorBody = dto_of(from_url(&app, &token, &origin.url("/cat.gif")).await, StatusCode::CONFLICT).await;
    assert_eq!((again.code, again.existing_id), (ErrorCode::Duplicate, Some(id)));

    let page: PagedGifs = dto_of(app.get("/api/gifs/dtos", Some(&token)).await, StatusCode::OK).await;
    assert_eq!(page.content.len(), 3);
    let content = app.get(&format!("/api/gifs/content/{id}"), Some(&token)).await;
    assert_eq!(content.status(), StatusCode::OK);
}

async fn private_addresses_are_refused_before_any_request(backend: Backend) {
    let app = app!(backend);
    let token = app.signed_in("alice").await;
    let origin = Origin::start(vec![("/cat.gif", Reply::ok("image/gif", animated_gif(40, 30, 3)))]).await;
    let port = origin.port;
    let refused = [
        origin.url("/cat.gif"),
        format!("http://localhost:{port}/cat.gif"),
        format!("http://[::ffff:127.0.0.1]:{port}/cat.gif"),
        format!("http://[::ffff:7f00:1]:{port}/cat.gif"),
        format!("http://[::1]:{port}/cat.gif"),
        format!("http://[::127.0.0.1]:{port}/cat.gif"),
        format!("http://[64:ff9b::7f00:1]:{port}/cat.gif"),
        format!("http://[2002:7f00:1::1]:{port}/cat.gif"),
        format!("http://0.0.0.0:{port}/cat.gif"),
        format!("http://2130706433:{port}/cat.gif"),
        format!("http://0x7f.1:{port}/cat.gif"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://[fd00:ec2::254]/latest/meta-data/".to_owned(),
        "http://100.100.100.200/latest/meta-data/".to_owned(),
        "http://10.0.0.1/cat.gif".to_owned(),
        "http://192.168.1.1/cat.gif".to_owned(),
        "http://[fe80::1]/cat.gif".to_owned(),
        "ftp://example.com/cat.gif".to_owned(),
        "file:///etc/passwd".to_owned(),
        format!("http://user:secret@127.0.0.1:{port}/cat.gif"),
        "not a link".to_owned(),
    ];
    for url in refused {
        let message = error_of(from_url(&app, &token, &url).await, StatusCode::BAD_REQUEST, "url_refused").await;
        assert!(!message.is_empty(), "{url}");
    }
    assert_eq!(origin.hits(), 0, "no request reached the loopback server");
    nothing_stored(&app, &token).await;
}

async fn redirects_are_checked_again_and_limited(backend: Backend) {
    let app = app!(backend, LOOPBACK_ALLOWED);
    let token = app.signed_in("alice").await;
    let origin = Origin::start(vec![
        ("/to-metadata", Reply::redirect("http://169.254.169.254/latest/meta-data/")),
        ("/to-mapped", Reply::redirect("http://[::ffff:10.0.0.1]/cat.gif")),
        ("/to-ftp", Reply::redirect("ftp://example.com/cat.gif")),
        ("/page-to-private", page_naming("http://192.168.0.10/cat.gif")),
        ("/1", Reply::redirect("/2")),
        ("/2", Reply::redirect("/3")),
        ("/3", Reply::redirect("/4")),
        ("/4", Reply::redirect("/cat.gif")),
        ("/cat.gif", Reply::ok("image/gif", animated_gif(40, 30, 3))),
    ])
    .await;
    for path in ["/to-metadata", "/to-mapped", "/to-ftp", "/page-to-private"] {
        error_of(from_url(&app, &token, &origin.url(path)).await, StatusCode::BAD_REQUEST, "url_refused").await;
    }
    let message =
        error_of(from_url(&app, &token, &origin.url("/1")).await, StatusCode::BAD_REQUEST, "url_fetch_failed").await;
    assert!(message.contains("more than 3"), "{message}");
    nothing_stored(&app, &token).await;
    // Three redirects are fine.
    let _: GifDto = dto_of(from_url(&app, &token, &origin.url("/2")).await, StatusCode::CREATED).await;
}

async fn bodies_over_the_cap_are_refused_with_and_without_length(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_URL_FETCH_ALLOW", "127.0.0.1"), ("GIFSHELF_MAX_UPLOAD_MB", "1")]);
    let token = app.signed_in("alice").await;
    let mut big = animated_gif(40, 30, 3);
    big.resize(3 * 1024 * 1024, 0);
    let origin = Origin::start(vec![
        ("/declared.gif", Reply::ok("image/gif", big.clone())),
        ("/undeclared.gif", Reply { length: false, ..Reply::ok("image/gif", big) }),
    ])
    .await;
    for path in ["/declared.gif", "/undeclared.gif"] {
        let message =
            error_of(from_url(&app, &token, &origin.url(path)).await, StatusCode::PAYLOAD_TOO_LARGE, "too_large").await;
        assert!(message.contains("1 MB"), "{message}");
    }
    nothing_stored(&app, &token).await;
}

async fn a_slow_server_runs_into_the_time_limit(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_URL_FETCH_ALLOW", "127.0.0.0/8"), ("GIFSHELF_URL_FETCH_TIMEOUT_SECS", "1")]);
    let token = app.signed_in("alice").await;
    let origin = Origin::start(vec![(
        "/slow.gif",
        Reply { delay: Duration::from_secs(30), ..Reply::ok("image/gif", animated_gif(40, 30, 3)) },
    )])
    .await;
    let started = Instant::now();
    let message =
        error_of(from_url(&app, &token, &origin.url("/slow.gif")).await, StatusCode::BAD_REQUEST, "url_fetch_failed")
            .await;
    assert!(message.contains("too long"), "{message}");
    assert!(started.elapsed() < Duration::from_secs(10), "gave up after {:?}", started.elapsed());
    nothing_stored(&app, &token).await;
}

async fn timed(app: &TestApp, token: &str, url: String) -> (reqwest::Response, Duration) {
    let started = Instant::now();
    let answer = from_url(app, token, &url).await;
    (answer, started.elapsed())
}

async fn fetches_are_bounded_per_person_and_over_everyone_without_queueing(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_URL_FETCH_ALLOW", "127.0.0.0/8"), ("GIFSHELF_URL_FETCH_CONCURRENCY", "3")]);
    let alice = app.signed_in("alice").await;
    let bob = app.signed_in("bob").await;
    let paths: Vec<String> = (0..7).map(|n| format!("/slow{n}.gif")).collect();
    let slow = |n: u16| Reply { delay: Duration::from_secs(3), ..Reply::ok("image/gif", animated_gif(40 + n, 30, 3)) };
    let origin = Origin::start(paths.iter().zip(0..).map(|(path, n)| (path.as_str(), slow(n))).collect()).await;
    // alice starts four at once: two run (her share), two are told at once to come back.
    let alices = futures_util::future::join_all((0..4).map(|n| timed(&app, &alice, origin.url(&paths[n]))));
    // Once hers reach the origin, bob starts two: one takes the server's last slot, one is a 503.
    let bobs = async {
        while origin.hits() < 2 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        futures_util::future::join_all((4..6).map(|n| timed(&app, &bob, origin.url(&paths[n])))).await
    };
    let (alices, bobs) = tokio::join!(alices, bobs);
    let mut refused = 0;
    for (answer, took) in alices {
        if answer.status() == StatusCode::TOO_MANY_REQUESTS {
            assert!(took < Duration::from_secs(2), "refused after {took:?}");
            assert!(answer.headers().contains_key("retry-after"));
            refused += 1;
        } else {
            let _: GifDto = dto_of(answer, StatusCode::CREATED).await;
        }
    }
    assert_eq!(refused, 2, "alice's fetches past her two");
    let mut busy = 0;
    for (answer, took) in bobs {
        if answer.status() == StatusCode::SERVICE_UNAVAILABLE {
            assert!(took < Duration::from_secs(2), "refused after {took:?}");
            let message = error_of(answer, StatusCode::SERVICE_UNAVAILABLE, "unavailable").await;
            assert!(message.contains("busy"), "{message}");
            busy += 1;
        } else {
            let _: GifDto = dto_of(answer, StatusCode::CREATED).await;
        }
    }
    assert_eq!((busy, origin.hits()), (1, 3), "nothing queued: the refused fetches never reached the origin");
    // Ended fetches free their slots.
    let _: GifDto = dto_of(from_url(&app, &alice, &origin.url(&paths[6])).await, StatusCode::CREATED).await;
}

async fn non_images_error_answers_and_bad_forms_are_refused(backend: Backend) {
    let app = app!(backend, LOOPBACK_ALLOWED);
    let token = app.signed_in("alice").await;
    let origin = Origin::start(vec![
        ("/notes.txt", Reply::ok("text/plain", b"just some text".to_vec())),
        ("/truncated.gif", Reply::ok("image/gif", animated_gif(64, 48, 3)[..40].to_vec())),
        ("/page", Reply::ok("text/html", b"<html><head><title>No image</title></head></html>".to_vec())),
    ])
    .await;
    error_of(from_url(&app, &token, &origin.url("/notes.txt")).await, StatusCode::BAD_REQUEST, "unsupported_type")
        .await;
    error_of(from_url(&app, &token, &origin.url("/truncated.gif")).await, StatusCode::BAD_REQUEST, "invalid_image")
        .await;
    let message =
        error_of(from_url(&app, &token, &origin.url("/page")).await, StatusCode::BAD_REQUEST, "unsupported_type").await;
    assert!(message.contains("og:image"), "{message}");
    let message =
        error_of(from_url(&app, &token, &origin.url("/gone.gif")).await, StatusCode::BAD_REQUEST, "url_fetch_failed")
            .await;
    assert!(message.contains("404"), "{message}");

    let hits = origin.hits();
    let blank_title = app
        .send_json(
            reqwest::Method::POST,
            "/api/gifs/from-url",
            Some(&token),
            &json!({"url": origin.url("/notes.txt"), "title": "  "}),
        )
        .await;
    error_of(blank_title, StatusCode::BAD_REQUEST, "validation").await;
    assert_eq!(origin.hits(), hits, "the form is checked before anything is fetched");
    let anonymous =
        app.anonymous().post_json("/api/gifs/from-url", &json!({"url": origin.url("/notes.txt"), "title": "x"})).await;
    error_of(anonymous, StatusCode::UNAUTHORIZED, "unauthorized").await;
    nothing_stored(&app, &token).await;
}

/// The `href` of the share page's oEmbed discovery link, entities decoded.
fn discovery_link(html: &str) -> Option<String> {
    let tag_start = html.find("application/json+oembed")?;
    let tag = &html[html[..tag_start].rfind('<')?..];
    let href = tag.split("href=\"").nth(1)?.split('"').next()?;
    Some(href.replace("&amp;", "&"))
}

async fn oembed_describes_share_pages_only(backend: Backend) {
    let app = app!(backend);
    let token = app.signed_in("alice").await;
    let gif = app.upload_gif(&token, "Dancing <cat>", "", &[]).await;
    let share_id = gif.share_id.clone();
    let page_url = app.url(&format!("/s/{share_id}"));

    let html = app.get(&format!("/s/{share_id}"), None).await.text().await.unwrap_or_default();
    let href = discovery_link(&html).unwrap_or_else(|| panic!("no discovery link in {html}"));
    assert!(href.starts_with(&app.url("/api/oembed?url=")), "{href}");
    let answer = app.http.get(&href).send().await.unwrap_or_else(|e| panic!("{e}"));
    let oembed: OembedResponse = dto_of(answer, StatusCode::OK).await;
    assert_eq!(oembed.version, "1.0");
    assert_eq!(oembed.kind, "photo");
    assert_eq!(oembed.url, app.url(&format!("/s/{share_id}.gif")));
    assert_eq!((oembed.width, oembed.height), (64, 48));
    assert_eq!(oembed.title, "Dancing <cat>");
    assert_eq!(oembed.author_name, "alice");
    assert_eq!(oembed.provider_name, "gifshelf");
    assert_eq!(oembed.provider_url, app.url("/"));
    // The image it names is public.
    let image = app.http.get(&oembed.url).send().await;
    assert_eq!(image.map(|r| r.status()).ok(), Some(StatusCode::OK));

    let query = |extra: &str| {
        let encoded: String = page_url.bytes().map(|b| format!("%{b:02X}")).collect();
        format!("/api/oembed?url={encoded}{extra}")
    };
    let scaled: OembedResponse = dto_of(app.get(&query("&maxwidth=32"), None).await, StatusCode::OK).await;
    assert_eq!((scaled.width, scaled.height), (32, 24));
    let scaled: OembedResponse =
        dto_of(app.get(&query("&maxwidth=500&maxheight=12"), None).await, StatusCode::OK).await;
    assert_eq!((scaled.width, scaled.height), (16, 12));
    error_of(app.get(&query("&format=xml"), None).await, StatusCode::NOT_IMPLEMENTED, "bad_request").await;
    error_of(app.get(&query("&format=yaml"), None).await, StatusCode::BAD_REQUEST, "bad_request").await;
    let _: OembedResponse = dto_of(app.get(&query("&format="), None).await, StatusCode::OK).await;
    error_of(app.get(&query("&maxwidth=wide"), None).await, StatusCode::BAD_REQUEST, "bad_request").await;
    for url in [
        app.url("/s/doesNotExist123"),
        app.url(&format!("/api/gifs/{}", gif.id)),
        format!("http://elsewhere.example/s/{share_id}"),
        "nonsense".to_owned(),
    ] {
        let path = format!("/api/oembed?url={}", url.replace(':', "%3A").replace('/', "%2F"));
        error_of(app.get(&path, None).await, StatusCode::NOT_FOUND, "not_found").await;
    }
}

/// The quotas hold for GIFs from a link too: they pass the same upload use case.
async fn a_gif_from_a_link_counts_against_the_quotas(backend: Backend) {
    let app = app!(backend, LOOPBACK_ALLOWED);
    let admin = app.signed_in("admin").await;
    let token = app.signed_in("alice").await;
    let quota = json!({"uploadsPerDay": 0});
    let set = app.send_json(reqwest::Method::PUT, "/api/admin/quotas", Some(&admin), &quota).await;
    assert_eq!(set.status(), StatusCode::OK);
    let origin = Origin::start(vec![("/cat.gif", Reply::ok("image/gif", animated_gif(40, 30, 3)))]).await;
    let said = error_of(
        from_url(&app, &token, &origin.url("/cat.gif")).await,
        StatusCode::TOO_MANY_REQUESTS,
        "quota_exceeded",
    )
    .await;
    assert_eq!(said, "Upload limit of 0 GIFs a day reached");
    nothing_stored(&app, &token).await;
}

on_both_backends!(
    a_gif_from_a_link_counts_against_the_quotas,
    an_image_a_redirect_and_an_og_image_page_are_stored,
    private_addresses_are_refused_before_any_request,
    redirects_are_checked_again_and_limited,
    bodies_over_the_cap_are_refused_with_and_without_length,
    a_slow_server_runs_into_the_time_limit,
    fetches_are_bounded_per_person_and_over_everyone_without_queueing,
    non_images_error_answers_and_bad_forms_are_refused,
    oembed_describes_share_pages_only
);
