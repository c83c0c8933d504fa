use actix_web::{post, web, HttpRequest, HttpResponse};
use gifshelf_domain::user::Registration;

use crate::dto::{GoogleLoginRequest, LoginRequest, ProfileDto, RegisterRequest, TokenResponse};
use crate::extract::client_ip;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(register).service(login).service(google);
}

#[post("/auth/register")]
async fn register(state: web::Data<AppState>, body: web::Json<RegisterRequest>) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let registration = Registration::parse(&body.username, &body.email, &body.password, &body.confirm_password)
        .map_err(gifshelf_app::AppError::from)?;
    let user = state.auth.register(registration).await?;
    Ok(HttpResponse::Created()
        .json(ProfileDto { username: user.username.into_inner(), email: user.email.as_str().to_owned() }))
}

#[post("/auth/login")]
async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<LoginRequest>,
) -> Result<HttpResponse, ApiError> {
    let ip = client_ip(&req, state.settings.trust_forwarded_for);
    let token = state.auth.login(&body.username, &body.password, ip).await?;
    Ok(HttpResponse::Ok().json(TokenResponse { token }))
}

/// Sign-in with a third-party provider's ID token (Google by default): our own token back, as for a
/// password login.
#[post("/auth/google")]
async fn google(state: web::Data<AppState>, body: web::Json<GoogleLoginRequest>) -> Result<HttpResponse, ApiError> {
    let token = state.auth.sign_in_with_id_token(&body.token).await?;
    Ok(HttpResponse::Ok().json(TokenResponse { token }))
}
