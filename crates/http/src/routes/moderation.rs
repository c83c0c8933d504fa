//! Moderation: members report GIFs; admins read the queue, hide or dismiss, and hide or restore a
//! GIF directly.

use actix_web::{get, post, put, web, HttpResponse};
use gifshelf_domain::gif::{GifId, PageRequest};
use gifshelf_domain::report::{ReportId, ReportStatus, Resolution};
use gifshelf_domain::ValidationError;
use serde::Deserialize;

use crate::dto::{
    CreateReportRequest, GifDto, PagedGifs, PagedReports, ReportDto, ResolveReportRequest, VisibilityRequest,
};
use crate::extract::{Admin, SignedIn};
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(file_report).service(queue).service(resolve).service(hidden_list).service(visibility);
}

fn invalid(err: ValidationError) -> ApiError {
    gifshelf_app::AppError::from(err).into()
}

#[utoipa::path(
    post,
    path = "/api/gifs/{id}/reports",
    tag = "moderation",
    summary = "Report a GIF to the admins: a reason and an optional note; again while open answers the open report",
    params(("id" = i64, Path, description = "GIF id")),
    request_body = crate::dto::CreateReportRequest,
    responses((status = 201, description = "The report, filed", body = crate::dto::ReportDto), (status = 200, description = "Your report of this GIF that is still open (nothing new stored)", body = crate::dto::ReportDto), (status = 400, description = "An unknown reason, a note over 500 characters, or a malformed body (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such GIF, or one you cannot see (`not_found`)", body = crate::dto::ApiErrorBody), (status = 409, description = "Your own GIF (`own_gif`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`unsupported_media_type`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/gifs/{id}/reports")]
async fn file_report(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
    body: web::Json<CreateReportRequest>,
) -> Result<HttpResponse, ApiError> {
    let note = body.note.as_deref().unwrap_or_default();
    let (report, new) = state.moderation.report(&user, GifId(*id), &body.reason, note).await?;
    let dto = ReportDto::from(&report);
    Ok(if new { HttpResponse::Created().json(dto) } else { HttpResponse::Ok().json(dto) })
}

/// `GET /api/admin/reports`: which reports and the page.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct ReportsQuery {
    /// `open` (default; oldest first) or `closed` (most recently closed first).
    status: Option<String>,
    /// Page number, from 0.
    page: Option<u32>,
    /// Page size, 1 to 100 (default 6).
    #[param(minimum = 1, maximum = 100, default = 6)]
    size: Option<u32>,
}

#[utoipa::path(
    get,
    path = "/api/admin/reports",
    tag = "moderation",
    summary = "The reports: open ones oldest first, or closed ones (admins)",
    params(ReportsQuery),
    responses((status = 200, description = "One page of reports", body = crate::dto::PagedReports), (status = 400, description = "An unknown status or invalid paging (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/admin/reports")]
async fn queue(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    query: web::Query<ReportsQuery>,
) -> Result<HttpResponse, ApiError> {
    let status = ReportStatus::parse(query.status.as_deref().unwrap_or("open")).map_err(invalid)?;
    let page = PageRequest::new(query.page, query.size).map_err(invalid)?;
    let reports = state.moderation.reports(&admin, status, page).await?;
    Ok(HttpResponse::Ok().json(PagedReports::from(reports)))
}

#[utoipa::path(
    put,
    path = "/api/admin/reports/{id}",
    tag = "moderation",
    summary = "Hide the reported GIF (closing all its open reports) or dismiss the report (admins)",
    params(("id" = i64, Path, description = "Report id")),
    request_body = crate::dto::ResolveReportRequest,
    responses((status = 200, description = "The report as closed", body = crate::dto::ReportDto), (status = 400, description = "An unknown action or a malformed body (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such report (`not_found`)", body = crate::dto::ApiErrorBody), (status = 409, description = "Closed already (`report_closed`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`unsupported_media_type`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/admin/reports/{id}")]
async fn resolve(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    id: web::Path<i64>,
    body: web::Json<ResolveReportRequest>,
) -> Result<HttpResponse, ApiError> {
    let resolution = match body.action.as_str() {
        "hide" => Resolution::Hidden,
        "dismiss" => Resolution::Dismissed,
        _ => return Err(invalid(ValidationError::new("action", "Action must be \"hide\" or \"dismiss\""))),
    };
    let report = state.moderation.resolve(&admin, ReportId(*id), resolution).await?;
    Ok(HttpResponse::Ok().json(ReportDto::from(&report)))
}

/// `GET /api/admin/gifs/hidden`: the page.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct HiddenQuery {
    /// Page number, from 0.
    page: Option<u32>,
    /// Page size, 1 to 100 (default 6).
    #[param(minimum = 1, maximum = 100, default = 6)]
    size: Option<u32>,
}

#[utoipa::path(
    get,
    path = "/api/admin/gifs/hidden",
    tag = "moderation",
    summary = "The hidden GIFs, most recently hidden first (admins)",
    params(HiddenQuery),
    responses((status = 200, description = "One page of hidden GIFs, each with `hidden` set", body = crate::dto::PagedGifs), (status = 400, description = "Invalid paging (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/admin/gifs/hidden")]
async fn hidden_list(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    query: web::Query<HiddenQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = PageRequest::new(query.page, query.size).map_err(invalid)?;
    let gifs = state.moderation.hidden(&admin, page).await?;
    Ok(HttpResponse::Ok().json(PagedGifs::from(gifs)))
}

#[utoipa::path(
    put,
    path = "/api/admin/gifs/{id}/visibility",
    tag = "moderation",
    summary = "Hide a GIF (its open reports close) or restore it (admins)",
    params(("id" = i64, Path, description = "GIF id")),
    request_body = crate::dto::VisibilityRequest,
    responses((status = 200, description = "The GIF as it is now", body = crate::dto::GifDto), (status = 400, description = "A reason over 200 characters or a malformed body (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such GIF (`not_found`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`unsupported_media_type`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/admin/gifs/{id}/visibility")]
async fn visibility(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    id: web::Path<i64>,
    body: web::Json<VisibilityRequest>,
) -> Result<HttpResponse, ApiError> {
    let gif = state.moderation.set_hidden(&admin, GifId(*id), body.hidden, body.reason.as_deref()).await?;
    Ok(HttpResponse::Ok().json(GifDto::from(&gif)))
}
