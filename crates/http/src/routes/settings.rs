use actix_web::http::header;
use actix_web::{delete, get, post, put, web, HttpRequest, HttpResponse};
use gifshelf_domain::gif::GifFilter;
use serde::Deserialize;

use crate::dto::{
    ChangePasswordRequest, GoogleLoginRequest, IdentityDto, ProfileDto, TokenResponse, UpdateProfileRequest,
};
use crate::extract::{MediaViewer, SignedIn};
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(get_profile)
        .service(update_profile)
        .service(change_password)
        .service(list_identities)
        .service(link_identity)
        .service(unlink_identity)
        .service(export_zip);
}

/// Every original you uploaded and a `manifest.json` (titles, descriptions, tags, dates, file
/// names), as a ZIP streamed while it is written. The session cookie is enough, so a plain link
/// downloads it.
#[utoipa::path(
    get,
    path = "/api/settings/export.zip",
    tag = "settings",
    summary = "Download every GIF you uploaded, with a manifest (a streamed ZIP)",
    responses((status = 200, description = "The archive", content_type = "application/zip", body = Vec<u8>), (status = 401, description = "Neither a bearer token nor a session cookie (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []), ("session_cookie" = []))
)]
#[get("/settings/export.zip")]
async fn export_zip(state: web::Data<AppState>, MediaViewer(user): MediaViewer) -> Result<HttpResponse, ApiError> {
    let filter = GifFilter::User(user.username.as_str().to_owned());
    let now = state.clock.now();
    let date = now.format("%Y-%m-%d");
    let name = format!("gifshelf-{date}.zip");
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "application/zip"))
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")))
        .insert_header((header::CACHE_CONTROL, "private, no-store"))
        .streaming(crate::archive::originals(state.gifs.clone(), filter, None, now)))
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
    Ok(HttpResponse::Ok().json(ProfileDto {
        username: profile.username,
        email: profile.email,
        has_password: profile.has_password,
    }))
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
    Ok(HttpResponse::Ok().json(ProfileDto {
        username: profile.username,
        email: profile.email,
        has_password: profile.has_password,
    }))
}

/// Other sessions end; the caller gets a fresh token and stays signed in.
#[utoipa::path(
    put,
    path = "/api/settings/password",
    tag = "settings",
    summary = "Change your password (other sessions and older API keys end)",
    request_body = crate::dto::ChangePasswordRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 200, description = "A fresh token for this session", body = crate::dto::TokenResponse), (status = 400, description = "A rule failed, or the current password is missing or wrong (`validation`, field `currentPassword`: \"Current password is incorrect\")", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 429, description = "Too many wrong current passwords; see Retry-After (`too_many_requests`)", body = crate::dto::ApiErrorBody), (status = 503, description = "Password hashing is saturated (`unavailable`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/settings/password")]
async fn change_password(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    req: HttpRequest,
    body: web::Json<ChangePasswordRequest>,
) -> Result<HttpResponse, ApiError> {
    let token = state
        .auth
        .change_password(&user, body.current_password.as_deref(), &body.new_password, &body.confirm_password)
        .await?;
    // The old cookie names a token the change just ended.
    Ok(HttpResponse::Ok()
        .insert_header(crate::session_cookie::set(&req, &state.settings, &token))
        .json(TokenResponse { token }))
}

fn identity_list(identities: &[gifshelf_domain::auth::LinkedIdentity]) -> Vec<IdentityDto> {
    identities.iter().map(IdentityDto::from).collect()
}

#[utoipa::path(
    get,
    path = "/api/settings/identities",
    tag = "settings",
    summary = "Your connected sign-in identities (Google or another OpenID provider)",
    responses((status = 200, description = "The connected identities", body = Vec<crate::dto::IdentityDto>), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/settings/identities")]
async fn list_identities(state: web::Data<AppState>, SignedIn(actor): SignedIn) -> Result<HttpResponse, ApiError> {
    Ok(HttpResponse::Ok().json(identity_list(&state.auth.identities(&actor).await?)))
}

/// Connects the identity an ID token vouches for to your account: the only way an identity joins
/// an existing account.
#[utoipa::path(
    post,
    path = "/api/settings/identities",
    tag = "settings",
    summary = "Connect a Google (OpenID Connect) identity to your account",
    request_body = crate::dto::GoogleLoginRequest,
    responses((status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = crate::dto::ApiErrorBody), (status = 201, description = "Connected; the identities now", body = Vec<crate::dto::IdentityDto>), (status = 400, description = "Malformed body (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing session, or the ID token was refused (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No client id configured (`not_configured`)", body = crate::dto::ApiErrorBody), (status = 409, description = "Connected to another account, or one of this provider is connected already (`conflict`)", body = crate::dto::ApiErrorBody), (status = 503, description = "The provider cannot be reached (`unavailable`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/settings/identities")]
async fn link_identity(
    state: web::Data<AppState>,
    SignedIn(actor): SignedIn,
    body: web::Json<GoogleLoginRequest>,
) -> Result<HttpResponse, ApiError> {
    let identities = state.auth.link_identity(&actor, &body.token).await?;
    Ok(HttpResponse::Created().json(identity_list(&identities)))
}

/// Which connected identity to disconnect.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct IssuerQuery {
    /// The provider's issuer URL.
    issuer: String,
}

#[utoipa::path(
    delete,
    path = "/api/settings/identities",
    tag = "settings",
    summary = "Disconnect a sign-in identity (never your only way in)",
    params(IssuerQuery),
    responses((status = 204, description = "Disconnected"), (status = 400, description = "No issuer given (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 404, description = "None connected there (`not_found`)", body = crate::dto::ApiErrorBody), (status = 409, description = "It is your only way to sign in (`conflict`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[delete("/settings/identities")]
async fn unlink_identity(
    state: web::Data<AppState>,
    SignedIn(actor): SignedIn,
    query: web::Query<IssuerQuery>,
) -> Result<HttpResponse, ApiError> {
    state.auth.unlink_identity(&actor, &query.issuer).await?;
    Ok(HttpResponse::NoContent().finish())
}
