use actix_web::{delete, get, post, put, web, HttpResponse};
use gifshelf_domain::gif::TagId;
use serde::Deserialize;

use crate::dto::{DeletedTagsResponse, TagDto};
use crate::extract::{AdminUser, AuthUser};
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    // `/tags/empty` before `/tags/{id}`, which would not parse "empty" as an id.
    cfg.service(list).service(create).service(one).service(delete_empty).service(rename).service(remove);
}

/// Every tag with its GIF count, by count descending then name.
#[get("/tags")]
async fn list(state: web::Data<AppState>, _user: AuthUser) -> Result<HttpResponse, ApiError> {
    let tags = state.gifs.tags().await?;
    Ok(HttpResponse::Ok().json(tags.iter().map(TagDto::from).collect::<Vec<_>>()))
}

#[get("/tags/{name}")]
async fn one(state: web::Data<AppState>, _user: AuthUser, name: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let tag = state.gifs.tag(&name).await?;
    Ok(HttpResponse::Ok().json(TagDto::from(&tag)))
}

#[derive(Debug, Deserialize)]
struct NameQuery {
    #[serde(default)]
    name: String,
}

/// Any signed-in user may create a tag (spec §6).
#[post("/tags")]
async fn create(
    state: web::Data<AppState>,
    _user: AuthUser,
    query: web::Query<NameQuery>,
) -> Result<HttpResponse, ApiError> {
    let tag = state.gifs.create_tag(&query.name).await?;
    Ok(HttpResponse::Created().json(TagDto::from(&tag)))
}

/// Admins only: rename (a blank or unchanged name is a 400, a taken one a 409).
#[put("/tags/{id}")]
async fn rename(
    state: web::Data<AppState>,
    _admin: AdminUser,
    id: web::Path<i64>,
    query: web::Query<NameQuery>,
) -> Result<HttpResponse, ApiError> {
    let tag = state.gifs.rename_tag(TagId(*id), &query.name).await?;
    Ok(HttpResponse::Ok().json(TagDto::from(&tag)))
}

/// Admins only: the GIFs stay and lose the tag.
#[delete("/tags/{id}")]
async fn remove(state: web::Data<AppState>, _admin: AdminUser, id: web::Path<i64>) -> Result<HttpResponse, ApiError> {
    state.gifs.delete_tag(TagId(*id)).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Admins only: removes every tag with no GIFs.
#[delete("/tags/empty")]
async fn delete_empty(state: web::Data<AppState>, _admin: AdminUser) -> Result<HttpResponse, ApiError> {
    let deleted = state.gifs.delete_empty_tags().await?;
    Ok(HttpResponse::Ok().json(DeletedTagsResponse { deleted_ids: deleted.into_iter().map(|id| id.0).collect() }))
}
