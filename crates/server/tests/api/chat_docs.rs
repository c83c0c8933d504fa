//! Every `curl` example of docs/chat.md runs against a real server and answers 200: the page
//! stays true for the clients it names.

use reqwest::StatusCode;

use crate::helpers::{dto_of, Backend};
use crate::{app, on_both_backends};

/// The URL of each `curl "…"` line of the page.
fn examples() -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/chat.md");
    let page = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    page.lines()
        .filter_map(|line| line.trim().strip_prefix("curl \""))
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

async fn every_example_request_of_the_chat_page_answers(backend: Backend) {
    // Commet's example has no key: the page says to turn anonymous use on for it.
    let app = app!(backend, &[("GIFSHELF_CHAT_API_ANONYMOUS", "true")]);
    let alice = app.user("alice").await;
    for n in 0..3 {
        // A second tag, so that `tags/related/cat` has something to say.
        alice.upload_gif(&format!("Cat {n}"), "a cat", &["cat", "kitten"]).await;
    }
    // What the page's stickers examples find: a transparent cat.
    let sticker = gifshelf_media::testing::captioned_gif(80, 60, 2, None, true);
    let response = alice.upload("cat.gif", sticker, "Cat sticker", "", &["cat"]).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    // What the page's `gifs/translate` example asks for.
    alice.upload_gif("This is fine", "a dog in a burning room", &["fine"]).await;
    let created: gifshelf_http::dto::CreatedApiKeyDto =
        dto_of(alice.post_json("/api/keys", &serde_json::json!({"name": "docs"})).await, StatusCode::CREATED).await;
    let examples = examples();
    assert!(examples.len() >= 15, "the page lost its examples: {examples:?}");
    for example in examples {
        let url = example.replace("https://gifs.example.com", &app.address).replace("$GIFSHELF_KEY", &created.key);
        let response = app.http.get(&url).send().await.unwrap_or_else(|e| panic!("{example}: {e}"));
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        assert_eq!(status, StatusCode::OK, "{example}: {body}");
        let empty = ["\"results\":[]", "\"data\":[]", "\"tags\":[]"].iter().any(|e| body.contains(e)) || body == "[]";
        assert!(!empty, "{example} found nothing: {body}");
    }
}

on_both_backends!(every_example_request_of_the_chat_page_answers);
