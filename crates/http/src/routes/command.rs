//! `POST /api/chat/command`: slash commands from Slack and Mattermost, and Zulip outgoing
//! webhooks. The body is read once (at most 64 KiB), the platform told apart and its proof checked
//! against the configured and stored secrets (`slash_command.rs`); then the words are searched and
//! the best match answered in the platform's own format. Anything unproven is a 401.

use actix_web::http::header::CONTENT_LENGTH;
use actix_web::http::StatusCode;
use actix_web::{post, web, HttpRequest, HttpResponse};
use futures_util::StreamExt;

use crate::client::origin;
use crate::dto::ErrorCode;
use crate::slash_command::{reply, Incoming, Refusal, MAX_BODY_BYTES};
use crate::{ApiError, AppState};

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(command);
}

#[utoipa::path(
    post,
    path = "/api/chat/command",
    tag = "integrations",
    summary = "A slash command from Slack or Mattermost, or a Zulip outgoing webhook: posts the best-matching GIF",
    description = "Slack: form-encoded, signed (`X-Slack-Signature` = `v0=` + hex HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{body}` with the app's signing secret; the timestamp at most 5 minutes from now). Mattermost: form-encoded or JSON with the command's `token` (also as `Authorization: Token …`). Zulip: the outgoing webhook's JSON (`data`, `token`). The answer is the platform's own: `{response_type, text, blocks}` (Slack), `{response_type, text}` (Mattermost) or `{content}` (Zulip); in the channel when a GIF matches, only to the sender otherwise (Zulip cannot). The image is the GIF's public share link.",
    request_body(content = crate::dto::SlashCommandForm, content_type = "application/x-www-form-urlencoded", description = "Slack's or Mattermost's form, or Zulip's JSON"),
    responses((status = 200, description = "The answer in the platform's format (Slack or Mattermost)", body = crate::dto::SlashCommandReply), (status = 401, description = "No proof from a configured integration: a bad signature, a timestamp more than 5 minutes away, an unknown token, or none (`unauthorized`)", body = crate::dto::ApiErrorBody), (status = 413, description = "A body over 64 KiB (`too_large`)", body = crate::dto::ApiErrorBody), (status = 503, description = "The database is busy (`unavailable`)", body = crate::dto::ApiErrorBody))
)]
#[post("/chat/command")]
async fn command(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let body = read_body(&req, payload).await?;
    let refused = |refusal: Refusal| ApiError::unauthorized(refusal.message());
    let incoming = Incoming::read(req.headers(), &body).map_err(refused)?;
    let platform = incoming.platform.as_str();
    let secrets = state.commands.secrets(incoming.platform).await?;
    if let Err(refusal) = incoming.verify(&secrets, &body, chrono::Utc::now().timestamp()) {
        tracing::info!(platform, ?refusal, "chat command refused");
        return Err(refused(refusal));
    }
    let answer = state.commands.run(&incoming.text).await?;
    tracing::info!(platform, "chat command answered");
    Ok(HttpResponse::Ok().json(reply(incoming.platform, &answer, &origin(&req, &state.settings))))
}

/// The whole body, refused past [`MAX_BODY_BYTES`] whatever its `Content-Length` said.
async fn read_body(req: &HttpRequest, mut payload: web::Payload) -> Result<web::Bytes, ApiError> {
    let too_large =
        || ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, ErrorCode::TooLarge, "The request body is too large.");
    let declared = req.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|length| length > MAX_BODY_BYTES as u64) {
        return Err(too_large());
    }
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|_| ApiError::bad_request("The request body could not be read."))?;
        if body.len() + chunk.len() > MAX_BODY_BYTES {
            return Err(too_large());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body.freeze())
}
