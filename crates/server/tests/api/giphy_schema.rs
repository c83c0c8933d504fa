//! Every GIPHY endpoint gifshelf serves, read into typed structs with every field GIPHY's
//! documentation (its schema pages: the GIF, Images, Meta, Pagination and Term objects) gives as
//! present, in its type: numbers of renditions as strings that hold whole numbers, `is_sticker`
//! an integer, `pagination` integers. A missing field or a wrong type fails the read, as it fails
//! typed SDKs (pydantic models, Kotlin and Dart classes) that validate GIPHY's answers. The
//! stickers endpoints answer the same objects, as stickers (a transparent GIF). Then every
//! URL of one GIF answers anonymously, with the type its field names.
#![allow(dead_code)] // the structs' fields are read by serde: their presence and type is the test

use std::collections::BTreeSet;

use reqwest::StatusCode;
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use gifshelf_http::dto::GifDto;
use gifshelf_media::testing::captioned_gif;

use crate::helpers::{dto_of, json_of, Backend, TestApp};
use crate::renditions::renditions_of;
use crate::{app, on_both_backends};

/// A number GIPHY writes as a string (`"200"`): a string, and a whole number.
#[derive(Debug)]
struct Num(u64);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map(Num).map_err(|_| D::Error::custom(format!("{text:?} is not a whole number")))
    }
}

/// A URL: a string, absolute.
#[derive(Debug)]
struct Url(String);

impl<'de> Deserialize<'de> for Url {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        if text.starts_with("http://") || text.starts_with("https://") {
            Ok(Url(text))
        } else {
            Err(D::Error::custom(format!("{text:?} is not an absolute URL")))
        }
    }
}

#[derive(Debug, Deserialize)]
struct Meta {
    status: u16,
    msg: String,
    response_id: String,
}

#[derive(Debug, Deserialize)]
struct Pagination {
    total_count: u64,
    count: u64,
    offset: u64,
}

/// `fixed_height`, `fixed_width` and their `_small` sizes: GIF, MP4 and WebP.
#[derive(Debug, Deserialize)]
struct Animated {
    url: Url,
    width: Num,
    height: Num,
    size: Num,
    mp4: Url,
    mp4_size: Num,
    webp: Url,
    webp_size: Num,
}

#[derive(Debug, Deserialize)]
struct Original {
    url: Url,
    width: Num,
    height: Num,
    size: Num,
    frames: Num,
    mp4: Url,
    mp4_size: Num,
    webp: Url,
    webp_size: Num,
}

/// Stills and the `downsized`, `preview_gif` and `preview_webp` images.
#[derive(Debug, Deserialize)]
struct Image {
    url: Url,
    width: Num,
    height: Num,
    size: Num,
}

/// `fixed_*_downsampled`: GIF and WebP.
#[derive(Debug, Deserialize)]
struct Downsampled {
    url: Url,
    width: Num,
    height: Num,
    size: Num,
    webp: Url,
    webp_size: Num,
}

/// `preview`, `downsized_small`, `original_mp4`: an MP4 with its size.
#[derive(Debug, Deserialize)]
struct Video {
    width: Num,
    height: Num,
    mp4: Url,
    mp4_size: Num,
}

#[derive(Debug, Deserialize)]
struct Looping {
    mp4: Url,
    mp4_size: Num,
}

#[derive(Debug, Deserialize)]
struct Images {
    original: Original,
    original_still: Image,
    original_mp4: Video,
    fixed_height: Animated,
    fixed_height_still: Image,
    fixed_height_downsampled: Downsampled,
    fixed_height_small: Animated,
    fixed_height_small_still: Image,
    fixed_width: Animated,
    fixed_width_still: Image,
    fixed_width_downsampled: Downsampled,
    fixed_width_small: Animated,
    fixed_width_small_still: Image,
    downsized: Image,
    downsized_still: Image,
    downsized_medium: Image,
    downsized_large: Image,
    downsized_small: Video,
    looping: Looping,
    preview: Video,
    preview_gif: Image,
    preview_webp: Image,
    #[serde(rename = "480w_still")]
    w480_still: Image,
}

#[derive(Debug, Deserialize)]
struct GifObject {
    #[serde(rename = "type")]
    kind: String,
    id: String,
    slug: String,
    url: Url,
    bitly_gif_url: String,
    bitly_url: String,
    embed_url: Url,
    username: String,
    source: String,
    title: String,
    alt_text: String,
    rating: String,
    content_url: String,
    source_tld: String,
    source_post_url: String,
    is_sticker: u8,
    import_datetime: String,
    trending_datetime: String,
    images: Images,
}

#[derive(Debug, Deserialize)]
struct List<T> {
    data: Vec<T>,
    pagination: Pagination,
    meta: Meta,
}

#[derive(Debug, Deserialize)]
struct One<T> {
    data: T,
    meta: Meta,
}

#[derive(Debug, Deserialize)]
struct Category {
    name: String,
    name_encoded: String,
    subcategories: Vec<Value>,
    gif: GifObject,
}

/// GIPHY's Term object (`gifs/search/tags`, `tags/related`).
#[derive(Debug, Deserialize)]
struct Term {
    name: String,
    analytics_response_payload: String,
}

#[derive(Debug, Deserialize)]
struct Terms {
    data: Vec<Term>,
    meta: Meta,
}

#[derive(Debug, Deserialize)]
struct RandomId {
    random_id: String,
}

/// Reads an answer into `T`; serde's error names the field missing or of the wrong type.
async fn typed<T: DeserializeOwned>(app: &TestApp, path: &str) -> T {
    let body = json_of(app.anonymous().get(path).await, StatusCode::OK).await;
    serde_json::from_value(body.clone()).unwrap_or_else(|e| panic!("{path}: {e}\n{body}"))
}

fn check_meta(meta: &Meta) {
    assert_eq!((meta.status, meta.msg.as_str()), (200, "OK"));
    assert!(!meta.response_id.is_empty());
}

fn check_gif(gif: &GifObject) {
    assert_eq!((gif.kind.as_str(), gif.is_sticker), ("gif", 0));
    check_object(gif);
}

fn check_sticker(sticker: &GifObject) {
    assert_eq!((sticker.kind.as_str(), sticker.is_sticker), ("sticker", 1));
    check_object(sticker);
}

fn check_object(gif: &GifObject) {
    assert!(gif.embed_url.0.ends_with(&format!("/{}", gif.id)) && gif.slug.ends_with(&gif.id), "{gif:?}");
    assert!(["g", "pg", "pg-13", "r"].contains(&gif.rating.as_str()), "{}", gif.rating);
    assert!(gif.import_datetime.len() == 19 && gif.trending_datetime.len() == 19);
    let i = &gif.images;
    assert!(i.original.frames.0 >= 1 && i.fixed_height.height.0 > 0 && i.fixed_width.width.0 > 0);
    for size in [&i.original.size, &i.original.mp4_size, &i.original.webp_size, &i.fixed_width.webp_size] {
        assert!(size.0 > 0, "{gif:?}");
    }
}

async fn every_giphy_endpoint_answers_every_documented_field_in_its_type(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_WORKERS", "1"), ("GIFSHELF_JOB_POLL_MS", "50")]);
    let alice = app.user("alice").await;
    let key: gifshelf_http::dto::CreatedApiKeyDto =
        dto_of(alice.post_json("/api/keys", &serde_json::json!({"name": "sdk"})).await, StatusCode::CREATED).await;
    let key = key.key;
    let mut gifs = Vec::new();
    for n in 0..3 {
        let tags: &[&str] = if n == 0 { &["party", "cake"] } else { &["party", "dance"] };
        gifs.push(alice.upload_gif(&format!("Party {n}"), "", tags).await);
    }
    // The renditions job has run, so that the videos and WebPs are real where ffmpeg is.
    let mut kinds = vec!["tiny", "nano", "fixed_height"];
    if cfg!(ffmpeg_tests) {
        kinds.extend(["mp4", "mp4_small", "webp", "webp_fixed_height", "webp_tiny", "webp_nano"]);
    }
    let star = alice.upload("star.gif", captioned_gif(120, 80, 3, None, true), "Party star", "", &["party"]).await;
    let star: GifDto = dto_of(star, StatusCode::CREATED).await;
    for id in gifs.iter().map(|g| g.id).chain([star.id]) {
        renditions_of(&alice, id, &kinds).await;
    }
    let q = |path: &str| format!("/api/giphy/v1/{path}{}api_key={key}", if path.contains('?') { "&" } else { "?" });

    for path in
        ["gifs/search?q=party&limit=2", "gifs/trending", &format!("gifs?ids={},{}", gifs[0].share_id, gifs[1].share_id)]
    {
        let list: List<GifObject> = typed(&app, &q(path)).await;
        check_meta(&list.meta);
        assert!(!list.data.is_empty(), "{path}");
        assert_eq!(list.pagination.count, list.data.len() as u64, "{path}");
        assert!(list.pagination.offset + list.pagination.count <= list.pagination.total_count, "{path}");
        list.data.iter().for_each(check_gif);
    }
    for path in [format!("gifs/{}", gifs[2].share_id), "gifs/random?tag=party".into()] {
        let one: One<GifObject> = typed(&app, &q(&path)).await;
        check_meta(&one.meta);
        check_gif(&one.data);
    }
    for path in ["stickers/search?q=party&limit=2", "stickers/trending"] {
        let list: List<GifObject> = typed(&app, &q(path)).await;
        check_meta(&list.meta);
        assert_eq!(list.data.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(), [star.share_id.as_str()], "{path}");
        assert_eq!((list.pagination.count, list.pagination.total_count), (1, 1), "{path}");
        list.data.iter().for_each(check_sticker);
    }
    let random: One<GifObject> = typed(&app, &q("stickers/random?tag=party")).await;
    check_meta(&random.meta);
    check_sticker(&random.data);

    let categories: List<Category> = typed(&app, &q("gifs/categories")).await;
    check_meta(&categories.meta);
    let party = categories.data.iter().find(|c| c.name == "party").unwrap_or_else(|| panic!("{categories:?}"));
    assert!(party.name_encoded == "party" && party.subcategories.is_empty());
    check_gif(&party.gif);

    let tags: Terms = typed(&app, &q("gifs/search/tags?q=par")).await;
    check_meta(&tags.meta);
    assert!(tags.data.iter().any(|t| t.name == "party"), "{tags:?}");
    assert!(tags.data.iter().all(|t| t.analytics_response_payload.is_empty()), "gifshelf collects no analytics");
    let related: Terms = typed(&app, &q("tags/related/party")).await;
    check_meta(&related.meta);
    let names: Vec<&str> = related.data.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["dance", "cake"], "the tags found with party, most frequent first");
    let trending: One<Vec<String>> = typed(&app, &q("trending/searches")).await;
    check_meta(&trending.meta);
    assert_eq!(trending.data.first().map(String::as_str), Some("party"), "searched above: {:?}", trending.data);
    let first: One<RandomId> = typed(&app, &q("randomid")).await;
    let second: One<RandomId> = typed(&app, &q("randomid")).await;
    check_meta(&first.meta);
    assert!(first.data.random_id.len() >= 16 && first.data.random_id != second.data.random_id);

    every_url_answers(&app, &q(&format!("gifs/{}", gifs[0].share_id))).await;
}

/// Every URL of a GIF answers anonymously (share-id URLs), with the type of its field.
async fn every_url_answers(app: &TestApp, path: &str) {
    let one: One<GifObject> = typed(app, path).await;
    let i = &one.data.images;
    let mut urls: BTreeSet<(&str, &str)> = BTreeSet::new();
    for animated in [&i.fixed_height, &i.fixed_width, &i.fixed_height_small, &i.fixed_width_small] {
        urls.extend([("image", animated.url.0.as_str()), ("mp4", &animated.mp4.0), ("webp", &animated.webp.0)]);
    }
    urls.extend([("image", i.original.url.0.as_str()), ("mp4", &i.original.mp4.0), ("webp", &i.original.webp.0)]);
    urls.extend([("mp4", i.looping.mp4.0.as_str()), ("mp4", &i.preview.mp4.0), ("image", &i.w480_still.url.0)]);
    for (field, url) in urls {
        let path = url.split_once("://").and_then(|(_, rest)| rest.find('/').map(|at| &rest[at..])).unwrap_or(url);
        let file = app.anonymous().get(path).await;
        assert_eq!(file.status(), StatusCode::OK, "{url}");
        let content_type = file.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
        let fits = match field {
            "mp4" => content_type == "video/mp4" || !cfg!(ffmpeg_tests),
            "webp" => content_type == "image/webp" || !cfg!(ffmpeg_tests),
            _ => content_type.starts_with("image/"),
        };
        assert!(fits, "{field} {url} answers {content_type}");
    }
}

on_both_backends!(every_giphy_endpoint_answers_every_documented_field_in_its_type);
