//! Accounts (admins): removing a member, password reset links and quotas; a member's usage; and
//! the public use of a reset link.

use actix_web::{delete, get, post, put, web, HttpRequest, HttpResponse};
use gifshelf_domain::account::{GifDisposal, Quota};
use gifshelf_domain::user::UserId;
use serde::Deserialize;

use crate::client::{client_ip, origin};
use crate::dto::{iso, PasswordResetLinkDto, QuotaDto, ResetPasswordRequest, UsageDto};
use crate::extract::{Admin, SignedIn};
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(remove)
        .service(reset_link)
        .service(reset_password)
        .service(default_quota)
        .service(set_default_quota)
        .service(member_quota)
        .service(set_member_quota)
        .service(usage);
}

/// `DELETE /api/admin/users/{id}`: what becomes of the member's GIFs.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct RemoveQuery {
    /// `delete` (the GIFs and their files go) or `transfer` (they become `to`'s). Required.
    #[param(pattern = "^(delete|transfer)$")]
    gifs: Option<String>,
    /// With `transfer`: the id of another active member.
    to: Option<i64>,
}

fn quota_of(body: QuotaDto) -> Result<Quota, ApiError> {
    Quota::new(body.storage_bytes, body.uploads_per_day).map_err(|e| gifshelf_app::AppError::from(e).into())
}

#[utoipa::path(
    delete,
    path = "/api/admin/users/{id}",
    tag = "members",
    summary = "Remove a member's account with its keys, favourites and collections; its GIFs are deleted (files too) or handed to another member (admins)",
    params(("id" = i64, Path, description = "User id"), RemoveQuery),
    responses((status = 204, description = "Removed"), (status = 400, description = "`gifs` missing or unknown, `to` missing, unknown, disabled or the member removed (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such member (`not_found`)", body = crate::dto::ApiErrorBody), (status = 409, description = "The last active administrator, or the admin's own account (`last_admin`, `own_account`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[delete("/admin/users/{id}")]
async fn remove(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    id: web::Path<i64>,
    query: web::Query<RemoveQuery>,
) -> Result<HttpResponse, ApiError> {
    let gifs = GifDisposal::parse(query.gifs.as_deref(), query.to).map_err(gifshelf_app::AppError::from)?;
    state.accounts.remove(&admin, UserId(*id), gifs).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(
    post,
    path = "/api/admin/users/{id}/password-reset",
    tag = "members",
    summary = "A one-time link, valid 24 hours, with which the member sets a new password; it replaces the member's earlier link (admins)",
    params(("id" = i64, Path, description = "User id")),
    responses((status = 400, description = "A malformed member id (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 201, description = "The link, shown once", body = crate::dto::PasswordResetLinkDto), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such member (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/admin/users/{id}/password-reset")]
async fn reset_link(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    req: HttpRequest,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let link = state.accounts.reset_link(&admin, UserId(*id)).await?;
    Ok(HttpResponse::Created().json(PasswordResetLinkDto {
        url: format!("{}/reset/{}", origin(&req, &state.settings), link.token),
        expires_at: iso(link.expires_at),
    }))
}

#[utoipa::path(
    post,
    path = "/api/auth/password-reset",
    tag = "auth",
    summary = "Set a new password with a reset link's token; the link is used up and the member's earlier sessions and API keys stop working",
    request_body = crate::dto::ResetPasswordRequest,
    responses((status = 204, description = "The password is set; sign in with it"), (status = 400, description = "The password breaks a rule, a malformed body, or a used, expired, replaced or unknown link (`validation`, `bad_request`, `reset_invalid`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`unsupported_media_type`)", body = crate::dto::ApiErrorBody))
)]
#[post("/auth/password-reset")]
async fn reset_password(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<ResetPasswordRequest>,
) -> Result<HttpResponse, ApiError> {
    let from = client_ip(&req, &state.settings);
    state.accounts.reset_password(&body.token, &body.password, from).await?;
    Ok(HttpResponse::NoContent().finish())
}

#[utoipa::path(
    get,
    path = "/api/admin/quotas",
    tag = "members",
    summary = "The quota for every member without their own (null: unlimited) (admins)",
    responses((status = 200, description = "The defaults", body = crate::dto::QuotaDto), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/admin/quotas")]
async fn default_quota(state: web::Data<AppState>, Admin(admin): Admin) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(QuotaDto::from(state.accounts.default_quota(&admin).await?)))
}

#[utoipa::path(
    put,
    path = "/api/admin/quotas",
    tag = "members",
    summary = "Set the quota for every member without their own (null: unlimited) (admins)",
    request_body = crate::dto::QuotaDto,
    responses((status = 200, description = "The defaults as stored", body = crate::dto::QuotaDto), (status = 400, description = "A negative value or a malformed body (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`unsupported_media_type`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/admin/quotas")]
async fn set_default_quota(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    body: web::Json<QuotaDto>,
) -> Result<HttpResponse, ApiError> {
    let quota = quota_of(*body)?;
    Ok(HttpResponse::Ok().json(QuotaDto::from(state.accounts.set_default_quota(&admin, quota).await?)))
}

#[utoipa::path(
    get,
    path = "/api/admin/users/{id}/quota",
    tag = "members",
    summary = "A member's own quota (null: the default) (admins)",
    params(("id" = i64, Path, description = "User id")),
    responses((status = 400, description = "A malformed member id (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The member's override", body = crate::dto::QuotaDto), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such member (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/admin/users/{id}/quota")]
async fn member_quota(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(QuotaDto::from(state.accounts.member_quota(&admin, UserId(*id)).await?)))
}

#[utoipa::path(
    put,
    path = "/api/admin/users/{id}/quota",
    tag = "members",
    summary = "Set a member's own quota (null: the default) (admins)",
    params(("id" = i64, Path, description = "User id")),
    request_body = crate::dto::QuotaDto,
    responses((status = 200, description = "The override as stored", body = crate::dto::QuotaDto), (status = 400, description = "A negative value or a malformed body (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such member (`not_found`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`unsupported_media_type`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/admin/users/{id}/quota")]
async fn set_member_quota(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    id: web::Path<i64>,
    body: web::Json<QuotaDto>,
) -> Result<HttpResponse, ApiError> {
    let quota = quota_of(*body)?;
    Ok(HttpResponse::Ok().json(QuotaDto::from(state.accounts.set_member_quota(&admin, UserId(*id), quota).await?)))
}

#[utoipa::path(
    get,
    path = "/api/settings/usage",
    tag = "settings",
    summary = "What you store and upload today, and your quotas (null: unlimited)",
    responses((status = 200, description = "Usage and limits", body = crate::dto::UsageDto), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/settings/usage")]
async fn usage(state: web::Data<AppState>, SignedIn(user): SignedIn) -> Result<HttpResponse, ApiError> {
    let (quota, usage) = state.accounts.usage(&user).await?;
    Ok(HttpResponse::Ok().json(UsageDto {
        storage_bytes: usage.storage_bytes,
        storage_limit: quota.storage_bytes,
        uploads_today: usage.uploads_today,
        uploads_per_day: quota.uploads_per_day,
    }))
}
