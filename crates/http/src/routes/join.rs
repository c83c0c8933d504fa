//! Who may join: admins read and change the registration policy; admins (and members, when the
//! policy lets them) make, list and revoke invitations.

use actix_web::{delete, get, post, put, web, HttpRequest, HttpResponse};
use gifshelf_app::join::{parse_role, InviteRequest};
use gifshelf_domain::join::{InviteId, RegistrationMode, RegistrationPolicy};

use crate::client::origin;
use crate::dto::{role_name, CreateInviteRequest, CreatedInviteDto, InviteDto, RegistrationPolicyDto};
use crate::extract::{Admin, SignedIn};
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(get_policy).service(set_policy).service(create).service(list).service(revoke);
}

#[utoipa::path(
    get,
    path = "/api/admin/registration",
    tag = "join",
    summary = "Who may join: the registration policy (admins)",
    responses((status = 200, description = "The policy in force", body = crate::dto::RegistrationPolicyDto), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/admin/registration")]
async fn get_policy(state: web::Data<AppState>, Admin(admin): Admin) -> Result<HttpResponse, ApiError> {
    let policy = state.join.policy(&admin).await?;
    Ok(HttpResponse::Ok().json(RegistrationPolicyDto::from(&policy)))
}

#[utoipa::path(
    put,
    path = "/api/admin/registration",
    tag = "join",
    summary = "Change who may join (admins); it wins over GIFSHELF_REGISTRATION from then on",
    request_body = crate::dto::RegistrationPolicyDto,
    responses((status = 200, description = "The policy now stored", body = crate::dto::RegistrationPolicyDto), (status = 400, description = "An unknown mode, an invalid domain, more than 50 domains, or a malformed body (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`unsupported_media_type`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[put("/admin/registration")]
async fn set_policy(
    state: web::Data<AppState>,
    Admin(admin): Admin,
    body: web::Json<RegistrationPolicyDto>,
) -> Result<HttpResponse, ApiError> {
    let mode = RegistrationMode::parse(&body.mode).map_err(gifshelf_app::AppError::from)?;
    let policy = RegistrationPolicy::new(mode, &body.allowed_domains, body.members_may_invite)
        .map_err(gifshelf_app::AppError::from)?;
    let stored = state.join.set_policy(&admin, policy).await?;
    Ok(HttpResponse::Ok().json(RegistrationPolicyDto::from(&stored)))
}

#[utoipa::path(
    post,
    path = "/api/invites",
    tag = "join",
    summary = "Make an invitation link; its token is in this answer only",
    request_body = crate::dto::CreateInviteRequest,
    responses((status = 201, description = "The invitation with its token and link (only a digest is stored)", body = crate::dto::CreatedInviteDto), (status = 400, description = "maxUses not 1..1000, expiresInHours not 1..720, an unknown role, or a malformed body (`validation`, `bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin, and members may not invite or asked for an admin invitation (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 415, description = "Not a JSON body (`unsupported_media_type`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[post("/invites")]
async fn create(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    req: HttpRequest,
    body: web::Json<CreateInviteRequest>,
) -> Result<HttpResponse, ApiError> {
    let role = body.role.as_deref().map(parse_role).transpose().map_err(gifshelf_app::AppError::from)?;
    let request = InviteRequest { max_uses: body.max_uses, expires_in_hours: body.expires_in_hours, role };
    let minted = state.join.create_invite(&user, request).await?;
    let invite = minted.invite;
    Ok(HttpResponse::Created().json(CreatedInviteDto {
        id: invite.id.0,
        url: format!("{}/join/{}", origin(&req, &state.settings), minted.token),
        token: minted.token,
        max_uses: invite.max_uses,
        uses: invite.uses,
        expires_at: crate::dto::iso(invite.expires_at),
        role: role_name(invite.role),
        created_by: invite.created_by_name.as_str().to_owned(),
    }))
}

#[utoipa::path(
    get,
    path = "/api/invites",
    tag = "join",
    summary = "Your invitations (an admin's: everybody's), newest first, at most 200",
    responses((status = 200, description = "Newest first (never the tokens)", body = Vec<crate::dto::InviteDto>), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin, and members may not invite (`forbidden`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[get("/invites")]
async fn list(state: web::Data<AppState>, SignedIn(user): SignedIn) -> Result<HttpResponse, ApiError> {
    let invites = state.join.invites(&user).await?;
    Ok(HttpResponse::Ok().json(invites.iter().map(InviteDto::from).collect::<Vec<_>>()))
}

#[utoipa::path(
    delete,
    path = "/api/invites/{id}",
    tag = "join",
    summary = "Revoke an invitation: its link stops working at once",
    params(("id" = i64, Path, description = "Invitation id")),
    responses((status = 204, description = "Revoked"), (status = 400, description = "A malformed path parameter (`bad_request`, `validation`)", body = crate::dto::ApiErrorBody), (status = 401, description = "Missing, invalid or expired token (`unauthorized`, `token_expired`)", body = crate::dto::ApiErrorBody), (status = 403, description = "Not an admin, and members may not invite (`forbidden`)", body = crate::dto::ApiErrorBody), (status = 404, description = "No such invitation (of yours) (`not_found`)", body = crate::dto::ApiErrorBody)),
    security(("bearer" = []))
)]
#[delete("/invites/{id}")]
async fn revoke(
    state: web::Data<AppState>,
    SignedIn(user): SignedIn,
    id: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    state.join.revoke_invite(&user, InviteId(*id)).await?;
    Ok(HttpResponse::NoContent().finish())
}
