//! Rocket.Chat: an outgoing webhook integration with a trigger word (`gif cats`),
//! `POST /api/chat/rocketchat`. Its token is in the JSON body; the answer is a message in
//! Rocket.Chat's format, the picture as an attachment's `image_url`. Rocket.Chat posts the answer
//! into the channel: "No GIFs match …" and the usage are seen by everyone there.

use actix_web::{post, web, HttpRequest, HttpResponse};
use gifshelf_app::commands::CommandAnswer;
use gifshelf_domain::integration::Platform;
use serde::Deserialize;
use serde_json::{json, Value};

use super::reply::{markdown_escape, outcome, Outcome};
use super::{admit, CommandPlatform, Incoming, Proof, Refusal, Request};
use crate::{ApiError, AppState};

pub const ROCKETCHAT_USAGE: &str = "Usage: gif <words> — posts the best-matching GIF from gifshelf.";

pub(super) struct RocketChat;

/// The fields of Rocket.Chat's outgoing webhook that gifshelf reads.
#[derive(Deserialize)]
struct Fields {
    #[serde(default)]
    token: Option<String>,
    /// The whole message, trigger word included.
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    trigger_word: Option<String>,
}

impl CommandPlatform for RocketChat {
    /// A body (JSON, or a form) with its `token`.
    fn recognise(&self, request: &Request<'_>) -> Option<Result<Incoming, Refusal>> {
        let fields: Fields = match request.fields() {
            Ok(fields) => fields,
            Err(refusal) => return Some(Err(refusal)),
        };
        let text = fields.text.unwrap_or_default();
        let words = match fields.trigger_word.as_deref().map(str::trim).filter(|w| !w.is_empty()) {
            Some(trigger) => strip_prefix_ignoring_case(text.trim_start(), trigger).unwrap_or(&text).to_owned(),
            None => text.clone(),
        };
        Some(fields.token.ok_or(Refusal::NotVerified).map(|token| Incoming {
            platform: Platform::RocketChat,
            proof: Proof::Token(token),
            text: words,
        }))
    }

    fn reply(&self, answer: &CommandAnswer, origin: &str) -> Value {
        match outcome(answer, origin, ROCKETCHAT_USAGE) {
            Outcome::Found(links) => json!({
                "text": format!("[{}]({})", markdown_escape(&links.title), links.page),
                "attachments": [{
                    "title": markdown_escape(&links.title),
                    "title_link": links.page,
                    "image_url": links.image,
                }],
            }),
            Outcome::Notice(text) => json!({"text": markdown_escape(&text)}),
        }
    }
}

/// `text` after `prefix`, compared without regard to case.
fn strip_prefix_ignoring_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &text[prefix.len()..])
}

#[utoipa::path(
    post,
    path = "/api/chat/rocketchat",
    tag = "integrations",
    summary = "A Rocket.Chat outgoing webhook (trigger word `gif`): posts the best-matching GIF",
    description = "Rocket.Chat's outgoing webhook JSON with the integration's `token` (`GIFSHELF_ROCKETCHAT_TOKENS` or an integration); the words are the message after the trigger word. The answer is `{text, attachments: [{title, title_link, image_url}]}` with the GIF's public share link, or `{text}` when nothing matches. Rated at most the integration's maximum; hidden GIFs are never answered.",
    request_body(description = "A Rocket.Chat outgoing webhook", content = serde_json::Value, content_type = "application/json"),
    responses((status = 200, description = "A Rocket.Chat message", body = serde_json::Value), (status = 401, description = "No token, or not a configured one (`unauthorized`)", body = crate::dto::ApiErrorBody), (status = 413, description = "A body over 64 KiB (`too_large`)", body = crate::dto::ApiErrorBody), (status = 429, description = "The integration's requests of the minute are used up (`too_many_requests`)", body = crate::dto::ApiErrorBody))
)]
#[post("/chat/rocketchat")]
pub(crate) async fn outgoing(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let admitted = admit(&state, &req, payload, &RocketChat).await?;
    let answer = state.commands.pick(&admitted.incoming.text, 0, admitted.vouched.max_rating, true).await?;
    tracing::info!(platform = "rocketchat", "chat command answered");
    Ok(HttpResponse::Ok().json(RocketChat.reply(&answer, &admitted.origin)))
}

#[cfg(test)]
mod tests {
    use super::super::reply::tests::found;
    use super::super::tests::{headers, secrets};
    use super::*;
    use crate::chat::commands::reply;

    #[test]
    fn the_trigger_word_is_left_out_and_the_token_checked() {
        let json = headers(&[("content-type", "application/json")]);
        let body = br#"{"token": "Qm9w2Xw7vR4kT8sZ", "text": "GIF happy cat", "trigger_word": "gif", "user_name": "rocket.cat"}"#;
        let incoming = RocketChat.recognise(&Request { headers: &json, body }).and_then(Result::ok);
        let incoming = incoming.unwrap_or_else(|| panic!("not recognised"));
        assert_eq!(incoming.text.trim(), "happy cat");
        assert_eq!(incoming.verify(&secrets(&["Qm9w2Xw7vR4kT8sZ"]), body, 0), Ok(0));
        assert_eq!(incoming.verify(&secrets(&["Qm9w2Xw7vR4kT8sX"]), body, 0), Err(Refusal::NotVerified));
        let tokenless = br#"{"text": "gif cats", "trigger_word": "gif"}"#;
        assert!(matches!(
            RocketChat.recognise(&Request { headers: &json, body: tokenless }),
            Some(Err(Refusal::NotVerified))
        ));
    }

    #[test]
    fn rocketchat_gets_an_attachment_with_the_title_escaped() {
        let answer = reply(Platform::RocketChat, &found(), "https://gifs.example.com");
        assert_eq!(answer["attachments"][0]["image_url"], "https://gifs.example.com/s/Ab3_x-9.gif");
        assert_eq!(answer["attachments"][0]["title_link"], "https://gifs.example.com/s/Ab3_x-9");
        assert_eq!(answer["text"], "[Cat \\<\\!channel\\> \\*wow\\* @\u{200B}all](https://gifs.example.com/s/Ab3_x-9)");
        let usage = reply(Platform::RocketChat, &CommandAnswer::Usage, "http://x");
        assert_eq!(usage, json!({"text": "Usage: gif \\<words\\> — posts the best-matching GIF from gifshelf."}));
    }
}
