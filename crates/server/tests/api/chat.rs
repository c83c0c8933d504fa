//! The chat-compatible APIs over HTTP: Tenor v2 (checked against the types strict clients parse
//! into: Stoat's serde structs, Commet's integer casts, Zulip's string `next`), GIPHY v1, Stoat's
//! gifbox, the keys that open them, their rate limit, CORS, and public media URLs.

use std::collections::{BTreeSet, HashMap};

use gifshelf_http::dto::{ApiKeyDto, CreatedApiKeyDto, GifDto, OverviewStats};
use gifshelf_media::testing::photo_gif;
use reqwest::StatusCode;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::helpers::{dto_of, json_of, Backend, Client, TestApp};
use crate::renditions::renditions_of;
use crate::{app, on_both_backends};

/// Stoat's gifbox service parses Tenor's answers into these (its `tenor/types.rs`), then unwraps.
#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct StoatPaginated {
    results: Vec<StoatMedia>,
    next: String,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct StoatMedia {
    created: f64,
    #[serde(default)]
    hasaudio: bool,
    id: String,
    media_formats: HashMap<String, StoatMediaObject>,
    tags: Vec<String>,
    title: String,
    content_description: String,
    itemurl: String,
    #[serde(default)]
    hascaption: bool,
    flags: Vec<String>,
    bg_color: Option<String>,
    url: String,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct StoatMediaObject {
    url: String,
    dims: Vec<u64>,
    duration: f64,
    size: f64,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct StoatCategories {
    locale: String,
    tags: Vec<StoatCategory>,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct StoatCategory {
    searchterm: String,
    path: String,
    image: String,
    name: String,
}

/// Every format a Tenor result carries when no `media_filter` is given.
const TENOR_FORMATS: [&str; 17] = [
    "gif",
    "mediumgif",
    "tinygif",
    "nanogif",
    "gifpreview",
    "tinygifpreview",
    "nanogifpreview",
    "mp4",
    "tinymp4",
    "nanomp4",
    "loopedmp4",
    "webm",
    "tinywebm",
    "nanowebm",
    "webp",
    "tinywebp",
    "nanowebp",
];

/// The wire types of one Tenor result, beyond what serde would coerce: integers where Commet casts
/// `as int`, a float `created`, arrays for `tags` and `flags`.
fn assert_tenor_result(result: &Value, formats: &[&str]) {
    let stoat: StoatMedia =
        serde_json::from_value(result.clone()).unwrap_or_else(|e| panic!("Stoat fails ({e}): {result}"));
    assert!(result["created"].is_f64(), "created must be a float: {result}");
    for field in ["id", "title", "content_description", "itemurl", "url", "bg_color"] {
        assert!(result[field].is_string(), "{field}: {result}");
    }
    assert!(result["hasaudio"].is_boolean() && result["hascaption"] == json!(false), "{result}");
    assert!(stoat.itemurl.starts_with("http") && stoat.url.ends_with(&stoat.id), "{result}");
    let media = result["media_formats"].as_object().unwrap_or_else(|| panic!("{result}"));
    let names: BTreeSet<&str> = media.keys().map(String::as_str).collect();
    assert_eq!(names, formats.iter().copied().collect::<BTreeSet<_>>(), "formats of {}", stoat.id);
    for (name, object) in media {
        assert!(object["url"].as_str().is_some_and(|u| u.starts_with("http")), "{name}: {object}");
        let dims = object["dims"].as_array().unwrap_or_else(|| panic!("{name}: {object}"));
        assert!(dims.len() == 2 && dims.iter().all(|d| d.is_u64() && d.as_u64() > Some(0)), "{name} dims: {object}");
        assert!(object["size"].is_u64() && object["size"].as_u64() > Some(0), "{name} size: {object}");
        assert!(object["duration"].is_number(), "{name} duration: {object}");
        assert!(object["preview"].is_string(), "{name} preview: {object}");
    }
}

/// A key for `client`, made in Settings' API.
async fn key_of(client: &Client) -> String {
    let created: CreatedApiKeyDto =
        dto_of(client.post_json("/api/keys", &json!({"name": "chat"})).await, StatusCode::CREATED).await;
    created.key
}

/// Untyped on purpose: Tenor's, GIPHY's and gifbox's wire shapes, checked as their clients read them.
async fn get(app: &TestApp, path: &str, status: StatusCode) -> Value {
    json_of(app.anonymous().get(path).await, status).await
}

/// The pixel size a GIF or PNG file says it has.
fn image_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.starts_with(b"GIF8") && bytes.len() >= 10 {
        return Some((
            u32::from(u16::from_le_bytes([bytes[6], bytes[7]])),
            u32::from(u16::from_le_bytes([bytes[8], bytes[9]])),
        ));
    }
    if bytes.starts_with(b"\x89PNG") && bytes.len() >= 24 {
        let be = |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
        return Some((be(16), be(20)));
    }
    None
}

async fn tenor_pages_through_thirty_gifs_once_each_and_ends_with_an_empty_next(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let key = key_of(&alice).await;
    let mut uploaded = BTreeSet::new();
    for n in 0..30 {
        uploaded.insert(alice.upload_gif(&format!("Cat {n}"), "a cat", &["cats"]).await.share_id);
    }
    alice.upload_gif("Dog", "not this one", &["dogs"]).await;

    let mut seen = Vec::new();
    let mut pos = String::new();
    let mut pages = 0;
    loop {
        let page = get(
            &app,
            &format!("/api/tenor/v2/search?q=cat&limit=7&pos={pos}&key={key}&client_key=test"),
            StatusCode::OK,
        )
        .await;
        let parsed: StoatPaginated =
            serde_json::from_value(page.clone()).unwrap_or_else(|e| panic!("Stoat fails ({e})"));
        for result in page["results"].as_array().into_iter().flatten() {
            assert_tenor_result(result, &TENOR_FORMATS);
        }
        seen.extend(parsed.results.into_iter().map(|r| r.id));
        pages += 1;
        if parsed.next.is_empty() {
            break;
        }
        assert!(parsed.next.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'), "{}", parsed.next);
        pos = parsed.next;
        assert!(pages < 10, "paging does not end");
    }
    assert_eq!(pages, 5, "30 GIFs at 7 a page");
    assert_eq!(seen.len(), 30, "each once: {seen:?}");
    assert_eq!(seen.iter().cloned().collect::<BTreeSet<_>>(), uploaded);

    // The first page, however a client asks for it (Stoat `pos=`, Discourse `pos=0`).
    let first = |pos: &str| format!("/api/tenor/v2/search?q=cat&limit=7{pos}&key={key}");
    let reference = get(&app, &first(""), StatusCode::OK).await;
    for variant in ["&pos=", "&pos=0"] {
        assert_eq!(get(&app, &first(variant), StatusCode::OK).await["results"], reference["results"], "{variant}");
    }
    // The same through the key in the path, and through Commet's fixed Klipy paths.
    let in_path = get(&app, &format!("/api/k/{key}/tenor/v2/search?q=cat&limit=7"), StatusCode::OK).await;
    assert_eq!(in_path["results"], reference["results"]);
    let klipy = get(&app, &format!("/proxy/klipy/api/v2/search?q=cat&limit=7&key={key}"), StatusCode::OK).await;
    assert_eq!(klipy["results"], reference["results"]);

    // media_filter keeps only what it names (Zulip asks for two).
    let zulip = get(
        &app,
        &format!("/api/tenor/v2/search?q=cat&limit=3&media_filter=tinygif,mediumgif&key={key}"),
        StatusCode::OK,
    )
    .await;
    for result in zulip["results"].as_array().into_iter().flatten() {
        assert_tenor_result(result, &["tinygif", "mediumgif"]);
    }
    // Nothing matches: no results, and the end.
    let none = get(&app, &format!("/api/tenor/v2/search?q=zebra&key={key}"), StatusCode::OK).await;
    assert_eq!((none["results"].clone(), none["next"].clone()), (json!([]), json!("")));
    // posts: by id, in the order asked, unknown ids left out, no next.
    let ids = seen[..3].join(",");
    let posts = get(&app, &format!("/api/tenor/v2/posts?ids={ids},nope&key={key}"), StatusCode::OK).await;
    let got: Vec<&str> = posts["results"].as_array().into_iter().flatten().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(got, seen[..3].iter().map(String::as_str).collect::<Vec<_>>());
    assert!(posts.get("next").is_none());
}

async fn every_tenor_media_url_answers_anonymously_with_its_type_and_size(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_WORKERS", "1"), ("GIFSHELF_JOB_POLL_MS", "50")]);
    let alice = app.user("alice").await;
    let key = key_of(&alice).await;
    let response = alice.upload("photo.gif", photo_gif(240, 160, 12), "Sunset over the sea", "", &["sunset"]).await;
    let gif: GifDto = dto_of(response, StatusCode::CREATED).await;
    // Without the ffmpeg of the tests' build (the app runs with GIFSHELF_FFMPEG=off), the video
    // formats answer with GIFs and are checked as such; `ffmpeg_in_ci.rs` fails a CI run then.
    let mut kinds = vec!["tiny", "nano", "fixed_height"];
    if cfg!(ffmpeg_tests) {
        kinds.extend(["mp4", "mp4_small", "webm", "webm_small", "webp", "webp_tiny", "webp_nano"]);
    }
    let renditions = renditions_of(&alice, gif.id, &kinds).await;

    let page = get(&app, &format!("/api/tenor/v2/search?q=sunset&key={key}"), StatusCode::OK).await;
    let result = &page["results"][0];
    assert_tenor_result(result, &TENOR_FORMATS);
    assert_eq!(result["id"], json!(gif.share_id));
    assert_eq!(result["tags"], json!(["sunset"]));
    let media = result["media_formats"].as_object().cloned().unwrap_or_default();
    for (name, object) in &media {
        let url = object["url"].as_str().unwrap_or_default();
        assert!(!url.contains(&format!("/{}/", gif.id)) && url.contains(&gif.share_id), "{name}: {url}");
        let path = url.splitn(4, '/').nth(3).map(|p| format!("/{p}")).unwrap_or_default();
        let file = app.anonymous().get(&path).await;
        assert_eq!(file.status(), StatusCode::OK, "{name}: {url}");
        let content_type =
            file.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        let bytes = file.bytes().await.unwrap_or_default();
        assert_eq!(Some(bytes.len() as u64), object["size"].as_u64(), "{name}");
        let dims = (object["dims"][0].as_u64().unwrap_or(0) as u32, object["dims"][1].as_u64().unwrap_or(0) as u32);
        let expected_type = match url.rsplit('.').next() {
            Some("gif") => "image/gif",
            Some("png") => "image/png",
            Some("mp4") => "video/mp4",
            Some("webm") => "video/webm",
            Some("webp") => "image/webp",
            other => panic!("{name}: unexpected extension {other:?}"),
        };
        assert_eq!(content_type, expected_type, "{name}");
        match image_size(&bytes) {
            Some(size) => assert_eq!(size, dims, "{name}: the file's own size"),
            None => {
                let kind = path.rsplit('/').next().and_then(|f| f.split('.').next()).unwrap_or_default();
                let stored = renditions.iter().find(|r| r.kind == kind).unwrap_or_else(|| panic!("{name}: {kind}"));
                assert_eq!((stored.width as u32, stored.height as u32), dims, "{name}");
            }
        }
        // Commet keeps the path and asks under /proxy/klipy/media.
        if name == "tinygif" {
            let rerooted = app.anonymous().get(&format!("/proxy/klipy/media{path}")).await;
            assert_eq!(rerooted.status(), StatusCode::OK);
        }
    }
    if cfg!(ffmpeg_tests) {
        assert!(media["tinywebm"]["url"].as_str().is_some_and(|u| u.ends_with("/webm_small.webm")), "{media:?}");
        assert!(media["mp4"]["url"].as_str().is_some_and(|u| u.ends_with("/mp4.mp4")));
        assert!(media["mp4"]["duration"].as_f64().is_some_and(|d| d > 0.0));
        // Tenor's WebP names are real animated WebPs of their sizes.
        assert!(media["webp"]["url"].as_str().is_some_and(|u| u.ends_with("/webp.webp")), "{media:?}");
        assert!(media["tinywebp"]["url"].as_str().is_some_and(|u| u.ends_with("/webp_tiny.webp")));
        assert!(media["nanowebp"]["url"].as_str().is_some_and(|u| u.ends_with("/webp_nano.webp")));
        assert_eq!(media["tinywebp"]["dims"], media["tinygif"]["dims"]);
    }
    assert_eq!(media["tinygif"]["dims"][0], json!(220), "Tenor's tinygif is 220 wide");
    assert!(media["gif"]["url"].as_str().is_some_and(|u| u.ends_with("/original.gif")));
}

async fn keys_open_the_chat_apis_and_nothing_else_opens_them(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_CHAT_API_RATE_LIMIT", "5")]);
    let alice = app.user("alice").await;
    alice.upload_gif("Party parrot", "", &["party"]).await;
    let key = key_of(&alice).await;

    // No key, an unknown key, a malformed one: 401 in each API's own shape.
    for path in [
        "/api/tenor/v2/search?q=party",
        "/api/tenor/v2/search?q=party&key=gs_unknown",
        "/api/tenor/v2/featured?key=nope",
    ] {
        let refused = get(&app, path, StatusCode::UNAUTHORIZED).await;
        assert_eq!(refused["error"]["code"], 401, "{refused}");
        assert_eq!(refused["error"]["status"], "UNAUTHENTICATED");
        assert_eq!(refused["error"]["details"][0]["reason"], "API_KEY_INVALID", "{refused}");
    }
    let giphy = get(&app, "/api/giphy/v1/gifs/search?q=party&api_key=gs_unknown", StatusCode::UNAUTHORIZED).await;
    assert_eq!((giphy["meta"]["status"].clone(), giphy["data"].clone()), (json!(401), json!([])));
    assert!(giphy["meta"]["msg"].as_str().is_some_and(|m| !m.is_empty()) && giphy["message"].is_string());
    assert_eq!(app.anonymous().get("/api/gifbox/search?query=party").await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(app.anonymous().get("/api/k/gs_unknown/gifbox/trending").await.status(), StatusCode::UNAUTHORIZED);
    // A session token is not a key, and a key opens nothing but the chat APIs.
    let with_session = alice.get("/api/tenor/v2/search?q=party").await;
    assert_eq!(with_session.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(app.with_token(&key).get("/api/gifs/dtos").await.status(), StatusCode::UNAUTHORIZED);

    // The rate: 5 a minute for this app; the sixth request is refused with Retry-After.
    for n in 0..5 {
        let ok = app.anonymous().get(&format!("/api/tenor/v2/search?q=party&key={key}")).await;
        assert_eq!(ok.status(), StatusCode::OK, "request {n}");
    }
    let over = app.anonymous().get(&format!("/api/giphy/v1/gifs/search?q=party&api_key={key}")).await;
    assert_eq!(over.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry = over.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    assert!(retry.is_some_and(|s| (1..=60).contains(&s)), "{retry:?}");
    // GIPHY's error shape, untyped as the other chat answers.
    let body: Value = over.json().await.unwrap_or_default();
    assert_eq!(body["meta"]["status"], 429, "{body}");
    let tenor_over = get(&app, &format!("/api/tenor/v2/search?q=party&key={key}"), StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(tenor_over["error"]["status"], "RESOURCE_EXHAUSTED");
    // A minute later the key has its rate again.
    app.pass_seconds(61);
    get(&app, &format!("/api/tenor/v2/search?q=party&key={key}"), StatusCode::OK).await;
    // Another key of the same person shares the person's rate (more keys do not buy more).
    let second = key_of(&alice).await;
    for _ in 0..4 {
        get(&app, &format!("/api/tenor/v2/search?q=party&key={second}"), StatusCode::OK).await;
    }
    get(&app, &format!("/api/tenor/v2/search?q=party&key={second}"), StatusCode::TOO_MANY_REQUESTS).await;
    app.pass_seconds(61);

    // Revoked: refused at once.
    let keys: Vec<ApiKeyDto> = alice.read("/api/keys").await;
    let id = keys.iter().find(|k| second.starts_with(&k.prefix)).map(|k| k.id);
    assert_eq!(alice.delete(&format!("/api/keys/{}", id.unwrap_or_default())).await.status(), StatusCode::NO_CONTENT);
    get(&app, &format!("/api/tenor/v2/search?q=party&key={second}"), StatusCode::UNAUTHORIZED).await;
}

async fn anonymous_use_is_off_unless_configured(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_CHAT_API_ANONYMOUS", "true")]);
    let alice = app.user("alice").await;
    alice.upload_gif("Party parrot", "", &["party"]).await;
    // Commet asks with only `q`, at its fixed path.
    let page = get(&app, "/proxy/klipy/api/v2/search?q=party", StatusCode::OK).await;
    assert_eq!(page["results"].as_array().map(Vec::len), Some(1));
    get(&app, "/api/giphy/v1/gifs/trending", StatusCode::OK).await;
    // A wrong key is still wrong.
    get(&app, "/api/tenor/v2/search?q=party&key=gs_wrong", StatusCode::UNAUTHORIZED).await;
}

async fn browsers_may_call_the_chat_apis_from_any_page_without_credentials(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let key = key_of(&alice).await;
    let preflight = reqwest::Client::new()
        .request(reqwest::Method::OPTIONS, format!("{}/api/k/{key}/gifbox/search?query=x&locale=en", app.address))
        .header("Origin", "https://stoat.example")
        .header("Access-Control-Request-Method", "GET")
        .header("Access-Control-Request-Headers", "x-session-token")
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(preflight.status().is_success(), "{}", preflight.status());
    let header =
        |r: &reqwest::Response, name: &str| r.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    assert_eq!(header(&preflight, "access-control-allow-origin").as_deref(), Some("*"));
    assert!(header(&preflight, "access-control-allow-headers")
        .is_some_and(|h| h.to_lowercase().contains("x-session-token")));
    assert_eq!(header(&preflight, "access-control-allow-credentials"), None);
    let answer = app.anonymous().get(&format!("/api/tenor/v2/featured?key={key}")).await;
    assert_eq!(header(&answer, "access-control-allow-origin").as_deref(), Some("*"));
    // Refusals too, so that the page can read why.
    let refused = app.anonymous().get("/api/giphy/v1/gifs/trending").await;
    assert_eq!(header(&refused, "access-control-allow-origin").as_deref(), Some("*"));
    // The rest of the API stays same-origin.
    let own = alice.get("/api/gifs/dtos").await;
    assert_eq!(own.status(), StatusCode::OK);
    assert_eq!(header(&own, "access-control-allow-origin"), None);
}

/// One GIF object as Giphy shapes it: an embed URL ending in its id, no analytics, and every
/// rendition with its url and sizes as strings.
fn assert_giphy_gif_shape(gif: &serde_json::Value, id: &str) {
    assert!(gif["embed_url"].as_str().is_some_and(|u| u.ends_with(&format!("/{id}"))), "{gif}");
    assert!(
        gif.get("analytics_response_payload").is_none()
            && gif.get("analytics").is_none()
            && gif.get("bottle_data").is_none()
    );
    for name in [
        "original",
        "fixed_width",
        "fixed_height",
        "fixed_width_small",
        "fixed_height_small",
        "downsized",
        "downsized_medium",
        "preview_gif",
        "original_still",
        "fixed_width_still",
        "fixed_height_still",
    ] {
        let image = &gif["images"][name];
        for field in ["url", "width", "height", "size"] {
            assert!(image[field].is_string(), "{name}.{field} must be a string: {image}");
        }
    }
}

async fn giphy_answers_in_giphys_shapes(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let key = key_of(&alice).await;
    let mut ids = Vec::new();
    for n in 0..12 {
        ids.push(alice.upload_gif(&format!("Wave {n}"), "", &["wave"]).await.share_id);
    }
    let q = |path: &str| format!("/api/giphy/v1/{path}{}api_key={key}", if path.contains('?') { "&" } else { "?" });

    // Paging: offset echoed, count = what came, exact total; offset + count reaches it at the end.
    let mut offset = 0;
    let mut seen = BTreeSet::new();
    loop {
        let page = get(&app, &q(&format!("gifs/search?q=wave&limit=5&offset={offset}&rating=pg-13&excludeDynamicResults=undefined&pingback_id=abc")), StatusCode::OK).await;
        assert!(page["meta"]["response_id"].as_str().is_some_and(|r| !r.is_empty()), "{}", page["meta"]);
        assert_eq!(page["meta"]["status"], 200);
        let p = &page["pagination"];
        assert_eq!((p["offset"].as_u64(), p["total_count"].as_u64()), (Some(offset), Some(12)), "{p}");
        let data = page["data"].as_array().cloned().unwrap_or_default();
        assert_eq!(p["count"].as_u64(), Some(data.len() as u64));
        for gif in &data {
            let id = gif["id"].as_str().unwrap_or_default();
            assert_giphy_gif_shape(gif, id);
            assert!(seen.insert(id.to_owned()), "{id} twice");
        }
        offset += data.len() as u64;
        if offset >= 12 || data.is_empty() {
            break;
        }
    }
    assert_eq!(seen, ids.iter().cloned().collect::<BTreeSet<_>>());

    // Trending, one GIF, several, random, categories, tag suggestions.
    let trending = get(&app, &q("gifs/trending?limit=20"), StatusCode::OK).await;
    assert_eq!(trending["pagination"]["total_count"], 12);
    let one = get(&app, &q(&format!("gifs/{}", ids[3])), StatusCode::OK).await;
    assert_eq!(one["data"]["id"], json!(ids[3]));
    assert_eq!(one["data"]["title"], "Wave 3");
    let many = get(&app, &q(&format!("gifs?ids={},{},nope", ids[1], ids[0])), StatusCode::OK).await;
    let got: Vec<&str> = many["data"].as_array().into_iter().flatten().filter_map(|g| g["id"].as_str()).collect();
    assert_eq!(got, [ids[1].as_str(), ids[0].as_str()]);
    let random = get(&app, &q("gifs/random?tag=wave"), StatusCode::OK).await;
    assert!(ids.iter().any(|id| random["data"]["id"] == json!(id)));
    get(&app, &q("gifs/random?tag=zebra"), StatusCode::NOT_FOUND).await;
    let categories = get(&app, &q("gifs/categories"), StatusCode::OK).await;
    assert_eq!(categories["data"][0]["name"], "wave");
    assert!(categories["data"][0]["gif"]["images"]["fixed_width"]["url"].is_string());
    let tags = get(&app, &q("gifs/search/tags?q=wa"), StatusCode::OK).await;
    assert_eq!(tags["data"][0]["name"], "wave");
    let long = get(&app, &q(&format!("gifs/search?q={}", "a".repeat(51))), StatusCode::URI_TOO_LONG).await;
    assert_eq!(long["meta"]["status"], 414);
    get(&app, &q("gifs/notanid!"), StatusCode::NOT_FOUND).await;

    // The media route old Jitsi builds post: the GIF itself, public under its share id.
    let file = app.anonymous().get(&format!("/api/giphy/v1/gifs/id/{}", ids[0])).await;
    assert_eq!(file.status(), StatusCode::OK);
    assert_eq!(file.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("image/gif"));
    assert_eq!(app.anonymous().get("/api/giphy/v1/gifs/id/unknown").await.status(), StatusCode::NOT_FOUND);
}

async fn stoats_gifbox_gets_its_own_shapes(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let key = key_of(&alice).await;
    for n in 0..3 {
        alice.upload_gif(&format!("Hello {n}"), "", &["hello"]).await;
    }
    let base = format!("/api/k/{key}/gifbox");
    let page = get(
        &app,
        &format!("{base}/search?query=hello&locale=en_US&limit=2&is_category=false&position="),
        StatusCode::OK,
    )
    .await;
    assert_eq!(page["results"].as_array().map(Vec::len), Some(2));
    assert_eq!(page["next"], "2");
    let result = &page["results"][0];
    for format in ["webm", "tinywebm"] {
        assert!(result["media_formats"][format]["url"].is_string(), "{result}");
        let dims = result["media_formats"][format]["dimensions"].as_array().cloned().unwrap_or_default();
        assert!(dims.len() == 2 && dims.iter().all(Value::is_u64), "{result}");
    }
    assert!(result["url"].as_str().is_some_and(|u| u.contains("/s/")));
    let last = get(&app, &format!("{base}/search?query=hello&locale=en_US&limit=2&position=2"), StatusCode::OK).await;
    assert_eq!(last["results"].as_array().map(Vec::len), Some(1));
    assert!(last.get("next").is_none(), "no next at the end: {last}");
    let trending = get(&app, &format!("{base}/trending?locale=en_US&limit=10"), StatusCode::OK).await;
    assert_eq!(trending["results"].as_array().map(Vec::len), Some(3));
    let categories = get(&app, &format!("{base}/categories?locale=en_US"), StatusCode::OK).await;
    assert_eq!(categories[0]["title"], "hello");
    assert!(categories[0]["image"].as_str().is_some_and(|u| u.ends_with(".gif")));
}

async fn featured_terms_suggestions_and_shares_follow_what_people_do(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let key = key_of(&admin).await;
    let older = admin.upload_gif("Thumbs up", "", &["approve"]).await;
    let newer = admin.upload_gif("Facepalm", "", &["sigh"]).await;
    let tenor = |path: &str| format!("/api/tenor/v2/{path}&key={key}");

    // Featured: views of recent weeks first.
    let featured = get(&app, &tenor("featured?limit=5"), StatusCode::OK).await;
    assert_eq!(featured["results"][0]["id"], json!(newer.share_id), "no views yet: newest first");
    admin.gif(older.id).await;
    admin.gif(older.id).await;
    let featured = get(&app, &tenor("featured?limit=5"), StatusCode::OK).await;
    assert_eq!(featured["results"][0]["id"], json!(older.share_id), "{featured}");

    // Categories: the tags, each with one of its GIFs and a search.
    let categories: StoatCategories =
        serde_json::from_value(get(&app, &tenor("categories?locale=en_US"), StatusCode::OK).await)
            .unwrap_or_else(|e| panic!("{e}"));
    let names: BTreeSet<String> = categories.tags.iter().map(|t| t.searchterm.clone()).collect();
    assert_eq!(names, ["approve", "sigh"].map(String::from).into_iter().collect());
    assert!(categories
        .tags
        .iter()
        .all(|t| t.name.starts_with('#') && t.path.contains("q=") && t.image.ends_with(".gif")));

    // Trending terms come from searches (then popular tags); suggestions from tags and titles.
    get(&app, &tenor("search?q=Facepalm"), StatusCode::OK).await;
    get(&app, &tenor("search?q=facepalm"), StatusCode::OK).await;
    get(&app, &tenor("search?q=thumbs"), StatusCode::OK).await;
    let trending = get(&app, &tenor("trending_terms?limit=3"), StatusCode::OK).await;
    assert_eq!(trending["results"], json!(["facepalm", "thumbs", "approve"]), "{trending}");
    let suggestions = get(&app, &tenor("autocomplete?q=Fa"), StatusCode::OK).await;
    assert_eq!(suggestions["results"], json!(["facepalm"]));
    let suggestions = get(&app, &tenor("search_suggestions?q=app"), StatusCode::OK).await;
    assert_eq!(suggestions["results"], json!(["approve"]));

    // registershare counts a share: on the GIF and in the statistics.
    for _ in 0..2 {
        let ok = get(&app, &tenor(&format!("registershare?id={}&q=facepalm", newer.share_id)), StatusCode::OK).await;
        assert_eq!(ok, json!({"status": "ok"}));
    }
    let unknown = get(&app, &tenor("registershare?id=nope"), StatusCode::NOT_FOUND).await;
    assert!(unknown["error"]["details"].is_array());
    assert_eq!(admin.gif(newer.id).await.share_count, 2);
    let stats: OverviewStats = dto_of(admin.get("/api/stats").await, StatusCode::OK).await;
    assert_eq!(stats.total_shares, 2);
    assert_eq!(stats.most_shared_gifs, [("Facepalm".to_owned(), "2".to_owned())]);

    // Bad parameters are the client's fault, in Tenor's shape; unknown ones are ignored.
    let bad = get(&app, &tenor("search?q=x&limit=many"), StatusCode::BAD_REQUEST).await;
    assert_eq!(bad["error"]["status"], "INVALID_ARGUMENT");
    get(&app, &tenor("search?q=x&pos=not-a-cursor"), StatusCode::BAD_REQUEST).await;
    get(
        &app,
        &tenor("search?q=x&ar_range=all&random=true&contentfilter=high&country=US&searchfilter=sticker"),
        StatusCode::OK,
    )
    .await;
    get(&app, &tenor("nowhere?q=x"), StatusCode::NOT_FOUND).await;
}

on_both_backends!(
    tenor_pages_through_thirty_gifs_once_each_and_ends_with_an_empty_next,
    every_tenor_media_url_answers_anonymously_with_its_type_and_size,
    keys_open_the_chat_apis_and_nothing_else_opens_them,
    anonymous_use_is_off_unless_configured,
    browsers_may_call_the_chat_apis_from_any_page_without_credentials,
    giphy_answers_in_giphys_shapes,
    stoats_gifbox_gets_its_own_shapes,
    featured_terms_suggestions_and_shares_follow_what_people_do
);
