//! Mattermost: the slash command's token as `Authorization: Token …` and as `token` in the
//! (form-encoded or JSON) body. The answer is Markdown, the image inline. Asked last: a request
//! with a token and no other platform's marks is Mattermost's.

use gifshelf_app::commands::CommandAnswer;
use gifshelf_domain::integration::Platform;
use serde::Deserialize;

use super::reply::{markdown_escape, outcome, Outcome, USAGE};
use super::{CommandPlatform, Incoming, Proof, Refusal, Request};
use crate::dto::{ResponseType, SlashCommandReply};

pub(super) struct Mattermost;

/// The fields of Mattermost's command that gifshelf reads.
#[derive(Deserialize)]
struct Fields {
    #[serde(default)]
    token: Option<String>,
    /// The words after the command.
    #[serde(default)]
    text: Option<String>,
}

impl CommandPlatform for Mattermost {
    fn recognise(&self, request: &Request<'_>) -> Option<Result<Incoming, Refusal>> {
        let fields: Fields = match request.fields() {
            Ok(fields) => fields,
            Err(refusal) => return Some(Err(refusal)),
        };
        let from_header = request
            .header(actix_web::http::header::AUTHORIZATION.as_str())
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("token"))
            .map(|(_, token)| token.trim().to_owned());
        let token = from_header.or(fields.token)?;
        Some(Ok(Incoming {
            platform: Platform::Mattermost,
            proof: Proof::Token(token),
            text: fields.text.unwrap_or_default(),
        }))
    }

    fn reply(&self, answer: &CommandAnswer, origin: &str) -> serde_json::Value {
        let reply = match outcome(answer, origin, USAGE) {
            Outcome::Found(links) => {
                let title = markdown_escape(&links.title);
                SlashCommandReply {
                    response_type: ResponseType::InChannel,
                    text: format!("[{title}]({})\n![{title}]({})", links.page, links.image),
                    blocks: Vec::new(),
                }
            }
            Outcome::Notice(text) => SlashCommandReply {
                response_type: ResponseType::Ephemeral,
                text: markdown_escape(&text),
                blocks: Vec::new(),
            },
        };
        serde_json::to_value(reply).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use actix_web::http::header::HeaderMap;

    use super::super::reply::tests::found;
    use super::super::tests::{headers, secrets};
    use super::*;
    use crate::chat::commands::reply;

    #[test]
    fn mattermost_tokens_come_from_the_header_or_the_body() {
        let tokens = secrets(&["pbte7m9wbbfbmjk1f4mhsibbzc"]);
        let form = b"token=pbte7m9wbbfbmjk1f4mhsibbzc&command=%2Fgif&text=happy+cat";
        let incoming = Incoming::read(&HeaderMap::new(), form).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((incoming.platform, incoming.text.as_str()), (Platform::Mattermost, "happy cat"));
        assert_eq!(incoming.verify(&tokens, form, 0), Ok(0));

        let header = headers(&[("authorization", "Token pbte7m9wbbfbmjk1f4mhsibbzc")]);
        let incoming = Incoming::read(&header, b"text=cats").unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(incoming.verify(&tokens, b"text=cats", 0), Ok(0));

        let json = headers(&[("content-type", "application/json; charset=utf-8")]);
        let body = br#"{"token": "pbte7m9wbbfbmjk1f4mhsibbzc", "command": "/gif", "text": "cats"}"#;
        let incoming = Incoming::read(&json, body).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((incoming.platform, incoming.text.as_str()), (Platform::Mattermost, "cats"));
        assert_eq!(incoming.verify(&tokens, body, 0), Ok(0));

        let wrong = Incoming::read(&HeaderMap::new(), b"token=pbte7m9wbbfbmjk1f4mhsibbzd&text=cats");
        assert_eq!(wrong.map(|i| i.verify(&tokens, b"", 0)), Ok(Err(Refusal::NotVerified)));
    }

    #[test]
    fn mattermost_gets_markdown_that_cannot_mention_or_format() {
        let mattermost = reply(Platform::Mattermost, &found(), "https://gifs.example.com");
        assert_eq!(mattermost["response_type"], "in_channel");
        assert_eq!(
            mattermost["text"],
            "[Cat \\<\\!channel\\> \\*wow\\* @\u{200B}all](https://gifs.example.com/s/Ab3_x-9)\n\
             ![Cat \\<\\!channel\\> \\*wow\\* @\u{200B}all](https://gifs.example.com/s/Ab3_x-9.gif)"
        );
        assert!(mattermost.get("blocks").is_none());
        let usage = reply(Platform::Mattermost, &CommandAnswer::Usage, "http://x");
        assert_eq!(usage["text"], "Usage: /gif \\<words\\> — posts the best-matching GIF from gifshelf.");
        assert_eq!(usage["response_type"], "ephemeral");
    }
}
