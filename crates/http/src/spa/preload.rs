//! The detail page's first paint, asked for with the page: `GET /gifs/{id}` from a browser that
//! holds the media session cookie answers `index.html` with a `Link: rel=preload` header naming
//! the GIF's poster (its first frame at display size, `RenditionKind::Poster`). Without it the
//! browser asks for the poster only after the scripts, the session and the GIF's JSON; with it the
//! picture arrives alongside the scripts and is painted as soon as the page has its JSON.
//!
//! The header is sent only to a reader who may see that GIF (the same check as its media): to
//! anyone else the page is the plain `index.html`, and says nothing of whether the GIF exists.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::{web, HttpRequest};
use gifshelf_domain::gif::{GifId, RenditionKind};

use crate::dto::RenditionDto;
use crate::AppState;

/// The GIF id of a detail page path (`/gifs/42`, `/gifs/42/`).
fn detail_page_id(path: &str) -> Option<i64> {
    let id = path.strip_prefix("/gifs/")?.trim_end_matches('/');
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    id.parse().ok().filter(|&id| id > 0)
}

/// The `Link` value preloading the poster of GIF `id`, when the request's session cookie opens a
/// reader who may see it and the GIF has a poster.
async fn poster_link(req: &HttpRequest, id: i64) -> Option<HeaderValue> {
    let state = req.app_data::<web::Data<AppState>>()?;
    let token = crate::session_cookie::read(req)?;
    let viewer = state.auth.authenticate(&token).await.ok()?;
    let gif = state.gifs.get(&viewer, GifId(id)).await.ok()?;
    let poster = gif.rendition(RenditionKind::Poster)?;
    let url = RenditionDto::of(&gif, poster).url;
    let value = format!("<{url}>; rel=preload; as=image; type=\"{}\"; fetchpriority=high", poster.content_type);
    HeaderValue::from_str(&value).ok()
}

/// Adds the poster's `Link` header to the `index.html` of a detail page (see the module).
pub(super) async fn preload_poster(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let page = if req.method() == Method::GET { detail_page_id(req.path()) } else { None };
    let link = match page {
        Some(id) => poster_link(req.request(), id).await,
        None => None,
    };
    let mut response = next.call(req).await?;
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if let Some(link) = link.filter(|_| html && response.status() == StatusCode::OK) {
        let headers = response.headers_mut();
        headers.insert(header::LINK, link);
        // The header is this reader's: no shared cache may keep the answer.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::detail_page_id;

    #[test]
    fn only_detail_page_paths_name_a_gif() {
        assert_eq!(detail_page_id("/gifs/42"), Some(42));
        assert_eq!(detail_page_id("/gifs/42/"), Some(42));
        for path in ["/gifs", "/gifs/", "/gifs/new", "/gifs/4x2", "/gifs/0", "/gifs/-1", "/gifs/42/edit", "/make/42"] {
            assert_eq!(detail_page_id(path), None, "{path}");
        }
        assert_eq!(detail_page_id("/gifs/99999999999999999999999"), None, "past i64");
    }
}
