//! Slash commands (`POST /api/chat/command`) from Slack, Mattermost and Zulip, checked against the
//! configured secrets and those admins add (`/api/integrations`), answered in each platform's
//! format with the GIF's public share link.

use gifshelf_http::dto::{IntegrationDto, ResponseType, SlackBlock, SlackText, SlashCommandReply, ZulipReply};
use hmac::{Hmac, Mac};
use reqwest::header::CONTENT_TYPE;
use reqwest::{Method, Response, StatusCode};
use serde_json::json;
use sha2::Sha256;

use crate::helpers::{dto_of, error_of, json_of, send, Backend, Client, TestApp};
use crate::{app, on_both_backends};

const SLACK_SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";
const MATTERMOST_TOKEN: &str = "pbte7m9wbbfbmjk1f4mhsibbzc";
const ZULIP_TOKEN: &str = "xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0";

const SECRETS: &[(&str, &str)] = &[
    ("GIFSHELF_SLACK_SIGNING_SECRET", SLACK_SECRET),
    ("GIFSHELF_MATTERMOST_TOKENS", "another-mattermost-token,pbte7m9wbbfbmjk1f4mhsibbzc"),
    ("GIFSHELF_ZULIP_TOKENS", ZULIP_TOKEN),
];

pub(crate) fn now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// A slash command's form as Slack sends it.
fn slack_form(text: &str) -> String {
    serde_urlencoded::to_string([
        ("token", "legacy-verification-token"),
        ("team_id", "T1DC2JH3J"),
        ("team_domain", "testteam"),
        ("channel_id", "G8PSS9T3V"),
        ("user_id", "U2CERLKJA"),
        ("user_name", "roadrunner"),
        ("command", "/gif"),
        ("text", text),
        ("response_url", "https://hooks.slack.com/commands/T1DC2JH3J/1/x"),
        ("trigger_id", "398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c"),
    ])
    .unwrap_or_else(|e| panic!("{e}"))
}

/// `v0=` + hex HMAC-SHA256 of `v0:{timestamp}:{body}`, as Slack signs.
fn slack_signature(secret: &str, timestamp: i64, body: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    mac.update(format!("v0:{timestamp}:{body}").as_bytes());
    format!("v0={}", hex::encode(mac.finalize().into_bytes()))
}

/// Posts a Slack command signed with `secret` at `timestamp`.
pub(crate) async fn slack(app: &TestApp, secret: &str, timestamp: i64, text: &str) -> Response {
    let body = slack_form(text);
    let signature = slack_signature(secret, timestamp, &body);
    send(
        app.anonymous()
            .request(Method::POST, "/api/chat/command")
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header("X-Slack-Request-Timestamp", timestamp.to_string())
            .header("X-Slack-Signature", signature)
            .body(body),
    )
    .await
}

/// Posts a Mattermost command with its token in the body and the `Authorization` header.
pub(crate) async fn mattermost(app: &TestApp, token: &str, text: &str) -> Response {
    let body = serde_urlencoded::to_string([
        ("channel_id", "fukb4ksoy7r3uqgkhj9wmx3lha"),
        ("command", "/gif"),
        ("team_domain", "team"),
        ("text", text),
        ("token", token),
        ("user_name", "alice"),
    ])
    .unwrap_or_else(|e| panic!("{e}"));
    send(
        app.anonymous()
            .request(Method::POST, "/api/chat/command")
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .header("Authorization", format!("Token {token}"))
            .body(body),
    )
    .await
}

/// Posts what a Zulip outgoing webhook sends when its bot is mentioned.
pub(crate) async fn zulip(app: &TestApp, token: &str, data: &str) -> Response {
    let body = json!({
        "bot_email": "gif-bot@zulip.example.com",
        "bot_full_name": "gifshelf",
        "data": data,
        "message": {"id": 112, "content": data, "sender_full_name": "Iago", "type": "stream"},
        "token": token,
        "trigger": "mention",
    });
    send(app.anonymous().request(Method::POST, "/api/chat/command").json(&body)).await
}

/// Two GIFs about cats, the second viewed more: the best match for "cat".
pub(crate) async fn two_cats(app: &TestApp) -> (Client, String, i64) {
    let admin = app.admin().await;
    admin.upload_gif("Sleepy cat", "", &["cats"]).await;
    let best = admin.upload_gif("Happy cat", "dancing", &["cats"]).await;
    admin.gif(best.id).await;
    admin.gif(best.id).await;
    (admin, best.share_id, best.id)
}

/// The first block of a Slack answer, which is an image: `(image_url, alt_text, title)`.
fn first_image(reply: &SlashCommandReply) -> (&str, &str, &SlackText) {
    match reply.blocks.first() {
        Some(SlackBlock::Image { image_url, alt_text, title }) => (image_url, alt_text, title),
        other => panic!("not an image block: {other:?}"),
    }
}

/// The image of an answer answers anonymously with a GIF, under the share id only.
async fn assert_public_gif(app: &TestApp, url: &str, share_id: &str, id: i64) {
    assert!(url.starts_with(&app.address), "{url}");
    assert!(url.ends_with(&format!("/s/{share_id}.gif")), "{url}");
    // No path segment is the row id (a share id may well start with its digits).
    let path = url.trim_start_matches(&app.address);
    assert!(
        path.split('/').all(|segment| segment.trim_end_matches(".gif") != id.to_string()),
        "the row id shows: {url}"
    );
    let image = send(app.http.get(url)).await;
    assert_eq!(image.status(), StatusCode::OK, "{url}");
    assert_eq!(image.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()), Some("image/gif"));
    assert!(image.bytes().await.unwrap_or_default().starts_with(b"GIF8"));
}

async fn a_signed_slack_command_posts_the_best_match_whose_image_works_anonymously(backend: Backend) {
    let app = app!(backend, SECRETS);
    let (admin, share_id, id) = two_cats(&app).await;

    let answer: SlashCommandReply = dto_of(slack(&app, SLACK_SECRET, now(), "happy cat").await, StatusCode::OK).await;
    assert_eq!(answer.response_type, ResponseType::InChannel, "{answer:?}");
    let (url, alt_text, title) = first_image(&answer);
    assert_eq!(alt_text, "Happy cat");
    assert_eq!((title.kind.as_str(), title.text.as_str()), ("plain_text", "Happy cat"));
    assert_public_gif(&app, url, &share_id, id).await;
    // The title links to the share page, which answers anonymously too.
    let page = format!("{}/s/{share_id}", app.address);
    assert_eq!(answer.text, format!("<{page}|Happy cat>"));
    assert_eq!(send(app.http.get(&page)).await.status(), StatusCode::OK);

    // "cat" matches both: the most viewed wins.
    let answer: SlashCommandReply = dto_of(slack(&app, SLACK_SECRET, now(), "cat").await, StatusCode::OK).await;
    assert_eq!(first_image(&answer).1, "Happy cat");
    // Relevance before views: "dancing" is this new one's title, and only the description of the
    // more viewed "Happy cat".
    admin.upload_gif("Dancing queen", "", &["music"]).await;
    let answer: SlashCommandReply = dto_of(slack(&app, SLACK_SECRET, now(), "dancing").await, StatusCode::OK).await;
    assert_eq!(first_image(&answer).1, "Dancing queen");
    // A signature made a little while ago (Slack retries) is still good.
    let answer: SlashCommandReply = dto_of(slack(&app, SLACK_SECRET, now() - 240, "cat").await, StatusCode::OK).await;
    assert_eq!(answer.response_type, ResponseType::InChannel);
}

/// A secrets key (32 bytes in base64), so that admins may store Slack signing secrets.
pub(crate) const SECRETS_KEY: (&str, &str) = ("GIFSHELF_SECRETS_KEY", "q0dAa2G3mY8lT1Pz0sQXb7d0tq3Y0Zr5o2w3U4c5V6E=");

async fn a_slack_secret_added_by_an_admin_works_until_it_is_removed(backend: Backend) {
    let app = app!(backend, &[SECRETS_KEY]);
    let (admin, share_id, id) = two_cats(&app).await;
    let secret = "e1a2b3c4d5e6f708192a3b4c5d6e7f80";
    // Nothing configured yet: refused.
    error_of(slack(&app, secret, now(), "cat").await, StatusCode::UNAUTHORIZED, "unauthorized").await;

    let added: IntegrationDto = dto_of(
        admin
            .post_json("/api/integrations", &json!({"platform": "slack", "name": "Team Slack", "secret": secret}))
            .await,
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(
        (added.platform.as_str(), added.name.as_str(), added.secret_hint.as_str()),
        ("slack", "Team Slack", "7f80")
    );

    let answer: SlashCommandReply = dto_of(slack(&app, secret, now(), "cat").await, StatusCode::OK).await;
    assert_eq!(answer.response_type, ResponseType::InChannel);
    assert_public_gif(&app, first_image(&answer).0, &share_id, id).await;

    assert_eq!(admin.delete(&format!("/api/integrations/{}", added.id)).await.status(), StatusCode::NO_CONTENT);
    error_of(slack(&app, secret, now(), "cat").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

async fn unverifiable_commands_are_refused_with_401(backend: Backend) {
    let app = app!(backend, SECRETS);
    two_cats(&app).await;
    let refused = |response: Response| error_of(response, StatusCode::UNAUTHORIZED, "unauthorized");

    // Slack: another secret's signature, a tampered body, a timestamp 6 minutes old (or ahead).
    refused(slack(&app, "not-the-signing-secret", now(), "cat").await).await;
    let body = slack_form("cat");
    let signature = slack_signature(SLACK_SECRET, now(), &body);
    let tampered = app
        .anonymous()
        .request(Method::POST, "/api/chat/command")
        .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
        .header("X-Slack-Request-Timestamp", now().to_string())
        .header("X-Slack-Signature", signature)
        .body(body.replace("cat", "dog"));
    refused(send(tampered).await).await;
    let old = refused(slack(&app, SLACK_SECRET, now() - 6 * 60, "cat").await).await;
    assert!(old.contains("5 minutes"), "{old}");
    refused(slack(&app, SLACK_SECRET, now() + 6 * 60, "cat").await).await;
    // A request signed now and replayed six minutes later, by the server's clock: refused.
    let signed_at = now();
    let _: SlashCommandReply = dto_of(slack(&app, SLACK_SECRET, signed_at, "cat").await, StatusCode::OK).await;
    app.pass_seconds(6 * 60);
    let replayed = refused(slack(&app, SLACK_SECRET, signed_at, "cat").await).await;
    assert!(replayed.contains("5 minutes"), "{replayed}");

    // Mattermost and Zulip: a wrong token.
    refused(mattermost(&app, "pbte7m9wbbfbmjk1f4mhsibbzX", "cat").await).await;
    refused(zulip(&app, "xvOzfurIutdRRVLzpXrIIHXJvNfaJLJX", "@**gifshelf** cat").await).await;
    // A Zulip token is no Mattermost token, nor the reverse.
    refused(mattermost(&app, ZULIP_TOKEN, "cat").await).await;
    refused(zulip(&app, MATTERMOST_TOKEN, "cat").await).await;

    // No credentials at all, in either encoding, and an empty body.
    let bare = |body: &'static str, content_type: &'static str| {
        app.anonymous().request(Method::POST, "/api/chat/command").header(CONTENT_TYPE, content_type).body(body)
    };
    refused(send(bare("text=cat&command=%2Fgif", "application/x-www-form-urlencoded")).await).await;
    refused(send(bare(r#"{"text": "cat"}"#, "application/json")).await).await;
    refused(send(bare("", "text/plain")).await).await;
    // A signed-in person's session is no integration either.
    let admin = app.sign_in("admin", crate::helpers::PASSWORD).await;
    refused(send(admin.request(Method::POST, "/api/chat/command").form(&[("text", "cat")])).await).await;

    // Too large to read: 413, whatever the credentials.
    let huge = format!("text={}", "a".repeat(70 * 1024));
    let response = send(
        app.anonymous()
            .request(Method::POST, "/api/chat/command")
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(huge),
    )
    .await;
    error_of(response, StatusCode::PAYLOAD_TOO_LARGE, "too_large").await;
}

async fn mattermost_and_zulip_get_their_own_formats(backend: Backend) {
    let app = app!(backend, SECRETS);
    let (_, share_id, id) = two_cats(&app).await;
    let page = format!("{}/s/{share_id}", app.address);

    // Untyped on purpose: each platform's exact message shape (keys included) is what is checked.
    let answer = json_of(mattermost(&app, MATTERMOST_TOKEN, "happy").await, StatusCode::OK).await;
    assert_eq!(
        answer,
        json!({"response_type": "in_channel", "text": format!("[Happy cat]({page})\n![Happy cat]({page}.gif)")})
    );
    // The token alone, in the body only (older Mattermost versions).
    let body = format!("token={MATTERMOST_TOKEN}&command=%2Fgif&text=happy");
    let response = send(
        app.anonymous()
            .request(Method::POST, "/api/chat/command")
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(body),
    )
    .await;
    let answer: SlashCommandReply = dto_of(response, StatusCode::OK).await;
    assert_eq!(answer.response_type, ResponseType::InChannel);

    let answer = json_of(zulip(&app, ZULIP_TOKEN, "@**gifshelf** /gif happy cat").await, StatusCode::OK).await;
    assert_eq!(answer, json!({"content": format!("[Happy cat]({page})\n[{share_id}.gif]({page}.gif)")}));
    assert_public_gif(&app, &format!("{page}.gif"), &share_id, id).await;
}

async fn no_match_is_answered_privately_and_an_empty_command_with_usage(backend: Backend) {
    let app = app!(backend, SECRETS);
    two_cats(&app).await;

    // Untyped on purpose: each platform's exact message shape (keys included) is what is checked.
    let none = json_of(slack(&app, SLACK_SECRET, now(), "zebra").await, StatusCode::OK).await;
    assert_eq!(none, json!({"response_type": "ephemeral", "text": "No GIFs match “zebra”."}));
    let none = json_of(mattermost(&app, MATTERMOST_TOKEN, "zebra").await, StatusCode::OK).await;
    assert_eq!(none, json!({"response_type": "ephemeral", "text": "No GIFs match “zebra”."}));
    let none = json_of(zulip(&app, ZULIP_TOKEN, "@**gifshelf** zebra").await, StatusCode::OK).await;
    assert_eq!(none, json!({"content": "No GIFs match “zebra”."}));

    let usage = json_of(slack(&app, SLACK_SECRET, now(), "  ").await, StatusCode::OK).await;
    assert_eq!(
        usage,
        json!({"response_type": "ephemeral", "text": "Usage: /gif &lt;words&gt; — posts the best-matching GIF from gifshelf."})
    );
    let usage: SlashCommandReply = dto_of(mattermost(&app, MATTERMOST_TOKEN, "").await, StatusCode::OK).await;
    assert_eq!(usage.response_type, ResponseType::Ephemeral);
    assert!(usage.text.starts_with("Usage: /gif"), "{usage:?}");
    let usage: ZulipReply = dto_of(zulip(&app, ZULIP_TOKEN, "@**gifshelf**").await, StatusCode::OK).await;
    assert!(usage.content.starts_with("Usage:"), "{usage:?}");

    // Words the search refuses are explained, not failed.
    let long: SlashCommandReply =
        dto_of(slack(&app, SLACK_SECRET, now(), &"w".repeat(300)).await, StatusCode::OK).await;
    assert_eq!(long.response_type, ResponseType::Ephemeral);
}

async fn integrations_are_for_admins_validated_and_listed_without_their_secrets(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let secret = "e1a2b3c4d5e6f708192a3b4c5d6e7f80";
    let form = json!({"platform": "mattermost", "name": "  Team chat ", "secret": secret});

    // Only admins, checked from the stored role.
    error_of(alice.get("/api/integrations").await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(alice.post_json("/api/integrations", &form).await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(alice.delete("/api/integrations/1").await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(app.anonymous().get("/api/integrations").await, StatusCode::UNAUTHORIZED, "unauthorized").await;

    // Field by field.
    for bad in [
        json!({"platform": "msteams", "name": "Chat", "secret": secret}),
        json!({"platform": "Slack", "name": "Chat", "secret": secret}),
        json!({"platform": "slack", "name": " ", "secret": secret}),
        json!({"platform": "slack", "name": "n".repeat(51), "secret": secret}),
        json!({"platform": "slack", "name": "Chat", "secret": "1234567"}),
        json!({"platform": "slack", "name": "Chat", "secret": "s".repeat(201)}),
        json!({"platform": "slack", "name": "Chat", "secret": "with a space"}),
    ] {
        error_of(admin.post_json("/api/integrations", &bad).await, StatusCode::BAD_REQUEST, "validation").await;
    }
    let missing = admin.post_json("/api/integrations", &json!({"platform": "slack", "name": "Chat"})).await;
    error_of(missing, StatusCode::BAD_REQUEST, "bad_request").await;

    let added: IntegrationDto = dto_of(admin.post_json("/api/integrations", &form).await, StatusCode::CREATED).await;
    assert_eq!(
        (added.platform.as_str(), added.name.as_str(), added.secret_hint.as_str()),
        ("mattermost", "Team chat", "7f80")
    );
    let listed: Vec<IntegrationDto> = dto_of(admin.get("/api/integrations").await, StatusCode::OK).await;
    assert_eq!(listed.iter().map(|i| i.id).collect::<Vec<_>>(), [added.id]);
    let raw = admin.get("/api/integrations").await.text().await.unwrap_or_default();
    assert!(!raw.contains(secret) && !raw.contains(&secret[..12]), "the list shows the secret: {raw}");
    assert!(raw.contains("\"secretHint\":\"7f80\""), "{raw}");
    // The stored token is accepted at once.
    assert_eq!(mattermost(&app, secret, "cat").await.status(), StatusCode::OK);

    assert_eq!(admin.delete(&format!("/api/integrations/{}", added.id)).await.status(), StatusCode::NO_CONTENT);
    error_of(admin.delete(&format!("/api/integrations/{}", added.id)).await, StatusCode::NOT_FOUND, "not_found").await;
    let listed: Vec<IntegrationDto> = dto_of(admin.get("/api/integrations").await, StatusCode::OK).await;
    assert!(listed.is_empty());
}

/// The curl examples of docs/chat.md ("Slash commands"), byte for byte: the page holds them and they are answered.
async fn the_documented_curl_requests_are_answered(backend: Backend) {
    let app = app!(backend, SECRETS);
    let (_, share_id, _) = two_cats(&app).await;
    let form = |body: &'static str| {
        app.anonymous()
            .request(Method::POST, "/api/chat/command")
            .header(CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(body)
    };
    let image = format!("{}/s/{share_id}.gif", app.address);

    let body = "command=%2Fgif&text=happy+cat";
    let ts = now();
    let slack = form(body)
        .header("X-Slack-Request-Timestamp", ts.to_string())
        .header("X-Slack-Signature", slack_signature(SLACK_SECRET, ts, body));
    let answer: SlashCommandReply = dto_of(send(slack).await, StatusCode::OK).await;
    assert_eq!((answer.response_type, first_image(&answer).0), (ResponseType::InChannel, image.as_str()));

    let mattermost = form("token=pbte7m9wbbfbmjk1f4mhsibbzc&command=%2Fgif&text=happy+cat")
        .header("Authorization", "Token pbte7m9wbbfbmjk1f4mhsibbzc");
    let answer: SlashCommandReply = dto_of(send(mattermost).await, StatusCode::OK).await;
    assert_eq!(answer.response_type, ResponseType::InChannel);
    assert!(answer.text.ends_with(&format!("({image})")), "{answer:?}");

    let zulip =
        app.anonymous().request(Method::POST, "/api/chat/command").header(CONTENT_TYPE, "application/json").body(
            r#"{"data": "@**gifshelf** happy cat", "token": "xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0", "trigger": "mention"}"#,
        );
    let answer: ZulipReply = dto_of(send(zulip).await, StatusCode::OK).await;
    assert!(answer.content.ends_with(&format!("({image})")), "{answer:?}");

    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/chat.md")).unwrap_or_default();
    for example in [
        "body='command=%2Fgif&text=happy+cat'",
        "--data 'token=pbte7m9wbbfbmjk1f4mhsibbzc&command=%2Fgif&text=happy+cat'",
        r#"--data '{"data": "@**gifshelf** happy cat", "token": "xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0", "trigger": "mention"}'"#,
    ] {
        assert!(page.contains(example), "docs/chat.md no longer shows {example}");
    }
}

on_both_backends!(
    a_signed_slack_command_posts_the_best_match_whose_image_works_anonymously,
    a_slack_secret_added_by_an_admin_works_until_it_is_removed,
    unverifiable_commands_are_refused_with_401,
    mattermost_and_zulip_get_their_own_formats,
    no_match_is_answered_privately_and_an_empty_command_with_usage,
    integrations_are_for_admins_validated_and_listed_without_their_secrets,
    the_documented_curl_requests_are_answered
);
