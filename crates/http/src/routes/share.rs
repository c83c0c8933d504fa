//! Public share links: `/s/{shareId}` is a small server-rendered page with OpenGraph and Twitter
//! card tags so links unfurl in chat apps; `/s/{shareId}.gif` (or the real extension) is the raw
//! image, since chat apps animate only URLs that end in it; `/c/{shareId}` is a shared collection's
//! page. No sign-in needed.

use actix_web::http::header;
use actix_web::{get, web, HttpRequest, HttpResponse};
use gifshelf_app::AppError;
use gifshelf_domain::collection::Collection;
use gifshelf_domain::gif::{Gif, PageRequest};

use gifshelf_domain::gif::{GifFile, RenditionKind};

use super::media::{kind_of_file, serve, Audience};
use crate::client::{client_ip, origin, viewer_key};
use crate::extract::MediaViewer;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(share_link).service(shared_rendition).service(public_page);
}

/// Escapes text for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

pub(super) const STYLE: &str = "body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;background:#f6f5fb;color:#1b1530;display:flex;min-height:100vh;align-items:center;justify-content:center}\
main{max-width:760px;width:100%;padding:24px;box-sizing:border-box;text-align:center}\
h1{font-size:1.6rem;margin:0 0 16px}img{max-width:100%;height:auto;border-radius:12px;box-shadow:0 8px 30px rgba(20,10,60,.18);background:#fff}\
p{color:#5b5670;margin:12px 0}a{display:inline-block;margin-top:12px;padding:10px 18px;border-radius:10px;background:#6d4aff;color:#fff;text-decoration:none;font-weight:600}\
@media (prefers-color-scheme:dark){body{background:#0f0d18;color:#eeeaff}p{color:#aaa3c4}img{background:#1c1930}}";

fn page(origin: &str, gif: &Gif) -> String {
    let title = escape(gif.title.as_str());
    let uploader = escape(gif.uploader.as_str());
    let description = escape(gif.description.as_str());
    let original = gif.rendition(RenditionKind::Original);
    let ext = original.map_or("gif", |r| r.extension());
    let share = escape(&gif.share_id);
    let image_url = format!("{origin}/s/{share}.{ext}");
    let page_url = format!("{origin}/s/{share}");
    let summary =
        if description.is_empty() { format!("A GIF shared by {uploader} on gifshelf") } else { description.clone() };
    let (w, h) = original.map_or((0, 0), |r| (r.width, r.height));
    let content_type = escape(original.map_or("image/gif", |r| r.content_type.as_str()));
    let oembed = escape(&format!("{origin}/api/oembed?url={}&format=json", encode_component(&page_url)));
    // The MP4 beside the GIF: chat apps that play video unfurl the smaller file. Only for an
    // opaque animation: a still image's is a one-second loop, a transparent GIF's lost its
    // transparency (flattened onto white), and the image says it better.
    let animation = gif.frame_count > 1 && gif.transparent != Some(true);
    let video = gif.rendition(RenditionKind::Mp4).filter(|_| animation).map_or_else(String::new, |mp4| {
        let url = format!("{origin}/s/{share}/mp4.mp4");
        format!(
            "<meta property=\"og:video\" content=\"{url}\"><meta property=\"og:video:secure_url\" content=\"{url}\">\
<meta property=\"og:video:type\" content=\"video/mp4\"><meta property=\"og:video:width\" content=\"{}\">\
<meta property=\"og:video:height\" content=\"{}\">",
            mp4.width, mp4.height
        )
    });
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{title} · gifshelf</title>\
<meta name=\"description\" content=\"{summary}\">\
<meta property=\"og:type\" content=\"website\">\
<meta property=\"og:site_name\" content=\"gifshelf\">\
<meta property=\"og:title\" content=\"{title}\">\
<meta property=\"og:description\" content=\"{summary}\">\
<meta property=\"og:url\" content=\"{page_url}\">\
<meta property=\"og:image\" content=\"{image_url}\">\
<meta property=\"og:image:type\" content=\"{content_type}\">\
<meta property=\"og:image:width\" content=\"{w}\">\
<meta property=\"og:image:height\" content=\"{h}\">\
<meta property=\"og:image:alt\" content=\"{title}\">{video}\
<meta name=\"twitter:card\" content=\"summary_large_image\">\
<meta name=\"twitter:title\" content=\"{title}\">\
<meta name=\"twitter:description\" content=\"{summary}\">\
<meta name=\"twitter:image\" content=\"{image_url}\">\
<link rel=\"alternate\" type=\"application/json+oembed\" href=\"{oembed}\" title=\"{title}\">\
<style>{STYLE}</style></head>\
<body><main><h1>{title}</h1>\
<img src=\"/s/{share}.{ext}\" width=\"{w}\" height=\"{h}\" alt=\"{title}\">\
<p>Shared by {uploader}</p>{desc}\
<a href=\"/\">Open gifshelf</a></main></body></html>\n",
        desc = if description.is_empty() { String::new() } else { format!("<p>{description}</p>") },
    )
}

/// Percent-encodes everything but RFC 3986's unreserved characters (for a URL in a query).
fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn not_found_page() -> HttpResponse {
    HttpResponse::NotFound().content_type("text/html; charset=utf-8").body(format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>GIF not found · gifshelf</title>\
<style>{STYLE}</style></head><body><main><h1>GIF not found</h1>\
<p>This link does not lead to a GIF any more. It may have been deleted.</p>\
<a href=\"/\">Open gifshelf</a></main></body></html>\n"
    ))
}

#[get("/s/{tail}")]
async fn share_link(
    state: web::Data<AppState>,
    req: HttpRequest,
    tail: web::Path<String>,
    signed_in: Option<MediaViewer>,
) -> Result<HttpResponse, ApiError> {
    let tail = tail.into_inner();
    let (share_id, raw) = match tail.split_once('.') {
        Some((id, "gif" | "png" | "jpg" | "jpeg" | "webp")) => (id.to_owned(), true),
        Some(_) => return Ok(not_found_page()),
        None => (tail, false),
    };
    if !valid_share_id(&share_id) {
        return Ok(not_found_page());
    }
    if raw {
        return match state.gifs.shared(&share_id).await {
            Ok(gif) => serve(&state, &req, &GifFile::of(&gif, RenditionKind::Original), Audience::Public).await,
            Err(AppError::NotFound(_)) => Ok(not_found_page()),
            Err(other) => Err(other.into()),
        };
    }
    let viewer = viewer_key(signed_in.map(|MediaViewer(actor)| actor.id), client_ip(&req, &state.settings));
    match state.gifs.view_shared(&share_id, &viewer).await {
        Ok(gif) => Ok(HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .body(page(&origin(&req, &state.settings), &gif))),
        Err(AppError::NotFound(_)) => Ok(not_found_page()),
        Err(other) => Err(other.into()),
    }
}

/// A rendition under the share id: `/s/{shareId}/thumbnail.gif`, `/s/{shareId}/still.png`,
/// `/s/{shareId}/original.gif`; the extension must be the stored one.
#[get("/s/{share_id}/{file}")]
async fn shared_rendition(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (share_id, file) = path.into_inner();
    serve_shared_file(&state, &req, &share_id, &file).await
}

/// A file of a shared GIF by its name (`tiny.gif`, `mp4.mp4`), public; a 404 page otherwise.
pub(crate) async fn serve_shared_file(
    state: &AppState,
    req: &HttpRequest,
    share_id: &str,
    file: &str,
) -> Result<HttpResponse, ApiError> {
    if !valid_share_id(share_id) {
        return Ok(not_found_page());
    }
    match state.gifs.shared(share_id).await {
        Ok(gif) => match kind_of_file(&gif, file) {
            Some(kind) => serve(state, req, &GifFile::of(&gif, kind), Audience::Public).await,
            None => Ok(not_found_page()),
        },
        Err(AppError::NotFound(_)) => Ok(not_found_page()),
        Err(other) => Err(other.into()),
    }
}

pub(crate) fn valid_share_id(share_id: &str) -> bool {
    !share_id.is_empty()
        && share_id.len() <= 64
        && share_id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// GIFs the public page shows.
const PUBLIC_PAGE_GIFS: u32 = 100;

fn public_html(origin: &str, collection: &Collection, gifs: &[Gif]) -> String {
    let name = escape(collection.name.as_str());
    let owner = escape(collection.owner.as_str());
    let description = escape(collection.description.as_str());
    let share = escape(collection.share_id.as_deref().unwrap_or_default());
    let summary = if description.is_empty() {
        format!("A collection of {} GIFs by {owner} on gifshelf", collection.gif_count)
    } else {
        description.clone()
    };
    let image = gifs
        .first()
        .and_then(|g| g.rendition(RenditionKind::Original).map(|r| (g, r)))
        .map(|(g, r)| {
            format!(
                "<meta property=\"og:image\" content=\"{origin}/s/{}.{}\"><meta name=\"twitter:image\" content=\"{origin}/s/{}.{}\">",
                escape(&g.share_id),
                r.extension(),
                escape(&g.share_id),
                r.extension()
            )
        })
        .unwrap_or_default();
    let mut grid = String::new();
    for gif in gifs {
        let Some(thumb) = gif.rendition(RenditionKind::Thumbnail) else { continue };
        let gif_share = escape(&gif.share_id);
        let title = escape(gif.title.as_str());
        grid.push_str(&format!(
            "<a class=\"cell\" href=\"/s/{gif_share}\"><img src=\"/s/{gif_share}/thumbnail.{ext}\" width=\"{w}\" height=\"{h}\" alt=\"{title}\" loading=\"lazy\"></a>",
            ext = thumb.extension(),
            w = thumb.width,
            h = thumb.height,
        ));
    }
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{name} · gifshelf</title>\
<meta name=\"description\" content=\"{summary}\">\
<meta property=\"og:type\" content=\"website\">\
<meta property=\"og:site_name\" content=\"gifshelf\">\
<meta property=\"og:title\" content=\"{name}\">\
<meta property=\"og:description\" content=\"{summary}\">\
<meta property=\"og:url\" content=\"{origin}/c/{share}\">{image}\
<meta name=\"twitter:card\" content=\"summary_large_image\">\
<meta name=\"twitter:title\" content=\"{name}\">\
<meta name=\"twitter:description\" content=\"{summary}\">\
<style>{STYLE}.grid{{display:grid;grid-template-columns:repeat(auto-fill,minmax(160px,1fr));gap:12px;margin:16px 0}}\
.grid .cell{{display:block;margin:0;padding:0;background:none;border-radius:12px}}\
.grid img{{width:100%;height:auto;aspect-ratio:4/3;object-fit:cover}}</style></head>\
<body><main><h1>{name}</h1>{desc}<p>A collection by {owner} · {count} GIFs</p>\
<div class=\"grid\">{grid}</div>\
<a href=\"/\">Open gifshelf</a></main></body></html>\n",
        desc = if description.is_empty() { String::new() } else { format!("<p>{description}</p>") },
        count = collection.gif_count,
    )
}

fn collection_not_found() -> HttpResponse {
    HttpResponse::NotFound().content_type("text/html; charset=utf-8").body(format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Collection not found · gifshelf</title>\
<style>{STYLE}</style></head><body><main><h1>Collection not found</h1>\
<p>This link does not lead to a collection any more. Its owner may have stopped sharing it.</p>\
<a href=\"/\">Open gifshelf</a></main></body></html>\n"
    ))
}

/// The public page of a shared collection: no sign-in; 404 once sharing is off.
#[get("/c/{share_id}")]
async fn public_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    share_id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    if !valid_share_id(&share_id) {
        return Ok(collection_not_found());
    }
    let page = PageRequest { page: 0, size: PUBLIC_PAGE_GIFS };
    match state.collections.shared(&share_id, page).await {
        Ok((collection, page)) => Ok(HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .body(public_html(&origin(&req, &state.settings), &collection, &page.items))),
        Err(AppError::NotFound(_)) => Ok(collection_not_found()),
        Err(other) => Err(other.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::{encode_component, escape};

    #[test]
    fn encodes_a_url_for_a_query() {
        assert_eq!(encode_component("http://h:8/s/a_b-c~d.e"), "http%3A%2F%2Fh%3A8%2Fs%2Fa_b-c~d.e");
    }

    #[test]
    fn escapes_everything_that_could_open_markup() {
        assert_eq!(
            escape("<img src=x onerror=\"a('b')\"> & co"),
            "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt; &amp; co"
        );
    }
}
