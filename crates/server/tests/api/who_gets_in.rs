//! The findings of the "Who gets in" audit: CORS of the anonymous chat APIs, absolute URLs built
//! from the `Host` header, the registration allowance's message and views counted once per client
//! and day.

use reqwest::{Method, Response, StatusCode};

use crate::helpers::{send, Backend, TestApp};
use crate::{app, on_both_backends};

fn header(response: &Response, name: &str) -> Option<String> {
    response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
}

/// `GET path` (or a preflight) from a page of `origin`.
async fn from_page(app: &TestApp, method: Method, path: &str, origin: &str) -> Response {
    send(
        app.anonymous()
            .request(method, path)
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "GET")
            .header("Access-Control-Request-Headers", "x-session-token"),
    )
    .await
}

async fn anonymous_chat_apis_let_only_listed_pages_read_them(backend: Backend) {
    let app = app!(
        backend,
        &[
            ("GIFSHELF_CHAT_API_ANONYMOUS", "true"),
            ("GIFSHELF_CHAT_API_CORS_ORIGINS", "https://chat.example.com, http://10.0.0.5:8080/")
        ]
    );
    let alice = app.user("alice").await;
    let gif = alice.upload_gif("Party parrot", "", &["party"]).await;
    let paths = [
        "/api/tenor/v2/featured".to_owned(),
        "/proxy/klipy/api/v2/search?q=party".to_owned(),
        "/api/giphy/v1/gifs/trending".to_owned(),
        format!("/proxy/klipy/media/s/{}/original.gif", gif.share_id),
    ];
    for path in &paths {
        for method in [Method::GET, Method::OPTIONS] {
            // Any page a member visits: answered (the member's browser may reach the server), but
            // never readable by the page.
            let foreign = from_page(&app, method.clone(), path, "https://evil.example").await;
            assert!(foreign.status().is_success(), "{method} {path}: {}", foreign.status());
            assert_eq!(header(&foreign, "access-control-allow-origin"), None, "{method} {path}");
            assert!(header(&foreign, "vary").is_some_and(|v| v.contains("Origin")), "{method} {path}");
            for listed in ["https://chat.example.com", "http://10.0.0.5:8080"] {
                let answer = from_page(&app, method.clone(), path, listed).await;
                assert_eq!(header(&answer, "access-control-allow-origin").as_deref(), Some(listed), "{method} {path}");
                assert_eq!(header(&answer, "access-control-allow-credentials"), None);
            }
        }
        let no_origin = app.anonymous().get(path).await;
        assert_eq!(no_origin.status(), StatusCode::OK, "{path}");
        assert_eq!(header(&no_origin, "access-control-allow-origin"), None, "{path}");
    }
}

async fn anonymous_chat_apis_without_a_list_are_readable_by_no_page(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_CHAT_API_ANONYMOUS", "true")]);
    for method in [Method::GET, Method::OPTIONS] {
        let answer = from_page(&app, method.clone(), "/api/tenor/v2/featured", "https://evil.example").await;
        assert!(answer.status().is_success(), "{method}: {}", answer.status());
        assert_eq!(header(&answer, "access-control-allow-origin"), None, "{method}");
    }
}

/// The headers and text `path` answers (200) when the request says `headers`.
async fn text_with(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> (reqwest::header::HeaderMap, String) {
    let mut request = app.anonymous().request(Method::GET, path);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = send(request).await;
    assert_eq!(response.status(), StatusCode::OK, "{path} {headers:?}");
    let head = response.headers().clone();
    (head, response.text().await.unwrap_or_default())
}

async fn links_are_never_built_on_a_host_the_request_made_up(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_CHAT_API_ANONYMOUS", "true")]);
    let alice = app.user("alice").await;
    let gif = alice.upload_gif("Party parrot", "", &["party"]).await;
    let evil = [("Host", "evil.example")];
    let page_url = format!("{}/s/{}", app.address, gif.share_id);
    let (_, page) = text_with(&app, &format!("/s/{}", gif.share_id), &evil).await;
    assert!(!page.contains("evil.example") && page.contains(&page_url), "{page}");
    let oembed = format!("/api/oembed?url={page_url}");
    let (head, answer) = text_with(&app, &oembed, &evil).await;
    assert!(!answer.contains("evil.example") && answer.contains(&page_url), "{answer}");
    assert_eq!(head.get("cache-control").and_then(|v| v.to_str().ok()), Some("no-cache"));
    let (_, results) = text_with(&app, "/api/tenor/v2/featured", &evil).await;
    assert!(!results.contains("evil.example") && results.contains(&page_url), "{results}");
    // Hosts the request may name: the bind address's, localhost (with any port).
    let port = app.address.rsplit(':').next().unwrap_or_default();
    let local = format!("localhost:{port}");
    let (_, page) = text_with(&app, &format!("/s/{}", gif.share_id), &[("Host", &local)]).await;
    assert!(page.contains(&format!("http://{local}/s/{}", gif.share_id)), "{page}");
}

async fn configured_hosts_are_honoured_and_forwarded_hosts_pass_the_same_list(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_ALLOWED_HOSTS", "gifs.example.com"), ("GIFSHELF_TRUST_PROXY", "true")]);
    let alice = app.user("alice").await;
    let gif = alice.upload_gif("Party parrot", "", &["party"]).await;
    let path = format!("/s/{}", gif.share_id);
    let (_, page) = text_with(&app, &path, &[("Host", "gifs.example.com")]).await;
    assert!(page.contains(&format!("http://gifs.example.com/s/{}", gif.share_id)), "{page}");
    let forwarded = [("X-Forwarded-Host", "gifs.example.com"), ("X-Forwarded-Proto", "https")];
    let (_, page) = text_with(&app, &path, &forwarded).await;
    assert!(page.contains(&format!("https://gifs.example.com/s/{}", gif.share_id)), "{page}");
    let spoofed = [("Host", "evil.example"), ("X-Forwarded-Host", "evil.example"), ("X-Forwarded-Proto", "https")];
    let (_, page) = text_with(&app, &path, &spoofed).await;
    assert!(!page.contains("evil.example") && page.contains(&format!("{}/s/", app.address)), "{page}");
}

/// The GIF's all-time views, read from the database (the detail endpoint would count one).
async fn views_of(app: &TestApp, id: i64) -> i64 {
    let gif = gifshelf_domain::ports::GifRepository::find(app.database(), gifshelf_domain::gif::GifId(id)).await;
    gif.unwrap_or_else(|e| panic!("{e}")).view_count
}

async fn a_share_page_counts_one_view_per_client_and_day(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_TRUST_PROXY", "true")]);
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let gif = alice.upload_gif("Party parrot", "", &["party"]).await;
    let page = format!("/s/{}", gif.share_id);
    let view = |address: &str, cookie: Option<&str>| {
        let mut request = app.anonymous().request(Method::GET, &page).header("X-Forwarded-For", address);
        if let Some(token) = cookie {
            request = request.header("Cookie", format!("gifshelf_session={token}"));
        }
        async move { assert_eq!(send(request).await.status(), StatusCode::OK) }
    };
    for _ in 0..5 {
        view("203.0.113.7", None).await;
    }
    assert_eq!(views_of(&app, gif.id).await, 1, "five reloads are one view");
    view("198.51.100.9", None).await;
    assert_eq!(views_of(&app, gif.id).await, 2, "another address");
    view("2001:db8:1:2::1", None).await;
    view("2001:db8:1:2:ffff::9", None).await;
    assert_eq!(views_of(&app, gif.id).await, 3, "one IPv6 /64 is one client");
    // A signed-in member counts once wherever they are.
    view("192.0.2.1", Some(bob.token())).await;
    view("192.0.2.2", Some(bob.token())).await;
    assert_eq!(views_of(&app, gif.id).await, 4);
    app.pass_seconds(86_400);
    view("203.0.113.7", None).await;
    view("203.0.113.7", None).await;
    assert_eq!(views_of(&app, gif.id).await, 5, "the next day counts again");
}

on_both_backends!(
    anonymous_chat_apis_let_only_listed_pages_read_them,
    anonymous_chat_apis_without_a_list_are_readable_by_no_page,
    links_are_never_built_on_a_host_the_request_made_up,
    configured_hosts_are_honoured_and_forwarded_hosts_pass_the_same_list,
    a_share_page_counts_one_view_per_client_and_day
);
