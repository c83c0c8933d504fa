//! Getting GIFs in from a link (`POST /api/gifs/from-url`) and out as embeds (`GET /api/oembed`).

use actix_web::http::{header, StatusCode};
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use gifshelf_app::gifs::UrlUploadInput;
use gifshelf_app::AppError;
use gifshelf_domain::gif::RenditionKind;
use serde::Deserialize;

use super::share::valid_share_id;
use crate::client::origin;
use crate::dto::{ErrorCode, FromUrlRequest, GifDto, GifLinkDto, OembedResponse, UploadedGifDto};
use crate::extract::SignedIn;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(from_url).service(oembed);
}

/// The server fetches the image itself: only http(s), never a private or reserved address (each
/// redirect, at most 3, checked again), at most the upload limit, with time limits. A page (GIPHY,
/// Tenor, Imgur, gifshelf…) is accepted when it names its image in `og:image`.
#[utoipa::path(
    post,
    path = "/api/gifs/from-url",
    tag = "gifs",
    summary = "Upload a GIF from a link",
    request_body = crate::dto::FromUrlRequest,
    responses((status = 201, description = "Stored, with its renditions and the GIFs it looks like", body = crate::dto::UploadedGifDto), (status = 409, description = "Byte for byte a GIF of the library (`duplicate`, with `existingId`)", body = crate::dto::ApiErrorBody), (status = 400, description = "Bad form, refused link or image (`validation`, `url_refused`, `url_fetch_failed`, `unsupported_type`, `invalid_image`, `image_too_large`, `image_too_complex`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 413, description = "The image is over the upload limit (`too_large`)", body = crate::dto::ApiErrorBody), (status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 503, description = "Too many uploads being processed (`unavailable`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/gifs/from-url")]
async fn from_url(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    body: web::Json<FromUrlRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let input = UrlUploadInput {
        url: body.url,
        title: body.title,
        description: body.description,
        tags: body.tags,
        rating: body.rating,
    };
    let uploaded = state.url_import.upload_from_url(&user, input).await?;
    Ok(HttpResponse::Created().json(UploadedGifDto {
        gif: GifDto::from(&uploaded.gif),
        likely_duplicates: uploaded.likely_duplicates.iter().map(GifLinkDto::from).collect(),
    }))
}

/// The oEmbed request: a share page URL, optional bounds and the format.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct OembedQuery {
    /// A share page URL of this server (`{origin}/s/{shareId}`).
    url: String,
    /// The largest width the consumer can show.
    maxwidth: Option<u32>,
    /// The largest height the consumer can show.
    maxheight: Option<u32>,
    /// `json` (the default, also when empty); `xml` answers 501, as oEmbed asks; anything else 400.
    format: Option<String>,
}

/// Public, like the share page it describes: it answers only for share URLs of this server.
#[utoipa::path(
    get,
    path = "/api/oembed",
    tag = "gifs",
    summary = "oEmbed (photo) for a share page",
    params(OembedQuery),
    responses((status = 200, description = "The oEmbed 1.0 photo answer", body = crate::dto::OembedResponse), (status = 400, description = "A malformed query (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 404, description = "Not a share URL of this server, or no such GIF (`not_found`)", body = crate::dto::ApiErrorBody), (status = 501, description = "A format other than json (`bad_request`)", body = crate::dto::ApiErrorBody))
)]
#[get("/oembed")]
async fn oembed(
    state: web::Data<AppState>,
    req: HttpRequest,
    query: web::Query<OembedQuery>,
) -> Result<HttpResponse, ApiError> {
    let format = query.format.as_deref().unwrap_or_default();
    if format.eq_ignore_ascii_case("xml") {
        // oEmbed's answer to a format the provider does not offer.
        return Err(ApiError::new(
            StatusCode::NOT_IMPLEMENTED,
            ErrorCode::BadRequest,
            "Only format=json is supported.",
        ));
    }
    if !format.is_empty() && !format.eq_ignore_ascii_case("json") {
        return Err(ApiError::bad_request("Unknown format: ask for format=json."));
    }
    let origin = origin(&req, &state.settings);
    let unknown = || ApiError::not_found("No shared GIF has this URL.");
    let share_id = share_id_of(&query.url, &origin).ok_or_else(unknown)?;
    let gif = match state.gifs.shared(&share_id).await {
        Ok(gif) => gif,
        Err(AppError::NotFound(_)) => return Err(unknown()),
        Err(other) => return Err(other.into()),
    };
    let original = gif.rendition(RenditionKind::Original);
    let ext = original.map_or("gif", |r| r.extension());
    let (width, height) = original
        .map_or((1, 1), |r| (u32::try_from(r.width).unwrap_or(1).max(1), u32::try_from(r.height).unwrap_or(1).max(1)));
    let (width, height) = fit(width, height, query.maxwidth, query.maxheight);
    // Built on the request's origin: no cache may keep one answer for other requests.
    Ok(HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "no-cache")).json(OembedResponse {
        version: "1.0".into(),
        kind: "photo".into(),
        url: format!("{origin}/s/{}.{ext}", gif.share_id),
        width,
        height,
        title: gif.title.as_str().to_owned(),
        author_name: gif.uploader.as_str().to_owned(),
        provider_name: "gifshelf".into(),
        provider_url: format!("{origin}/"),
    }))
}

/// The share id of `{origin}/s/{shareId}` (a query or fragment ignored), or `None` for any other URL.
fn share_id_of(url: &str, origin: &str) -> Option<String> {
    let url = url.trim();
    let head = url.get(..origin.len())?;
    if !head.eq_ignore_ascii_case(origin) {
        return None;
    }
    let path = url[origin.len()..].strip_prefix("/s/")?;
    let id = path.split(['?', '#']).next().unwrap_or_default().trim_end_matches('/');
    valid_share_id(id).then(|| id.to_owned())
}

/// `width`×`height` scaled down (never up) to fit the bounds, aspect ratio kept, at least 1×1.
fn fit(width: u32, height: u32, max_width: Option<u32>, max_height: Option<u32>) -> (u32, u32) {
    let scale = |max: Option<u32>, size: u32| max.map_or(1.0, |m| f64::from(m.max(1)) / f64::from(size));
    let factor = scale(max_width, width).min(scale(max_height, height)).min(1.0);
    if factor >= 1.0 {
        return (width, height);
    }
    let scaled = |size: u32| ((f64::from(size) * factor).round() as u32).max(1);
    (scaled(width).min(max_width.unwrap_or(u32::MAX)), scaled(height).min(max_height.unwrap_or(u32::MAX)))
}

#[cfg(test)]
mod tests {
    use super::{fit, share_id_of};

    #[test]
    fn fits_inside_the_bounds_keeping_the_aspect_ratio() {
        assert_eq!(fit(640, 480, None, None), (640, 480));
        assert_eq!(fit(640, 480, Some(320), None), (320, 240));
        assert_eq!(fit(640, 480, Some(1000), Some(120)), (160, 120));
        assert_eq!(fit(640, 480, Some(2000), Some(2000)), (640, 480), "never scaled up");
        assert_eq!(fit(3, 1000, Some(100), Some(10)), (1, 10));
    }

    #[test]
    fn only_share_page_urls_of_this_origin_name_a_share() {
        let origin = "http://gifs.example.com";
        assert_eq!(share_id_of("http://gifs.example.com/s/abc_D-1", origin).as_deref(), Some("abc_D-1"));
        assert_eq!(share_id_of("HTTP://GIFS.example.com/s/abc?utm=x", origin).as_deref(), Some("abc"));
        assert_eq!(share_id_of("http://evil.example.com/s/abc", origin), None);
        assert_eq!(share_id_of("http://gifs.example.com.evil/s/abc", origin), None);
        assert_eq!(share_id_of("http://gifs.example.com/api/gifs/1", origin), None);
        assert_eq!(share_id_of("http://gifs.example.com/s/a.gif", origin), None);
        assert_eq!(share_id_of("http://gifs.example.com/s/", origin), None);
    }
}
