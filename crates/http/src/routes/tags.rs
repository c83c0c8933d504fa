use actix_web::{delete, get, post, put, web, HttpResponse};
use gifshelf_domain::gif::TagId;
use serde::Deserialize;

use crate::dto::{DeletedTagsResponse, TagDto};
use crate::extract::{Admin, SignedIn};
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    // `/tags/empty` before `/tags/{id}`, which would not parse "empty" as an id.
    cfg.service(list).service(create).service(one).service(delete_empty).service(rename).service(remove);
}

/// Every tag with its GIF count, by count descending then name.
#[utoipa::path(
    get,
    path = "/api/tags",
    tag = "tags",
    summary = "Every tag with its GIF count",
    responses((status = 200, description = "Tags by count, then name", body = Vec<crate::dto::TagDto>), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/tags")]
async fn list(state: web::Data<AppState>, _user: SignedIn) -> Result<HttpResponse, ApiError> {
    let tags = state.gifs.tags().await?;
    Ok(HttpResponse::Ok().json(tags.iter().map(TagDto::from).collect::<Vec<_>>()))
}

#[utoipa::path(
    get,
    path = "/api/tags/{name}",
    tag = "tags",
    summary = "One tag",
    params(("name" = String, Path, description = "Tag name")),
    responses((status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The tag", body = crate::dto::TagDto), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such tag (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/tags/{name}")]
async fn one(state: web::Data<AppState>, _user: SignedIn, name: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let tag = state.gifs.tag(&name).await?;
    Ok(HttpResponse::Ok().json(TagDto::from(&tag)))
}

#[derive(Debug, Deserialize)]
struct NameQuery {
    #[serde(default)]
    name: String,
}

/// Any signed-in user may create a tag (spec §6).
#[utoipa::path(
    post,
    path = "/api/tags",
    tag = "tags",
    summary = "Create a tag",
    params(("name" = String, Query, description = "The new tag")),
    responses((status = 201, description = "Created", body = crate::dto::TagDto), (status = 400, description = "Invalid paging or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 409, description = "Exists (`conflict`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/tags")]
async fn create(
    state: web::Data<AppState>,
    _user: SignedIn,
    query: web::Query<NameQuery>,
) -> Result<HttpResponse, ApiError> {
    let tag = state.gifs.create_tag(&query.name).await?;
    Ok(HttpResponse::Created().json(TagDto::from(&tag)))
}

/// Admins only: rename (a blank or unchanged name is a 400, a taken one a 409).
#[utoipa::path(
    put,
    path = "/api/tags/{id}",
    tag = "tags",
    summary = "Rename a tag (admins)",
    params(("id" = i64, Path, description = "Tag id"), ("name" = String, Query, description = "The new name")),
    responses((status = 200, description = "Renamed", body = crate::dto::TagDto), (status = 400, description = "Invalid paging or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such tag (`not_found`)", body = crate::dto::ApiErrorBody), (status = 409, description = "Name taken (`conflict`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/tags/{id}")]
async fn rename(
    state: web::Data<AppState>,
    _admin: Admin,
    id: web::Path<i64>,
    query: web::Query<NameQuery>,
) -> Result<HttpResponse, ApiError> {
    let tag = state.gifs.rename_tag(TagId(*id), &query.name).await?;
    Ok(HttpResponse::Ok().json(TagDto::from(&tag)))
}

/// Admins only: the GIFs stay and lose the tag.
#[utoipa::path(
    delete,
    path = "/api/tags/{id}",
    tag = "tags",
    summary = "Delete a tag; its GIFs stay (admins)",
    params(("id" = i64, Path, description = "Tag id")),
    responses((status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 204, description = "Deleted"), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such tag (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[delete("/tags/{id}")]
async fn remove(state: web::Data<AppState>, _admin: Admin, id: web::Path<i64>) -> Result<HttpResponse, ApiError> {
    state.gifs.delete_tag(TagId(*id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Admins only: removes every tag with no GIFs.
#[utoipa::path(
    delete,
    path = "/api/tags/empty",
    tag = "tags",
    summary = "Delete every tag without GIFs (admins)",
    responses((status = 200, description = "The ids removed", body = crate::dto::DeletedTagsResponse), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[delete("/tags/empty")]
async fn delete_empty(state: web::Data<AppState>, _admin: Admin) -> Result<HttpResponse, ApiError> {
    let deleted = state.gifs.delete_empty_tags().await?;
    Ok(HttpResponse::Ok().json(DeletedTagsResponse { deleted_ids: deleted.into_iter().map(|id| id.0).collect() }))
}
