use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::{delete, get, post, put, web, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use gifshelf_app::gifs::UploadInput;
use gifshelf_domain::gif::{GifFilter, GifId, PageRequest, TagName};
use serde::Deserialize;

use crate::capped::CappedBody;
use crate::dto::{ErrorCode, GifDto, GifUploadData, PagedGifs, UpdateGifRequest};
use crate::extract::SignedIn;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(list_all)
        .service(list_by_tag)
        .service(list_by_user)
        .service(search)
        .service(detail)
        .service(upload)
        .service(update)
        .service(remove);
}

/// The paging of every list: `page` from 0, `size` 1 to 100.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct Paging {
    /// Page number, from 0.
    page: Option<u32>,
    /// Page size, 1 to 100 (default 6).
    #[param(minimum = 1, maximum = 100, default = 6)]
    size: Option<u32>,
}

impl Paging {
    fn request(&self) -> Result<PageRequest, ApiError> {
        PageRequest::new(self.page, self.size).map_err(|e| gifshelf_app::AppError::from(e).into())
    }
}

async fn list(state: &AppState, filter: GifFilter, paging: &Paging) -> Result<HttpResponse, ApiError> {
    let page = state.gifs.list(&filter, paging.request()?).await?;
    Ok(HttpResponse::Ok().json(PagedGifs::from(page)))
}

#[utoipa::path(
    get,
    path = "/api/gifs/dtos",
    tag = "gifs",
    summary = "Every GIF, newest first",
    params(Paging),
    responses((status = 200, description = "One page, newest first", body = crate::dto::PagedGifs), (status = 400, description = "Invalid paging or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/dtos")]
async fn list_all(
    state: web::Data<AppState>,
    _user: SignedIn,
    paging: web::Query<Paging>,
) -> Result<HttpResponse, ApiError> {
    list(&state, GifFilter::All, &paging).await
}

#[utoipa::path(
    get,
    path = "/api/gifs/dtos/tag/{tag}",
    tag = "gifs",
    summary = "GIFs with a tag",
    params(("tag" = String, Path, description = "Tag name"), Paging),
    responses((status = 200, description = "One page, newest first", body = crate::dto::PagedGifs), (status = 400, description = "Invalid paging or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/dtos/tag/{tag}")]
async fn list_by_tag(
    state: web::Data<AppState>,
    _user: SignedIn,
    tag: web::Path<String>,
    paging: web::Query<Paging>,
) -> Result<HttpResponse, ApiError> {
    let name = TagName::parse(&tag).map_err(gifshelf_app::AppError::from)?;
    list(&state, GifFilter::Tag(name), &paging).await
}

#[utoipa::path(
    get,
    path = "/api/gifs/dtos/user/{username}",
    tag = "gifs",
    summary = "A user's GIFs",
    params(("username" = String, Path, description = "Uploader"), Paging),
    responses((status = 200, description = "One page, newest first", body = crate::dto::PagedGifs), (status = 400, description = "Invalid paging or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/dtos/user/{username}")]
async fn list_by_user(
    state: web::Data<AppState>,
    _user: SignedIn,
    username: web::Path<String>,
    paging: web::Query<Paging>,
) -> Result<HttpResponse, ApiError> {
    list(&state, GifFilter::User(username.into_inner()), &paging).await
}

/// The words a search looks for.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct SearchTerm {
    /// Words to find (at most 200 bytes).
    #[serde(default)]
    q: String,
}

#[utoipa::path(
    get,
    path = "/api/gifs/dtos/search",
    tag = "gifs",
    summary = "GIFs whose title, description or tags hold every word",
    params(SearchTerm, Paging),
    responses((status = 200, description = "One page, newest first", body = crate::dto::PagedGifs), (status = 400, description = "Invalid paging or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/dtos/search")]
async fn search(
    state: web::Data<AppState>,
    _user: SignedIn,
    term: web::Query<SearchTerm>,
    paging: web::Query<Paging>,
) -> Result<HttpResponse, ApiError> {
    let filter = GifFilter::search(&term.q).map_err(gifshelf_app::AppError::from)?;
    list(&state, filter, &paging).await
}

/// Opening a GIF counts a view.
#[utoipa::path(
    get,
    path = "/api/gifs/dto/{id}",
    tag = "gifs",
    summary = "One GIF (counts a view)",
    params(("id" = i64, Path, description = "GIF id")),
    responses((status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The GIF", body = crate::dto::GifDto), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such GIF (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/dto/{id}")]
async fn detail(state: web::Data<AppState>, _user: SignedIn, id: web::Path<i64>) -> Result<HttpResponse, ApiError> {
    let gif = state.gifs.view(GifId(*id)).await?;
    Ok(HttpResponse::Ok().json(GifDto::from(&gif)))
}

fn too_large(max: u64) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::TooLarge,
        format!("The file is larger than the {} MB limit.", max / (1024 * 1024)),
    )
}

/// Reads a multipart field into memory, refusing more than `cap` bytes as soon as they arrive.
async fn read_field(
    field: &mut actix_multipart::Field,
    cap: u64,
    over: impl Fn() -> ApiError,
) -> Result<Vec<u8>, ApiError> {
    let mut bytes = Vec::new();
    while let Some(chunk) = field.next().await {
        let chunk = chunk.map_err(|_| ApiError::bad_request("The upload was interrupted or malformed."))?;
        if (bytes.len() + chunk.len()) as u64 > cap {
            return Err(over());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(bytes)
}

/// How long the whole upload body may take to arrive.
const UPLOAD_READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);
/// Parts an upload may have: `file`, `gifData` and a little room for what browsers add.
const MAX_PARTS: usize = 4;

/// The `file` and `gifData` parts of an upload, each read under its own cap.
async fn read_parts(parts: &mut Multipart, max: u64) -> Result<(Option<Vec<u8>>, Option<GifUploadData>), ApiError> {
    let mut file: Option<Vec<u8>> = None;
    let mut data: Option<GifUploadData> = None;
    let mut count = 0;
    while let Some(field) = parts.next().await {
        let mut field = field.map_err(|_| ApiError::bad_request("The upload is not valid multipart/form-data."))?;
        count += 1;
        if count > MAX_PARTS {
            return Err(ApiError::bad_request("The upload has too many parts."));
        }
        match field.name() {
            Some("file") => file = Some(read_field(&mut field, max, || too_large(max)).await?),
            Some("gifData") => {
                let bytes =
                    read_field(&mut field, 64 * 1024, || ApiError::bad_request("gifData is too large.")).await?;
                data = Some(
                    serde_json::from_slice(&bytes)
                        .map_err(|e| ApiError::bad_request(format!("gifData is not valid JSON: {e}")))?,
                );
            }
            _ => {
                read_field(&mut field, 64 * 1024, || ApiError::bad_request("The upload has an unexpected large part."))
                    .await?;
            }
        }
    }
    Ok((file, data))
}

/// `multipart/form-data` with the image in `file` and the form as JSON in `gifData`. The type is
/// decided from the bytes; the file name and the client's content type are ignored.
#[utoipa::path(
    post,
    path = "/api/gifs",
    tag = "gifs",
    summary = "Upload a GIF (or PNG, JPEG, WebP)",
    request_body(content = crate::dto::UploadForm, content_type = "multipart/form-data"),
    responses((status = 201, description = "Stored, with its renditions", body = crate::dto::GifDto), (status = 400, description = "Bad form or refused image (`validation`, `unsupported_type`, `invalid_image`, `image_too_large`, `image_too_complex`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 408, description = "The body took too long to arrive (`request_timeout`)", body = crate::dto::ApiErrorBody), (status = 413, description = "Over the upload limit (`too_large`)", body = crate::dto::ApiErrorBody), (status = 503, description = "Too many uploads being processed (`unavailable`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/gifs")]
async fn upload(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let max = state.settings.max_upload_bytes;
    let declared = req
        .headers()
        .get(actix_web::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    // Room for the multipart framing and the form beside the file.
    let budget = max + 64 * 1024;
    if declared.is_some_and(|len| len > budget) {
        return Err(too_large(max));
    }
    // The whole body is capped under the multipart parser, declared length or not.
    let (body, overflowed) = CappedBody::new(payload, budget);
    let mut parts = Multipart::new(req.headers(), body);
    let read = actix_web::rt::time::timeout(UPLOAD_READ_TIMEOUT, read_parts(&mut parts, max)).await;
    let (file, data) = match read {
        Err(_) => {
            return Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                ErrorCode::RequestTimeout,
                "The upload took too long to arrive. Please try again.",
            ))
        }
        Ok(Err(_)) if overflowed.get() => return Err(too_large(max)),
        Ok(result) => result?,
    };
    let file =
        file.filter(|f| !f.is_empty()).ok_or_else(|| ApiError::bad_request("Please select a file to upload."))?;
    let data = data.ok_or_else(|| ApiError::bad_request("The upload needs a gifData part with the title."))?;
    let gif = state
        .gifs
        .upload(
            &user,
            UploadInput {
                title: data.title,
                description: data.description,
                tags: data.tags,
                bytes: std::sync::Arc::new(file),
            },
        )
        .await?;
    Ok(HttpResponse::Created().json(GifDto::from(&gif)))
}

#[utoipa::path(
    put,
    path = "/api/gifs/{id}",
    tag = "gifs",
    summary = "Edit title, description and tags (owner or admin)",
    params(("id" = i64, Path, description = "GIF id")),
    request_body = crate::dto::UpdateGifRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The edited GIF", body = crate::dto::GifDto), (status = 400, description = "Invalid paging or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not yours (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such GIF (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/gifs/{id}")]
async fn update(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    body: web::Json<UpdateGifRequest>,
) -> Result<HttpResponse, ApiError> {
    let gif = state.gifs.update(&user, GifId(*id), &body.title, &body.description, &body.tags).await?;
    Ok(HttpResponse::Ok().json(GifDto::from(&gif)))
}

#[utoipa::path(
    delete,
    path = "/api/gifs/{id}",
    tag = "gifs",
    summary = "Delete a GIF and its files (owner only)",
    params(("id" = i64, Path, description = "GIF id")),
    responses((status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 204, description = "Deleted"), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not yours (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such GIF (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[delete("/gifs/{id}")]
async fn remove(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    state.gifs.delete(&user, GifId(*id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
