//! `POST /api/chat/command`: slash commands from chat platforms (Slack, Mattermost) and Zulip's
//! outgoing webhooks. The body is read once (at most 64 KiB, by `capped.rs`), the platform told
//! apart and its proof checked against the configured and stored secrets; then the words are
//! searched and the best match answered in the platform's own format. Anything unproven is a 401.
//! Discord, Telegram, Teams and Rocket.Chat each have their own endpoint (`/api/chat/discord`,
//! …), read and believed the same way ([`admit`]), and counted against their integration's rate.
//!
//! Each platform is one file implementing [`CommandPlatform`]: how its requests look, how they
//! prove themselves and how it wants its answer; [`PLATFORMS`] lists them in the order they are
//! asked whether a request is theirs. Constant-time comparisons and signatures live here, not in
//! the core.

pub(crate) mod discord;
mod mattermost;
mod reply;
pub(crate) mod rocketchat;
mod slack;
pub(crate) mod teams;
pub(crate) mod telegram;
mod zulip;

use actix_web::http::header::{HeaderMap, CONTENT_TYPE};
use actix_web::http::StatusCode;
use actix_web::{post, web, HttpRequest, HttpResponse};
use gifshelf_app::commands::CommandAnswer;
use gifshelf_domain::integration::{CommandSecret, Platform, SecretCheck};
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::capped::{read_all, BodyError};
use crate::client::origin;
use crate::dto::ErrorCode;
use crate::{ApiError, AppState};

/// The largest command body read; platforms send a few hundred bytes (Zulip a few KiB).
pub const MAX_BODY_BYTES: u64 = 64 * 1024;

pub const NOT_VERIFIED: &str = "This request does not come from a chat integration configured on this server.";
pub const TOO_OLD: &str = "This request's timestamp is more than 5 minutes away from the server's clock.";

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(command)
        .service(discord::interaction)
        .service(telegram::update)
        .service(teams::outgoing)
        .service(rocketchat::outgoing);
}

#[utoipa::path(
    post,
    path = "/api/chat/command",
    tag = "integrations",
    summary = "A slash command from Slack or Mattermost, or a Zulip outgoing webhook: posts the best-matching GIF",
    description = "Slack: form-encoded, signed (`X-Slack-Signature` = `v0=` + hex HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{body}` with the app's signing secret; the timestamp at most 5 minutes from now). Mattermost: form-encoded or JSON with the command's `token` (also as `Authorization: Token …`). Zulip: the outgoing webhook's JSON (`data`, `token`). The answer is the platform's own: `{response_type, text, blocks}` (Slack), `{response_type, text}` (Mattermost) or `{content}` (Zulip); in the channel when a GIF matches, only to the sender otherwise (Zulip cannot). The image is the GIF's public share link.",
    request_body(description = "Slack's or Mattermost's form, or Zulip's (or Mattermost's) JSON", content((crate::dto::SlashCommandForm = "application/x-www-form-urlencoded"), (crate::dto::ChatCommandJson = "application/json"))),
    responses((status = 200, description = "The answer in the platform's format: Slack's or Mattermost's message, or Zulip's reply", body = crate::dto::ChatCommandAnswer), (status = 401, description = "No proof from a configured integration: a bad signature, a timestamp more than 5 minutes away, an unknown token, or none (`unauthorized`)", body = crate::dto::ApiErrorBody), (status = 413, description = "A body over 64 KiB (`too_large`)", body = crate::dto::ApiErrorBody), (status = 503, description = "The database is busy (`unavailable`)", body = crate::dto::ApiErrorBody))
)]
#[post("/chat/command")]
pub(crate) async fn command(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let body = read_body(&req, payload).await?;
    let refused = |refusal: Refusal| ApiError::unauthorized(refusal.message());
    let incoming = Incoming::read(req.headers(), &body).map_err(refused)?;
    let platform = incoming.platform.as_str();
    let secrets = state.commands.secrets(incoming.platform).await?;
    let vouched = match incoming.verify(&secrets, &body, state.clock.now().and_utc().timestamp()) {
        Ok(index) => &secrets[index],
        Err(refusal) => {
            tracing::info!(platform, ?refusal, "chat command refused");
            return Err(refused(refusal));
        }
    };
    let answer = state.commands.run(&incoming.text, vouched.max_rating).await?;
    let integration_id = vouched.integration.map(|id| id.0);
    tracing::info!(platform, integration_id, max_rating = vouched.max_rating.as_str(), "chat command answered");
    Ok(HttpResponse::Ok().json(reply(incoming.platform, &answer, &origin(&req, &state.settings))))
}

/// The body of a command, at most [`MAX_BODY_BYTES`].
async fn read_body(req: &HttpRequest, payload: web::Payload) -> Result<Vec<u8>, ApiError> {
    let body = read_all(req, payload, MAX_BODY_BYTES).await.map_err(|e| match e {
        BodyError::TooLarge => {
            ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, ErrorCode::TooLarge, "The request body is too large.")
        }
        BodyError::Unreadable => ApiError::bad_request("The request body could not be read."),
    })?;
    Ok(body.to_vec())
}

/// A request of one platform's own endpoint, believed: what it said, its raw body, the secret
/// that vouched for it (whose integration's maximum rating applies) and the public origin.
struct Admitted {
    incoming: Incoming,
    body: Vec<u8>,
    vouched: CommandSecret,
    origin: String,
}

/// Reads a request to `adapter`'s own endpoint, checks its proof against the platform's secrets
/// and counts it against the rate of the integration that vouched for it.
///
/// # Errors
/// 401 for anything unproven, 413 for a body too large, 429 past the integration's rate.
async fn admit(
    state: &AppState,
    req: &HttpRequest,
    payload: web::Payload,
    adapter: &dyn CommandPlatform,
) -> Result<Admitted, ApiError> {
    let body = read_body(req, payload).await?;
    let refused = |refusal: Refusal| ApiError::unauthorized(refusal.message());
    let request = Request { headers: req.headers(), body: &body };
    let incoming = adapter.recognise(&request).unwrap_or(Err(Refusal::NotVerified)).map_err(refused)?;
    let platform = incoming.platform;
    let vouchers = state.commands.secrets(platform).await?;
    let now = state.clock.now();
    let vouched = match vouched_by(adapter, &incoming.proof, &vouchers, &body, now.and_utc().timestamp()) {
        Ok(vouched) => vouched,
        Err(refusal) => {
            tracing::info!(platform = platform.as_str(), ?refusal, "chat command refused");
            return Err(refused(refusal));
        }
    };
    state.commands.admit(platform, &vouched, now).await?;
    let origin = origin(req, &state.settings);
    Ok(Admitted { incoming, body, vouched, origin })
}

/// The secret that vouches for `proof`: the first of `vouchers` that does.
///
/// # Errors
/// The refusal `verify` gives for all of them (a stale timestamp, no matching secret).
fn vouched_by(
    adapter: &dyn CommandPlatform,
    proof: &Proof,
    vouchers: &[CommandSecret],
    body: &[u8],
    now: i64,
) -> Result<CommandSecret, Refusal> {
    let index = adapter.verify(proof, vouchers, body, now)?;
    vouchers.get(index).cloned().ok_or(Refusal::NotVerified)
}

/// One chat platform's slash commands. A new platform is one file implementing this, a line in
/// [`PLATFORMS`] and one in [`of`].
trait CommandPlatform: Sync {
    /// This platform's command if the request is one of its: `None` when it is not (the next
    /// platform is asked), a refusal when it is but cannot be believed or read.
    fn recognise(&self, request: &Request<'_>) -> Option<Result<Incoming, Refusal>>;

    /// Which of `secrets` (this platform's) vouches for `proof`, by its index (so that the command
    /// is answered within that integration's maximum rating); `body` is the raw body and `now` the
    /// server's Unix time. By default: a token equal to one of the secrets, or whose digest is one
    /// of the stored digests.
    ///
    /// # Errors
    /// A refusal saying why not.
    fn verify(&self, proof: &Proof, secrets: &[CommandSecret], _body: &[u8], _now: i64) -> Result<usize, Refusal> {
        match proof {
            Proof::Token(token) => {
                secrets.iter().position(|secret| token_matches(&secret.check, token)).ok_or(Refusal::NotVerified)
            }
            Proof::Signed { .. } | Proof::Mac(_) => Err(Refusal::NotVerified),
        }
    }

    /// The answer in the platform's format; `origin` is the public origin links are built on.
    fn reply(&self, answer: &CommandAnswer, origin: &str) -> serde_json::Value;
}

/// Every platform, in the order each is asked whether a request is its: signature headers first,
/// the catch-all token (Mattermost's) last.
const PLATFORMS: [&dyn CommandPlatform; 3] = [&slack::Slack, &zulip::Zulip, &mattermost::Mattermost];

/// The adapter of a platform.
fn of(platform: Platform) -> &'static dyn CommandPlatform {
    match platform {
        Platform::Slack => &slack::Slack,
        Platform::Mattermost => &mattermost::Mattermost,
        Platform::Zulip => &zulip::Zulip,
        Platform::Discord => &discord::Discord,
        Platform::Telegram => &telegram::Telegram,
        Platform::Teams => &teams::Teams,
        Platform::RocketChat => &rocketchat::RocketChat,
    }
}

/// Why a request is not believed (each a 401).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// No platform's credentials, or none that matches a configured secret.
    NotVerified,
    /// A signature's timestamp too far from the server's clock.
    TooOld,
}

impl Refusal {
    pub fn message(self) -> &'static str {
        match self {
            Self::NotVerified => NOT_VERIFIED,
            Self::TooOld => TOO_OLD,
        }
    }
}

/// What a request shows to prove where it comes from.
#[derive(Clone, PartialEq, Eq)]
pub enum Proof {
    /// A signature over the body at a time (Slack, Discord).
    Signed { timestamp: String, signature: String },
    /// A token the platform and the server share (Mattermost, Zulip, Telegram, Rocket.Chat).
    Token(String),
    /// A MAC of the body with the shared secret (Teams).
    Mac(String),
}

impl std::fmt::Debug for Proof {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Signed { .. } => "Signed(…)",
            Self::Token(_) => "Token(…)",
            Self::Mac(_) => "Mac(…)",
        })
    }
}

/// A command as its platform sent it, not yet believed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    pub platform: Platform,
    proof: Proof,
    /// The command's text (Slack, Mattermost) or the message (Zulip).
    pub text: String,
}

impl Incoming {
    /// Tells the platform apart: the first of [`PLATFORMS`] that recognises the request.
    ///
    /// # Errors
    /// `NotVerified` when no platform's credentials are there or the body cannot be read.
    pub fn read(headers: &HeaderMap, body: &[u8]) -> Result<Self, Refusal> {
        let request = Request { headers, body };
        PLATFORMS.iter().find_map(|platform| platform.recognise(&request)).unwrap_or(Err(Refusal::NotVerified))
    }

    /// Which of `secrets` (the platform's) vouches for the request, by its index: the first that
    /// does; `body` is the raw body `read` was given and `now` the server's Unix time.
    ///
    /// # Errors
    /// `TooOld` for a signature's timestamp too far from `now`; `NotVerified` when no secret matches.
    pub fn verify(&self, secrets: &[CommandSecret], body: &[u8], now: i64) -> Result<usize, Refusal> {
        of(self.platform).verify(&self.proof, secrets, body, now)
    }
}

/// The answer in the platform's format. `origin` is the public origin links are built on.
pub fn reply(platform: Platform, answer: &CommandAnswer, origin: &str) -> serde_json::Value {
    of(platform).reply(answer, origin)
}

/// A request's headers and raw body, as the platforms read them.
struct Request<'a> {
    headers: &'a HeaderMap,
    body: &'a [u8],
}

impl Request<'_> {
    /// A header's value, trimmed; `None` when absent or not text.
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim)
    }

    fn has_header(&self, name: &str) -> bool {
        self.headers.contains_key(name)
    }

    /// Whether the body is declared JSON (else it is read as a form).
    fn is_json(&self) -> bool {
        self.header(CONTENT_TYPE.as_str())
            .and_then(|t| t.split(';').next())
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
    }

    /// The body as JSON or as a form, as its content type says; unknown fields are ignored.
    fn fields<T: DeserializeOwned>(&self) -> Result<T, Refusal> {
        if self.is_json() {
            self.json()
        } else {
            self.form()
        }
    }

    fn json<T: DeserializeOwned>(&self) -> Result<T, Refusal> {
        serde_json::from_slice(self.body).map_err(|_| Refusal::NotVerified)
    }

    fn form<T: DeserializeOwned>(&self) -> Result<T, Refusal> {
        serde_urlencoded::from_bytes(self.body).map_err(|_| Refusal::NotVerified)
    }
}

/// Two secrets are the same, compared in constant time over their SHA-256 (which hides the
/// lengths too).
fn same_secret(expected: &str, presented: &str) -> bool {
    Sha256::digest(expected.as_bytes()).ct_eq(&Sha256::digest(presented.as_bytes())).into()
}

/// Whether a presented token is the secret, or has the stored digest (hex SHA-256), in constant
/// time.
fn token_matches(secret: &SecretCheck, presented: &str) -> bool {
    match secret {
        SecretCheck::Clear(secret) => same_secret(secret.expose(), presented),
        SecretCheck::Digest(digest) => {
            hex::encode(Sha256::digest(presented.as_bytes())).as_bytes().ct_eq(digest.as_bytes()).into()
        }
    }
}

#[cfg(test)]
mod tests {
    use actix_web::http::header::{HeaderName, HeaderValue};
    use gifshelf_domain::integration::IntegrationSecret;

    use super::*;

    pub(super) fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(HeaderName::from_static(name), HeaderValue::from_str(value).unwrap_or_else(|e| panic!("{e}")));
        }
        map
    }

    pub(super) fn secrets(values: &[&str]) -> Vec<CommandSecret> {
        values
            .iter()
            .map(|v| CommandSecret {
                check: SecretCheck::Clear(IntegrationSecret::from_trusted((*v).to_owned())),
                max_rating: gifshelf_domain::gif::Rating::G,
                integration: None,
            })
            .collect()
    }

    #[test]
    fn a_token_matches_its_stored_digest_only() {
        let digest = SecretCheck::Digest(hex::encode(Sha256::digest(b"pbte7m9wbbfbmjk1f4mhsibbzc")));
        assert!(token_matches(&digest, "pbte7m9wbbfbmjk1f4mhsibbzc"));
        assert!(!token_matches(&digest, "pbte7m9wbbfbmjk1f4mhsibbzd"));
        assert!(!token_matches(&digest, ""));
        let clear = SecretCheck::Clear(IntegrationSecret::from_trusted("xvOzfurIutdRRVLz".into()));
        assert!(token_matches(&clear, "xvOzfurIutdRRVLz") && !token_matches(&clear, "xvOzfurIutdRRVL"));
    }

    #[test]
    fn a_request_no_platform_recognises_is_not_verified() {
        assert_eq!(Incoming::read(&HeaderMap::new(), b"text=cats"), Err(Refusal::NotVerified));
        assert_eq!(Incoming::read(&HeaderMap::new(), b""), Err(Refusal::NotVerified));
        let json = headers(&[("content-type", "application/json")]);
        assert_eq!(Incoming::read(&json, b"not json"), Err(Refusal::NotVerified));
    }

    #[test]
    fn every_platform_has_its_adapter() {
        for platform in Platform::ALL {
            let usage = reply(platform, &CommandAnswer::Usage, "http://x").to_string();
            assert!(usage.contains("Usage"), "{platform:?}: {usage}");
        }
    }
}
