//! Microsoft Teams: an outgoing webhook, `POST /api/chat/teams`, called when someone mentions it
//! (`@gifshelf cats`). Teams signs each request: `Authorization: HMAC <base64>` is the
//! HMAC-SHA256 of the raw body keyed with the webhook's security token (itself base64, decoded
//! first), compared in constant time. The answer is a message with the GIF in a hero card.

use actix_web::{post, web, HttpRequest, HttpResponse};
use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use gifshelf_app::commands::CommandAnswer;
use gifshelf_domain::integration::{CommandSecret, Platform, SecretCheck};
use hmac::{Hmac, Mac};
use serde::Deserialize;
use serde_json::{json, Value};
use sha2::Sha256;

use super::reply::{outcome, Outcome};
use super::{admit, same_secret, CommandPlatform, Incoming, Proof, Refusal, Request};
use crate::{ApiError, AppState};

pub const TEAMS_USAGE: &str = "Usage: mention me with some words — I post the best-matching GIF from gifshelf.";

pub(super) struct Teams;

/// The field of Teams' activity that gifshelf reads.
#[derive(Deserialize)]
struct Activity {
    /// The message, with the mention as `<at>name</at>`.
    #[serde(default)]
    text: Option<String>,
}

impl CommandPlatform for Teams {
    /// An `Authorization: HMAC …` header and a JSON activity.
    fn recognise(&self, request: &Request<'_>) -> Option<Result<Incoming, Refusal>> {
        let authorization = request.header(actix_web::http::header::AUTHORIZATION.as_str())?;
        let Some(("HMAC", mac)) = authorization.split_once(' ') else {
            return Some(Err(Refusal::NotVerified));
        };
        let proof = Proof::Mac(mac.trim().to_owned());
        Some(request.json::<Activity>().map(|activity| Incoming {
            platform: Platform::Teams,
            proof,
            text: without_mentions(activity.text.as_deref().unwrap_or_default()),
        }))
    }

    fn verify(&self, proof: &Proof, secrets: &[CommandSecret], body: &[u8], _now: i64) -> Result<usize, Refusal> {
        let Proof::Mac(mac) = proof else {
            return Err(Refusal::NotVerified);
        };
        let signed = |secret: &CommandSecret| match &secret.check {
            SecretCheck::Clear(token) => teams_signature(token.expose(), body).is_some_and(|m| same_secret(&m, mac)),
            SecretCheck::Digest(_) => false,
        };
        secrets.iter().position(signed).ok_or(Refusal::NotVerified)
    }

    fn reply(&self, answer: &CommandAnswer, origin: &str) -> Value {
        match outcome(answer, origin, TEAMS_USAGE) {
            Outcome::Found(links) => json!({
                "type": "message",
                "text": html_escape(&links.title),
                "attachments": [{
                    "contentType": "application/vnd.microsoft.card.hero",
                    "content": {
                        "title": html_escape(&links.title),
                        "images": [{"url": links.image, "alt": links.title}],
                        "buttons": [{"type": "openUrl", "title": "Open in gifshelf", "value": links.page}],
                    },
                }],
            }),
            Outcome::Notice(text) => json!({"type": "message", "text": html_escape(&text)}),
        }
    }
}

/// The base64 HMAC-SHA256 of `body` keyed with the base64-decoded `token`, as Teams computes it;
/// `None` for a token that is not base64.
pub fn teams_signature(token: &str, body: &[u8]) -> Option<String> {
    let key = STANDARD.decode(token).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(body);
    Some(STANDARD.encode(mac.finalize().into_bytes()))
}

/// The message without the mentions (`<at>gifshelf</at>`) and with Teams' entities as text.
fn without_mentions(text: &str) -> String {
    let mut rest = text;
    let mut out = String::with_capacity(text.len());
    while let Some(start) = rest.find("<at>") {
        out.push_str(&rest[..start]);
        rest = rest[start..].split_once("</at>").map_or("", |(_, after)| after);
    }
    out.push_str(rest);
    out.replace("&nbsp;", " ").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&amp;", "&")
}

/// Teams renders a subset of HTML in messages and cards: `<`, `>` and `&` escaped keep a title text.
fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[utoipa::path(
    post,
    path = "/api/chat/teams",
    tag = "integrations",
    summary = "A Microsoft Teams outgoing webhook: posts the best-matching GIF in a card",
    description = "Teams' activity (JSON), signed: `Authorization: HMAC <base64>` is the HMAC-SHA256 of the raw body keyed with the base64-decoded security token (`GIFSHELF_TEAMS_TOKENS` or an integration). The mention (`<at>…</at>`) is left out of the words. The answer is `{type: \"message\", text, attachments: [hero card with the GIF's public share link]}`, or `{type: \"message\", text}` when nothing matches. Rated at most the integration's maximum; hidden GIFs are never answered.",
    request_body(description = "A Teams activity", content = serde_json::Value, content_type = "application/json"),
    responses((status = 200, description = "A Teams message", body = serde_json::Value), (status = 401, description = "No valid HMAC by a configured webhook (`unauthorized`)", body = crate::dto::ApiErrorBody), (status = 413, description = "A body over 64 KiB (`too_large`)", body = crate::dto::ApiErrorBody), (status = 429, description = "The integration's requests of the minute are used up (`too_many_requests`)", body = crate::dto::ApiErrorBody))
)]
#[post("/chat/teams")]
pub(crate) async fn outgoing(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let admitted = admit(&state, &req, payload, &Teams).await?;
    let answer = state.commands.pick(&admitted.incoming.text, 0, admitted.vouched.max_rating, true).await?;
    tracing::info!(platform = "teams", "chat command answered");
    Ok(HttpResponse::Ok().json(Teams.reply(&answer, &admitted.origin)))
}

#[cfg(test)]
mod tests {
    use super::super::reply::tests::found;
    use super::super::tests::{headers, secrets};
    use super::*;
    use crate::chat::commands::reply;

    const TOKEN: &str = "n3P0Qk5cV2m1uV7t3b2cO2ZqkS8m1Rj6rPq3x9Jv0gE=";

    #[test]
    fn a_teams_request_is_signed_with_the_decoded_token() {
        let body = br#"{"type":"message","text":"<at>gifshelf</at>&nbsp;happy cat\n"}"#;
        let mac = teams_signature(TOKEN, body).unwrap_or_default();
        let request = headers(&[("authorization", &format!("HMAC {mac}"))]);
        let incoming = Teams.recognise(&Request { headers: &request, body }).and_then(Result::ok);
        let incoming = incoming.unwrap_or_else(|| panic!("not recognised"));
        assert_eq!(incoming.text.trim(), "happy cat");
        assert_eq!(incoming.verify(&secrets(&["b3RoZXItdG9rZW4=", TOKEN]), body, 0), Ok(1));
        assert_eq!(incoming.verify(&secrets(&["b3RoZXItdG9rZW4="]), body, 0), Err(Refusal::NotVerified));
        assert_eq!(incoming.verify(&secrets(&["not base64!"]), body, 0), Err(Refusal::NotVerified));
        assert_eq!(incoming.verify(&secrets(&[TOKEN]), b"{\"text\":\"cats\"}", 0), Err(Refusal::NotVerified));
        let bearer = headers(&[("authorization", "Bearer abc")]);
        assert!(matches!(Teams.recognise(&Request { headers: &bearer, body }), Some(Err(Refusal::NotVerified))));
    }

    #[test]
    fn mentions_are_left_out_of_the_words() {
        assert_eq!(without_mentions("<at>gifshelf</at> cats"), " cats");
        assert_eq!(without_mentions("<at>Gif Bot</at>&nbsp;/gif a&amp;b <at>x</at>"), " /gif a&b ");
        assert_eq!(without_mentions("<at>unclosed cats"), "");
    }

    #[test]
    fn teams_gets_a_hero_card_with_the_title_escaped() {
        let teams = reply(Platform::Teams, &found(), "https://gifs.example.com");
        assert_eq!(teams["type"], "message");
        let card = &teams["attachments"][0];
        assert_eq!(card["contentType"], "application/vnd.microsoft.card.hero");
        assert_eq!(card["content"]["title"], "Cat &lt;!channel&gt; *wow* @all");
        assert_eq!(card["content"]["images"][0]["url"], "https://gifs.example.com/s/Ab3_x-9.gif");
        assert_eq!(card["content"]["buttons"][0]["value"], "https://gifs.example.com/s/Ab3_x-9");
        let usage = reply(Platform::Teams, &CommandAnswer::Usage, "http://x");
        assert_eq!(usage, json!({"type": "message", "text": TEAMS_USAGE}));
    }
}
