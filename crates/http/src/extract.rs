//! Extractors that turn a request's credential into the `Actor` it acts for.

use std::future::Future;
use std::pin::Pin;

use actix_web::http::header;
use actix_web::{dev::Payload, web, FromRequest, HttpRequest};
use gifshelf_app::auth::Actor;

use crate::{ApiError, AppState};

/// The message of spec §5 for a protected call without a token.
pub const NO_TOKEN: &str = "No authentication token";

/// A signed-in session (any role), from the bearer header. Missing, malformed, expired or refused
/// tokens give 401.
#[derive(Debug, Clone)]
pub struct SignedIn(pub Actor);

/// A signed-in user reading media: the bearer token, or the session cookie that `<img>` and
/// `<video>` send (they cannot send a header). Only safe reads take it; the JSON API never does.
#[derive(Debug, Clone)]
pub struct MediaViewer(pub Actor);

/// A signed-in admin; others get 403. The role is the one stored now, not the token's claim.
#[derive(Debug, Clone)]
pub struct Admin(pub Actor);

pub(crate) fn bearer(req: &HttpRequest) -> Option<String> {
    let value = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    (scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty()).then(|| token.trim().to_owned())
}

/// The actor a token opens, acting from the request's client address (for the audit log).
async fn authenticate(
    state: Option<web::Data<AppState>>,
    token: Option<String>,
    from: Option<std::net::IpAddr>,
) -> Result<Actor, ApiError> {
    let state = state.ok_or_else(ApiError::internal)?;
    let token = token.ok_or_else(|| ApiError::unauthorized(NO_TOKEN))?;
    let user = state.auth.authenticate(&token).await?;
    Ok(user.from_address(from))
}

fn client_address(req: &HttpRequest, state: Option<&web::Data<AppState>>) -> Option<std::net::IpAddr> {
    state.and_then(|state| crate::client::client_ip(req, &state.settings))
}

impl FromRequest for SignedIn {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let token = bearer(req);
        let from = client_address(req, state.as_ref());
        Box::pin(async move { authenticate(state, token, from).await.map(SignedIn) })
    }
}

impl FromRequest for Admin {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let token = bearer(req);
        let from = client_address(req, state.as_ref());
        Box::pin(async move {
            let actor = authenticate(state, token, from).await?;
            actor.require_admin()?;
            Ok(Admin(actor))
        })
    }
}

impl FromRequest for MediaViewer {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let token = bearer(req).or_else(|| crate::session_cookie::read(req));
        let from = client_address(req, state.as_ref());
        Box::pin(async move { authenticate(state, token, from).await.map(MediaViewer) })
    }
}
