//! Zulip: an outgoing webhook posts JSON with the bot's `token` and the message that mentioned it
//! in `data`. Zulip renders no Markdown images: it shows a preview below a message for each link to
//! an image, so the picture is a link named after its file. A bot's reply is seen by everyone.

use gifshelf_app::commands::CommandAnswer;
use gifshelf_domain::integration::Platform;
use serde::Deserialize;

use super::reply::{markdown_escape, outcome, Outcome};
use super::{CommandPlatform, Incoming, Proof, Refusal, Request};
use crate::dto::ZulipReply;

pub const ZULIP_USAGE: &str = "Usage: mention me with some words — I post the best-matching GIF from gifshelf.";

pub(super) struct Zulip;

/// The fields of Zulip's webhook that gifshelf reads.
#[derive(Deserialize)]
struct Fields {
    #[serde(default)]
    token: Option<String>,
    /// The message that mentioned the bot.
    #[serde(default)]
    data: Option<String>,
    /// `mention`, `direct_message` or `private_message`.
    #[serde(default)]
    trigger: Option<String>,
}

impl CommandPlatform for Zulip {
    /// A JSON body with `data` or `trigger`.
    fn recognise(&self, request: &Request<'_>) -> Option<Result<Incoming, Refusal>> {
        if !request.is_json() {
            return None;
        }
        let fields: Fields = match request.json() {
            Ok(fields) => fields,
            Err(refusal) => return Some(Err(refusal)),
        };
        if fields.data.is_none() && fields.trigger.is_none() {
            return None;
        }
        Some(fields.token.ok_or(Refusal::NotVerified).map(|token| Incoming {
            platform: Platform::Zulip,
            proof: Proof::Token(token),
            text: fields.data.unwrap_or_default(),
        }))
    }

    fn reply(&self, answer: &CommandAnswer, origin: &str) -> serde_json::Value {
        let content = match outcome(answer, origin, ZULIP_USAGE) {
            Outcome::Found(links) => {
                format!("[{}]({})\n[{}]({})", markdown_escape(&links.title), links.page, links.file, links.image)
            }
            Outcome::Notice(text) => markdown_escape(&text),
        };
        serde_json::to_value(ZulipReply { content }).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::reply::tests::found;
    use super::super::tests::{headers, secrets};
    use super::*;
    use crate::chat::commands::reply;

    #[test]
    fn zulip_sends_its_token_and_the_message_in_json() {
        let json = headers(&[("content-type", "application/json")]);
        let body = br#"{"bot_email": "gif-bot@zulip.example.com", "bot_full_name": "gifshelf", "data": "@**gifshelf** cats", "message": {"id": 112, "content": "@**gifshelf** cats"}, "token": "xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0", "trigger": "mention"}"#;
        let incoming = Incoming::read(&json, body).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((incoming.platform, incoming.text.as_str()), (Platform::Zulip, "@**gifshelf** cats"));
        assert_eq!(incoming.verify(&secrets(&["xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0"]), body, 0), Ok(0));
        assert_eq!(
            incoming.verify(&secrets(&["xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ1"]), body, 0),
            Err(Refusal::NotVerified)
        );
        let tokenless = br#"{"data": "cats", "trigger": "mention"}"#;
        assert_eq!(Incoming::read(&json, tokenless), Err(Refusal::NotVerified));
    }

    #[test]
    fn zulip_gets_a_link_to_the_page_and_one_to_the_image() {
        let zulip = reply(Platform::Zulip, &found(), "https://gifs.example.com");
        assert_eq!(
            zulip["content"],
            "[Cat \\<\\!channel\\> \\*wow\\* @\u{200B}all](https://gifs.example.com/s/Ab3_x-9)\n\
             [Ab3_x-9.gif](https://gifs.example.com/s/Ab3_x-9.gif)"
        );
        let usage = reply(Platform::Zulip, &CommandAnswer::Usage, "http://x");
        assert_eq!(usage["content"], ZULIP_USAGE);
    }
}
