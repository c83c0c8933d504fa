use actix_web::{get, put, web, HttpRequest, HttpResponse};

use crate::dto::{ChangePasswordRequest, ProfileDto, TokenResponse, UpdateProfileRequest};
use crate::extract::SignedIn;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(get_profile).service(update_profile).service(change_password);
}

#[utoipa::path(
    get,
    path = "/api/settings/profile",
    tag = "settings",
    summary = "Your username and email",
    responses((status = 200, description = "The profile", body = crate::dto::ProfileDto), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/settings/profile")]
async fn get_profile(state: web::Data<AppState>, SignedIn(user): SignedIn) -> Result<HttpResponse, ApiError> {
    let profile = state.auth.profile(&user).await?;
    Ok(HttpResponse::Ok().json(ProfileDto { username: profile.username, email: profile.email }))
}

/// Changing the username ends every session of the account (spec §4: the client logs out).
#[utoipa::path(
    put,
    path = "/api/settings/profile",
    tag = "settings",
    summary = "Change username and email (a rename ends every session)",
    request_body = crate::dto::UpdateProfileRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 200, description = "The new profile", body = crate::dto::ProfileDto), (status = 400, description = "Invalid paging or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 409, description = "Username or email taken (`conflict`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/settings/profile")]
async fn update_profile(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    body: web::Json<UpdateProfileRequest>,
) -> Result<HttpResponse, ApiError> {
    let profile = state.auth.update_profile(&user, &body.username, body.email.as_deref()).await?;
    Ok(HttpResponse::Ok().json(ProfileDto { username: profile.username, email: profile.email }))
}

/// Other sessions end; the caller gets a fresh token and stays signed in.
#[utoipa::path(
    put,
    path = "/api/settings/password",
    tag = "settings",
    summary = "Change your password (other sessions end)",
    request_body = crate::dto::ChangePasswordRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 200, description = "A fresh token for this session", body = crate::dto::TokenResponse), (status = 400, description = "Invalid paging or input (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/settings/password")]
async fn change_password(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    req: HttpRequest,
    body: web::Json<ChangePasswordRequest>,
) -> Result<HttpResponse, ApiError> {
    let token = state.auth.change_password(&user, &body.new_password, &body.confirm_password).await?;
    // The old cookie names a token the change just ended.
    Ok(HttpResponse::Ok()
        .insert_header(crate::session_cookie::set(&req, &state.settings, &token))
        .json(TokenResponse { token }))
}
