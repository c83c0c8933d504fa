//! Slack: a form-encoded slash command signed with the app's signing secret (HMAC-SHA256 of
//! `v0:{X-Slack-Request-Timestamp}:{raw body}`, hex, in `X-Slack-Signature: v0=…`); a timestamp
//! more than 5 minutes from now is refused, so a captured request cannot be replayed later. The
//! answer is Block Kit: the image, and a link to its share page.

use gifshelf_app::commands::CommandAnswer;
use gifshelf_domain::integration::{CommandSecret, IntegrationSecret, Platform, SecretCheck};
use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha256;

use super::reply::{outcome, Outcome, USAGE};
use super::{same_secret, CommandPlatform, Incoming, Proof, Refusal, Request};
use crate::dto::{ResponseType, SlackBlock, SlackText, SlashCommandReply};

/// How far a Slack timestamp may be from now, either way.
pub const MAX_CLOCK_SKEW_SECS: i64 = 5 * 60;

const SIGNATURE: &str = "x-slack-signature";
const TIMESTAMP: &str = "x-slack-request-timestamp";

pub(super) struct Slack;

/// The field of Slack's form that gifshelf reads (it sends many more).
#[derive(Deserialize)]
struct Form {
    /// The words after the command.
    #[serde(default)]
    text: Option<String>,
}

impl CommandPlatform for Slack {
    /// Slack's signature headers (both, or the request is refused).
    fn recognise(&self, request: &Request<'_>) -> Option<Result<Incoming, Refusal>> {
        if !request.has_header(SIGNATURE) && !request.has_header(TIMESTAMP) {
            return None;
        }
        let (Some(timestamp), Some(signature)) = (request.header(TIMESTAMP), request.header(SIGNATURE)) else {
            return Some(Err(Refusal::NotVerified));
        };
        let proof = Proof::Signed { timestamp: timestamp.to_owned(), signature: signature.to_owned() };
        Some(request.form::<Form>().map(|form| Incoming {
            platform: Platform::Slack,
            proof,
            text: form.text.unwrap_or_default(),
        }))
    }

    fn verify(&self, proof: &Proof, secrets: &[CommandSecret], body: &[u8], now: i64) -> Result<usize, Refusal> {
        let Proof::Signed { timestamp, signature } = proof else {
            return Err(Refusal::NotVerified);
        };
        let at: i64 = timestamp.parse().map_err(|_| Refusal::NotVerified)?;
        if (now - at).abs() > MAX_CLOCK_SKEW_SECS {
            return Err(Refusal::TooOld);
        }
        // A signature is checked with a secret's clear value; a digest cannot check one.
        let signed = |secret: &IntegrationSecret| {
            slack_signature(secret.expose(), timestamp, body).is_some_and(|expected| same_secret(&expected, signature))
        };
        secrets
            .iter()
            .position(|s| match &s.check {
                SecretCheck::Clear(secret) => signed(secret),
                SecretCheck::Digest(_) => false,
            })
            .ok_or(Refusal::NotVerified)
    }

    fn reply(&self, answer: &CommandAnswer, origin: &str) -> serde_json::Value {
        let reply = match outcome(answer, origin, USAGE) {
            Outcome::Found(links) => {
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
            Outcome::Notice(text) => SlashCommandReply {
                response_type: ResponseType::Ephemeral,
                text: slack_escape(&text),
                blocks: Vec::new(),
            },
        };
        serde_json::to_value(reply).unwrap_or_default()
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

/// Slack's three control characters in mrkdwn (so `<!channel>` cannot be spelled by a title).
fn slack_escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::super::reply::tests::found;
    use super::super::tests::{headers, secrets};
    use super::*;
    use crate::chat::commands::reply;

    // Slack's worked example ("Verifying requests from Slack").
    const SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";
    const STAMP: &str = "1531420618";
    const BODY: &str = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c";
    const SIGNED: &str = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503";

    fn slack(signature: &str) -> Incoming {
        let headers = headers(&[(TIMESTAMP, STAMP), (SIGNATURE, signature)]);
        Incoming::read(&headers, BODY.as_bytes()).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn slacks_documented_example_is_signed_as_slack_says() {
        assert_eq!(slack_signature(SECRET, STAMP, BODY.as_bytes()).as_deref(), Some(SIGNED));
        let incoming = slack(SIGNED);
        assert_eq!((incoming.platform, incoming.text.as_str()), (Platform::Slack, ""));
        let now: i64 = 1_531_420_618;
        assert_eq!(
            incoming.verify(&secrets(&["another-secret", SECRET]), BODY.as_bytes(), now),
            Ok(1),
            "the second secret vouched"
        );
        // Within five minutes either way, not beyond.
        assert_eq!(incoming.verify(&secrets(&[SECRET]), BODY.as_bytes(), now + 300), Ok(0));
        assert_eq!(incoming.verify(&secrets(&[SECRET]), BODY.as_bytes(), now - 300), Ok(0));
        assert_eq!(incoming.verify(&secrets(&[SECRET]), BODY.as_bytes(), now + 301), Err(Refusal::TooOld));
        assert_eq!(incoming.verify(&secrets(&[SECRET]), BODY.as_bytes(), now - 360), Err(Refusal::TooOld));
    }

    #[test]
    fn a_slack_request_without_a_matching_signature_is_refused() {
        let now = 1_531_420_618;
        let refused =
            |incoming: &Incoming, secrets: &[CommandSecret], body: &str| incoming.verify(secrets, body.as_bytes(), now);
        let forged = slack("v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b504");
        assert_eq!(refused(&forged, &secrets(&[SECRET]), BODY), Err(Refusal::NotVerified));
        assert_eq!(refused(&slack(SIGNED), &secrets(&["not-the-secret"]), BODY), Err(Refusal::NotVerified));
        assert_eq!(refused(&slack(SIGNED), &[], BODY), Err(Refusal::NotVerified));
        assert_eq!(refused(&slack(SIGNED), &secrets(&[SECRET]), &format!("{BODY}&x=1")), Err(Refusal::NotVerified));
        assert_eq!(refused(&slack(&SIGNED.to_uppercase()), &secrets(&[SECRET]), BODY), Err(Refusal::NotVerified));
        let odd_time = Incoming::read(&headers(&[(TIMESTAMP, "soon"), (SIGNATURE, SIGNED)]), b"text=x");
        assert_eq!(odd_time.map(|i| i.verify(&secrets(&[SECRET]), b"text=x", now)), Ok(Err(Refusal::NotVerified)));
        // Half of Slack's headers is no request at all.
        assert_eq!(Incoming::read(&headers(&[(SIGNATURE, SIGNED)]), BODY.as_bytes()), Err(Refusal::NotVerified));
    }

    #[test]
    fn slack_gets_block_kit_with_the_title_escaped() {
        let slack = reply(Platform::Slack, &found(), "https://gifs.example.com");
        assert_eq!(slack["response_type"], "in_channel");
        assert_eq!(slack["blocks"][0]["type"], "image");
        assert_eq!(slack["blocks"][0]["image_url"], "https://gifs.example.com/s/Ab3_x-9.gif");
        assert_eq!(slack["blocks"][0]["alt_text"], "Cat <!channel> *wow* @all");
        assert_eq!(slack["blocks"][0]["title"]["type"], "plain_text");
        assert_eq!(slack["text"], "<https://gifs.example.com/s/Ab3_x-9|Cat &lt;!channel&gt; *wow* @all>");
        let usage = reply(Platform::Slack, &CommandAnswer::Usage, "http://x");
        assert_eq!(usage["text"], "Usage: /gif &lt;words&gt; — posts the best-matching GIF from gifshelf.");
        assert_eq!(usage["response_type"], "ephemeral");
    }
}
