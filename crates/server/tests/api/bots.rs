//! Discord, Telegram, Microsoft Teams and Rocket.Chat (`POST /api/chat/{discord,telegram,teams,
//! rocketchat}`): requests shaped as each platform sends them, proven as each platform proves
//! them (an Ed25519 key made here, the webhook's secret, an HMAC, a token), answered in each
//! platform's format with public share links; anything unproven is a 401.

use base64::Engine as _;
use ed25519_dalek::{Signer, SigningKey};
use hmac::{Hmac, Mac};
use reqwest::header::CONTENT_TYPE;
use reqwest::{Method, Response, StatusCode};
use serde_json::{json, Value};
use sha2::Sha256;

use crate::commands::{now, two_cats, SECRETS_KEY};
use crate::helpers::{error_of, json_of, send, Backend, Client, TestApp};
use crate::{app, on_both_backends};

/// The application's key, made by the test: Discord signs with it, gifshelf checks its public half.
fn discord_key() -> SigningKey {
    SigningKey::from_bytes(&[42u8; 32])
}

fn discord_public_key() -> String {
    hex::encode(discord_key().verifying_key().to_bytes())
}

const TELEGRAM_SECRET: &str = "Tg_webhook-secret-42";
/// A Teams security token as Teams shows it (base64).
const TEAMS_TOKEN: &str = "n3P0Qk5cV2m1uV7t3b2cO2ZqkS8m1Rj6rPq3x9Jv0gE=";
const ROCKETCHAT_TOKEN: &str = "Qm9w2Xw7vR4kT8sZyA3d";

fn secrets() -> Vec<(&'static str, String)> {
    vec![
        ("GIFSHELF_DISCORD_PUBLIC_KEY", discord_public_key()),
        ("GIFSHELF_TELEGRAM_WEBHOOK_SECRET", TELEGRAM_SECRET.to_owned()),
        ("GIFSHELF_TEAMS_TOKENS", format!("b3RoZXItdGVhbXMtdG9rZW4=,{TEAMS_TOKEN}")),
        ("GIFSHELF_ROCKETCHAT_TOKENS", ROCKETCHAT_TOKEN.to_owned()),
    ]
}

macro_rules! bots_app {
    ($backend:expr) => {{
        let owned = secrets();
        let vars: Vec<(&str, &str)> = owned.iter().map(|(k, v)| (*k, v.as_str())).collect();
        app!($backend, &vars)
    }};
}

/// Posts `body` to Discord's endpoint signed with `key` at `timestamp`.
async fn discord_signed(app: &TestApp, key: &SigningKey, timestamp: i64, body: &str) -> Response {
    let timestamp = timestamp.to_string();
    let signature = hex::encode(key.sign(format!("{timestamp}{body}").as_bytes()).to_bytes());
    send(
        app.anonymous()
            .request(Method::POST, "/api/chat/discord")
            .header(CONTENT_TYPE, "application/json")
            .header("X-Signature-Ed25519", signature)
            .header("X-Signature-Timestamp", timestamp)
            .body(body.to_owned()),
    )
    .await
}

async fn discord(app: &TestApp, body: &Value) -> Value {
    json_of(discord_signed(app, &discord_key(), now(), &body.to_string()).await, StatusCode::OK).await
}

/// An interaction as Discord sends it (its documented fields, trimmed to a few).
fn interaction(kind: u8, data: Value) -> Value {
    json!({
        "id": "1204081450927280128",
        "application_id": "1203986234234241024",
        "type": kind,
        "data": data,
        "guild_id": "1203983414522183680",
        "channel_id": "1203983415189348352",
        "member": {"user": {"id": "80351110224678912", "username": "nelly"}, "roles": []},
        "token": "aW50ZXJhY3Rpb246MTIwNDA4MTQ1MDkyNzI4MDEyODpr",
        "version": 1,
        "locale": "en-US",
    })
}

fn command(query: &str) -> Value {
    interaction(
        2,
        json!({"id": "1204", "name": "gif", "type": 1, "options": [{"name": "query", "type": 3, "value": query}]}),
    )
}

fn button(custom_id: &str) -> Value {
    interaction(3, json!({"custom_id": custom_id, "component_type": 2}))
}

fn custom_ids(message: &Value) -> Vec<String> {
    message["data"]["components"][0]["components"]
        .as_array()
        .map(|buttons| buttons.iter().filter_map(|b| b["custom_id"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

async fn shares(admin: &Client, id: i64) -> i64 {
    admin.gif(id).await.share_count
}

async fn discord_pings_autocompletes_previews_and_sends(backend: Backend) {
    let app = bots_app!(backend);
    let (admin, best, best_id) = two_cats(&app).await;
    let sleepy = admin.upload_gif("Sleepy kitten", "", &["kittens"]).await;
    let image = |share_id: &str| format!("{}/s/{share_id}.gif", app.address);

    assert_eq!(discord(&app, &interaction(1, Value::Null)).await, json!({"type": 1}));

    let typed = interaction(
        4,
        json!({"name": "gif", "type": 1, "options": [{"name": "query", "type": 3, "value": "ca", "focused": true}]}),
    );
    let choices = discord(&app, &typed).await;
    assert_eq!(choices["type"], 8);
    let names: Vec<&str> =
        choices["data"]["choices"].as_array().into_iter().flatten().filter_map(|c| c["value"].as_str()).collect();
    assert!(names.contains(&"cats") && names.len() <= 25, "{choices}");

    // The command: a preview only the person sees, the most viewed match first.
    let preview = discord(&app, &command("cat")).await;
    assert_eq!((preview["type"].as_u64(), preview["data"]["flags"].as_u64()), (Some(4), Some(64)), "{preview}");
    assert_eq!(preview["data"]["embeds"][0]["image"]["url"], image(&best));
    assert_eq!(preview["data"]["embeds"][0]["title"], "Happy cat");
    assert_eq!(custom_ids(&preview), ["gif:send:0:cat", "gif:next:1:cat", "gif:cancel:0:cat"]);
    assert_eq!(shares(&admin, best_id).await, 0, "a preview is no share");

    // Next: the preview shows the second match in place; past the last, says so.
    let next = discord(&app, &button("gif:next:1:cat")).await;
    assert_eq!(next["type"], 7);
    assert_eq!(next["data"]["embeds"][0]["title"], "Sleepy cat");
    assert_eq!(custom_ids(&next), ["gif:send:1:cat", "gif:next:2:cat", "gif:cancel:1:cat"]);
    let past = discord(&app, &button("gif:next:2:cat")).await;
    assert_eq!(past["type"], 7);
    assert_eq!(past["data"]["content"], "No more GIFs match “cat”.");
    assert_eq!((past["data"]["components"].clone(), past["data"]["embeds"].clone()), (json!([]), json!([])));

    // Send: the GIF's public share link, for the whole channel, mentioning nobody; a share.
    let sent = discord(&app, &button("gif:send:0:cat")).await;
    assert_eq!(sent["type"], 4);
    assert!(sent["data"].get("flags").is_none(), "{sent}");
    assert_eq!(sent["data"]["content"], format!("**Happy cat**\n{}", image(&best)));
    assert_eq!(sent["data"]["allowed_mentions"], json!({"parse": []}));
    assert_eq!(send(app.http.get(image(&best))).await.status(), StatusCode::OK);
    assert_eq!(shares(&admin, best_id).await, 1);

    // Cancel: the preview is cleared; nothing is posted.
    let cancelled = discord(&app, &button("gif:cancel:0:cat")).await;
    assert_eq!(cancelled["type"], 7);
    assert_eq!((cancelled["data"]["components"].clone(), cancelled["data"]["embeds"].clone()), (json!([]), json!([])));

    // A button id gifshelf did not make is read as no more than that.
    let forged = discord(&app, &button("gif:send:99999999999:cat")).await;
    assert_eq!((forged["type"].as_u64(), forged["data"]["components"].clone()), (Some(7), json!([])));
    // No match and no words are answered to the person only.
    let none = discord(&app, &command("zebra")).await;
    assert_eq!(
        (none["data"]["content"].as_str(), none["data"]["flags"].as_u64()),
        (Some("No GIFs match “zebra”."), Some(64))
    );
    let usage = discord(&app, &command("")).await;
    assert!(usage["data"]["content"].as_str().is_some_and(|c| c.starts_with("Usage: /gif")), "{usage}");

    // A hidden GIF is never shown.
    let hide = admin.put_json(&format!("/api/admin/gifs/{}/visibility", sleepy.id), &json!({"hidden": true})).await;
    assert_eq!(hide.status(), StatusCode::OK);
    let kitten = discord(&app, &command("kitten")).await;
    assert_eq!(kitten["data"]["content"], "No GIFs match “kitten”.");
}

async fn discord_refuses_what_its_key_did_not_sign_now(backend: Backend) {
    let app = bots_app!(backend);
    two_cats(&app).await;
    let body = command("cat").to_string();
    let refused = |response: Response| error_of(response, StatusCode::UNAUTHORIZED, "unauthorized");

    // Another key's signature.
    refused(discord_signed(&app, &SigningKey::from_bytes(&[43u8; 32]), now(), &body).await).await;
    // A timestamp 6 minutes old, or ahead.
    let old = refused(discord_signed(&app, &discord_key(), now() - 6 * 60, &body).await).await;
    assert!(old.contains("5 minutes"), "{old}");
    refused(discord_signed(&app, &discord_key(), now() + 6 * 60, &body).await).await;
    // The body changed after signing.
    let timestamp = now().to_string();
    let signature = hex::encode(discord_key().sign(format!("{timestamp}{body}").as_bytes()).to_bytes());
    let changed = app
        .anonymous()
        .request(Method::POST, "/api/chat/discord")
        .header(CONTENT_TYPE, "application/json")
        .header("X-Signature-Ed25519", &signature)
        .header("X-Signature-Timestamp", &timestamp)
        .body(body.replace("cat", "dog"));
    refused(send(changed).await).await;
    // No signature, half of one, a malformed one.
    let bare = app.anonymous().request(Method::POST, "/api/chat/discord").header(CONTENT_TYPE, "application/json");
    refused(send(bare.try_clone().unwrap_or_else(|| panic!("clone")).body(body.clone())).await).await;
    refused(
        send(
            bare.try_clone()
                .unwrap_or_else(|| panic!("clone"))
                .header("X-Signature-Timestamp", &timestamp)
                .body(body.clone()),
        )
        .await,
    )
    .await;
    refused(
        send(bare.header("X-Signature-Ed25519", "zz").header("X-Signature-Timestamp", &timestamp).body(body.clone()))
            .await,
    )
    .await;
    // A Slack-style command endpoint does not take Discord's requests.
    let elsewhere = app
        .anonymous()
        .request(Method::POST, "/api/chat/command")
        .header(CONTENT_TYPE, "application/json")
        .header("X-Signature-Ed25519", &signature)
        .header("X-Signature-Timestamp", &timestamp)
        .body(body.clone());
    refused(send(elsewhere).await).await;
    // Signed, but no interaction: 400.
    let garbage = discord_signed(&app, &discord_key(), now(), "not json").await;
    error_of(garbage, StatusCode::BAD_REQUEST, "bad_request").await;
}

/// Posts a Telegram update with the webhook's secret header.
async fn telegram_with(app: &TestApp, secret: Option<&str>, update: &Value) -> Response {
    let mut request =
        app.anonymous().request(Method::POST, "/api/chat/telegram").header(CONTENT_TYPE, "application/json");
    if let Some(secret) = secret {
        request = request.header("X-Telegram-Bot-Api-Secret-Token", secret);
    }
    send(request.body(update.to_string())).await
}

async fn telegram(app: &TestApp, update: &Value) -> Value {
    json_of(telegram_with(app, Some(TELEGRAM_SECRET), update).await, StatusCode::OK).await
}

/// An inline query update as the Bot API documents it.
fn inline_query(query: &str, offset: &str) -> Value {
    json!({
        "update_id": 10000,
        "inline_query": {
            "id": "134567890097",
            "from": {"id": 1111111, "is_bot": false, "first_name": "Test", "username": "Test", "language_code": "en"},
            "chat_type": "private",
            "query": query,
            "offset": offset,
        }
    })
}

/// A message update as the Bot API documents it.
fn message(text: &str) -> Value {
    json!({
        "update_id": 10001,
        "message": {
            "message_id": 1365,
            "from": {"id": 1111111, "is_bot": false, "first_name": "Test", "username": "Test"},
            "chat": {"id": -1001234567890_i64, "title": "Cats", "type": "supergroup"},
            "date": 1441645532,
            "text": text,
            "entities": [{"type": "bot_command", "offset": 0, "length": 4}],
        }
    })
}

async fn telegram_answers_inline_queries_page_by_page_and_commands(backend: Backend) {
    let app = bots_app!(backend);
    let (admin, best, best_id) = two_cats(&app).await;

    let answer = telegram(&app, &inline_query("happy cat", "")).await;
    assert_eq!(answer["method"], "answerInlineQuery");
    assert_eq!(answer["inline_query_id"], "134567890097");
    assert_eq!((answer["cache_time"].as_u64(), answer["next_offset"].as_str()), (Some(10), Some("")));
    let result = &answer["results"][0];
    assert_eq!(answer["results"].as_array().map(Vec::len), Some(1), "{answer}");
    assert_eq!((result["type"].as_str(), result["id"].as_str()), (Some("gif"), Some(best.as_str())));
    let gif_url = result["gif_url"].as_str().unwrap_or_default().to_owned();
    assert!(gif_url.starts_with(&format!("{}/s/{best}/", app.address)) && gif_url.ends_with(".gif"), "{gif_url}");
    assert!(result["gif_width"].as_u64().is_some_and(|w| w > 0) && result["gif_height"].as_u64().is_some());
    assert_eq!(result["thumbnail_mime_type"], "image/gif");
    for url in [gif_url.as_str(), result["thumbnail_url"].as_str().unwrap_or_default()] {
        let file = send(app.http.get(url)).await;
        assert_eq!(file.status(), StatusCode::OK, "{url}");
        assert_eq!(file.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()), Some("image/gif"), "{url}");
    }

    // Paging: 50 a page, next_offset until the last.
    for n in 0..50 {
        admin.upload_gif(&format!("Dog {n}"), "", &["dogs"]).await;
    }
    let all = telegram(&app, &inline_query("dog", "")).await;
    assert_eq!((all["results"].as_array().map(Vec::len), all["next_offset"].as_str()), (Some(50), Some("")));
    admin.upload_gif("Dog 50", "", &["dogs"]).await;
    let first = telegram(&app, &inline_query("dog", "")).await;
    assert_eq!((first["results"].as_array().map(Vec::len), first["next_offset"].as_str()), (Some(50), Some("50")));
    let second = telegram(&app, &inline_query("dog", "50")).await;
    assert_eq!((second["results"].as_array().map(Vec::len), second["next_offset"].as_str()), (Some(1), Some("")));
    let ids = |page: &Value| -> Vec<String> {
        page["results"].as_array().into_iter().flatten().filter_map(|r| r["id"].as_str().map(str::to_owned)).collect()
    };
    assert!(!ids(&first).contains(&ids(&second)[0]), "a GIF on two pages");
    // An offset gifshelf never gave is an empty page.
    let odd = telegram(&app, &inline_query("dog", "7")).await;
    assert_eq!(odd["results"], json!([]));

    // No match: a button that says so.
    let none = telegram(&app, &inline_query("zebra", "")).await;
    assert_eq!((none["results"].clone(), none["button"]["text"].as_str()), (json!([]), Some("No GIFs match “zebra”")));

    // A /gif command: the best match into that chat, a share.
    let sent = telegram(&app, &message("/gif@gifshelf_bot happy cat")).await;
    assert_eq!(sent["method"], "sendAnimation");
    assert_eq!(sent["chat_id"], -1_001_234_567_890_i64);
    assert!(sent["animation"].as_str().is_some_and(|u| u.contains(&format!("/s/{best}"))), "{sent}");
    assert_eq!(sent["caption"], format!("<a href=\"{}/s/{best}\">Happy cat</a>", app.address));
    assert_eq!(sent["parse_mode"], "HTML");
    assert_eq!(shares(&admin, best_id).await, 1);
    let none = telegram(&app, &message("/gif zebra")).await;
    assert_eq!(
        none,
        json!({"method": "sendMessage", "chat_id": -1_001_234_567_890_i64, "text": "No GIFs match “zebra”."})
    );
    let usage = telegram(&app, &message("/gif")).await;
    assert!(usage["text"].as_str().is_some_and(|t| t.starts_with("Usage: /gif")), "{usage}");
    // Chat that is not for the bot gets nothing to do.
    assert_eq!(telegram(&app, &message("just talking")).await, json!({}));
    // A chosen inline result (inline feedback on) counts a share.
    let chosen = json!({"update_id": 10002, "chosen_inline_result": {"result_id": best, "from": {"id": 1111111, "is_bot": false, "first_name": "Test"}, "query": "happy cat"}});
    assert_eq!(telegram(&app, &chosen).await, json!({}));
    assert_eq!(shares(&admin, best_id).await, 2);

    // The wrong secret, or none: 401, and nothing answered.
    error_of(
        telegram_with(&app, Some("Tg_webhook-secret-43"), &message("/gif cat")).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    error_of(telegram_with(&app, None, &message("/gif cat")).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    assert_eq!(shares(&admin, best_id).await, 2);
}

fn teams_mac(token: &str, body: &str) -> String {
    let engine = base64::engine::general_purpose::STANDARD;
    let key = engine.decode(token).unwrap_or_else(|e| panic!("{e}"));
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap_or_else(|e| panic!("{e}"));
    mac.update(body.as_bytes());
    engine.encode(mac.finalize().into_bytes())
}

/// An outgoing webhook's activity as Teams sends it (trimmed).
fn teams_activity(text: &str) -> String {
    json!({
        "type": "message",
        "id": "1485983408511",
        "timestamp": "2017-02-01T21:10:07.437Z",
        "serviceUrl": "https://smba.trafficmanager.net/amer-client-ss.msg/",
        "channelId": "msteams",
        "from": {"id": "29:1XJKJMvc5GBtc2JwZq0oj8tHZmzrQgFmB39ATiQWA85gQtHieVkKilBZ9XHoq9j7Zaqt7CZ-NJWi7me2kHTL3Bw", "name": "Tim Jones"},
        "conversation": {"isGroup": true, "id": "19:253b1f341670408fb6fcb4a7a7b6f4c3@thread.skype;messageid=1485983408511"},
        "textFormat": "plain",
        "text": text,
        "channelData": {"teamsChannelId": "19:253b1f341670408fb6fcb4a7a7b6f4c3@thread.skype", "tenant": {"id": "72f988bf-86f1-41af-91ab-2d7cd011db47"}},
    })
    .to_string()
}

async fn teams_with(app: &TestApp, authorization: Option<String>, body: String) -> Response {
    let mut request = app.anonymous().request(Method::POST, "/api/chat/teams").header(CONTENT_TYPE, "application/json");
    if let Some(authorization) = authorization {
        request = request.header("Authorization", authorization);
    }
    send(request.body(body)).await
}

async fn teams_and_rocketchat_post_a_card_and_an_attachment(backend: Backend) {
    let app = bots_app!(backend);
    let (admin, best, best_id) = two_cats(&app).await;
    let page = format!("{}/s/{best}", app.address);

    // Teams: a valid HMAC, the mention left out of the words.
    let body = teams_activity("<at>gifshelf</at>&nbsp;happy cat\n");
    let answer =
        json_of(teams_with(&app, Some(format!("HMAC {}", teams_mac(TEAMS_TOKEN, &body))), body).await, StatusCode::OK)
            .await;
    assert_eq!(answer["type"], "message");
    let card = &answer["attachments"][0];
    assert_eq!(card["contentType"], "application/vnd.microsoft.card.hero");
    assert_eq!(card["content"]["title"], "Happy cat");
    assert_eq!(card["content"]["images"][0]["url"], format!("{page}.gif"));
    assert_eq!(card["content"]["buttons"][0]["value"], page);
    assert_eq!(shares(&admin, best_id).await, 1);
    let body = teams_activity("<at>gifshelf</at> zebra");
    let none =
        json_of(teams_with(&app, Some(format!("HMAC {}", teams_mac(TEAMS_TOKEN, &body))), body).await, StatusCode::OK)
            .await;
    assert_eq!(none, json!({"type": "message", "text": "No GIFs match “zebra”."}));
    // An HMAC of another body, with another token, or none at all.
    let body = teams_activity("<at>gifshelf</at> cat");
    let other = teams_mac(TEAMS_TOKEN, &teams_activity("<at>gifshelf</at> dog"));
    let refused = |response: Response| error_of(response, StatusCode::UNAUTHORIZED, "unauthorized");
    refused(teams_with(&app, Some(format!("HMAC {other}")), body.clone()).await).await;
    refused(
        teams_with(&app, Some(format!("HMAC {}", teams_mac("c29tZS1vdGhlci10b2tlbg==", &body))), body.clone()).await,
    )
    .await;
    refused(teams_with(&app, Some("HMAC".into()), body.clone()).await).await;
    refused(teams_with(&app, None, body).await).await;

    // Rocket.Chat: its outgoing webhook with the trigger word.
    let rocket = |token: &str, text: &str| {
        let body = json!({
            "token": token,
            "bot": false,
            "channel_id": "GENERAL",
            "channel_name": "general",
            "message_id": "6X3H8k4vAaZBq5F2s",
            "timestamp": "2026-11-27T08:00:00.000Z",
            "user_id": "rocket.cat",
            "user_name": "rocket.cat",
            "text": text,
            "trigger_word": "gif",
            "siteUrl": "https://chat.example.com",
        });
        send(app.anonymous().request(Method::POST, "/api/chat/rocketchat").json(&body))
    };
    let answer = json_of(rocket(ROCKETCHAT_TOKEN, "gif happy cat").await, StatusCode::OK).await;
    assert_eq!(
        answer,
        json!({"text": format!("[Happy cat]({page})"), "attachments": [{"title": "Happy cat", "title_link": page, "image_url": format!("{page}.gif")}]})
    );
    assert_eq!(shares(&admin, best_id).await, 2);
    let none = json_of(rocket(ROCKETCHAT_TOKEN, "gif zebra").await, StatusCode::OK).await;
    assert_eq!(none, json!({"text": "No GIFs match “zebra”."}));
    let usage = json_of(rocket(ROCKETCHAT_TOKEN, "gif").await, StatusCode::OK).await;
    assert!(usage["text"].as_str().is_some_and(|t| t.starts_with("Usage: gif")), "{usage}");
    refused(rocket("Qm9w2Xw7vR4kT8sZyA3X", "gif cat").await).await;
    refused(rocket(TEAMS_TOKEN, "gif cat").await).await;

    // The configured integrations answer g only: a GIF rated r is left out.
    let edited = admin.put_json(&format!("/api/gifs/{best_id}"), &json!({"title": "Happy cat", "rating": "r"})).await;
    assert_eq!(edited.status(), StatusCode::OK);
    let answer = json_of(rocket(ROCKETCHAT_TOKEN, "gif cat").await, StatusCode::OK).await;
    assert_eq!(answer["attachments"][0]["title"], "Sleepy cat");
}

async fn integrations_added_by_an_admin_answer_with_their_own_rating_and_rate(backend: Backend) {
    let app = app!(backend, &[SECRETS_KEY, ("GIFSHELF_CHAT_API_RATE_LIMIT", "3")]);
    let (admin, _, _) = two_cats(&app).await;
    let added = admin
        .post_json(
            "/api/integrations",
            &json!({"platform": "telegram", "name": "Family bot", "secret": "Tg-family-7788"}),
        )
        .await;
    assert_eq!(added.status(), StatusCode::CREATED);
    let added = admin
        .post_json(
            "/api/integrations",
            &json!({"platform": "discord", "name": "Guild", "secret": discord_public_key()}),
        )
        .await;
    assert_eq!(added.status(), StatusCode::CREATED);

    let answer = json_of(telegram_with(&app, Some("Tg-family-7788"), &message("/gif cat")).await, StatusCode::OK).await;
    assert_eq!(answer["method"], "sendAnimation");
    assert_eq!(discord(&app, &interaction(1, Value::Null)).await, json!({"type": 1}));
    // Three requests a minute each: the Telegram bot's fourth waits, the Discord app is not held up.
    for _ in 0..2 {
        assert_eq!(telegram_with(&app, Some("Tg-family-7788"), &message("/gif cat")).await.status(), StatusCode::OK);
    }
    let limited = telegram_with(&app, Some("Tg-family-7788"), &message("/gif cat")).await;
    assert!(limited.headers().contains_key("retry-after"));
    error_of(limited, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
    assert_eq!(discord(&app, &interaction(1, Value::Null)).await, json!({"type": 1}));
    app.pass_seconds(61);
    assert_eq!(telegram_with(&app, Some("Tg-family-7788"), &message("/gif cat")).await.status(), StatusCode::OK);
}

/// The example requests of docs/chat.md for these four, byte for byte: the page holds them and
/// they are answered.
async fn the_documented_bot_requests_are_answered(backend: Backend) {
    let app = bots_app!(backend);
    two_cats(&app).await;
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/chat.md")).unwrap_or_default();
    let post = |path: &str, body: &'static str| {
        app.anonymous().request(Method::POST, path).header(CONTENT_TYPE, "application/json").body(body)
    };

    let ping = json_of(discord_signed(&app, &discord_key(), now(), r#"{"type": 1}"#).await, StatusCode::OK).await;
    assert_eq!(ping, json!({"type": 1}));

    let telegram_update = r#"{"update_id": 10000, "message": {"message_id": 1365, "chat": {"id": 1111111, "type": "private"}, "date": 1441645532, "text": "/gif happy cat"}}"#;
    let answer = json_of(
        send(post("/api/chat/telegram", telegram_update).header("X-Telegram-Bot-Api-Secret-Token", TELEGRAM_SECRET))
            .await,
        StatusCode::OK,
    )
    .await;
    assert_eq!(answer["method"], "sendAnimation");

    let rocket = r#"{"token": "Qm9w2Xw7vR4kT8sZyA3d", "text": "gif happy cat", "trigger_word": "gif", "user_name": "rocket.cat"}"#;
    let answer = json_of(send(post("/api/chat/rocketchat", rocket)).await, StatusCode::OK).await;
    assert_eq!(answer["attachments"][0]["title"], "Happy cat");

    let teams = r#"{"type": "message", "text": "<at>gifshelf</at> happy cat"}"#;
    let signed =
        post("/api/chat/teams", teams).header("Authorization", format!("HMAC {}", teams_mac(TEAMS_TOKEN, teams)));
    let answer = json_of(send(signed).await, StatusCode::OK).await;
    assert_eq!(answer["attachments"][0]["content"]["title"], "Happy cat");

    for example in [
        format!("-H 'X-Telegram-Bot-Api-Secret-Token: {TELEGRAM_SECRET}'"),
        format!("--data '{telegram_update}'"),
        format!("--data '{rocket}'"),
        format!("token={TEAMS_TOKEN}"),
        format!("body='{teams}'"),
        r#"body='{"type": 1}'"#.to_owned(),
    ] {
        assert!(page.contains(&example), "docs/chat.md no longer shows {example}");
    }
}

on_both_backends!(
    discord_pings_autocompletes_previews_and_sends,
    discord_refuses_what_its_key_did_not_sign_now,
    telegram_answers_inline_queries_page_by_page_and_commands,
    teams_and_rocketchat_post_a_card_and_an_attachment,
    integrations_added_by_an_admin_answer_with_their_own_rating_and_rate,
    the_documented_bot_requests_are_answered
);
