use actix_web::{get, post, web, HttpResponse};
use serde::Deserialize;

use crate::dto::TagDto;
use crate::extract::AuthUser;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(list).service(create).service(one);
}

/// Every tag with its GIF count, by count descending then name.
#[get("/tags")]
async fn list(state: web::Data<AppState>, _user: AuthUser) -> Result<HttpResponse, ApiError> {
    let tags = state.gifs.tags().await?;
    Ok(HttpResponse::Ok().json(tags.iter().map(TagDto::from).collect::<Vec<_>>()))
}

#[get("/tags/{name}")]
async fn one(
    state: web::Data<AppState>,
    _user: AuthUser,
    name: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
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
