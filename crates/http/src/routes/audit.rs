//! The audit log (admins): admin and security events, newest first.

use actix_web::{get, web, HttpResponse};

use super::gifs::Paging;
use crate::dto::PagedAuditEvents;
use crate::extract::SignedIn;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(events);
}

#[utoipa::path(
    get,
    path = "/api/admin/audit",
    tag = "admin",
    summary = "The audit log: who did what to whom, when and from which address (admins)",
    params(Paging),
    responses((status = 200, description = "Newest first", body = crate::dto::PagedAuditEvents), (status = 400, description = "A page size outside 1 to 100 or a page out of range (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/admin/audit")]
async fn events(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    paging: web::Query<Paging>,
) -> Result<HttpResponse, ApiError> {
    let page = state.audit.events(&user, paging.request()?).await?;
    Ok(HttpResponse::Ok().json(PagedAuditEvents::from(page)))
}
