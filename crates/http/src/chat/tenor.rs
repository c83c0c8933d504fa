//! Tenor's v2 API (`/api/tenor/v2/…`, and Commet's `/proxy/klipy/api/v2/…`): the shapes and types
//! real Tenor sent, which strict clients (Stoat's serde, Commet's casts, Zulip's zod) depend on:
//! `next` always a string (`""` at the end), integer `dims` and `size`, float `created`, array
//! `tags` and `flags`.

use std::collections::BTreeMap;

use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use gifshelf_app::chat::Found;
use gifshelf_domain::gif::{Gif, Rating};
use serde::{Deserialize, Serialize};

use super::formats::{self, TENOR_FORMATS};
use super::{admit, answer, id_list, number, params, query, window, ChatError, Dialect, OrChat};
use crate::client::origin;
use crate::AppState;

const D: Dialect = Dialect::Tenor;
/// Tenor's default and largest page.
const DEFAULT_LIMIT: u32 = 20;
const MAX_LIMIT: u32 = 50;
/// Discourse sends at most 100 characters.
const MAX_QUERY: usize = 100;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/search", web::get().to(search))
        .route("/featured", web::get().to(featured))
        .route("/categories", web::get().to(categories))
        .route("/posts", web::get().to(posts))
        .route("/autocomplete", web::get().to(autocomplete))
        .route("/search_suggestions", web::get().to(autocomplete))
        .route("/trending_terms", web::get().to(trending_terms))
        .route("/registershare", web::get().to(register_share))
        .default_service(web::to(|| async { ChatError::not_found(D).error_response() }));
}

#[derive(Debug, Deserialize)]
struct Params {
    q: Option<String>,
    limit: Option<String>,
    pos: Option<String>,
    media_filter: Option<String>,
    locale: Option<String>,
    ids: Option<String>,
    id: Option<String>,
    contentfilter: Option<String>,
}

/// Tenor's `contentfilter` as a maximum rating: `off` (Tenor's default when absent: every GIF),
/// `low` (up to pg-13), `medium` (up to pg), `high` (g only).
fn content_filter(p: &Params) -> Result<Rating, ChatError> {
    match p.contentfilter.as_deref().map(str::trim).unwrap_or_default() {
        "" | "off" => Ok(Rating::R),
        "low" => Ok(Rating::Pg13),
        "medium" => Ok(Rating::Pg),
        "high" => Ok(Rating::G),
        other => Err(ChatError::bad_request(
            D,
            format!("Invalid value for contentfilter: expected off, low, medium or high, got \"{other}\"."),
        )),
    }
}

#[derive(Debug, Serialize)]
pub struct MediaObject {
    url: String,
    dims: [i32; 2],
    duration: f64,
    size: i64,
    preview: String,
}

#[derive(Debug, Serialize)]
pub struct ResponseObject {
    id: String,
    title: String,
    content_description: String,
    created: f64,
    itemurl: String,
    url: String,
    tags: Vec<String>,
    flags: Vec<String>,
    hasaudio: bool,
    hascaption: bool,
    bg_color: String,
    /// The GIF's rating (`g`, `pg`, `pg-13`, `r`): what `contentfilter` filters by.
    content_rating: &'static str,
    media_formats: BTreeMap<&'static str, MediaObject>,
}

#[derive(Debug, Serialize)]
struct Results {
    results: Vec<ResponseObject>,
    next: String,
}

/// The formats `media_filter` asks for (every one when absent or empty); unknown names are ignored.
fn filter(media_filter: Option<&str>) -> Vec<(&'static str, &'static [gifshelf_domain::gif::RenditionKind])> {
    let wanted: Vec<&str> =
        media_filter.unwrap_or_default().split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    TENOR_FORMATS.iter().copied().filter(|(name, _)| wanted.is_empty() || wanted.contains(name)).collect()
}

pub fn response_object(origin: &str, gif: &Gif, media_filter: Option<&str>) -> ResponseObject {
    let page = format!("{origin}/s/{}", gif.share_id);
    let media_formats = filter(media_filter)
        .into_iter()
        .filter_map(|(name, kinds)| {
            formats::first(origin, gif, kinds).map(|file| {
                (
                    name,
                    MediaObject {
                        dims: [file.width(), file.height()],
                        duration: file.duration_secs(),
                        size: file.size(),
                        url: file.url,
                        preview: String::new(),
                    },
                )
            })
        })
        .collect();
    let title = gif.title.as_str().to_owned();
    #[allow(clippy::cast_precision_loss)] // seconds since 1970 fit a float's 52 bits
    let created = gif.uploaded_at.and_utc().timestamp() as f64;
    ResponseObject {
        id: gif.share_id.clone(),
        content_description: title.clone(),
        title,
        created,
        itemurl: page.clone(),
        url: page,
        tags: gif.tags.iter().map(|t| t.name.as_str().to_owned()).collect(),
        flags: Vec::new(),
        hasaudio: false,
        hascaption: gif.caption_text.is_some(),
        bg_color: String::new(),
        content_rating: gif.rating.as_str(),
        media_formats,
    }
}

/// `pos` as an offset: absent, `""` and `"0"` are the first page (Stoat sends `pos=`, Discourse
/// `pos=0`); otherwise the `next` of an earlier answer.
fn offset(pos: Option<&str>) -> Result<u32, ChatError> {
    number(D, "pos", pos, 0)
}

fn results(
    req: &HttpRequest,
    state: &AppState,
    p: &Params,
    found: Found,
    at: gifshelf_app::chat::Window,
) -> HttpResponse {
    let origin = origin(req, &state.settings);
    let next = found.next_offset(at).map(|n| n.to_string()).unwrap_or_default();
    let results = found.gifs.iter().map(|g| response_object(&origin, g, p.media_filter.as_deref())).collect();
    answer(&Results { results, next })
}

async fn search(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let q = query(D, p.q.as_deref(), MAX_QUERY)?;
    let at = window(D, offset(p.pos.as_deref())?, number(D, "limit", p.limit.as_deref(), DEFAULT_LIMIT)?, MAX_LIMIT)?;
    let found = state.chat.search(&q, at, content_filter(&p)?).await.or_chat(D)?;
    Ok(results(&req, &state, &p, found, at))
}

async fn featured(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let at = window(D, offset(p.pos.as_deref())?, number(D, "limit", p.limit.as_deref(), DEFAULT_LIMIT)?, MAX_LIMIT)?;
    let found = state.chat.featured(at, content_filter(&p)?).await.or_chat(D)?;
    Ok(results(&req, &state, &p, found, at))
}

fn locale(p: &Params) -> String {
    p.locale.as_deref().filter(|l| !l.is_empty() && l.len() <= 16).unwrap_or("en").to_owned()
}

async fn categories(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let origin = origin(&req, &state.settings);
    let max = content_filter(&p)?;
    let categories = state.chat.categories(MAX_LIMIT as usize, max).await.or_chat(D)?;
    let locale = locale(&p);
    // A category's search keeps the filter its list was made with.
    let filter = p.contentfilter.as_deref().map(str::trim).filter(|f| !f.is_empty());
    let filter = filter.map(|f| format!("&contentfilter={}", encode(f))).unwrap_or_default();
    let tags: Vec<serde_json::Value> = categories
        .iter()
        .map(|c| {
            let term = c.tag.name.as_str();
            let image = formats::first(
                &origin,
                &c.gif,
                &[gifshelf_domain::gif::RenditionKind::Tiny, gifshelf_domain::gif::RenditionKind::Thumbnail],
            )
            .map(|f| f.url)
            .unwrap_or_default();
            serde_json::json!({
                "searchterm": term,
                "path": format!(
                    "/v2/search?q={}&locale={}&component=categories{filter}",
                    encode(term),
                    encode(&locale)
                ),
                "image": image,
                "name": format!("#{term}"),
            })
        })
        .collect();
    Ok(answer(&serde_json::json!({"locale": locale, "tags": tags})))
}

/// Percent-encodes a query value (everything but unreserved characters).
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

async fn posts(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let ids = id_list(D, p.ids.as_deref(), MAX_LIMIT)?;
    let gifs = state.chat.by_share_ids(&ids, content_filter(&p)?).await.or_chat(D)?;
    let origin = origin(&req, &state.settings);
    let results: Vec<ResponseObject> =
        gifs.iter().map(|g| response_object(&origin, g, p.media_filter.as_deref())).collect();
    Ok(answer(&serde_json::json!({ "results": results })))
}

async fn autocomplete(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let q = query(D, p.q.as_deref(), MAX_QUERY)?;
    let limit = number(D, "limit", p.limit.as_deref(), DEFAULT_LIMIT)?.clamp(1, MAX_LIMIT);
    let terms = state.chat.suggestions(&q, limit as usize, content_filter(&p)?).await.or_chat(D)?;
    Ok(answer(&serde_json::json!({"locale": locale(&p), "results": terms})))
}

async fn trending_terms(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let limit = number(D, "limit", p.limit.as_deref(), DEFAULT_LIMIT)?.clamp(1, MAX_LIMIT);
    let terms = state.chat.trending_terms(limit as usize).await.or_chat(D)?;
    Ok(answer(&serde_json::json!({"locale": locale(&p), "results": terms})))
}

async fn register_share(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let id = p.id.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let Some(id) = id else {
        return Err(ChatError::bad_request(D, "id is required: the id of the shared GIF."));
    };
    if !crate::routes::share::valid_share_id(id) {
        return Err(ChatError::not_found(D));
    }
    state.chat.register_share(id).await.or_chat(D)?;
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .json(serde_json::json!({"status": "ok"})))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filter_keeps_named_formats_and_all_without_one() {
        assert_eq!(filter(None).len(), TENOR_FORMATS.len());
        assert_eq!(filter(Some("")).len(), TENOR_FORMATS.len());
        let names: Vec<&str> = filter(Some("tinygif, mediumgif,bogus")).into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["mediumgif", "tinygif"]);
    }

    #[test]
    fn first_pages_and_cursors() {
        for first in [None, Some(""), Some("0"), Some(" ")] {
            assert_eq!(offset(first).ok(), Some(0), "{first:?}");
        }
        assert_eq!(offset(Some("14")).ok(), Some(14));
        assert!(offset(Some("abc")).is_err());
        assert!(offset(Some("-1")).is_err());
    }

    #[test]
    fn category_paths_are_encoded() {
        assert_eq!(encode("happy cat&x"), "happy%20cat%26x");
    }
}
