use actix_web::http::StatusCode;
use actix_web::{get, web, HttpResponse};

use crate::dto::{HealthDto, PublicConfig};
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(health).service(config);
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
    }))
}
