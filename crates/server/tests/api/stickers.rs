//! GIPHY's stickers (`stickers/search|trending|random`): the library's transparent GIFs, in the
//! shapes of the `gifs/…` endpoints with `is_sticker: 1`; and the MP4 and WebP every GIF gets, a
//! still image's a one-second loop, named by every animated entry of GIPHY's `images`.

use gifshelf_http::dto::{CreatedApiKeyDto, GifDto};
use gifshelf_media::testing::{captioned_gif, png};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{dto_of, json_of, Backend, TestApp};
use crate::renditions::renditions_of;
use crate::{app, on_both_backends};

/// A path of the GIPHY API with a fresh key of `alice`'s.
async fn giphy(app: &TestApp) -> impl Fn(&str) -> String {
    let alice = app.user("keyholder").await;
    let key: CreatedApiKeyDto =
        dto_of(alice.post_json("/api/keys", &json!({"name": "stickers"})).await, StatusCode::CREATED).await;
    move |path: &str| format!("/api/giphy/v1/{path}{}api_key={}", if path.contains('?') { "&" } else { "?" }, key.key)
}

fn ids(list: &Value) -> Vec<String> {
    list["data"].as_array().into_iter().flatten().filter_map(|g| g["id"].as_str().map(str::to_owned)).collect()
}

async fn stickers_are_the_transparent_gifs_in_giphys_shapes(backend: Backend) {
    let app = app!(backend);
    let q = giphy(&app).await;
    let alice = app.user("alice").await;
    let star = alice.upload("star.gif", captioned_gif(120, 80, 3, None, true), "Party star", "", &["party"]).await;
    let star: GifDto = dto_of(star, StatusCode::CREATED).await;
    let cat = alice.upload_gif("Party cat", "", &["party"]).await;
    let anonymous = app.anonymous();
    let get = |path: String| {
        let anonymous = &anonymous;
        async move { json_of(anonymous.get(&path).await, StatusCode::OK).await }
    };

    let found = get(q("stickers/search?q=party")).await;
    assert_eq!(ids(&found), std::slice::from_ref(&star.share_id), "only the transparent GIF: {found}");
    assert_eq!(found["pagination"], json!({"total_count": 1, "count": 1, "offset": 0}));
    assert_eq!((&found["data"][0]["is_sticker"], &found["data"][0]["type"]), (&json!(1), &json!("sticker")));
    assert_eq!(found["meta"]["status"], 200);
    assert!(ids(&get(q("stickers/search?q=cat")).await).is_empty(), "the opaque GIF is no sticker");
    // The GIFs' own search still finds both, as GIFs.
    let gifs = get(q("gifs/search?q=party")).await;
    assert_eq!(ids(&gifs).len(), 2);
    assert!(gifs["data"].as_array().into_iter().flatten().all(|g| g["is_sticker"] == 0 && g["type"] == "gif"));
    assert!(ids(&gifs).contains(&cat.share_id));

    let trending = get(q("stickers/trending")).await;
    assert_eq!(ids(&trending), std::slice::from_ref(&star.share_id), "{trending}");
    assert_eq!(trending["pagination"]["total_count"], 1);
    let past = get(q("stickers/trending?offset=1&limit=5")).await;
    assert_eq!((ids(&past).len(), &past["pagination"]["offset"]), (0, &json!(1)));

    for path in ["stickers/random", "stickers/random?tag=party"] {
        let random = get(q(path)).await;
        assert_eq!(random["data"]["id"], json!(star.share_id), "{path}");
        assert_eq!(random["data"]["is_sticker"], 1);
    }
    let none = anonymous.get(&q("stickers/random?tag=cat")).await;
    assert_eq!(none.status(), StatusCode::NOT_FOUND);
    // Bad input is refused as on the GIFs' endpoints, in GIPHY's error shape.
    for path in ["stickers/search?q=party&limit=x", "stickers/trending?rating=x", "stickers/search?q=party&offset=-1"] {
        let refused = anonymous.get(&q(path)).await;
        assert_eq!(refused.status(), StatusCode::BAD_REQUEST, "{path}");
        let body: Value = refused.json().await.unwrap_or_default();
        assert_eq!(body["meta"]["status"], 400, "{path}: {body}");
    }
    // Without a key (and with anonymous use off), as the GIFs' endpoints: 401.
    let keyless = anonymous.get("/api/giphy/v1/stickers/trending").await;
    let gifs_keyless = anonymous.get("/api/giphy/v1/gifs/trending").await;
    assert_eq!(keyless.status(), gifs_keyless.status());
}

on_both_backends!(stickers_are_the_transparent_gifs_in_giphys_shapes);

/// A still image gets an MP4 and an animated WebP at each size, so that every animated entry of
/// GIPHY's `images` names a real video and WebP (where `ffmpeg` is).
async fn a_still_image_gets_an_mp4_and_webp_for_every_animated_entry(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_WORKERS", "1"), ("GIFSHELF_JOB_POLL_MS", "50")]);
    if !cfg!(ffmpeg_tests) {
        return;
    }
    let q = giphy(&app).await;
    let alice = app.user("alice").await;
    let still: GifDto =
        dto_of(alice.upload("still.png", png(300, 200), "Still", "", &[]).await, StatusCode::CREATED).await;
    let kinds = ["mp4", "mp4_small", "webm", "webm_small", "webp", "webp_fixed_height", "webp_tiny", "webp_nano"];
    let list = renditions_of(&alice, still.id, &kinds).await;
    for rendition in list.iter().filter(|r| kinds.contains(&r.kind.as_str())) {
        assert_eq!((rendition.frames, rendition.duration_ms), (1, Some(1000)), "{rendition:?}");
    }
    let gif = json_of(app.anonymous().get(&q(&format!("gifs/{}", still.share_id))).await, StatusCode::OK).await;
    let images = gif["data"]["images"].as_object().cloned().unwrap_or_default();
    for name in ["original", "fixed_height", "fixed_height_small", "fixed_width", "fixed_width_small"] {
        let entry = &images[name];
        for (field, ext, content_type) in [("mp4", ".mp4", "video/mp4"), ("webp", ".webp", "image/webp")] {
            let url = entry[field].as_str().unwrap_or_default();
            assert!(url.ends_with(ext), "{name}.{field} is {url}");
            let path = url.split_once("://").and_then(|(_, rest)| rest.find('/').map(|at| &rest[at..])).unwrap_or(url);
            let file = app.anonymous().get(path).await;
            assert_eq!(file.status(), StatusCode::OK, "{url}");
            assert_eq!(file.headers().get("content-type").and_then(|v| v.to_str().ok()), Some(content_type));
        }
    }
}

on_both_backends!(a_still_image_gets_an_mp4_and_webp_for_every_animated_entry);
