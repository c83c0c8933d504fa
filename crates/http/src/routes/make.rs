//! The GIF maker: `POST /api/make` queues a GIF made of a video, a GIF or a link by a recipe;
//! `GET /api/make/{jobId}` tells its maker how far it came.

use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::{get, post, web, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use gifshelf_app::make::{MakeInput, MakeSource};
use gifshelf_domain::gif::GifId;
use gifshelf_domain::make::{Crop, MadeGifData, MakeId, RecipeInput};

use super::gifs::read_field;
use crate::capped::{declared_length, CappedBody};
use crate::dto::{ErrorCode, GifUploadData, MakeRecipeDto, MakeStartedDto, MakeStatusDto};
use crate::extract::SignedIn;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(start).service(status);
}

/// How long the whole body may take to arrive (a source is up to `GIFSHELF_MAX_VIDEO_MB`).
const MAKE_READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(600);
/// Parts a make may have: `file`, `gifData`, `recipe` and a little room for what browsers add.
const MAX_PARTS: usize = 5;
/// The most bytes of the `gifData` and `recipe` parts.
const FORM_PART_MAX: u64 = 64 * 1024;

fn too_large(max: u64) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::TooLarge,
        format!("The source is larger than the {} MB limit.", max / (1024 * 1024)),
    )
}

/// The three parts of a make, each read under its own cap.
struct Parts {
    file: Option<Vec<u8>>,
    data: Option<GifUploadData>,
    recipe: Option<MakeRecipeDto>,
}

fn json_part<T: serde::de::DeserializeOwned>(name: &str, bytes: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(bytes).map_err(|e| ApiError::bad_request(format!("{name} is not valid JSON: {e}")))
}

async fn read_parts(parts: &mut Multipart, max: u64) -> Result<Parts, ApiError> {
    let mut read = Parts { file: None, data: None, recipe: None };
    let mut count = 0;
    while let Some(field) = parts.next().await {
        let mut field = field.map_err(|_| ApiError::bad_request("The request is not valid multipart/form-data."))?;
        count += 1;
        if count > MAX_PARTS {
            return Err(ApiError::bad_request("The request has too many parts."));
        }
        let small = |name: &'static str| move || ApiError::bad_request(format!("{name} is too large."));
        match field.name() {
            Some("file") => read.file = Some(read_field(&mut field, max, || too_large(max)).await?),
            Some("gifData") => {
                let bytes = read_field(&mut field, FORM_PART_MAX, small("gifData")).await?;
                read.data = Some(json_part("gifData", &bytes)?);
            }
            Some("recipe") => {
                let bytes = read_field(&mut field, FORM_PART_MAX, small("recipe")).await?;
                read.recipe = Some(json_part("recipe", &bytes)?);
            }
            _ => {
                read_field(&mut field, FORM_PART_MAX, small("An unexpected part")).await?;
            }
        }
    }
    Ok(read)
}

/// The use case's input of the parts read.
fn make_input(file: Option<Vec<u8>>, data: GifUploadData, recipe: MakeRecipeDto) -> MakeInput {
    let mut sources = Vec::new();
    if let Some(file) = file {
        sources.push(MakeSource::File(file));
    }
    if let Some(id) = recipe.gif_id {
        sources.push(MakeSource::Gif(GifId(id)));
    }
    if let Some(url) = recipe.source_url {
        sources.push(MakeSource::Url(url));
    }
    MakeInput {
        sources,
        gif_data: MadeGifData {
            title: data.title,
            description: data.description,
            tags: data.tags,
            rating: data.rating,
        },
        recipe: RecipeInput {
            start: recipe.start,
            end: recipe.end,
            crop: recipe.crop.map(|c| Crop { x: c.x, y: c.y, width: c.width, height: c.height }),
            width: recipe.width,
            fps: recipe.fps,
            speed: recipe.speed,
            direction: recipe.direction,
            loops: recipe.loops,
            caption: recipe.caption.map(|c| (c.text, c.position, c.size)),
        },
    }
}

/// `multipart/form-data`: the source in `file` (or `recipe.gifId`, or `recipe.sourceUrl`), the
/// form as JSON in `gifData` (as on upload) and the recipe as JSON in `recipe`. Everything is
/// checked before the answer (the source sniffed, a video read by `ffprobe`); the GIF is then made
/// in the background and stored as the caller's upload.
#[utoipa::path(
    post,
    path = "/api/make",
    tag = "gifs",
    summary = "Make a GIF of a video, a GIF or a link",
    request_body(content = crate::dto::MakeForm, content_type = "multipart/form-data"),
    responses((status = 202, description = "Queued: poll GET /api/make/{jobId}", body = crate::dto::MakeStartedDto), (status = 400, description = "Bad form, recipe or source (`bad_request`, `validation`, `unsupported_type`, `invalid_image`, `image_too_large`, `url_refused`, `url_fetch_failed`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 408, description = "The body took too long to arrive (`request_timeout`)", body = crate::dto::ApiErrorBody), (status = 413, description = "The source is over GIFSHELF_MAX_VIDEO_MB (`too_large`)", body = crate::dto::ApiErrorBody), (status = 429, description = "Too many link fetches, or the member's storage or daily upload quota is used up (`rate_limited`, `quota_exceeded`)", body = crate::dto::ApiErrorBody), (status = 503, description = "Too busy (`unavailable`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/make")]
async fn start(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let max = state.maker.limits().max_source_bytes;
    // Room for the multipart framing and the two JSON parts.
    let budget = max + 3 * FORM_PART_MAX;
    if declared_length(&req).is_some_and(|len| len > budget) {
        return Err(too_large(max));
    }
    let (body, overflowed) = CappedBody::new(payload, budget);
    let mut parts = Multipart::new(req.headers(), body);
    let parts = match actix_web::rt::time::timeout(MAKE_READ_TIMEOUT, read_parts(&mut parts, max)).await {
        Err(_) => {
            return Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                ErrorCode::RequestTimeout,
                "The source took too long to arrive. Please try again.",
            ))
        }
        Ok(Err(_)) if overflowed.get() => return Err(too_large(max)),
        Ok(result) => result?,
    };
    let data = parts.data.ok_or_else(|| ApiError::bad_request("The request needs a gifData part with the title."))?;
    let recipe = parts.recipe.ok_or_else(|| ApiError::bad_request("The request needs a recipe part."))?;
    let id = state.maker.submit(&user, make_input(parts.file, data, recipe)).await?;
    Ok(HttpResponse::Accepted().json(MakeStartedDto { job_id: id.0 }))
}

#[utoipa::path(
    get,
    path = "/api/make/{jobId}",
    tag = "gifs",
    summary = "How far a GIF being made came",
    params(("jobId" = i64, Path, description = "The id `POST /api/make` answered")),
    responses((status = 200, description = "Its state, progress, and the GIF or the error", body = crate::dto::MakeStatusDto), (status = 400, description = "A malformed path parameter (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such job, or another member's (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/make/{jobId}")]
async fn status(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let make = state.maker.status(&user, MakeId(*id)).await?;
    Ok(HttpResponse::Ok().json(MakeStatusDto::from(&make)))
}
