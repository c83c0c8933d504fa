//! Slash commands as each chat platform sends and expects them (`POST /api/chat/command`): which
//! platform a request comes from, whether it proves it with a configured secret, and the answer in
//! the platform's own format. Pure functions over headers and bytes; the handler is
//! `routes/command.rs`.
//!
//! - Slack signs `v0:{X-Slack-Request-Timestamp}:{raw body}` with the app's signing secret
//!   (HMAC-SHA256, hex, `X-Slack-Signature: v0=…`); a timestamp more than 5 minutes from now is
//!   refused, so a captured request cannot be replayed later. The body is form-encoded.
//! - Mattermost sends the slash command's token as `Authorization: Token …` and as `token` in
//!   the (form-encoded or JSON) body.
//! - A Zulip outgoing webhook posts JSON with the bot's `token` and the message text in `data`.

use actix_web::http::header::{HeaderMap, AUTHORIZATION, CONTENT_TYPE};
use gifshelf_app::commands::CommandAnswer;
use gifshelf_domain::gif::RenditionKind;
use gifshelf_domain::integration::{IntegrationSecret, Platform};
use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::dto::{ResponseType, SlackBlock, SlackText, SlashCommandReply, ZulipReply};

/// The largest command body read; platforms send a few hundred bytes (Zulip a few KiB).
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// How far a Slack timestamp may be from now, either way.
pub const MAX_CLOCK_SKEW_SECS: i64 = 5 * 60;

const SLACK_SIGNATURE: &str = "x-slack-signature";
const SLACK_TIMESTAMP: &str = "x-slack-request-timestamp";

pub const NOT_VERIFIED: &str = "This request does not come from a chat integration configured on this server.";
pub const TOO_OLD: &str = "This request's timestamp is more than 5 minutes away from the server's clock.";
pub const USAGE: &str = "Usage: /gif <words> — posts the best-matching GIF from gifshelf.";
pub const ZULIP_USAGE: &str = "Usage: mention me with some words — I post the best-matching GIF from gifshelf.";

/// Why a request is not believed (each a 401).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// No platform's credentials, or none that matches a configured secret.
    NotVerified,
    /// A Slack timestamp outside [`MAX_CLOCK_SKEW_SECS`].
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

/// A command as its platform sent it, not yet believed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    pub platform: Platform,
    credential: Credential,
    /// The command's text (Slack, Mattermost) or the message (Zulip).
    pub text: String,
}

#[derive(Clone, PartialEq, Eq)]
enum Credential {
    Slack { timestamp: String, signature: String },
    Token(String),
}

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Slack { .. } => "Slack(…)",
            Self::Token(_) => "Token(…)",
        })
    }
}

/// The fields of a form-encoded or JSON command body that matter (others are ignored).
#[derive(Debug, Default, Deserialize)]
struct Fields {
    #[serde(default)]
    token: Option<String>,
    /// Slack and Mattermost: the words after the command.
    #[serde(default)]
    text: Option<String>,
    /// Zulip: the message that mentioned the bot.
    #[serde(default)]
    data: Option<String>,
    /// Zulip: `mention`, `direct_message` or `private_message`.
    #[serde(default)]
    trigger: Option<String>,
}

impl Incoming {
    /// Tells the platform apart: Slack's signature headers; else a JSON body with Zulip's `data`
    /// (or `trigger`); else Mattermost's token (header or body).
    ///
    /// # Errors
    /// `NotVerified` when no platform's credentials are there or the body cannot be read.
    pub fn read(headers: &HeaderMap, body: &[u8]) -> Result<Self, Refusal> {
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
        if headers.contains_key(SLACK_SIGNATURE) || headers.contains_key(SLACK_TIMESTAMP) {
            let (Some(timestamp), Some(signature)) = (header(SLACK_TIMESTAMP), header(SLACK_SIGNATURE)) else {
                return Err(Refusal::NotVerified);
            };
            let fields: Fields = serde_urlencoded::from_bytes(body).map_err(|_| Refusal::NotVerified)?;
            return Ok(Self {
                platform: Platform::Slack,
                credential: Credential::Slack { timestamp: timestamp.to_owned(), signature: signature.to_owned() },
                text: fields.text.unwrap_or_default(),
            });
        }
        let json = header(CONTENT_TYPE.as_str())
            .and_then(|t| t.split(';').next())
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
        let fields: Fields = if json {
            serde_json::from_slice(body).map_err(|_| Refusal::NotVerified)?
        } else {
            serde_urlencoded::from_bytes(body).map_err(|_| Refusal::NotVerified)?
        };
        if json && (fields.data.is_some() || fields.trigger.is_some()) {
            let token = fields.token.ok_or(Refusal::NotVerified)?;
            return Ok(Self {
                platform: Platform::Zulip,
                credential: Credential::Token(token),
                text: fields.data.unwrap_or_default(),
            });
        }
        let from_header = header(AUTHORIZATION.as_str())
            .and_then(|v| v.split_once(' '))
            .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("token"))
            .map(|(_, token)| token.trim().to_owned());
        let token = from_header.or(fields.token).ok_or(Refusal::NotVerified)?;
        Ok(Self {
            platform: Platform::Mattermost,
            credential: Credential::Token(token),
            text: fields.text.unwrap_or_default(),
        })
    }

    /// Whether one of `secrets` (the platform's) vouches for the request; `body` is the raw body
    /// `read` was given and `now` the server's Unix time.
    ///
    /// # Errors
    /// `TooOld` for a Slack timestamp too far from `now`; `NotVerified` when no secret matches.
    pub fn verify(&self, secrets: &[IntegrationSecret], body: &[u8], now: i64) -> Result<(), Refusal> {
        let verified = match &self.credential {
            Credential::Slack { timestamp, signature } => {
                let at: i64 = timestamp.parse().map_err(|_| Refusal::NotVerified)?;
                if (now - at).abs() > MAX_CLOCK_SKEW_SECS {
                    return Err(Refusal::TooOld);
                }
                secrets.iter().any(|secret| slack_signature_matches(secret.expose(), timestamp, body, signature))
            }
            Credential::Token(token) => secrets.iter().any(|secret| same_secret(secret.expose(), token)),
        };
        if verified {
            Ok(())
        } else {
            Err(Refusal::NotVerified)
        }
    }
}

/// `v0=` and the hex HMAC-SHA256 of `v0:{timestamp}:{body}`, as Slack computes it.
pub fn slack_signature(secret: &str, timestamp: &str, body: &[u8]) -> Option<String> {
    // HMAC takes keys of any length: this never fails.
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).ok()?;
    mac.update(b"v0:");
    mac.update(timestamp.as_bytes());
    mac.update(b":");
    mac.update(body);
    Some(format!("v0={}", hex::encode(mac.finalize().into_bytes())))
}

fn slack_signature_matches(secret: &str, timestamp: &str, body: &[u8], signature: &str) -> bool {
    slack_signature(secret, timestamp, body).is_some_and(|expected| same_secret(&expected, signature))
}

/// Two secrets are the same, compared in constant time over their SHA-256 (which hides the
/// lengths too).
fn same_secret(expected: &str, presented: &str) -> bool {
    Sha256::digest(expected.as_bytes()).ct_eq(&Sha256::digest(presented.as_bytes())).into()
}

/// The answer in the platform's format. `origin` is the public origin links are built on.
pub fn reply(platform: Platform, answer: &CommandAnswer, origin: &str) -> serde_json::Value {
    let json = match platform {
        Platform::Slack => serde_json::to_value(slack_reply(answer, origin)),
        Platform::Mattermost => serde_json::to_value(mattermost_reply(answer, origin)),
        Platform::Zulip => serde_json::to_value(zulip_reply(answer, origin)),
    };
    json.unwrap_or_default()
}

/// The public links of a found GIF: its image (`/s/{shareId}.{ext}`, what chat apps animate) and
/// its share page (`/s/{shareId}`). Never the row id.
struct Links {
    title: String,
    image: String,
    page: String,
    file: String,
}

fn links(gif: &gifshelf_domain::gif::Gif, origin: &str) -> Links {
    let ext = gif.rendition(RenditionKind::Original).map_or("gif", |r| r.extension());
    Links {
        title: gif.title.as_str().to_owned(),
        image: format!("{origin}/s/{}.{ext}", gif.share_id),
        page: format!("{origin}/s/{}", gif.share_id),
        file: format!("{}.{ext}", gif.share_id),
    }
}

fn no_match(words: &str) -> String {
    format!("No GIFs match “{words}”.")
}

fn slack_reply(answer: &CommandAnswer, origin: &str) -> SlashCommandReply {
    let ephemeral = |text: &str| SlashCommandReply {
        response_type: ResponseType::Ephemeral,
        text: slack_escape(text),
        blocks: Vec::new(),
    };
    match answer {
        CommandAnswer::Found(gif) => {
            let links = links(gif, origin);
            let link = format!("<{}|{}>", links.page, slack_escape(&links.title));
            SlashCommandReply {
                response_type: ResponseType::InChannel,
                text: link.clone(),
                blocks: vec![
                    SlackBlock::Image {
                        image_url: links.image,
                        alt_text: links.title.clone(),
                        title: SlackText { kind: "plain_text".into(), text: links.title },
                    },
                    SlackBlock::Context {
                        elements: vec![SlackText { kind: "mrkdwn".into(), text: format!("{link} · gifshelf") }],
                    },
                ],
            }
        }
        CommandAnswer::NoMatch(words) => ephemeral(&no_match(words)),
        CommandAnswer::Usage => ephemeral(USAGE),
        CommandAnswer::Refused(reason) => ephemeral(reason),
    }
}

fn mattermost_reply(answer: &CommandAnswer, origin: &str) -> SlashCommandReply {
    let ephemeral = |text: &str| SlashCommandReply {
        response_type: ResponseType::Ephemeral,
        text: markdown_escape(text),
        blocks: Vec::new(),
    };
    match answer {
        CommandAnswer::Found(gif) => {
            let links = links(gif, origin);
            let title = markdown_escape(&links.title);
            SlashCommandReply {
                response_type: ResponseType::InChannel,
                text: format!("[{title}]({})\n![{title}]({})", links.page, links.image),
                blocks: Vec::new(),
            }
        }
        CommandAnswer::NoMatch(words) => ephemeral(&no_match(words)),
        CommandAnswer::Usage => ephemeral(USAGE),
        CommandAnswer::Refused(reason) => ephemeral(reason),
    }
}

/// Zulip renders no Markdown images: it shows a preview below a message for each link to an
/// image, so the picture is a link named after its file.
fn zulip_reply(answer: &CommandAnswer, origin: &str) -> ZulipReply {
    let content = match answer {
        CommandAnswer::Found(gif) => {
            let links = links(gif, origin);
            format!("[{}]({})\n[{}]({})", markdown_escape(&links.title), links.page, links.file, links.image)
        }
        CommandAnswer::NoMatch(words) => markdown_escape(&no_match(words)),
        CommandAnswer::Usage => markdown_escape(ZULIP_USAGE),
        CommandAnswer::Refused(reason) => markdown_escape(reason),
    };
    ZulipReply { content }
}

/// Slack's three control characters in mrkdwn (so `<!channel>` cannot be spelled by a title).
fn slack_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Markdown punctuation escaped, so a title stays text (no links, emphasis or HTML); a zero-width
/// space after each `@`, so a title cannot mention `@channel`, `@all` or a person.
fn markdown_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if "\\`*_{}[]()<>#!|~$".contains(c) {
            out.push('\\');
        }
        out.push(c);
        if c == '@' {
            out.push('\u{200B}');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use actix_web::http::header::{HeaderName, HeaderValue};
    use gifshelf_domain::gif::{Description, Gif, GifId, Renditions, Title};
    use gifshelf_domain::user::{UserId, Username};

    use super::*;

    // Slack's worked example ("Verifying requests from Slack").
    const SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";
    const TIMESTAMP: &str = "1531420618";
    const BODY: &str = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    const SIGNATURE: &str = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(HeaderName::from_static(name), HeaderValue::from_str(value).unwrap_or_else(|e| panic!("{e}")));
        }
        map
    }

    fn secrets(values: &[&str]) -> Vec<IntegrationSecret> {
        values.iter().map(|v| IntegrationSecret::from_trusted((*v).to_owned())).collect()
    }

    fn slack(signature: &str) -> Incoming {
        let headers = headers(&[(SLACK_TIMESTAMP, TIMESTAMP), (SLACK_SIGNATURE, signature)]);
        Incoming::read(&headers, BODY.as_bytes()).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn slacks_documented_example_is_signed_as_slack_says() {
        assert_eq!(slack_signature(SECRET, TIMESTAMP, BODY.as_bytes()).as_deref(), Some(SIGNATURE));
        let incoming = slack(SIGNATURE);
        assert_eq!((incoming.platform, incoming.text.as_str()), (Platform::Slack, ""));
        let now: i64 = 1_531_420_618;
        assert_eq!(incoming.verify(&secrets(&["another-secret", SECRET]), BODY.as_bytes(), now), Ok(()));
        // Within five minutes either way, not beyond.
        assert_eq!(incoming.verify(&secrets(&[SECRET]), BODY.as_bytes(), now + 300), Ok(()));
        assert_eq!(incoming.verify(&secrets(&[SECRET]), BODY.as_bytes(), now - 300), Ok(()));
        assert_eq!(incoming.verify(&secrets(&[SECRET]), BODY.as_bytes(), now + 301), Err(Refusal::TooOld));
        assert_eq!(incoming.verify(&secrets(&[SECRET]), BODY.as_bytes(), now - 360), Err(Refusal::TooOld));
    }

    #[test]
    fn a_slack_request_without_a_matching_signature_is_refused() {
        let now = 1_531_420_618;
        let refused = |incoming: &Incoming, secrets: &[IntegrationSecret], body: &str| {
            incoming.verify(secrets, body.as_bytes(), now)
        };
        let forged = slack("v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b504");
        assert_eq!(refused(&forged, &secrets(&[SECRET]), BODY), Err(Refusal::NotVerified));
        assert_eq!(refused(&slack(SIGNATURE), &secrets(&["not-the-secret"]), BODY), Err(Refusal::NotVerified));
        assert_eq!(refused(&slack(SIGNATURE), &[], BODY), Err(Refusal::NotVerified));
        assert_eq!(refused(&slack(SIGNATURE), &secrets(&[SECRET]), &format!("{BODY}&x=1")), Err(Refusal::NotVerified));
        assert_eq!(refused(&slack(&SIGNATURE.to_uppercase()), &secrets(&[SECRET]), BODY), Err(Refusal::NotVerified));
        let odd_time = Incoming::read(&headers(&[(SLACK_TIMESTAMP, "soon"), (SLACK_SIGNATURE, SIGNATURE)]), b"text=x");
        assert_eq!(odd_time.map(|i| i.verify(&secrets(&[SECRET]), b"text=x", now)), Ok(Err(Refusal::NotVerified)));
        // Half of Slack's headers is no request at all.
        assert_eq!(
            Incoming::read(&headers(&[(SLACK_SIGNATURE, SIGNATURE)]), BODY.as_bytes()),
            Err(Refusal::NotVerified)
        );
    }

    #[test]
    fn mattermost_tokens_come_from_the_header_or_the_body() {
        let tokens = secrets(&["pbte7m9wbbfbmjk1f4mhsibbzc"]);
        let form = b"token=pbte7m9wbbfbmjk1f4mhsibbzc&command=%2Fgif&text=happy+cat";
        let incoming = Incoming::read(&HeaderMap::new(), form).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((incoming.platform, incoming.text.as_str()), (Platform::Mattermost, "happy cat"));
        assert_eq!(incoming.verify(&tokens, form, 0), Ok(()));

        let header = headers(&[("authorization", "Token pbte7m9wbbfbmjk1f4mhsibbzc")]);
        let incoming = Incoming::read(&header, b"text=cats").unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(incoming.verify(&tokens, b"text=cats", 0), Ok(()));

        let json = headers(&[("content-type", "application/json; charset=utf-8")]);
        let body = br#"{"token": "pbte7m9wbbfbmjk1f4mhsibbzc", "command": "/gif", "text": "cats"}"#;
        let incoming = Incoming::read(&json, body).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((incoming.platform, incoming.text.as_str()), (Platform::Mattermost, "cats"));
        assert_eq!(incoming.verify(&tokens, body, 0), Ok(()));

        let wrong = Incoming::read(&HeaderMap::new(), b"token=pbte7m9wbbfbmjk1f4mhsibbzd&text=cats");
        assert_eq!(wrong.map(|i| i.verify(&tokens, b"", 0)), Ok(Err(Refusal::NotVerified)));
        assert_eq!(Incoming::read(&HeaderMap::new(), b"text=cats"), Err(Refusal::NotVerified));
        assert_eq!(Incoming::read(&HeaderMap::new(), b""), Err(Refusal::NotVerified));
        assert_eq!(Incoming::read(&json, b"not json"), Err(Refusal::NotVerified));
    }

    #[test]
    fn zulip_sends_its_token_and_the_message_in_json() {
        let json = headers(&[("content-type", "application/json")]);
        let body = br#"{"bot_email": "gif-bot@zulip.example.com", "bot_full_name": "gifshelf", "data": "@**gifshelf** cats", "message": {"id": 112, "content": "@**gifshelf** cats"}, "token": "xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0", "trigger": "mention"}"#;
        let incoming = Incoming::read(&json, body).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((incoming.platform, incoming.text.as_str()), (Platform::Zulip, "@**gifshelf** cats"));
        assert_eq!(incoming.verify(&secrets(&["xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0"]), body, 0), Ok(()));
        assert_eq!(
            incoming.verify(&secrets(&["xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ1"]), body, 0),
            Err(Refusal::NotVerified)
        );
        let tokenless = br#"{"data": "cats", "trigger": "mention"}"#;
        assert_eq!(Incoming::read(&json, tokenless), Err(Refusal::NotVerified));
    }

    fn found() -> CommandAnswer {
        CommandAnswer::Found(Box::new(Gif {
            id: GifId(41),
            share_id: "Ab3_x-9".into(),
            title: Title::from_trusted("Cat <!channel> *wow* @all".into()),
            description: Description::default(),
            tags: Vec::new(),
            view_count: 0,
            uploader_id: UserId(1),
            uploader: Username::from_trusted("alice".into()),
            uploaded_at: chrono::NaiveDateTime::default(),
            frame_count: 3,
            renditions: Renditions::default(),
            favourite_count: 0,
            favourite: false,
            share_count: 0,
        }))
    }

    #[test]
    fn each_platform_gets_its_own_format_with_share_links_only() {
        let origin = "https://gifs.example.com";
        let slack = reply(Platform::Slack, &found(), origin);
        assert_eq!(slack["response_type"], "in_channel");
        assert_eq!(slack["blocks"][0]["type"], "image");
        assert_eq!(slack["blocks"][0]["image_url"], "https://gifs.example.com/s/Ab3_x-9.gif");
        assert_eq!(slack["blocks"][0]["alt_text"], "Cat <!channel> *wow* @all");
        assert_eq!(slack["blocks"][0]["title"]["type"], "plain_text");
        assert_eq!(slack["text"], "<https://gifs.example.com/s/Ab3_x-9|Cat &lt;!channel&gt; *wow* @all>");

        let mattermost = reply(Platform::Mattermost, &found(), origin);
        assert_eq!(mattermost["response_type"], "in_channel");
        assert_eq!(
            mattermost["text"],
            "[Cat \\<\\!channel\\> \\*wow\\* @\u{200B}all](https://gifs.example.com/s/Ab3_x-9)\n\
             ![Cat \\<\\!channel\\> \\*wow\\* @\u{200B}all](https://gifs.example.com/s/Ab3_x-9.gif)"
        );
        assert!(mattermost.get("blocks").is_none());

        let zulip = reply(Platform::Zulip, &found(), origin);
        assert_eq!(
            zulip["content"],
            "[Cat \\<\\!channel\\> \\*wow\\* @\u{200B}all](https://gifs.example.com/s/Ab3_x-9)\n\
             [Ab3_x-9.gif](https://gifs.example.com/s/Ab3_x-9.gif)"
        );
        for answer in [slack, mattermost, zulip] {
            assert!(!answer.to_string().contains("41"), "the row id shows: {answer}");
        }
    }

    #[test]
    fn no_match_usage_and_refusals_are_only_for_the_person_who_asked_where_possible() {
        let none = CommandAnswer::NoMatch("cats".into());
        for platform in [Platform::Slack, Platform::Mattermost] {
            let answer = reply(platform, &none, "http://x");
            assert_eq!(answer["response_type"], "ephemeral");
            assert_eq!(answer["text"], "No GIFs match “cats”.");
        }
        assert_eq!(reply(Platform::Zulip, &none, "http://x"), serde_json::json!({"content": "No GIFs match “cats”."}));
        let usage = reply(Platform::Slack, &CommandAnswer::Usage, "http://x");
        assert_eq!(usage["text"], "Usage: /gif &lt;words&gt; — posts the best-matching GIF from gifshelf.");
        let usage = reply(Platform::Mattermost, &CommandAnswer::Usage, "http://x");
        assert_eq!(usage["text"], "Usage: /gif \\<words\\> — posts the best-matching GIF from gifshelf.");
        assert_eq!(usage["response_type"], "ephemeral");
        let usage = reply(Platform::Zulip, &CommandAnswer::Usage, "http://x");
        assert_eq!(usage["content"], ZULIP_USAGE);
    }
}
