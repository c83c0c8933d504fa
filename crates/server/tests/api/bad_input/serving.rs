//! Serving: headers come from the server, never from an upload.

use super::*;

// ---------------------------------------------------------------------------------------------
// Serving

/// `directive → sources` of a Content-Security-Policy.
pub(super) fn csp_directives(csp: &str) -> std::collections::HashMap<String, Vec<String>> {
    csp.split(';')
        .filter_map(|d| {
            let mut words = d.split_whitespace();
            Some((words.next()?.to_owned(), words.map(str::to_owned).collect()))
        })
        .collect()
}

pub(super) async fn serving_media_headers_come_from_the_server_not_the_upload(backend: Backend) {
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

pub(super) async fn serving_spa_csp_allows_only_our_own_scripts(backend: Backend) {
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

on_both_backends!(
    serving_media_headers_come_from_the_server_not_the_upload,
    serving_spa_csp_allows_only_our_own_scripts,
);
