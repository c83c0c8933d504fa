use actix_web::http::StatusCode;
use actix_web::{get, web, HttpResponse};

use crate::dto::{HealthDto, ProbeDto, PublicConfig};
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(live).service(ready).service(health).service(config);
}

/// Liveness and readiness: answers 200 only when the database does.
#[utoipa::path(
    get,
    path = "/api/health",
    tag = "meta",
    summary = "Liveness and database readiness",
    responses((status = 200, description = "Up", body = crate::dto::HealthDto), (status = 503, description = "The database is not reachable (`unavailable`)", body = crate::dto::ApiErrorBody))
)]
#[get("/health")]
async fn health(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    match state.users.ping().await {
        Ok(()) => Ok(HttpResponse::Ok().json(HealthDto { status: "ok".into(), database: "ok".into() })),
        Err(err) => {
            tracing::warn!(error = %err, "health check: database unreachable");
            Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                crate::dto::ErrorCode::Unavailable,
                "The database is not reachable.",
            ))
        }
    }
}

/// Liveness: the process answers (nothing else is checked, so a restart is never asked for a
/// database that is down).
#[utoipa::path(
    get,
    path = "/api/health/live",
    tag = "meta",
    summary = "Liveness: the process answers (public, no data)",
    responses((status = 200, description = "`{\"status\":\"ok\"}`", body = crate::dto::ProbeDto))
)]
#[get("/health/live")]
async fn live() -> HttpResponse {
    HttpResponse::Ok().json(ProbeDto { status: "ok".into(), failing: None })
}

/// Readiness: the database answers with this build's schema, the store takes a write, and the
/// job backlog is under its limit (`GIFSHELF_READY_MAX_BACKLOG`).
#[utoipa::path(
    get,
    path = "/api/health/ready",
    tag = "meta",
    summary = "Readiness: database, migrations, store, job backlog (public, no data)",
    responses(
        (status = 200, description = "`{\"status\":\"ok\"}`", body = crate::dto::ProbeDto),
        (status = 503, description = "`{\"status\":\"unavailable\",\"failing\":[names]}`: `database`, `migrations`, `store`, `job_backlog`", body = crate::dto::ProbeDto)
    )
)]
#[get("/health/ready")]
async fn ready(state: web::Data<AppState>) -> HttpResponse {
    let readiness = state.health.ready().await;
    if readiness.is_ready() {
        HttpResponse::Ok().json(ProbeDto { status: "ok".into(), failing: None })
    } else {
        let failing = readiness.failing.iter().map(|name| (*name).to_owned()).collect();
        HttpResponse::ServiceUnavailable().json(ProbeDto { status: "unavailable".into(), failing: Some(failing) })
    }
}

/// What the SPA needs before sign-in.
#[utoipa::path(
    get,
    path = "/api/config",
    tag = "meta",
    summary = "What this server offers (public)",
    responses((status = 200, description = "Public configuration", body = crate::dto::PublicConfig), (status = 503, description = "The database is not reachable (`unavailable`)", body = crate::dto::ApiErrorBody))
)]
#[get("/config")]
async fn config(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let policy = state.join.current().await?;
    Ok(HttpResponse::Ok().json(PublicConfig {
        google_client_id: state.settings.google_client_id.clone(),
        max_upload_bytes: state.settings.max_upload_bytes,
        version: state.settings.version.clone(),
        registration: policy.mode.as_str().to_owned(),
        members_may_invite: policy.members_may_invite,
    }))
}
