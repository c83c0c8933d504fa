use actix_web::{get, put, web, HttpResponse};

use crate::dto::{ChangePasswordRequest, ProfileDto, TokenResponse, UpdateProfileRequest};
use crate::extract::AuthUser;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(get_profile).service(update_profile).service(change_password);
}

#[get("/settings/profile")]
async fn get_profile(state: web::Data<AppState>, AuthUser(user): AuthUser) -> Result<HttpResponse, ApiError> {
    let profile = state.auth.profile(&user).await?;
    Ok(HttpResponse::Ok().json(ProfileDto { username: profile.username, email: profile.email }))
}

/// Changing the username ends every session of the account (spec §4: the client logs out).
#[put("/settings/profile")]
async fn update_profile(
    state: web::Data<AppState>,
    AuthUser(user): AuthUser,
    body: web::Json<UpdateProfileRequest>,
) -> Result<HttpResponse, ApiError> {
    let profile = state.auth.update_profile(&user, &body.username, body.email.as_deref()).await?;
    Ok(HttpResponse::Ok().json(ProfileDto { username: profile.username, email: profile.email }))
}

/// Other sessions end; the caller gets a fresh token and stays signed in.
#[put("/settings/password")]
async fn change_password(
    state: web::Data<AppState>,
    AuthUser(user): AuthUser,
    body: web::Json<ChangePasswordRequest>,
) -> Result<HttpResponse, ApiError> {
    let token = state.auth.change_password(&user, &body.new_password, &body.confirm_password).await?;
    Ok(HttpResponse::Ok().json(TokenResponse { token }))
}
