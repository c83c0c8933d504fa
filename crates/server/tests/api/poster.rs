//! The poster (the first frame as a still WebP at display size) and the detail page that asks
//! for it with its HTML: `GET /gifs/{id}` with the media session cookie answers a `Link:
//! rel=preload` header naming it, for a reader who may see the GIF and no one else.

use gifshelf_http::dto::{GifDto, TokenResponse};
use gifshelf_media::testing::photo_gif;
use reqwest::{Method, StatusCode};

use crate::helpers::{dto_of, send, Backend, TestApp};
use crate::renditions::{renditions_of, video_available, WITH_WORKERS};
use crate::{app, on_both_backends};

/// `path` as a browser navigating to it asks for it, with `cookie` (the session cookie) if any.
async fn page(app: &TestApp, path: &str, cookie: Option<&str>) -> reqwest::Response {
    let mut request = app.anonymous().request(Method::GET, path).header("accept", "text/html");
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let response = send(request).await;
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    response
}

fn header(response: &reqwest::Response, name: &str) -> Option<String> {
    response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
}

async fn a_detail_page_preloads_its_poster_for_a_reader_who_may_see_it(backend: Backend) {
    let app = app!(backend, WITH_WORKERS);
    app.user("alice").await;
    let login = app.login("alice", "secret1").await;
    let set_cookie = header(&login, "set-cookie").unwrap_or_default();
    let cookie = set_cookie.split(';').next().unwrap_or_default().to_owned();
    let session: TokenResponse = dto_of(login, StatusCode::OK).await;
    let alice = app.with_token(&session.token);
    let gif: GifDto =
        dto_of(alice.upload("photo.gif", photo_gif(480, 320, 6), "Sunset", "", &[]).await, StatusCode::CREATED).await;
    let detail = format!("/gifs/{}", gif.id);

    if !video_available() {
        // Without ffmpeg there is no poster, and so nothing to preload.
        assert_eq!(header(&page(&app, &detail, Some(&cookie)).await, "link"), None);
        eprintln!("ffmpeg was not found when the tests were built: the poster half of this test did not run");
        return;
    }
    let list = renditions_of(&alice, gif.id, &["poster"]).await;
    let poster = list.iter().find(|r| r.kind == "poster").unwrap_or_else(|| panic!("no poster: {list:?}"));
    assert_eq!((poster.width, poster.height, poster.frames, poster.content_type.as_str()), (480, 320, 1, "image/webp"));
    assert!(!poster.preferred, "a still is never the file to play");

    let opened = page(&app, &detail, Some(&cookie)).await;
    assert_eq!(
        header(&opened, "link"),
        Some(format!("<{}>; rel=preload; as=image; type=\"image/webp\"; fetchpriority=high", poster.url))
    );
    assert_eq!(header(&opened, "cache-control").as_deref(), Some("private, no-cache"), "the header is this reader's");
    assert!(opened.text().await.unwrap_or_default().contains("id=\"root\""), "the page is the web app");
    // The URL it names is the file the page then shows, served by that same cookie.
    let file = send(app.anonymous().request(Method::GET, &poster.url).header("cookie", &cookie)).await;
    assert_eq!((file.status(), header(&file, "content-type").as_deref()), (StatusCode::OK, Some("image/webp")));

    // Anyone else gets the plain page: no cookie, a forged one, a GIF that does not exist, and
    // other paths of the web app.
    for (path, cookie) in [
        (detail.clone(), None),
        (detail.clone(), Some("gifshelf_session=forged.token.here")),
        (format!("/gifs/{}", gif.id + 1000), Some(cookie.as_str())),
        ("/gifs".to_owned(), Some(cookie.as_str())),
        (format!("/gifs/{}/x", gif.id), Some(cookie.as_str())),
    ] {
        let plain = page(&app, &path, cookie).await;
        assert_eq!(header(&plain, "link"), None, "{path} with {cookie:?}");
        assert_eq!(header(&plain, "cache-control").as_deref(), Some("no-cache"), "{path}");
    }
}

on_both_backends!(a_detail_page_preloads_its_poster_for_a_reader_who_may_see_it);
