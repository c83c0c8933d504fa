//! Telegram: a bot's webhook, `POST /api/chat/telegram`. Telegram sends the secret token given to
//! `setWebhook` in `X-Telegram-Bot-Api-Secret-Token` (compared in constant time, as a token) and
//! one update per request. The answer is a Bot API method call in the response body, which
//! Telegram makes on the bot's behalf, so gifshelf needs no outgoing request:
//!
//! - an inline query (`@yourbot cats`): `answerInlineQuery` with up to 50 GIFs, each the MP4 when
//!   there is one (`mpeg4_gif`) or the GIF (`gif`), a GIF (or MP4) thumbnail, their sizes, and
//!   `next_offset` for the next 50;
//! - a `/gif cats` message: `sendAnimation` with the best match into that chat (a share), or
//!   `sendMessage` with "No GIFs match …" or the usage;
//! - a chosen inline result (when the bot's inline feedback is on): a share of that GIF.

use actix_web::{post, web, HttpRequest, HttpResponse};
use gifshelf_app::commands::CommandAnswer;
use gifshelf_app::AppError;
use gifshelf_domain::gif::{Gif, PageRequest, Rating, RenditionKind};
use gifshelf_domain::integration::Platform;
use serde::Deserialize;
use serde_json::{json, Value};

use super::reply::{outcome, Outcome};
use super::{admit, CommandPlatform, Incoming, Proof, Refusal, Request};
use crate::chat::formats::{first, MediaFile};
use crate::{ApiError, AppState};

use RenditionKind::{FixedHeight, Medium, Mp4, Mp4Small, Original, Still, Thumbnail, Tiny};

const SECRET: &str = "x-telegram-bot-api-secret-token";

pub const TELEGRAM_USAGE: &str =
    "Usage: /gif <words> posts the best-matching GIF from gifshelf; or type @ and my name, then words, in any chat to choose one.";
/// Results of one inline answer (Telegram takes at most 50).
pub const TELEGRAM_PAGE: u32 = 50;
/// How long Telegram may keep an inline answer, in seconds: new GIFs show up soon.
const CACHE_SECS: u32 = 10;
/// The deepest page an inline query may ask for.
const MAX_OFFSET: u32 = 10_000;

pub(super) struct Telegram;

impl CommandPlatform for Telegram {
    /// The webhook's secret header.
    fn recognise(&self, request: &Request<'_>) -> Option<Result<Incoming, Refusal>> {
        let token = request.header(SECRET)?.to_owned();
        Some(Ok(Incoming { platform: Platform::Telegram, proof: Proof::Token(token), text: String::new() }))
    }

    /// `sendAnimation` of the GIF, with its title linked to its share page (HTML), or
    /// `sendMessage` of the sentence; the handler adds the chat.
    fn reply(&self, answer: &CommandAnswer, origin: &str) -> Value {
        match (answer, outcome(answer, origin, TELEGRAM_USAGE)) {
            (CommandAnswer::Found(gif), Outcome::Found(links)) => {
                let animation = first(origin, gif, &[Mp4]).or_else(|| gif_file(origin, gif)).map(|f| f.url);
                json!({
                    "method": "sendAnimation",
                    "animation": animation.unwrap_or(links.image),
                    "caption": format!("<a href=\"{}\">{}</a>", links.page, html_escape(&links.title)),
                    "parse_mode": "HTML",
                })
            }
            (_, Outcome::Found(links)) => json!({"method": "sendMessage", "text": links.page}),
            (_, Outcome::Notice(text)) => json!({"method": "sendMessage", "text": text}),
        }
    }
}

/// The parts of an update gifshelf reads (Telegram's `Update`).
#[derive(Deserialize)]
struct Update {
    #[serde(default)]
    message: Option<Message>,
    #[serde(default)]
    inline_query: Option<InlineQuery>,
    #[serde(default)]
    chosen_inline_result: Option<ChosenInlineResult>,
}

#[derive(Deserialize)]
struct Message {
    chat: Chat,
    #[serde(default)]
    text: Option<String>,
}

#[derive(Deserialize)]
struct Chat {
    id: i64,
}

#[derive(Deserialize)]
struct InlineQuery {
    id: String,
    #[serde(default)]
    query: String,
    #[serde(default)]
    offset: String,
}

#[derive(Deserialize)]
struct ChosenInlineResult {
    result_id: String,
}

#[utoipa::path(
    post,
    path = "/api/chat/telegram",
    tag = "integrations",
    summary = "A Telegram bot's webhook: inline queries and /gif, answered with a Bot API method call",
    description = "Telegram's `Update`, with the webhook's secret in `X-Telegram-Bot-Api-Secret-Token` (`GIFSHELF_TELEGRAM_WEBHOOK_SECRET` or an integration). An inline query is answered with `answerInlineQuery` (up to 50 `mpeg4_gif` or `gif` results of public share-id URLs with thumbnails and sizes, `next_offset` for the next page, `cache_time` 10); a `/gif words` message with `sendAnimation` of the best match (or `sendMessage` when nothing matches); other updates with `{}`. Rated at most the integration's maximum; hidden GIFs are never answered.",
    request_body(description = "A Telegram update", content = serde_json::Value, content_type = "application/json"),
    responses((status = 200, description = "A Bot API method call (`{method, …}`), or `{}`", body = serde_json::Value), (status = 400, description = "A body that is no update (`bad_request`)", body = crate::dto::ApiErrorBody), (status = 401, description = "No secret, or not a configured one (`unauthorized`)", body = crate::dto::ApiErrorBody), (status = 413, description = "A body over 64 KiB (`too_large`)", body = crate::dto::ApiErrorBody), (status = 429, description = "The integration's requests of the minute are used up (`too_many_requests`)", body = crate::dto::ApiErrorBody))
)]
#[post("/chat/telegram")]
pub(crate) async fn update(
    state: web::Data<AppState>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let admitted = admit(&state, &req, payload, &Telegram).await?;
    let update: Update = serde_json::from_slice(&admitted.body)
        .map_err(|_| ApiError::bad_request("The request body is no Telegram update."))?;
    let max = admitted.vouched.max_rating;
    let origin = admitted.origin.as_str();
    let answer = if let Some(query) = update.inline_query {
        inline_answer(&state, &query, max, origin).await?
    } else if let Some(message) = update.message {
        match message.text.as_deref().and_then(command_text) {
            Some(Command::Gif(words)) => {
                let answer = state.commands.pick(&words, 0, max, true).await?;
                with_chat(Telegram.reply(&answer, origin), message.chat.id)
            }
            Some(Command::Help) => with_chat(Telegram.reply(&CommandAnswer::Usage, origin), message.chat.id),
            None => json!({}),
        }
    } else if let Some(chosen) = update.chosen_inline_result {
        match state.chat.register_share(&chosen.result_id).await {
            Ok(_) | Err(AppError::NotFound(_)) => {}
            Err(other) => return Err(other.into()),
        }
        json!({})
    } else {
        json!({})
    };
    tracing::info!(
        platform = "telegram",
        method = answer["method"].as_str().unwrap_or("none"),
        "chat command answered"
    );
    Ok(HttpResponse::Ok().json(answer))
}

/// A method call sent to the chat the message came from.
fn with_chat(mut call: Value, chat_id: i64) -> Value {
    call["chat_id"] = json!(chat_id);
    call
}

/// What a message asks of the bot.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    /// `/gif words` (or `/gif@yourbot words`).
    Gif(String),
    /// `/start` or `/help` (a first private message, the "no match" button).
    Help,
}

/// The bot's command at the start of a message, `None` for any other message.
fn command_text(text: &str) -> Option<Command> {
    let text = text.trim_start();
    let (first, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let command = first.split('@').next().unwrap_or_default().to_ascii_lowercase();
    match command.as_str() {
        "/gif" => Some(Command::Gif(rest.trim().to_owned())),
        "/start" | "/help" => Some(Command::Help),
        _ => None,
    }
}

/// `answerInlineQuery` with the page of matches `offset` names (a multiple of 50 gifshelf gave
/// as `next_offset`; anything else is an empty answer). No words: the most viewed GIFs.
async fn inline_answer(state: &AppState, query: &InlineQuery, max: Rating, origin: &str) -> Result<Value, ApiError> {
    let words = query.query.split_whitespace().collect::<Vec<_>>().join(" ");
    let offset = if query.offset.is_empty() { Some(0) } else { query.offset.parse::<u32>().ok() };
    let page = offset.filter(|o| o % TELEGRAM_PAGE == 0 && *o <= MAX_OFFSET).map(|o| o / TELEGRAM_PAGE);
    let found = match page {
        Some(page) => match state.commands.matches(&words, PageRequest { page, size: TELEGRAM_PAGE }, max).await {
            Ok(found) => Some(found),
            Err(AppError::Validation(_)) => None,
            Err(other) => return Err(other.into()),
        },
        None => None,
    };
    let (results, next_offset) = match (page, found) {
        (Some(page), Some(found)) => {
            let results: Vec<Value> = found.items.iter().filter_map(|gif| inline_result(origin, gif)).collect();
            let shown = u64::from(page + 1) * u64::from(TELEGRAM_PAGE);
            let more = shown < u64::try_from(found.total).unwrap_or(0) && shown <= u64::from(MAX_OFFSET);
            (results, if more { shown.to_string() } else { String::new() })
        }
        _ => (Vec::new(), String::new()),
    };
    let mut answer = json!({
        "method": "answerInlineQuery",
        "inline_query_id": query.id,
        "results": results,
        "cache_time": CACHE_SECS,
        "is_personal": false,
        "next_offset": next_offset,
    });
    if results_empty(&answer) && offset == Some(0) && !words.is_empty() {
        // Shown above the (empty) results; it opens a private chat with the bot, which explains.
        answer["button"] = json!({"text": format!("No GIFs match “{}”", cut(&words, 40)), "start_parameter": "help"});
    }
    Ok(answer)
}

fn results_empty(answer: &Value) -> bool {
    answer["results"].as_array().is_none_or(Vec::is_empty)
}

/// At most `max` characters of `text`, with an ellipsis when cut.
fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        text.chars().take(max - 1).chain(['…']).collect()
    }
}

/// The GIF-format file Telegram plays best: the largest GIF of its own size or smaller.
fn gif_file<'a>(origin: &str, gif: &'a Gif) -> Option<MediaFile<'a>> {
    [Medium, Original, FixedHeight, Tiny, Thumbnail]
        .into_iter()
        .filter_map(|kind| first(origin, gif, &[kind]))
        .find(|file| file.rendition.extension() == "gif")
}

/// A thumbnail Telegram takes (JPEG, GIF or MP4, not PNG or WebP): the small GIFs, then the
/// small video; with its MIME type.
fn thumbnail<'a>(origin: &str, gif: &'a Gif) -> Option<(MediaFile<'a>, &'static str)> {
    [Tiny, Thumbnail, Still, FixedHeight, Mp4Small, Original]
        .into_iter()
        .filter_map(|kind| first(origin, gif, &[kind]))
        .find_map(|file| {
            let mime = match file.rendition.extension() {
                "gif" => "image/gif",
                "jpg" => "image/jpeg",
                "mp4" => "video/mp4",
                _ => return None,
            };
            Some((file, mime))
        })
}

/// Whole seconds of a loop, at least one.
fn seconds(file: &MediaFile<'_>) -> u64 {
    let ms = file.rendition.duration_ms.unwrap_or(0);
    u64::try_from(ms).unwrap_or(0).div_ceil(1000).max(1)
}

/// One inline result: `mpeg4_gif` when the GIF has its MP4, else `gif`; `None` for a GIF with
/// no file Telegram plays (a still image whose files are still being made).
fn inline_result(origin: &str, gif: &Gif) -> Option<Value> {
    let (thumb, mime) = thumbnail(origin, gif)?;
    let title = gif.title.as_str();
    if let Some(video) = first(origin, gif, &[Mp4]) {
        return Some(json!({
            "type": "mpeg4_gif",
            "id": gif.share_id,
            "mpeg4_url": video.url,
            "mpeg4_width": video.width(),
            "mpeg4_height": video.height(),
            "mpeg4_duration": seconds(&video),
            "thumbnail_url": thumb.url,
            "thumbnail_mime_type": mime,
            "title": title,
        }));
    }
    let file = gif_file(origin, gif)?;
    Some(json!({
        "type": "gif",
        "id": gif.share_id,
        "gif_url": file.url,
        "gif_width": file.width(),
        "gif_height": file.height(),
        "gif_duration": seconds(&file),
        "thumbnail_url": thumb.url,
        "thumbnail_mime_type": mime,
        "title": title,
    }))
}

/// Telegram's HTML parse mode keeps text as text with `<`, `>` and `&` escaped.
fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::super::reply::tests::found;
    use super::super::tests::{headers, secrets};
    use super::*;
    use crate::chat::commands::reply;

    #[test]
    fn the_webhook_secret_is_a_token_compared_with_the_configured_ones() {
        let request = headers(&[(SECRET, "k9Jx_2-secret")]);
        let incoming = Telegram.recognise(&Request { headers: &request, body: b"{}" }).and_then(Result::ok);
        let incoming = incoming.unwrap_or_else(|| panic!("not recognised"));
        assert_eq!(incoming.verify(&secrets(&["k9Jx_2-secret"]), b"{}", 0), Ok(0));
        assert_eq!(incoming.verify(&secrets(&["k9Jx_2-secreT"]), b"{}", 0), Err(Refusal::NotVerified));
        let none = actix_web::http::header::HeaderMap::new();
        assert!(Telegram.recognise(&Request { headers: &none, body: b"{}" }).is_none());
    }

    #[test]
    fn commands_are_read_with_or_without_the_bots_name() {
        let cases = [
            ("/gif cats", Some(Command::Gif("cats".into()))),
            ("/gif@gifshelf_bot  happy cat ", Some(Command::Gif("happy cat".into()))),
            ("/GIF cats", Some(Command::Gif("cats".into()))),
            ("/gif", Some(Command::Gif(String::new()))),
            ("/start help", Some(Command::Help)),
            ("/help", Some(Command::Help)),
            ("/gifs cats", None),
            ("cats /gif", None),
            ("", None),
        ];
        for (text, command) in cases {
            assert_eq!(command_text(text), command, "{text:?}");
        }
    }

    fn file(kind: RenditionKind, content_type: &str, width: i32, duration_ms: i32) -> gifshelf_domain::gif::Rendition {
        gifshelf_domain::gif::Rendition {
            kind,
            key: format!("k/{}", kind.as_str()),
            content_type: content_type.into(),
            size: 1000,
            width,
            height: width / 2,
            frames: 3,
            duration_ms: Some(duration_ms),
            codec: None,
            preferred: false,
        }
    }

    #[test]
    fn inline_results_are_the_mp4_when_there_is_one_with_a_thumbnail_telegram_takes() {
        let CommandAnswer::Found(gif) = found() else { panic!("found() finds") };
        let with = |files: Vec<gifshelf_domain::gif::Rendition>| Gif {
            renditions: gifshelf_domain::gif::Renditions::new(files),
            ..(*gif).clone()
        };
        let video = with(vec![
            file(Original, "image/gif", 480, 2500),
            file(Thumbnail, "image/gif", 320, 2500),
            file(Tiny, "image/gif", 220, 2500),
            file(Mp4, "video/mp4", 480, 2500),
        ]);
        let result = inline_result("https://g.example", &video).unwrap_or_default();
        assert_eq!(result["type"], "mpeg4_gif");
        assert_eq!(result["id"], "Ab3_x-9");
        assert_eq!(result["mpeg4_url"], "https://g.example/s/Ab3_x-9/mp4.mp4");
        assert_eq!((result["mpeg4_width"].as_i64(), result["mpeg4_height"].as_i64()), (Some(480), Some(240)));
        assert_eq!(result["mpeg4_duration"], 3);
        assert_eq!(result["thumbnail_url"], "https://g.example/s/Ab3_x-9/tiny.gif");
        assert_eq!(result["thumbnail_mime_type"], "image/gif");

        let gif_only = with(vec![file(Original, "image/gif", 480, 400)]);
        let result = inline_result("https://g.example", &gif_only).unwrap_or_default();
        assert_eq!((result["type"].as_str(), result["gif_duration"].as_u64()), (Some("gif"), Some(1)));
        assert_eq!(result["gif_url"], "https://g.example/s/Ab3_x-9/original.gif");

        // A PNG with no GIF or video (yet) is nothing Telegram plays, nor a thumbnail it takes.
        let png = with(vec![file(Original, "image/png", 480, 0), file(Thumbnail, "image/png", 320, 0)]);
        assert_eq!(inline_result("https://g.example", &png), None);
    }

    #[test]
    fn telegram_gets_html_with_the_title_escaped() {
        let answer = reply(Platform::Telegram, &found(), "https://gifs.example.com");
        assert_eq!(answer["method"], "sendAnimation");
        assert_eq!(answer["parse_mode"], "HTML");
        assert_eq!(
            answer["caption"],
            "<a href=\"https://gifs.example.com/s/Ab3_x-9\">Cat &lt;!channel&gt; *wow* @all</a>"
        );
        let usage = reply(Platform::Telegram, &CommandAnswer::Usage, "http://x");
        assert_eq!((usage["method"].as_str(), usage["text"].as_str()), (Some("sendMessage"), Some(TELEGRAM_USAGE)));
    }
}
