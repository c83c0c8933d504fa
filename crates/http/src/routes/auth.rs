use actix_web::{post, web, HttpRequest, HttpResponse};
use gifshelf_domain::user::Registration;

use crate::client::client_ip;
use crate::dto::{GoogleLoginRequest, LoginRequest, ProfileDto, RegisterRequest, TokenResponse};
use crate::extract::{bearer, SignedIn, NO_TOKEN};
use crate::session_cookie;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(register).service(login).service(google).service(session).service(logout);
}

#[utoipa::path(
    post,
    path = "/api/auth/register",
    tag = "auth",
    summary = "Create an account (the first one becomes admin)",
    request_body = crate::dto::RegisterRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 201, description = "Created; registration does not sign in", body = crate::dto::ProfileDto), (status = 400, description = "A rule of the form failed (`validation`)", body = crate::dto::ApiErrorBody), (status = 403, description = "The registration policy refuses the account (`registration_closed`, `invitation_required`, `invitation_invalid`, `email_domain_not_allowed`)", body = crate::dto::ApiErrorBody), (status = 409, description = "Username or email taken (`conflict`)", body = crate::dto::ApiErrorBody), (status = 429, description = "Too many registrations from this address; see Retry-After (`too_many_requests`)", body = crate::dto::ApiErrorBody), (status = 503, description = "Password hashing is saturated (`unavailable`)", body = crate::dto::ApiErrorBody))
)]
#[post("/auth/register")]
async fn register(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<RegisterRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let registration = Registration::parse(&body.username, &body.email, &body.password, &body.confirm_password)
        .map_err(gifshelf_app::AppError::from)?;
    let invite = body.invite.as_deref();
    let user = state.auth.register(registration, invite, client_ip(&req, &state.settings)).await?;
    Ok(HttpResponse::Created().json(ProfileDto {
        username: user.username.into_inner(),
        email: user.email.as_str().to_owned(),
        has_password: true,
    }))
}

#[utoipa::path(
    post,
    path = "/api/auth/login",
    tag = "auth",
    summary = "Sign in with username and password",
    request_body = crate::dto::LoginRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 200, description = "A session token", body = crate::dto::TokenResponse), (status = 400, description = "Malformed body (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Invalid username or password (`unauthorized`)", body = crate::dto::ApiErrorBody), (status = 429, description = "Too many failed logins; see Retry-After (`too_many_requests`)", body = crate::dto::ApiErrorBody))
)]
#[post("/auth/login")]
async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<LoginRequest>,
) -> Result<HttpResponse, ApiError> {
    let ip = client_ip(&req, &state.settings);
    let token = state.auth.login(&body.username, &body.password, ip).await?;
    Ok(HttpResponse::Ok()
        .insert_header(session_cookie::set(&req, &state.settings, &token))
        .json(TokenResponse { token }))
}

/// Sign-in with a third-party provider's ID token (Google by default): our own token back, as for a
/// password login.
#[utoipa::path(
    post,
    path = "/api/auth/google",
    tag = "auth",
    summary = "Sign in with a Google (OpenID Connect) ID token",
    request_body = crate::dto::GoogleLoginRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 200, description = "A session token", body = crate::dto::TokenResponse), (status = 400, description = "Malformed body (`validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "The ID token was refused (`unauthorized`)", body = crate::dto::ApiErrorBody), (status = 403, description = "A first sign-in the server makes no account for, or the registration policy refuses (`forbidden`, `registration_closed`, `invitation_required`, `invitation_invalid`, `email_domain_not_allowed`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No client id configured (`not_configured`)", body = crate::dto::ApiErrorBody), (status = 409, description = "The email belongs to an account that cannot be linked (`conflict`)", body = crate::dto::ApiErrorBody), (status = 503, description = "The provider cannot be reached (`unavailable`)", body = crate::dto::ApiErrorBody))
)]
#[post("/auth/google")]
async fn google(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<GoogleLoginRequest>,
) -> Result<HttpResponse, ApiError> {
    let token = state.auth.sign_in_with_id_token(&body.token, body.invite.as_deref()).await?;
    Ok(HttpResponse::Ok()
        .insert_header(session_cookie::set(&req, &state.settings, &token))
        .json(TokenResponse { token }))
}

/// Sets the media cookie from the bearer token: the SPA calls it when it restores a stored session.
#[utoipa::path(
    post,
    path = "/api/auth/session",
    tag = "auth",
    summary = "Set the session cookie that media requests use, from the bearer token",
    responses((status = 204, description = "Set (`Set-Cookie: gifshelf_session=…; HttpOnly; SameSite=Strict`)"), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/auth/session")]
async fn session(state: web::Data<AppState>, _user: SignedIn, req: HttpRequest) -> Result<HttpResponse, ApiError> {
    let token = bearer(&req).ok_or_else(|| ApiError::unauthorized(NO_TOKEN))?;
    Ok(HttpResponse::NoContent().insert_header(session_cookie::set(&req, &state.settings, &token)).finish())
}

/// Clears the media cookie. Needs no session: signing out always works.
#[utoipa::path(
    post,
    path = "/api/auth/logout",
    tag = "auth",
    summary = "Clear the session cookie",
    responses((status = 204, description = "Cleared (`Set-Cookie` with `Max-Age=0`)"))
)]
#[post("/auth/logout")]
async fn logout(state: web::Data<AppState>, req: HttpRequest) -> HttpResponse {
    HttpResponse::NoContent().insert_header(session_cookie::clear(&req, &state.settings)).finish()
}
