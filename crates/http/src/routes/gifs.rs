use actix_multipart::Multipart;
use actix_web::http::StatusCode;
use actix_web::{delete, get, post, put, web, HttpRequest, HttpResponse};
use futures_util::StreamExt;
use gifshelf_app::gifs::UploadInput;
use gifshelf_domain::gif::{GifFilter, GifId, GifSort, PageRequest, TagName};
use serde::Deserialize;

use crate::capped::{declared_length, CappedBody};
use crate::dto::{
    DuplicateGroupsDto, ErrorCode, FavouriteStateDto, GifDto, GifLinkDto, GifUploadData, PagedGifs, SuggestionDto,
    UpdateGifRequest, UploadedGifDto,
};
use crate::extract::SignedIn;
use crate::{ApiError, AppState};
use gifshelf_app::auth::Actor;

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(list_all)
        .service(list_by_tag)
        .service(list_by_user)
        .service(search)
        .service(suggestions)
        .service(list_favourites)
        .service(random)
        .service(add_favourite)
        .service(remove_favourite)
        .service(detail)
        .service(upload)
        .service(looks_like)
        .service(duplicate_groups)
        .service(update)
        .service(remove);
}

/// The paging of every list: `page` from 0, `size` 1 to 100.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct Paging {
    /// Page number, from 0.
    page: Option<u32>,
    /// Page size, 1 to 100 (default 6).
    #[param(minimum = 1, maximum = 100, default = 6)]
    size: Option<u32>,
}

impl Paging {
    pub(super) fn request(&self) -> Result<PageRequest, ApiError> {
        PageRequest::new(self.page, self.size).map_err(|e| gifshelf_app::AppError::from(e).into())
    }
}

/// The order of every list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct Sorting {
    /// `newest` (default), `oldest`, `views`, `favourites` or `title`; ties by id. A search without
    /// it is ranked: best matches first (words in the title, then tags, description, text in the
    /// GIF), then newest.
    #[param(default = "newest")]
    sort: Option<String>,
}

impl Sorting {
    fn sort(&self, filter: &GifFilter) -> Result<GifSort, ApiError> {
        match &self.sort {
            None => Ok(filter.default_sort()),
            Some(raw) => GifSort::parse(raw).map_err(|e| gifshelf_app::AppError::from(e).into()),
        }
    }
}

async fn list(
    state: &AppState,
    user: &Actor,
    filter: GifFilter,
    sorting: &Sorting,
    paging: &Paging,
) -> Result<HttpResponse, ApiError> {
    let page = state.gifs.list(user.id, &filter, sorting.sort(&filter)?, paging.request()?).await?;
    Ok(HttpResponse::Ok().json(PagedGifs::from(page)))
}

#[utoipa::path(
    get,
    path = "/api/gifs/dtos",
    tag = "gifs",
    summary = "Every GIF, newest first",
    params(Sorting, Paging),
    responses((status = 200, description = "One page, in `sort` order (newest first by default)", body = crate::dto::PagedGifs), (status = 400, description = "Invalid paging, sort or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/dtos")]
async fn list_all(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    sorting: web::Query<Sorting>,
    paging: web::Query<Paging>,
) -> Result<HttpResponse, ApiError> {
    list(&state, &user, GifFilter::All, &sorting, &paging).await
}

#[utoipa::path(
    get,
    path = "/api/gifs/dtos/tag/{tag}",
    tag = "gifs",
    summary = "GIFs with a tag",
    params(("tag" = String, Path, description = "Tag name"), Sorting, Paging),
    responses((status = 200, description = "One page, in `sort` order (newest first by default)", body = crate::dto::PagedGifs), (status = 400, description = "Invalid paging, sort or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/dtos/tag/{tag}")]
async fn list_by_tag(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    tag: web::Path<String>,
    sorting: web::Query<Sorting>,
    paging: web::Query<Paging>,
) -> Result<HttpResponse, ApiError> {
    let name = TagName::parse(&tag).map_err(gifshelf_app::AppError::from)?;
    list(&state, &user, GifFilter::Tag(name), &sorting, &paging).await
}

#[utoipa::path(
    get,
    path = "/api/gifs/dtos/user/{username}",
    tag = "gifs",
    summary = "A user's GIFs",
    params(("username" = String, Path, description = "Uploader"), Sorting, Paging),
    responses((status = 200, description = "One page, in `sort` order (newest first by default)", body = crate::dto::PagedGifs), (status = 400, description = "Invalid paging, sort or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/dtos/user/{username}")]
async fn list_by_user(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    username: web::Path<String>,
    sorting: web::Query<Sorting>,
    paging: web::Query<Paging>,
) -> Result<HttpResponse, ApiError> {
    list(&state, &user, GifFilter::User(username.into_inner()), &sorting, &paging).await
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
    summary = "GIFs whose title, description, tags or text hold every word",
    description = "Words are split at white space; a \"quoted phrase\" matches its words in order. A word of five or more letters also matches the words one typo from it (the first letter may be left out or swapped, not changed), ranked after the word itself. Without `sort`, best matches first.",
    params(SearchTerm, Sorting, Paging),
    responses((status = 200, description = "One page, in `sort` order (newest first by default)", body = crate::dto::PagedGifs), (status = 400, description = "Invalid paging, sort or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/dtos/search")]
async fn search(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    term: web::Query<SearchTerm>,
    sorting: web::Query<Sorting>,
    paging: web::Query<Paging>,
) -> Result<HttpResponse, ApiError> {
    let filter = GifFilter::search(&term.q).map_err(gifshelf_app::AppError::from)?;
    list(&state, &user, filter, &sorting, &paging).await
}

/// What was typed so far in the search box.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct Typed {
    /// At least two characters (fewer: no suggestions); at most 200 bytes.
    #[serde(default)]
    q: String,
}

#[utoipa::path(
    get,
    path = "/api/search/suggestions",
    tag = "gifs",
    summary = "What the search box proposes for what was typed",
    description = "Tags, popular searches, titles and words of the text in GIFs that start with `q` (case aside), taking turns, best of each first; each text once; at most 8. Only GIFs your search would show lend theirs. Fewer than two characters: `[]`.",
    params(Typed),
    responses((status = 200, description = "At most 8 suggestions, best first", body = Vec<crate::dto::SuggestionDto>), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/search/suggestions")]
async fn suggestions(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    typed: web::Query<Typed>,
) -> Result<HttpResponse, ApiError> {
    let found = state.gifs.suggestions(&user, &typed.q).await?;
    Ok(HttpResponse::Ok().json(found.iter().map(SuggestionDto::from).collect::<Vec<_>>()))
}

#[utoipa::path(
    get,
    path = "/api/gifs/dtos/favourites",
    tag = "gifs",
    summary = "Your favourites, newest favourited first",
    description = "With `sort=newest` (the default) or `oldest`, the order is by when you favourited each GIF.",
    params(Sorting, Paging),
    responses((status = 200, description = "One page", body = crate::dto::PagedGifs), (status = 400, description = "Invalid paging or sort (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/dtos/favourites")]
async fn list_favourites(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    sorting: web::Query<Sorting>,
    paging: web::Query<Paging>,
) -> Result<HttpResponse, ApiError> {
    let page = state.gifs.favourites(&user, sorting.sort(&GifFilter::All)?, paging.request()?).await?;
    Ok(HttpResponse::Ok().json(PagedGifs::from(page)))
}

/// What a random pick draws from: every GIF, or those of one tag, one uploader or one search.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct RandomFrom {
    /// Only GIFs with this tag.
    tag: Option<String>,
    /// Only GIFs of this uploader.
    user: Option<String>,
    /// Only GIFs this search finds.
    q: Option<String>,
}

impl RandomFrom {
    fn filter(&self) -> Result<GifFilter, ApiError> {
        fn given(value: &Option<String>) -> Option<&str> {
            value.as_deref().map(str::trim).filter(|v| !v.is_empty())
        }
        match (given(&self.tag), given(&self.user), given(&self.q)) {
            (None, None, None) => Ok(GifFilter::All),
            (Some(tag), None, None) => Ok(GifFilter::Tag(TagName::parse(tag).map_err(gifshelf_app::AppError::from)?)),
            (None, Some(user), None) => Ok(GifFilter::User(user.to_owned())),
            (None, None, Some(q)) => GifFilter::search(q).map_err(|e| gifshelf_app::AppError::from(e).into()),
            _ => Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                ErrorCode::Validation,
                "Pick from at most one of tag, user and q.",
            )),
        }
    }
}

/// Does not count a view: opening the GIF does.
#[utoipa::path(
    get,
    path = "/api/gifs/random",
    tag = "gifs",
    summary = "A random GIF (of all, or of a tag, an uploader or a search)",
    params(RandomFrom),
    responses((status = 200, description = "A GIF, each as likely as any other", body = crate::dto::GifDto), (status = 400, description = "Invalid or several filters (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No GIF to pick from (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/random")]
async fn random(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    from: web::Query<RandomFrom>,
) -> Result<HttpResponse, ApiError> {
    let gif = state.gifs.random(user.id, &from.filter()?).await?;
    Ok(HttpResponse::Ok().json(GifDto::from(&gif)))
}

async fn set_favourite(state: &AppState, user: &Actor, id: i64, on: bool) -> Result<HttpResponse, ApiError> {
    let now = state.gifs.set_favourite(user, GifId(id), on).await?;
    Ok(HttpResponse::Ok().json(FavouriteStateDto { favourite: now.favourite, favourite_count: now.count }))
}

/// Idempotent: a GIF already among your favourites stays there once.
#[utoipa::path(
    put,
    path = "/api/gifs/{id}/favourite",
    tag = "gifs",
    summary = "Add a GIF to your favourites",
    params(("id" = i64, Path, description = "GIF id")),
    responses((status = 200, description = "The favourite state afterwards", body = crate::dto::FavouriteStateDto), (status = 400, description = "A malformed path parameter (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such GIF (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/gifs/{id}/favourite")]
async fn add_favourite(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    set_favourite(&state, &user, *id, true).await
}

/// Idempotent: removing a GIF that is no favourite changes nothing.
#[utoipa::path(
    delete,
    path = "/api/gifs/{id}/favourite",
    tag = "gifs",
    summary = "Remove a GIF from your favourites",
    params(("id" = i64, Path, description = "GIF id")),
    responses((status = 200, description = "The favourite state afterwards", body = crate::dto::FavouriteStateDto), (status = 400, description = "A malformed path parameter (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such GIF (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[delete("/gifs/{id}/favourite")]
async fn remove_favourite(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    set_favourite(&state, &user, *id, false).await
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
async fn detail(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let gif = state.gifs.view(&user, GifId(*id)).await?;
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
pub(super) async fn read_field(
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
    responses((status = 201, description = "Stored, with its renditions and the GIFs it looks like", body = crate::dto::UploadedGifDto), (status = 400, description = "Bad form or refused image (`validation`, `unsupported_type`, `invalid_image`, `image_too_large`, `image_too_complex`)", body = crate::dto::ApiErrorBody), (status = 409, description = "Byte for byte a GIF of the library (`duplicate`, with `existingId`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 408, description = "The body took too long to arrive (`request_timeout`)", body = crate::dto::ApiErrorBody), (status = 413, description = "Over the upload limit (`too_large`)", body = crate::dto::ApiErrorBody), (status = 503, description = "Too many uploads being processed (`unavailable`)", body = crate::dto::ApiErrorBody)),
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
    let declared = declared_length(&req);
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
    let uploaded = state
        .gifs
        .upload(
            &user,
            UploadInput {
                title: data.title,
                description: data.description,
                tags: data.tags,
                rating: data.rating,
                bytes: std::sync::Arc::new(file),
                caption_text: None,
            },
        )
        .await?;
    Ok(HttpResponse::Created().json(UploadedGifDto {
        gif: GifDto::from(&uploaded.gif),
        likely_duplicates: uploaded.likely_duplicates.iter().map(GifLinkDto::from).collect(),
    }))
}

#[utoipa::path(
    get,
    path = "/api/gifs/{id}/looks-like",
    tag = "gifs",
    summary = "The GIFs this one looks like (near duplicates), closest first",
    params(("id" = i64, Path, description = "GIF id")),
    responses((status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 200, description = "At most five GIFs", body = Vec<crate::dto::GifLinkDto>), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such GIF (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/gifs/{id}/looks-like")]
async fn looks_like(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let similar = state.gifs.looks_like(&user, GifId(*id)).await?;
    Ok(HttpResponse::Ok().json(similar.iter().map(GifLinkDto::from).collect::<Vec<_>>()))
}

#[utoipa::path(
    get,
    path = "/api/admin/duplicates",
    tag = "gifs",
    summary = "Groups of near-duplicate GIFs to review (admins)",
    responses((status = 200, description = "The groups, by id", body = crate::dto::DuplicateGroupsDto), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/admin/duplicates")]
async fn duplicate_groups(state: web::Data<AppState>, SignedIn(user): SignedIn) -> Result<HttpResponse, ApiError> {
    let groups = state.gifs.duplicate_groups(&user).await?;
    Ok(HttpResponse::Ok()
        .json(DuplicateGroupsDto { groups: groups.iter().map(|g| g.iter().map(GifLinkDto::from).collect()).collect() }))
}

#[utoipa::path(
    put,
    path = "/api/gifs/{id}",
    tag = "gifs",
    summary = "Edit title, description, tags, rating and the text in the GIF (owner or admin)",
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
    let gif = state
        .gifs
        .update(
            &user,
            GifId(*id),
            gifshelf_app::gifs::EditInput {
                title: &body.title,
                description: &body.description,
                tags: &body.tags,
                rating: body.rating.as_deref(),
                caption_text: body.caption_text.as_deref(),
            },
        )
        .await?;
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
