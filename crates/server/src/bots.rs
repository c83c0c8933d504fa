//! `gifshelf discord register` and `gifshelf telegram set-webhook`: the one call to each
//! platform's API that connects a bot to this server. Their base URLs are arguments, so that a
//! test stands in for the platform with a local HTTP server.

use std::time::Duration;

use serde_json::{json, Value};

/// Discord's API as of these commands.
pub const DISCORD_API_URL: &str = "https://discord.com/api/v10";
/// Telegram's Bot API.
pub const TELEGRAM_API_URL: &str = "https://api.telegram.org";

/// The longest query Discord lets a person type (so that the preview's buttons can carry it).
pub const DISCORD_QUERY_MAX: u32 = 80;

/// The `/gif` command as Discord registers it: one text option, `query`, with autocomplete.
pub fn discord_command() -> Value {
    json!({
        "name": "gif",
        "type": 1,
        "description": "Post a GIF from gifshelf",
        "options": [{
            "type": 3,
            "name": "query",
            "description": "What the GIF shows",
            "required": true,
            "autocomplete": true,
            "max_length": DISCORD_QUERY_MAX,
        }],
    })
}

fn client() -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .user_agent(concat!("gifshelf/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| e.to_string())
}

/// The body of an answer, or why the call failed (the platform's own words included).
async fn answer(response: Result<reqwest::Response, reqwest::Error>, what: &str) -> Result<Value, String> {
    let response = response.map_err(|e| format!("{what}: {}", e.without_url()))?;
    let status = response.status();
    let text = response.text().await.map_err(|e| format!("{what}: {}", e.without_url()))?;
    if !status.is_success() {
        return Err(format!("{what}: {status} {}", text.chars().take(500).collect::<String>()));
    }
    serde_json::from_str(&text).map_err(|_| format!("{what}: the answer is not JSON"))
}

/// Registers (or updates: Discord matches commands by name) the global `/gif` command of the
/// application `application_id` with its bot token.
///
/// # Errors
/// When the API cannot be reached or refuses (a wrong token or application id), with its answer.
pub async fn discord_register(api_url: &str, application_id: &str, bot_token: &str) -> Result<String, String> {
    if application_id.is_empty() || !application_id.bytes().all(|b| b.is_ascii_digit()) {
        return Err("--application-id must be the application's id (digits), from the Developer Portal".into());
    }
    let url = format!("{}/applications/{application_id}/commands", api_url.trim_end_matches('/'));
    let response =
        client()?.post(&url).header("Authorization", format!("Bot {bot_token}")).json(&discord_command()).send().await;
    let command = answer(response, "Discord refused the command").await?;
    Ok(format!(
        "registered /gif (command id {}) for application {application_id}",
        command["id"].as_str().unwrap_or("?")
    ))
}

/// Points the bot's webhook at `webhook_url` with `secret`, for messages, inline queries and
/// chosen inline results.
///
/// # Errors
/// When the API cannot be reached or refuses (a wrong token, a URL Telegram does not accept).
pub async fn telegram_set_webhook(
    api_url: &str,
    bot_token: &str,
    webhook_url: &str,
    secret: &str,
) -> Result<String, String> {
    let url = format!("{}/bot{bot_token}/setWebhook", api_url.trim_end_matches('/'));
    let body = json!({
        "url": webhook_url,
        "secret_token": secret,
        "allowed_updates": ["message", "inline_query", "chosen_inline_result"],
        "drop_pending_updates": true,
    });
    let response = client()?.post(&url).json(&body).send().await;
    // The token is in the URL: never repeat reqwest's error, which names it.
    let response = response.map_err(|_| "Telegram cannot be reached".to_owned());
    let answer = match response {
        Ok(response) => answer(Ok(response), "Telegram refused the webhook").await?,
        Err(message) => return Err(message),
    };
    if answer["ok"] != json!(true) {
        return Err(format!("Telegram refused the webhook: {}", answer["description"].as_str().unwrap_or("no reason")));
    }
    Ok(format!("webhook set to {webhook_url}"))
}
