//! Media: the three renditions by GIF id, for signed-in people only (the bearer token, or the
//! session cookie `<img>` tags send). Row ids count up, so anything public here would leak the
//! whole library: public bytes go out only under unguessable share ids (`routes/share.rs`).

use actix_web::body::SizedStream;
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::{get, web, HttpRequest, HttpResponse};
use gifshelf_domain::gif::{Gif, GifFile, GifId, Rendition, RenditionKind};
use gifshelf_domain::ports::BlobReader;

use crate::extract::MediaViewer;
use crate::{ApiError, AppState, MediaOffload};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(content).service(thumbnail).service(static_thumbnail).service(rendition_file).service(renditions);
}

/// The rendition a file name asks for (`thumbnail.gif`, `still.png`, `original.jpg`), with the
/// extension it names.
fn named_file(file: &str) -> Option<(RenditionKind, &str)> {
    let (stem, ext) = file.split_once('.')?;
    Some((RenditionKind::parse(stem)?, ext))
}

/// Whether `ext` names the stored file's type.
fn stored_as(rendition: &Rendition, ext: &str) -> bool {
    let stored = rendition.extension();
    stored == ext || (ext == "jpeg" && stored == "jpg")
}

/// The rendition a share URL's file name asks for, when the GIF has it and the extension is the
/// stored one.
pub fn kind_of_file(gif: &Gif, file: &str) -> Option<RenditionKind> {
    let (kind, ext) = named_file(file)?;
    stored_as(gif.rendition(kind)?, ext).then_some(kind)
}

/// Who may cache a response: the signed-in reader's browser only, or anyone (share-id URLs,
/// whose bytes never change and which the owner made public on purpose).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    Private,
    Public,
}

impl Audience {
    fn cache_control(self) -> &'static str {
        match self {
            Audience::Private => "private, max-age=86400",
            Audience::Public => "public, max-age=31536000, immutable",
        }
    }
}

/// The key is unique and its bytes never change: a strong validator.
fn etag(rendition: &Rendition) -> String {
    format!("\"{}\"", rendition.key.replace('"', ""))
}

fn matches_etag(req: &HttpRequest, tag: &str) -> bool {
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').map(str::trim).any(|t| t == "*" || t == tag || t.strip_prefix("W/") == Some(tag)))
}

/// A single `bytes=a-b`, `bytes=a-` or `bytes=-n` range within `len`; `Err` when unsatisfiable,
/// `Ok(None)` when absent or not understood (then the whole body is sent).
fn byte_range(req: &HttpRequest, len: u64) -> Result<Option<(u64, u64)>, ()> {
    let Some(value) = req.headers().get(header::RANGE).and_then(|v| v.to_str().ok()) else {
        return Ok(None);
    };
    let Some(spec) = value.trim().strip_prefix("bytes=") else {
        return Ok(None);
    };
    if spec.contains(',') {
        return Ok(None);
    }
    let Some((start, end)) = spec.split_once('-') else {
        return Ok(None);
    };
    let (start, end) = (start.trim(), end.trim());
    let range = match (start.parse::<u64>(), end.parse::<u64>()) {
        (Ok(s), Ok(e)) if s <= e => (s, e.min(len.saturating_sub(1))),
        (Ok(s), Err(_)) if end.is_empty() => (s, len.saturating_sub(1)),
        (Err(_), Ok(n)) if start.is_empty() && n > 0 => (len.saturating_sub(n), len.saturating_sub(1)),
        _ => return Ok(None),
    };
    if len == 0 || range.0 >= len {
        return Err(());
    }
    Ok(Some(range))
}

fn media_headers(
    response: &mut actix_web::HttpResponseBuilder,
    rendition: &Rendition,
    filename: &str,
    audience: Audience,
) {
    response
        .insert_header((header::ETAG, etag(rendition)))
        .insert_header((header::CACHE_CONTROL, audience.cache_control()))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::CONTENT_SECURITY_POLICY, "sandbox; default-src 'none'"))
        .insert_header((header::CONTENT_DISPOSITION, format!("inline; filename=\"{filename}\"")))
        .insert_header((header::ACCEPT_RANGES, "bytes"));
}

/// Serves one rendition with validators, `If-None-Match` → 304 and `Range` → 206. Public answers
/// name the file after the share id, never the row id.
pub async fn serve(
    state: &AppState,
    req: &HttpRequest,
    file: &GifFile,
    audience: Audience,
) -> Result<HttpResponse, ApiError> {
    let rendition = file.rendition.as_ref().ok_or_else(no_such_file)?;
    let kind = rendition.kind;
    let filename = match audience {
        Audience::Private => format!("gif-{}-{}.{}", file.gif_id.0, kind.file_stem(), rendition.extension()),
        Audience::Public => format!("{}-{}.{}", file.share_id, kind.as_str(), rendition.extension()),
    };
    if matches_etag(req, &etag(rendition)) {
        let mut response = HttpResponse::NotModified();
        media_headers(&mut response, rendition, &filename, audience);
        return Ok(response.finish());
    }
    let len = u64::try_from(rendition.size).unwrap_or(0);
    let content_type =
        HeaderValue::from_str(&rendition.content_type).unwrap_or(HeaderValue::from_static("application/octet-stream"));
    match &state.settings.media_offload {
        MediaOffload::Stream => {}
        MediaOffload::XAccelRedirect { prefix } => {
            // The proxy sends the file (ranges and validators included) from its internal
            // location; it keeps this answer's Content-Type, Content-Disposition and Cache-Control.
            let mut response = HttpResponse::Ok();
            media_headers(&mut response, rendition, &filename, audience);
            return Ok(response
                .insert_header((header::CONTENT_TYPE, content_type))
                .insert_header(("X-Accel-Redirect", format!("{prefix}{}", rendition.key)))
                .finish());
        }
        MediaOffload::Presigned { expires } => {
            if let Some(url) = state.gifs.blob_url(&rendition.key, *expires).await? {
                // A short-lived capability: nobody may keep or share the redirect itself.
                return Ok(HttpResponse::TemporaryRedirect()
                    .insert_header((header::LOCATION, url))
                    .insert_header((header::CACHE_CONTROL, "private, no-store"))
                    .finish());
            }
        }
    }
    match byte_range(req, len) {
        Err(()) => {
            let mut response = HttpResponse::build(StatusCode::RANGE_NOT_SATISFIABLE);
            media_headers(&mut response, rendition, &filename, audience);
            Ok(response.insert_header((header::CONTENT_RANGE, format!("bytes */{len}"))).finish())
        }
        Ok(Some((start, end))) => {
            let reader = state.gifs.open_blob(&rendition.key, Some(start..end + 1)).await?;
            let mut response = HttpResponse::PartialContent();
            media_headers(&mut response, rendition, &filename, audience);
            Ok(response
                .insert_header((header::CONTENT_TYPE, content_type))
                .insert_header((header::CONTENT_RANGE, format!("bytes {start}-{end}/{len}")))
                .body(SizedStream::new(end + 1 - start, chunks(reader))))
        }
        Ok(None) => {
            let reader = state.gifs.open_blob(&rendition.key, None).await?;
            let mut response = HttpResponse::Ok();
            media_headers(&mut response, rendition, &filename, audience);
            Ok(response.insert_header((header::CONTENT_TYPE, content_type)).body(SizedStream::new(len, chunks(reader))))
        }
    }
}

/// A blob reader as the body stream actix sends, chunk by chunk.
fn chunks(
    reader: Box<dyn BlobReader>,
) -> impl futures_util::Stream<Item = Result<web::Bytes, gifshelf_domain::ports::BlobError>> {
    futures_util::stream::unfold(Some(reader), |reader| async move {
        let mut reader = reader?;
        match reader.next_chunk().await {
            // The body keeps the chunk until its bytes are written: no copy.
            Ok(Some(chunk)) => Some((Ok(web::Bytes::from_owner(chunk)), Some(reader))),
            Ok(None) => None,
            Err(err) => {
                tracing::warn!(error = %err, "a media file could not be read to its end");
                Some((Err(err), None))
            }
        }
    })
}

async fn by_id(
    state: web::Data<AppState>,
    viewer: &gifshelf_app::auth::Actor,
    req: HttpRequest,
    id: i64,
    kind: RenditionKind,
) -> Result<HttpResponse, ApiError> {
    let file = state.gifs.file(viewer, GifId(id), kind).await?;
    serve(&state, &req, &file, Audience::Private).await
}

fn no_such_file() -> ApiError {
    ApiError::not_found("This GIF has no such file.")
}

#[utoipa::path(
    get,
    path = "/api/gifs/content/{id}",
    tag = "media",
    summary = "The uploaded image (signed in: bearer token or session cookie)",
    params(("id" = i64, Path, description = "GIF id")),
    responses((status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The image, with its stored type, a strong ETag and private caching", content_type = "image/*", body = Vec<u8>), (status = 401, description = "Neither a bearer token nor a session cookie (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 206, description = "A byte range", content_type = "image/*", body = Vec<u8>), (status = 304, description = "Not modified (If-None-Match)"), (status = 404, description = "No such GIF (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []), ("session_cookie" = []))
)]
#[get("/gifs/content/{id}")]
async fn content(
    state: web::Data<AppState>,
    MediaViewer(viewer): MediaViewer,
    req: HttpRequest,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    by_id(state, &viewer, req, *id, RenditionKind::Original).await
}

#[utoipa::path(
    get,
    path = "/api/gifs/thumbnail/{id}",
    tag = "media",
    summary = "The animated thumbnail (signed in: bearer token or session cookie)",
    params(("id" = i64, Path, description = "GIF id")),
    responses((status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The image, with its stored type, a strong ETag and private caching", content_type = "image/*", body = Vec<u8>), (status = 401, description = "Neither a bearer token nor a session cookie (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 206, description = "A byte range", content_type = "image/*", body = Vec<u8>), (status = 304, description = "Not modified (If-None-Match)"), (status = 404, description = "No such GIF (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []), ("session_cookie" = []))
)]
#[get("/gifs/thumbnail/{id}")]
async fn thumbnail(
    state: web::Data<AppState>,
    MediaViewer(viewer): MediaViewer,
    req: HttpRequest,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    by_id(state, &viewer, req, *id, RenditionKind::Thumbnail).await
}

#[utoipa::path(
    get,
    path = "/api/gifs/static-thumbnail/{id}",
    tag = "media",
    summary = "The still thumbnail (signed in: bearer token or session cookie)",
    params(("id" = i64, Path, description = "GIF id")),
    responses((status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The image, with its stored type, a strong ETag and private caching", content_type = "image/*", body = Vec<u8>), (status = 401, description = "Neither a bearer token nor a session cookie (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 206, description = "A byte range", content_type = "image/*", body = Vec<u8>), (status = 304, description = "Not modified (If-None-Match)"), (status = 404, description = "No such GIF (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []), ("session_cookie" = []))
)]
#[get("/gifs/static-thumbnail/{id}")]
async fn static_thumbnail(
    state: web::Data<AppState>,
    MediaViewer(viewer): MediaViewer,
    req: HttpRequest,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    by_id(state, &viewer, req, *id, RenditionKind::Still).await
}

#[utoipa::path(
    get,
    path = "/api/gifs/{id}/files/{file}",
    tag = "media",
    summary = "Any file of a GIF by kind: `mp4_small.mp4`, `tiny.gif`, `still.png` (signed in: bearer token or session cookie)",
    params(
        ("id" = i64, Path, description = "GIF id"),
        ("file" = String, Path, description = "`{kind}.{ext}` as `GET /api/gifs/{id}/renditions` lists it")
    ),
    responses((status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The file, with its stored type (a GIF, WebP, PNG, MP4 or WebM), a strong ETag and private caching", content((Vec<u8> = "image/*"), (Vec<u8> = "video/*"))), (status = 401, description = "Neither a bearer token nor a session cookie (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 206, description = "A byte range", content((Vec<u8> = "image/*"), (Vec<u8> = "video/*"))), (status = 304, description = "Not modified (If-None-Match)"), (status = 404, description = "No such GIF, or it has no such file (yet) (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []), ("session_cookie" = []))
)]
#[get("/gifs/{id}/files/{file}")]
async fn rendition_file(
    state: web::Data<AppState>,
    MediaViewer(viewer): MediaViewer,
    req: HttpRequest,
    path: web::Path<(i64, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, name) = path.into_inner();
    let (kind, ext) = named_file(&name).ok_or_else(no_such_file)?;
    let file = state.gifs.file(&viewer, GifId(id), kind).await?;
    match &file.rendition {
        Some(rendition) if stored_as(rendition, ext) => serve(&state, &req, &file, Audience::Private).await,
        _ => Err(no_such_file()),
    }
}

#[utoipa::path(
    get,
    path = "/api/gifs/{id}/renditions",
    tag = "media",
    summary = "Every file of a GIF: kind, URL, type, dimensions, bytes, frames, play time, codec and which one a browser should play",
    params(("id" = i64, Path, description = "GIF id")),
    responses((status = 200, description = "The files, by kind; videos and chat sizes appear once the renditions job has made them", body = Vec<crate::dto::RenditionDto>), (status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Not signed in (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such GIF (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/{id}/renditions")]
async fn renditions(
    state: web::Data<AppState>,
    crate::extract::SignedIn(user): crate::extract::SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let gif = state.gifs.get(&user, GifId(*id)).await?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "private, no-cache"))
        .json(crate::dto::RenditionDto::all(&gif)))
}
