//! Stoat's gifbox API (`/api/k/{key}/gifbox/…`): what Stoat's web client reads when `VITE_GIFBOX_URL`
//! points here. Results carry `webm`/`tinywebm` (its picker plays `tinywebm` in a `<video>`) and the
//! share page as `url` (what it posts); `next` is left out at the end; categories are `{title, image}`.
//! Stoat names no rating (its own gifbox asks Tenor for `contentfilter=high`): every answer holds
//! GIFs rated at most the server's default rating (`GIFSHELF_DEFAULT_RATING`, `g` out of the box).

use std::collections::BTreeMap;

use actix_web::{web, HttpRequest, HttpResponse, ResponseError};
use gifshelf_app::chat::{Found, Window};
use gifshelf_domain::gif::{Gif, RenditionKind};
use serde::{Deserialize, Serialize};

use super::formats::{self, GIFBOX_FORMATS};
use super::{admit, answer, number, params, query, window, ChatError, Dialect, OrChat};
use crate::client::origin;
use crate::AppState;

const D: Dialect = Dialect::Gifbox;
/// Stoat's own default page is 50.
const DEFAULT_LIMIT: u32 = 50;
const MAX_LIMIT: u32 = 50;
const MAX_QUERY: usize = 100;

pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/search", web::get().to(search))
        .route("/trending", web::get().to(trending))
        .route("/categories", web::get().to(categories))
        .default_service(web::to(|| async { ChatError::not_found(D).error_response() }));
}

#[derive(Debug, Deserialize)]
struct Params {
    query: Option<String>,
    limit: Option<String>,
    position: Option<String>,
}

#[derive(Debug, Serialize)]
struct MediaObject {
    url: String,
    dimensions: [i32; 2],
}

#[derive(Debug, Serialize)]
struct MediaResult {
    id: String,
    media_formats: BTreeMap<&'static str, MediaObject>,
    url: String,
}

#[derive(Debug, Serialize)]
struct Paginated {
    results: Vec<MediaResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<String>,
}

fn result(origin: &str, gif: &Gif) -> MediaResult {
    let media_formats = GIFBOX_FORMATS
        .iter()
        .filter_map(|(name, kinds)| {
            formats::first(origin, gif, kinds)
                .map(|f| (*name, MediaObject { dimensions: [f.width(), f.height()], url: f.url }))
        })
        .collect();
    MediaResult { id: gif.share_id.clone(), media_formats, url: format!("{origin}/s/{}", gif.share_id) }
}

fn paginated(req: &HttpRequest, state: &AppState, found: &Found, at: Window) -> HttpResponse {
    let origin = origin(req, &state.settings);
    answer(&Paginated {
        results: found.gifs.iter().map(|g| result(&origin, g)).collect(),
        next: found.next_offset(at).map(|n| n.to_string()),
    })
}

fn at(p: &Params) -> Result<Window, ChatError> {
    window(
        D,
        number(D, "position", p.position.as_deref(), 0)?,
        number(D, "limit", p.limit.as_deref(), DEFAULT_LIMIT)?,
        MAX_LIMIT,
    )
}

async fn search(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let q = query(D, p.query.as_deref(), MAX_QUERY)?;
    let at = at(&p)?;
    let found = state.chat.search(&q, at, state.chat.default_rating()).await.or_chat(D)?;
    Ok(paginated(&req, &state, &found, at))
}

async fn trending(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let p: Params = params(&req, D)?;
    let at = at(&p)?;
    let found = state.chat.featured(at, state.chat.default_rating()).await.or_chat(D)?;
    Ok(paginated(&req, &state, &found, at))
}

async fn categories(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, ChatError> {
    admit(&state, &req, D).await?;
    let origin = origin(&req, &state.settings);
    let categories = state.chat.categories(MAX_LIMIT as usize, state.chat.default_rating()).await.or_chat(D)?;
    let body: Vec<serde_json::Value> = categories
        .iter()
        .map(|c| {
            let image = formats::first(&origin, &c.gif, &[RenditionKind::Tiny, RenditionKind::Thumbnail])
                .map(|f| f.url)
                .unwrap_or_default();
            serde_json::json!({"title": c.tag.name.as_str(), "image": image})
        })
        .collect();
    Ok(answer(&body))
}
