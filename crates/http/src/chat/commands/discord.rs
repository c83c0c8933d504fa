//! Discord: an application's HTTP interactions endpoint, `POST /api/chat/discord`. Each request is
//! signed with the application's Ed25519 key: `X-Signature-Ed25519` (hex) over
//! `X-Signature-Timestamp` followed by the raw body, checked with the application's public key
//! (hex); a timestamp more than 5 minutes from now is refused, so a captured request cannot be
//! replayed later. Discord sends a `PING` to check the endpoint, then `/gif query`: autocomplete
//! of the option (interaction type 4), the command (type 2), and the buttons of the preview
//! (type 3), whose `custom_id` carries the query and the position of the match shown. The ids
//! come back signed by Discord but are ours only by convention: each is parsed like any input
//! and its query searched again with the integration's maximum rating.

use actix_web::{post, web, HttpRequest, HttpResponse};
use ed25519_dalek::{Signature, VerifyingKey};
use gifshelf_app::commands::CommandAnswer;
use gifshelf_domain::integration::{CommandSecret, Platform, SecretCheck};
use serde::Deserialize;
use serde_json::{json, Value};

use super::reply::{outcome, Links, Outcome};
use super::slack::MAX_CLOCK_SKEW_SECS;
use super::{admit, CommandPlatform, Incoming, Proof, Refusal, Request};
use crate::{ApiError, AppState};

const SIGNATURE: &str = "x-signature-ed25519";
const TIMESTAMP: &str = "x-signature-timestamp";

pub const DISCORD_USAGE: &str = "Usage: /gif <words> — shows you the best-matching GIF from gifshelf, to send or skip.";
/// The longest `custom_id` Discord keeps on a button.
pub const DISCORD_CUSTOM_ID_MAX: usize = 100;
/// How far "Next" goes.
const MAX_POSITION: u32 = 1000;
/// Autocomplete choices Discord shows at most.
const CHOICES_MAX: usize = 25;
/// The longest name or value of a choice.
const CHOICE_MAX_CHARS: usize = 100;

/// Interaction types (Discord's numbers).
const PING: u8 = 1;
const APPLICATION_COMMAND: u8 = 2;
const MESSAGE_COMPONENT: u8 = 3;
const AUTOCOMPLETE: u8 = 4;

/// Interaction callback types.
const PONG: u8 = 1;
const CHANNEL_MESSAGE: u8 = 4;
const UPDATE_MESSAGE: u8 = 7;
const AUTOCOMPLETE_RESULT: u8 = 8;
/// The message flag that shows it only to the person who used the command.
const EPHEMERAL: u32 = 64;

pub(super) struct Discord;

impl CommandPlatform for Discord {
    /// Discord's signature headers (both, or the request is refused). What the interaction asks
    /// is read from the body once it is believed.
    fn recognise(&self, request: &Request<'_>) -> Option<Result<Incoming, Refusal>> {
        if !request.has_header(SIGNATURE) && !request.has_header(TIMESTAMP) {
            return None;
        }
        let (Some(timestamp), Some(signature)) = (request.header(TIMESTAMP), request.header(SIGNATURE)) else {
            return Some(Err(Refusal::NotVerified));
        };
        let proof = Proof::Signed { timestamp: timestamp.to_owned(), signature: signature.to_owned() };
        Some(Ok(Incoming { platform: Platform::Discord, proof, text: String::new() }))
    }

    fn verify(&self, proof: &Proof, secrets: &[CommandSecret], body: &[u8], now: i64) -> Result<usize, Refusal> {
        let Proof::Signed { timestamp, signature } = proof else {
            return Err(Refusal::NotVerified);
        };
        let at: i64 = timestamp.parse().map_err(|_| Refusal::NotVerified)?;
        if (now - at).abs() > MAX_CLOCK_SKEW_SECS {
            return Err(Refusal::TooOld);
        }
        let signed = |secret: &CommandSecret| match &secret.check {
            SecretCheck::Clear(key) => discord_signature_valid(key.expose(), timestamp, body, signature),
            SecretCheck::Digest(_) => false,
        };
        secrets.iter().position(signed).ok_or(Refusal::NotVerified)
    }

    /// A message in the channel for a GIF, one only the person sees otherwise.
    fn reply(&self, answer: &CommandAnswer, origin: &str) -> Value {
        match outcome(answer, origin, DISCORD_USAGE) {
            Outcome::Found(links) => message(CHANNEL_MESSAGE, posted(&links)),
            Outcome::Notice(text) => message(CHANNEL_MESSAGE, notice(&text)),
        }
    }
}

/// Whether `signature` (hex) is the Ed25519 signature of `timestamp` then `body` by the key whose
/// public half is `public_key` (hex, as Discord shows it). Anything malformed is no signature.
pub fn discord_signature_valid(public_key: &str, timestamp: &str, body: &[u8], signature: &str) -> bool {
    let mut key = [0u8; 32];
    let mut sig = [0u8; 64];
    if hex::decode_to_slice(public_key, &mut key).is_err() || hex::decode_to_slice(signature, &mut sig).is_err() {
        return false;
    }
    let Ok(key) = VerifyingKey::from_bytes(&key) else { return false };
    let mut message = Vec::with_capacity(timestamp.len() + body.len());
    message.extend_from_slice(timestamp.as_bytes());
    message.extend_from_slice(body);
    key.verify_strict(&message, &Signature::from_bytes(&sig)).is_ok()
}

/// The parts of an interaction gifshelf reads.
#[derive(Deserialize)]
struct Interaction {
    #[serde(rename = "type")]
    kind: u8,
    #[serde(default)]
    data: Option<InteractionData>,
}

#[derive(Deserialize, Default)]
struct InteractionData {
    /// The command's options (the command, autocomplete).
    #[serde(default)]
    options: Vec<CommandOption>,
    /// The button's id (a component).
    #[serde(default)]
    custom_id: Option<String>,
}

#[derive(Deserialize)]
struct CommandOption {
    name: String,
    #[serde(default)]
    value: Option<Value>,
    #[serde(default)]
    focused: bool,
}

impl InteractionData {
    /// The text of the `query` option (the focused one, for autocomplete).
    fn query(&self) -> String {
        self.options
            .iter()
            .find(|o| o.name == "query" || o.focused)
            .and_then(|o| o.value.as_ref())
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    }
}

/// What a button asks, read from its `custom_id` (`gif:{action}:{position}:{query}`).
#[derive(Debug, PartialEq, Eq)]
enum Button {
    Send { position: u32, query: String },
    Next { position: u32, query: String },
    Cancel,
}

impl Button {
    fn id(action: &str, position: u32, query: &str) -> String {
        format!("gif:{action}:{position}:{query}")
    }

    /// `None` for an id gifshelf did not make (or an old one it no longer reads).
    fn parse(id: &str) -> Option<Self> {
        let mut parts = id.splitn(4, ':');
        if parts.next()? != "gif" {
            return None;
        }
        let action = parts.next()?;
        let position: u32 = parts.next()?.parse().ok().filter(|p| *p <= MAX_POSITION)?;
        let query = parts.next()?.to_owned();
        match action {
            "send" => Some(Self::Send { position, query }),
            "next" => Some(Self::Next { position, query }),
            "cancel" => Some(Self::Cancel),
            _ => None,
        }
    }
}

#[utoipa::path(
    post,
    path = "/api/chat/discord",
    tag = "integrations",
    summary = "Discord's interactions endpoint: /gif with autocomplete, a private preview, and Send / Next / Cancel",
    description = "Every request signed by Discord: `X-Signature-Ed25519` (hex) is the Ed25519 signature of `X-Signature-Timestamp` followed by the raw body, checked with the application's public key (`GIFSHELF_DISCORD_PUBLIC_KEY` or an integration); the timestamp at most 5 minutes from now. `PING` answers `PONG` (`{\"type\": 1}`); autocomplete (type 4) up to 25 choices; the command (type 2) an ephemeral preview of the best match with buttons; the buttons (type 3) post the GIF's public share link to the channel, show the next match, or remove the preview. Rated at most the integration's maximum; hidden GIFs are never answered.",
    request_body(description = "A Discord interaction", content = serde_json::Value, content_type = "application/json"),
    responses((status = 200, description = "An interaction response (`{type, data}`)", body = serde_json::Value), (status = 400, description = "A body that is no interaction (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "No valid signature by a configured application, or a timestamp more than 5 minutes away (`unauthorized`)", body = crate::dto::ApiErrorBody), (status = 413, description = "A body over 64 KiB (`too_large`)", body = crate::dto::ApiErrorBody), (status = 429, description = "The integration's requests of the minute are used up (`too_many_requests`)", body = crate::dto::ApiErrorBody))
)]
#[post("/chat/discord")]
pub(crate) async fn interaction(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let admitted = admit(&state, &req, payload, &Discord).await?;
    let interaction: Interaction = serde_json::from_slice(&admitted.body)
        .map_err(|_| ApiError::bad_request("The request body is no Discord interaction."))?;
    let data = interaction.data.unwrap_or_default();
    let max = admitted.vouched.max_rating;
    let origin = admitted.origin.as_str();
    let answer = match interaction.kind {
        PING => json!({"type": PONG}),
        AUTOCOMPLETE => {
            let terms = state.chat.suggestions(&data.query(), CHOICES_MAX, max).await?;
            let choices: Vec<Value> = terms
                .into_iter()
                .map(|term| term.chars().take(CHOICE_MAX_CHARS).collect::<String>())
                .filter(|term| !term.is_empty())
                .map(|term| json!({"name": term, "value": term}))
                .collect();
            json!({"type": AUTOCOMPLETE_RESULT, "data": {"choices": choices}})
        }
        APPLICATION_COMMAND => {
            let query = data.query();
            let answer = state.commands.pick(&query, 0, max, false).await?;
            message(CHANNEL_MESSAGE, preview(&answer, origin, &query, 0))
        }
        MESSAGE_COMPONENT => match data.custom_id.as_deref().and_then(Button::parse) {
            Some(Button::Send { position, query }) => {
                let answer = state.commands.pick(&query, position, max, true).await?;
                Discord.reply(&answer, origin)
            }
            Some(Button::Next { position, query }) => {
                let answer = state.commands.pick(&query, position, max, false).await?;
                message(UPDATE_MESSAGE, preview(&answer, origin, &query, position))
            }
            Some(Button::Cancel) => message(UPDATE_MESSAGE, cleared("Cancelled: nothing was posted.")),
            None => message(UPDATE_MESSAGE, cleared("This preview can no longer be used: run /gif again.")),
        },
        _ => return Err(ApiError::bad_request("gifshelf answers Discord's pings, /gif and its buttons only.")),
    };
    tracing::info!(platform = "discord", kind = interaction.kind, "chat command answered");
    Ok(HttpResponse::Ok().json(answer))
}

/// An interaction response of `kind` with `data`.
fn message(kind: u8, data: Value) -> Value {
    json!({"type": kind, "data": data})
}

/// The GIF posted into the channel: its title and its public share link, which Discord embeds
/// and plays. Nobody is mentioned, whatever the title says.
fn posted(links: &Links) -> Value {
    json!({
        "content": format!("**{}**\n{}", discord_escape(&links.title), links.image),
        "allowed_mentions": {"parse": []},
    })
}

/// A sentence only the person who asked sees (gifshelf's words, or theirs: mentioning nobody).
fn notice(text: &str) -> Value {
    json!({"content": text, "flags": EPHEMERAL, "allowed_mentions": {"parse": []}})
}

/// The preview replaced by a sentence: no picture, no buttons.
fn cleared(text: &str) -> Value {
    json!({"content": text, "embeds": [], "components": [], "allowed_mentions": {"parse": []}})
}

/// The match at `position`, seen only by the person who asked, with Send / Next / Cancel; a
/// sentence instead when there is none (no more, for "Next").
fn preview(answer: &CommandAnswer, origin: &str, query: &str, position: u32) -> Value {
    let words = gifshelf_app::commands::command_words(query);
    let send = Button::id("send", position, &words);
    let fits = send.len().max(Button::id("next", position + 1, &words).len()) <= DISCORD_CUSTOM_ID_MAX;
    match (outcome(answer, origin, DISCORD_USAGE), answer) {
        (Outcome::Found(_), _) if !fits => {
            notice("Those words are too long for Discord's buttons: search with fewer, please.")
        }
        (Outcome::Found(links), _) => {
            let button = |style: u8, label: &str, id: String| json!({"type": 2, "style": style, "label": label, "custom_id": id});
            json!({
                "flags": EPHEMERAL,
                "content": "Only you can see this preview.",
                "embeds": [{"title": discord_escape(&links.title), "url": links.page, "image": {"url": links.image}}],
                "components": [{"type": 1, "components": [
                    button(1, "Send", send),
                    button(2, "Next", Button::id("next", position + 1, &words)),
                    button(2, "Cancel", Button::id("cancel", position, &words)),
                ]}],
                "allowed_mentions": {"parse": []},
            })
        }
        (Outcome::Notice(_), CommandAnswer::NoMatch(words)) if position > 0 => {
            cleared(&format!("No more GIFs match “{words}”."))
        }
        (Outcome::Notice(text), _) => notice(&text),
    }
}

/// Discord's Markdown (and its `<@…>` mentions and `@everyone`) kept as text: every punctuation
/// Discord formats with escaped by a backslash.
fn discord_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if "\\*_~`|>#-[]()<:@".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use ed25519_dalek::{Signer, SigningKey};

    use super::super::reply::tests::found;
    use super::super::tests::{headers, secrets};
    use super::*;
    use crate::chat::commands::reply;

    fn key() -> SigningKey {
        SigningKey::from_bytes(&[7u8; 32])
    }

    fn signed(timestamp: &str, body: &[u8]) -> (String, String) {
        let mut message = timestamp.as_bytes().to_vec();
        message.extend_from_slice(body);
        (hex::encode(key().verifying_key().to_bytes()), hex::encode(key().sign(&message).to_bytes()))
    }

    #[test]
    fn a_discord_signature_is_checked_with_the_public_key_over_timestamp_and_body() {
        let body = br#"{"type":1}"#;
        let (public, signature) = signed("1700000000", body);
        assert!(discord_signature_valid(&public, "1700000000", body, &signature));
        assert!(!discord_signature_valid(&public, "1700000001", body, &signature));
        assert!(!discord_signature_valid(&public, "1700000000", br#"{"type":2}"#, &signature));
        assert!(!discord_signature_valid(&public, "1700000000", body, &signature[2..]));
        assert!(!discord_signature_valid("not hex", "1700000000", body, &signature));
        let other = hex::encode(SigningKey::from_bytes(&[8u8; 32]).verifying_key().to_bytes());
        assert!(!discord_signature_valid(&other, "1700000000", body, &signature));

        let request = headers(&[(SIGNATURE, &signature), (TIMESTAMP, "1700000000")]);
        let incoming = Discord.recognise(&Request { headers: &request, body }).and_then(Result::ok);
        let incoming = incoming.unwrap_or_else(|| panic!("not recognised"));
        assert_eq!(incoming.verify(&secrets(&[&other, &public]), body, 1_700_000_000), Ok(1));
        assert_eq!(incoming.verify(&secrets(&[&public]), body, 1_700_000_301), Err(Refusal::TooOld));
        assert_eq!(incoming.verify(&secrets(&[&other]), body, 1_700_000_000), Err(Refusal::NotVerified));
        let half = headers(&[(SIGNATURE, &signature)]);
        assert!(matches!(Discord.recognise(&Request { headers: &half, body }), Some(Err(Refusal::NotVerified))));
    }

    #[test]
    fn buttons_carry_their_action_position_and_query_and_nothing_else_is_read() {
        let cases = [
            ("gif:send:0:happy cat", Some(Button::Send { position: 0, query: "happy cat".into() })),
            ("gif:next:3:a:b", Some(Button::Next { position: 3, query: "a:b".into() })),
            ("gif:cancel:0:cats", Some(Button::Cancel)),
            ("gif:next:1001:cats", None),
            ("gif:next:-1:cats", None),
            ("gif:post:0:cats", None),
            ("other:send:0:cats", None),
            ("gif:send:0", None),
            ("", None),
        ];
        for (id, button) in cases {
            assert_eq!(Button::parse(id), button, "{id:?}");
        }
    }

    #[test]
    fn discord_gets_an_escaped_title_that_mentions_nobody() {
        let answer = reply(Platform::Discord, &found(), "https://gifs.example.com");
        assert_eq!(answer["type"], 4);
        assert_eq!(
            answer["data"]["content"],
            "**Cat \\<!channel\\> \\*wow\\* \\@all**\nhttps://gifs.example.com/s/Ab3_x-9.gif"
        );
        assert_eq!(answer["data"]["allowed_mentions"], json!({"parse": []}));
        assert!(answer["data"].get("flags").is_none(), "a GIF is posted for everyone");
        let preview = preview(&found(), "https://gifs.example.com", "cats", 2);
        assert_eq!(preview["flags"], 64);
        let ids: Vec<&str> =
            (0..3).filter_map(|i| preview["components"][0]["components"][i]["custom_id"].as_str()).collect();
        assert_eq!(ids, ["gif:send:2:cats", "gif:next:3:cats", "gif:cancel:2:cats"]);
        let usage = reply(Platform::Discord, &CommandAnswer::Usage, "http://x");
        assert_eq!(usage["data"]["flags"], 64);
    }
}
