//! Chat integrations (admins): the Slack signing secrets and the Mattermost and Zulip tokens slash
//! commands prove themselves with. Listed without the secrets.

use actix_web::{delete, get, post, put, web, HttpResponse};
use gifshelf_app::integrations::IntegrationForm;
use gifshelf_domain::integration::IntegrationId;

use crate::dto::{CreateIntegrationRequest, IntegrationDto, UpdateIntegrationRequest};
use crate::extract::Admin;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(list).service(create).service(update).service(remove);
}

#[utoipa::path(
    get,
    path = "/api/integrations",
    tag = "integrations",
    summary = "The chat integrations of slash commands (admins; never the secrets: their last 4 characters)",
    responses((status = 200, description = "Oldest first", body = Vec<crate::dto::IntegrationDto>), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/integrations")]
async fn list(state: web::Data<AppState>, Admin(admin): Admin) -> Result<HttpResponse, ApiError> {
    let integrations = state.integrations.list(&admin).await?;
    Ok(HttpResponse::Ok().json(integrations.iter().map(IntegrationDto::from).collect::<Vec<_>>()))
}

#[utoipa::path(
    post,
    path = "/api/integrations",
    tag = "integrations",
    summary = "Add a chat integration: a Slack signing secret, a Mattermost or a Zulip token (admins)",
    request_body = crate::dto::CreateIntegrationRequest,
    responses((status = 201, description = "Added; slash commands signed with it are answered at once", body = crate::dto::IntegrationDto), (status = 400, description = "An unknown platform, a blank or too long name, a secret not 8 to 200 characters, a maximum rating other than g, pg, pg-13 or r, or a malformed body (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 409, description = "Too many integrations already (`conflict`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`unsupported_media_type`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/integrations")]
async fn create(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    body: web::Json<CreateIntegrationRequest>,
) -> Result<HttpResponse, ApiError> {
    let form = IntegrationForm {
        platform: &body.platform,
        name: &body.name,
        secret: &body.secret,
        max_rating: body.max_rating.as_deref(),
    };
    let integration = state.integrations.create(&admin, form).await?;
    Ok(HttpResponse::Created().json(IntegrationDto::from(&integration)))
}

#[utoipa::path(
    put,
    path = "/api/integrations/{id}",
    tag = "integrations",
    summary = "Set the highest rating an integration's slash commands answer (admins; audited)",
    params(("id" = i64, Path, description = "Integration id")),
    request_body = crate::dto::UpdateIntegrationRequest,
    responses((status = 200, description = "The integration; its next command answers within the new maximum", body = crate::dto::IntegrationDto), (status = 400, description = "A maximum rating other than g, pg, pg-13 or r, a malformed path parameter or body (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such integration (`not_found`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`unsupported_media_type`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/integrations/{id}")]
async fn update(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    id: web::Path<i64>,
    body: web::Json<UpdateIntegrationRequest>,
) -> Result<HttpResponse, ApiError> {
    let integration = state.integrations.set_max_rating(&admin, IntegrationId(*id), &body.max_rating).await?;
    Ok(HttpResponse::Ok().json(IntegrationDto::from(&integration)))
}

#[utoipa::path(
    delete,
    path = "/api/integrations/{id}",
    tag = "integrations",
    summary = "Remove a chat integration: its commands are refused at once (admins)",
    params(("id" = i64, Path, description = "Integration id")),
    responses((status = 204, description = "Removed"), (status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such integration (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[delete("/integrations/{id}")]
async fn remove(state: web::Data<AppState>, Admin(admin): Admin, id: web::Path<i64>) -> Result<HttpResponse, ApiError> {
    state.integrations.remove(&admin, IntegrationId(*id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
