//! GIPHY's v1 API (`/api/giphy/v1/…`) as `@giphy/js-fetch-api` and the apps on it read it: every
//! answer has `meta.response_id` (the SDK rejects one without), lists have an exact `pagination`
//! (the SDK stops when offset + count reaches total_count), image numbers are strings, and nothing
//! would make the SDK send analytics anywhere.

use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use gifshelf_app::chat::{Found, Shelf, Window};
use gifshelf_domain::gif::{Gif, GifFile, Rating, RenditionKind};
use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::formats::{self, GIPHY_IMAGES};
use super::{admit, answer, id_list, number, params, query, window, ChatError, Dialect, OrChat};
use crate::client::origin;
use crate::routes::media::{serve, Audience};
use crate::AppState;

const D: Dialect = Dialect::Giphy;
const DEFAULT_LIMIT: u32 = 25;
const MAX_LIMIT: u32 = 50;
/// GIPHY answers 414 past 50 characters.
const MAX_QUERY: usize = 50;
/// Categories are the most used tags, this many at most.
const CATEGORIES: usize = 50;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/gifs/search/tags", web::get().to(search_tags))
        .route("/gifs/search", web::get().to(search))
        .route("/gifs/translate", web::get().to(translate))
        .route("/gifs/trending", web::get().to(trending))
        .route("/gifs/random", web::get().to(random))
        .route("/gifs/categories", web::get().to(categories))
        .route("/gifs/id/{id}", web::get().to(gif_file))
        .route("/gifs/{id}", web::get().to(by_id))
        .route("/gifs", web::get().to(by_ids))
        .route("/tags/related/{term}", web::get().to(related_tags))
        .route("/trending/searches", web::get().to(trending_searches))
        .route("/randomid", web::get().to(random_id))
        .route("/stickers/search", web::get().to(sticker_search))
        .route("/stickers/trending", web::get().to(sticker_trending))
        .route("/stickers/random", web::get().to(sticker_random))
        .default_service(web::to(|| async { ChatError::not_found(D).error_response() }));
}

#[derive(Debug, Deserialize)]
struct Params {
    q: Option<String>,
    limit: Option<String>,
    offset: Option<String>,
    tag: Option<String>,
    ids: Option<String>,
    rating: Option<String>,
    s: Option<String>,
}

/// GIPHY's `rating`, a maximum (`pg` answers g and pg) on every list and lookup by id; absent,
/// every rating (GIPHY's default).
fn max_rating(p: &Params) -> Result<Rating, ChatError> {
    match p.rating.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        None => Ok(Rating::R),
        Some(raw) => Rating::parse(&raw.to_lowercase()).map_err(|_| {
            ChatError::bad_request(D, format!("Invalid value for rating: expected g, pg, pg-13 or r, got \"{raw}\"."))
        }),
    }
}

/// A fresh id for `meta.response_id` (the SDK only needs it non-empty): the time and a counter.
fn response_id(now: chrono::NaiveDateTime) -> String {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let millis = now.and_utc().timestamp_millis();
    format!("{millis:011x}{:05x}", n & 0xfffff)
}

fn meta(state: &AppState) -> Value {
    json!({"status": 200, "msg": "OK", "response_id": response_id(state.clock.now())})
}

/// `images`: every entry of [`GIPHY_IMAGES`] with its fields, numbers as strings as GIPHY
/// writes them. A field whose kinds the GIF lacks (a video before the renditions job ran, or of
/// a still image) names the entry's image instead, so that no declared field is ever missing.
fn images(origin: &str, gif: &Gif) -> Map<String, Value> {
    let mut images = Map::new();
    for entry in GIPHY_IMAGES {
        let file = entry.image.and_then(|source| source.file(origin, gif));
        let fallback = || file.clone().or_else(|| formats::first(origin, gif, &[RenditionKind::Original]));
        let mut fields = Map::new();
        if let Some(file) = &file {
            fields.insert("url".into(), json!(file.url));
            fields.insert("width".into(), json!(file.width().to_string()));
            fields.insert("height".into(), json!(file.height().to_string()));
            fields.insert("size".into(), json!(file.size().to_string()));
        }
        if let Some(mp4) =
            entry.mp4.and_then(|kinds| formats::first(origin, gif, kinds)).or_else(|| entry.mp4.and(fallback()))
        {
            if entry.mp4_only {
                fields.insert("width".into(), json!(mp4.width().to_string()));
                fields.insert("height".into(), json!(mp4.height().to_string()));
            }
            fields.insert("mp4".into(), json!(mp4.url));
            fields.insert("mp4_size".into(), json!(mp4.size().to_string()));
        }
        if let Some(webp) =
            entry.webp.and_then(|kinds| formats::first(origin, gif, kinds)).or_else(|| entry.webp.and(fallback()))
        {
            fields.insert("webp".into(), json!(webp.url));
            fields.insert("webp_size".into(), json!(webp.size().to_string()));
        }
        if entry.name == "original" {
            fields.insert("frames".into(), json!(gif.frame_count.to_string()));
        }
        if !fields.is_empty() {
            images.insert(entry.name.to_owned(), Value::Object(fields));
        }
    }
    images
}

/// Title words and the id, as GIPHY's slugs.
fn slug(gif: &Gif) -> String {
    let words: Vec<String> = gif
        .title
        .as_str()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(8)
        .map(str::to_lowercase)
        .collect();
    if words.is_empty() {
        gif.share_id.clone()
    } else {
        format!("{}-{}", words.join("-"), gif.share_id)
    }
}

/// A GIF in GIPHY's shape; `is_sticker` 1 in the stickers' answers.
pub fn gif_object(origin: &str, gif: &Gif) -> Value {
    shelf_object(origin, gif, Shelf::Gifs)
}

fn shelf_object(origin: &str, gif: &Gif, shelf: Shelf) -> Value {
    let page = format!("{origin}/s/{}", gif.share_id);
    json!({
        "type": if shelf == Shelf::Stickers { "sticker" } else { "gif" },
        "id": gif.share_id,
        "url": page,
        "slug": slug(gif),
        "bitly_gif_url": page,
        "bitly_url": page,
        "embed_url": page,
        "username": gif.uploader.as_str(),
        "source": "",
        "title": gif.title.as_str(),
        "alt_text": gif.title.as_str(),
        "rating": gif.rating.as_str(),
        "content_url": "",
        "source_tld": "",
        "source_post_url": "",
        "is_sticker": i32::from(shelf == Shelf::Stickers),
        "import_datetime": gif.uploaded_at.format("%Y-%m-%d %H:%M:%S").to_string(),
        "trending_datetime": "0000-00-00 00:00:00",
        "tags": gif.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
        "images": images(origin, gif),
    })
}

fn list(req: &HttpRequest, state: &AppState, found: &Found, at: Window) -> HttpResponse {
    shelf_list(req, state, found, at, Shelf::Gifs)
}

fn shelf_list(req: &HttpRequest, state: &AppState, found: &Found, at: Window, shelf: Shelf) -> HttpResponse {
    let origin = origin(req, &state.settings);
    answer(&json!({
        "data": found.gifs.iter().map(|g| shelf_object(&origin, g, shelf)).collect::<Vec<_>>(),
        "pagination": {"total_count": found.total, "count": found.gifs.len(), "offset": at.offset},
        "meta": meta(state),
    }))
}

fn at(p: &Params) -> Result<Window, ChatError> {
    window(
        D,
        number(D, "offset", p.offset.as_deref(), 0)?,
        number(D, "limit", p.limit.as_deref(), DEFAULT_LIMIT)?,
        MAX_LIMIT,
    )
}

async fn search(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    shelf_search(state, req, Shelf::Gifs).await
}

/// `stickers/search`: as `gifs/search`, among the transparent GIFs.
async fn sticker_search(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    shelf_search(state, req, Shelf::Stickers).await
}

async fn shelf_search(state: web::Data<AppState>, req: HttpRequest, shelf: Shelf) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let q = query(D, p.q.as_deref(), MAX_QUERY)?;
    let at = at(&p)?;
    let found = state.chat.search_shelf(shelf, &q, at, max_rating(&p)?).await.or_chat(D)?;
    Ok(shelf_list(&req, &state, &found, at, shelf))
}

/// GIPHY's `translate`: the single best GIF for the phrase `s` (as `gifs/{id}` answers one), or,
/// when nothing matches, GIPHY's empty answer (`data: []`, status 200).
async fn translate(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let phrase = query(D, p.s.as_deref(), MAX_QUERY)?;
    if phrase.trim().is_empty() {
        return Err(ChatError::bad_request(D, "s is required: the word or phrase to translate into a GIF."));
    }
    let best = state.chat.translate(&phrase, max_rating(&p)?).await.or_chat(D)?;
    let origin = origin(&req, &state.settings);
    let data = best.map_or_else(|| json!([]), |gif| gif_object(&origin, &gif));
    Ok(answer(&json!({"data": data, "meta": meta(&state)})))
}

async fn trending(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    shelf_trending(state, req, Shelf::Gifs).await
}

/// `stickers/trending`: as `gifs/trending`, among the transparent GIFs.
async fn sticker_trending(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    shelf_trending(state, req, Shelf::Stickers).await
}

async fn shelf_trending(state: web::Data<AppState>, req: HttpRequest, shelf: Shelf) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let at = at(&p)?;
    let found = state.chat.featured_shelf(shelf, at, max_rating(&p)?).await.or_chat(D)?;
    Ok(shelf_list(&req, &state, &found, at, shelf))
}

async fn random(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    shelf_random(state, req, Shelf::Gifs).await
}

/// `stickers/random`: as `gifs/random`, a transparent GIF.
async fn sticker_random(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    shelf_random(state, req, Shelf::Stickers).await
}

async fn shelf_random(state: web::Data<AppState>, req: HttpRequest, shelf: Shelf) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let tag = query(D, p.tag.as_deref(), MAX_QUERY)?;
    let gif = state.chat.random_shelf(shelf, &tag, max_rating(&p)?).await.or_chat(D)?;
    let origin = origin(&req, &state.settings);
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(json!({"data": shelf_object(&origin, &gif, shelf), "meta": meta(&state)})))
}

async fn categories(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let offset = number(D, "offset", p.offset.as_deref(), 0)? as usize;
    let limit = number(D, "limit", p.limit.as_deref(), DEFAULT_LIMIT)?.clamp(1, MAX_LIMIT) as usize;
    let all = state.chat.categories(CATEGORIES, max_rating(&p)?).await.or_chat(D)?;
    let origin = origin(&req, &state.settings);
    let data: Vec<Value> = all
        .iter()
        .skip(offset)
        .take(limit)
        .map(|c| {
            let name = c.tag.name.as_str();
            json!({"name": name, "name_encoded": name.replace(' ', "-"), "subcategories": [], "gif": gif_object(&origin, &c.gif)})
        })
        .collect();
    Ok(answer(&json!({
        "data": data,
        "pagination": {"total_count": all.len(), "count": data.len(), "offset": offset},
        "meta": meta(&state),
    })))
}

/// Terms as GIPHY's term lists hold them: each with an empty `analytics_response_payload`
/// (typed clients declare the field; gifshelf collects no analytics).
fn terms(names: &[String]) -> Vec<Value> {
    names.iter().map(|name| json!({"name": name, "analytics_response_payload": ""})).collect()
}

async fn search_tags(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let q = query(D, p.q.as_deref(), MAX_QUERY)?;
    let limit = number(D, "limit", p.limit.as_deref(), 5)?.clamp(1, MAX_LIMIT);
    let names = state.chat.suggestions(&q, limit as usize, max_rating(&p)?).await.or_chat(D)?;
    Ok(answer(&json!({
        "data": terms(&names),
        "pagination": {"total_count": names.len(), "count": names.len(), "offset": 0},
        "meta": meta(&state),
    })))
}

/// `tags/related/{term}`: the tags found with the term's GIFs.
async fn related_tags(
    state: web::Data<AppState>,
    req: HttpRequest,
    term: web::Path<String>,
) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let term = query(D, Some(term.as_str()), MAX_QUERY)?;
    let limit = number(D, "limit", p.limit.as_deref(), DEFAULT_LIMIT)?.clamp(1, MAX_LIMIT);
    let names = state.chat.related_terms(&term, limit as usize, max_rating(&p)?).await.or_chat(D)?;
    Ok(answer(&json!({"data": terms(&names), "meta": meta(&state)})))
}

/// `trending/searches`: the terms searched most lately, as plain strings (GIPHY's shape).
async fn trending_searches(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let limit = number(D, "limit", p.limit.as_deref(), 20)?.clamp(1, MAX_LIMIT);
    let names = state.chat.trending_terms(limit as usize).await.or_chat(D)?;
    Ok(answer(&json!({"data": names, "meta": meta(&state)})))
}

/// `randomid`: an id a client keeps to tell GIPHY who it is. gifshelf makes a fresh random one
/// and keeps nothing of it (it personalises nothing and collects no analytics).
async fn random_id(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let id = uuid::Uuid::new_v4().simple().to_string();
    Ok(answer(&json!({"data": {"random_id": id}, "meta": meta(&state)})))
}

async fn by_id(state: web::Data<AppState>, req: HttpRequest, id: web::Path<String>) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    if !crate::routes::share::valid_share_id(&id) {
        return Err(ChatError::not_found(D));
    }
    let p: Params = params(&req, D)?;
    let gif = state.chat.rated_by_share_id(&id, max_rating(&p)?).await.or_chat(D)?;
    let origin = origin(&req, &state.settings);
    Ok(answer(&json!({"data": gif_object(&origin, &gif), "meta": meta(&state)})))
}

async fn by_ids(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let ids = id_list(D, p.ids.as_deref(), MAX_LIMIT)?;
    let gifs = state.chat.by_share_ids(&ids, max_rating(&p)?).await.or_chat(D)?;
    let found = Found { total: i64::try_from(gifs.len()).unwrap_or(0), gifs };
    Ok(list(&req, &state, &found, Window { offset: 0, limit: MAX_LIMIT }))
}

/// The GIF itself (older Jitsi Meet builds post `{proxyUrl}gifs/id/{id}` into the chat). The id
/// is a share id, so this is as public as `/s/{id}.gif` and needs no key.
async fn gif_file(
    state: web::Data<AppState>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, actix_web::Error> {
    if !crate::routes::share::valid_share_id(&id) {
        return Err(ChatError::not_found(D).into());
    }
    let gif = state.chat.by_share_id(&id).await.or_chat(D)?;
    let kind = formats::under("", &gif, 5_000_000).map_or(RenditionKind::Original, |f| f.rendition.kind);
    Ok(serve(&state, &req, &GifFile::of(&gif, kind), Audience::Public).await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn response_ids_are_never_empty() {
        assert_eq!(response_id(chrono::Utc::now().naive_utc()).len(), 16);
    }
}
