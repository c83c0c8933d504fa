//! Members (admins): list the accounts, change a role, disable or enable an account.

use actix_web::{get, put, web, HttpResponse};
use gifshelf_domain::gif::PageRequest;
use gifshelf_domain::member::{MemberChange, MemberSearch, MemberStatus};
use gifshelf_domain::user::{Role, UserId};
use gifshelf_domain::ValidationError;
use serde::Deserialize;

use crate::dto::{MemberDto, PagedMembers, UpdateMemberRequest};
use crate::extract::Admin;
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(list).service(update);
}

/// `GET /api/admin/users`: the search text and the page.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct MembersQuery {
    /// A piece of a username or an email (case-insensitive), at most 100 characters.
    #[param(max_length = 100)]
    q: Option<String>,
    /// Page number, from 0.
    page: Option<u32>,
    /// Page size, 1 to 100 (default 6).
    #[param(minimum = 1, maximum = 100, default = 6)]
    size: Option<u32>,
}

fn invalid(err: ValidationError) -> ApiError {
    gifshelf_app::AppError::from(err).into()
}

#[utoipa::path(
    get,
    path = "/api/admin/users",
    tag = "members",
    summary = "The accounts, by id, optionally those whose username or email contains `q` (admins)",
    params(MembersQuery),
    responses((status = 200, description = "One page of members", body = crate::dto::PagedMembers), (status = 400, description = "Invalid paging or a too long search (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/admin/users")]
async fn list(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    query: web::Query<MembersQuery>,
) -> Result<HttpResponse, ApiError> {
    let search = MemberSearch::parse(query.q.as_deref()).map_err(invalid)?;
    let page = PageRequest::new(query.page, query.size).map_err(invalid)?;
    let members = state.members.list(&admin, &search, page).await?;
    Ok(HttpResponse::Ok().json(PagedMembers::from(members)))
}

fn change_of(body: &UpdateMemberRequest) -> Result<MemberChange, ApiError> {
    let role = match body.role.as_deref() {
        None => None,
        Some("user") => Some(Role::User),
        Some("admin") => Some(Role::Admin),
        Some(_) => return Err(invalid(ValidationError::new("role", "Role must be \"user\" or \"admin\""))),
    };
    let status = match body.status.as_deref() {
        None => None,
        Some("active") => Some(MemberStatus::Active),
        Some("disabled") => Some(MemberStatus::Disabled),
        Some(_) => return Err(invalid(ValidationError::new("status", "Status must be \"active\" or \"disabled\""))),
    };
    Ok(MemberChange { role, status })
}

#[utoipa::path(
    put,
    path = "/api/admin/users/{id}",
    tag = "members",
    summary = "Change a member's role or status; a disabled member's sessions and API keys stop at once (admins)",
    params(("id" = i64, Path, description = "User id")),
    request_body = crate::dto::UpdateMemberRequest,
    responses((status = 200, description = "The member as stored now", body = crate::dto::MemberDto), (status = 400, description = "An unknown role or status, or a malformed body (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token, or a disabled account (`unauthorized`, `token_expired`, `account_disabled`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such member (`not_found`)", body = crate::dto::ApiErrorBody), (status = 409, description = "It would leave no active administrator, or an admin disabling themself (`last_admin`, `own_account`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`unsupported_media_type`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/admin/users/{id}")]
async fn update(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    id: web::Path<i64>,
    body: web::Json<UpdateMemberRequest>,
) -> Result<HttpResponse, ApiError> {
    let change = change_of(&body)?;
    let member = state.members.update(&admin, UserId(*id), change).await?;
    Ok(HttpResponse::Ok().json(MemberDto::from(&member)))
}
