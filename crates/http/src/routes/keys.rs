//! API keys of the signed-in person: make one (its secret is answered once), list, revoke.

use actix_web::{delete, get, post, web, HttpResponse};
use gifshelf_domain::api_key::ApiKeyId;

use crate::dto::{ApiKeyDto, CreateApiKeyRequest, CreatedApiKeyDto};
use crate::extract::SignedIn;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(create).service(list).service(revoke);
}

#[utoipa::path(
    post,
    path = "/api/keys",
    tag = "keys",
    summary = "Make an API key for the chat-compatible APIs; the key is in this answer only",
    request_body = crate::dto::CreateApiKeyRequest,
    responses((status = 201, description = "The key, shown once (only its digest is stored)", body = crate::dto::CreatedApiKeyDto), (status = 400, description = "A blank or too long name, or a malformed body (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 409, description = "Too many keys already (`conflict`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`bad_request`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/keys")]
async fn create(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    body: web::Json<CreateApiKeyRequest>,
) -> Result<HttpResponse, ApiError> {
    let minted = state.keys.create(&user, &body.name).await?;
    Ok(HttpResponse::Created().json(CreatedApiKeyDto {
        id: minted.key.id.0,
        name: minted.key.name.as_str().to_owned(),
        key: minted.secret,
        created_at: crate::dto::iso(minted.key.created_at),
    }))
}

#[utoipa::path(
    get,
    path = "/api/keys",
    tag = "keys",
    summary = "Your API keys (never the keys themselves: a prefix to tell them apart)",
    responses((status = 200, description = "Oldest first", body = Vec<crate::dto::ApiKeyDto>), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/keys")]
async fn list(state: web::Data<AppState>, SignedIn(user): SignedIn) -> Result<HttpResponse, ApiError> {
    let keys = state.keys.list(&user).await?;
    Ok(HttpResponse::Ok().json(keys.iter().map(ApiKeyDto::from).collect::<Vec<_>>()))
}

#[utoipa::path(
    delete,
    path = "/api/keys/{id}",
    tag = "keys",
    summary = "Revoke one of your API keys: it stops working at once",
    params(("id" = i64, Path, description = "Key id")),
    responses((status = 204, description = "Revoked"), (status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "You have no such key (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[delete("/keys/{id}")]
async fn revoke(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    state.keys.revoke(&user, ApiKeyId(*id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
