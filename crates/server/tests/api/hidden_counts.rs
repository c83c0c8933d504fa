//! What members see of tags never counts or names a GIF a moderator hid (tag lists, a tag,
//! autocomplete, trending terms, chat categories), while the statistics count every GIF.

use gifshelf_http::dto::{OverviewStats, TagDto};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::helpers::{dto_of, json_of, Backend, Client};
use crate::{app, on_both_backends};

async fn counts(client: &Client) -> Vec<(String, i64)> {
    let tags: Vec<TagDto> = client.read("/api/tags").await;
    tags.into_iter().map(|t| (t.name, t.count)).collect()
}

fn strings(body: &Value) -> Vec<String> {
    body["results"].as_array().into_iter().flatten().filter_map(|t| t.as_str().map(str::to_owned)).collect()
}

async fn tag_counts_leave_hidden_gifs_out_and_statistics_count_them(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_CHAT_API_ANONYMOUS", "true")]);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    alice.upload_gif("Cat one", "", &["cats"]).await;
    let hidden_cat = alice.upload_gif("Cat two", "", &["cats"]).await;
    let doge = alice.upload_gif("Doge secret", "", &["doges"]).await;
    assert_eq!(counts(&bob).await, [("cats".to_owned(), 2), ("doges".to_owned(), 1)]);
    for gif in [hidden_cat.id, doge.id] {
        let hide = admin.put_json(&format!("/api/admin/gifs/{gif}/visibility"), &json!({"hidden": true})).await;
        assert_eq!(hide.status(), StatusCode::OK);
    }

    let expected = [("cats".to_owned(), 1), ("doges".to_owned(), 0)];
    for (who, client) in [("bob", &bob), ("alice, the owner", &alice), ("an admin", &admin)] {
        assert_eq!(counts(client).await, expected, "{who}");
    }
    let cats: TagDto = dto_of(bob.get("/api/tags/cats").await, StatusCode::OK).await;
    assert_eq!(cats.count, 1);
    let doges: TagDto = dto_of(bob.get("/api/tags/doges").await, StatusCode::OK).await;
    assert_eq!(doges.count, 0, "a tag only hidden GIFs carry stays, counting none");

    // Chat apps: autocomplete names neither the hidden GIF's tag nor its title.
    let typed = strings(&json_of(app.anonymous().get("/api/tenor/v2/autocomplete?q=do").await, StatusCode::OK).await);
    assert!(typed.is_empty(), "{typed:?}");
    let typed = strings(&json_of(app.anonymous().get("/api/tenor/v2/autocomplete?q=ca").await, StatusCode::OK).await);
    assert_eq!(typed, ["cats", "cat one"]);
    let trending = strings(&json_of(app.anonymous().get("/api/tenor/v2/trending_terms").await, StatusCode::OK).await);
    assert_eq!(trending, ["cats"]);
    let categories = json_of(app.anonymous().get("/api/tenor/v2/categories").await, StatusCode::OK).await;
    let terms: Vec<&str> =
        categories["tags"].as_array().into_iter().flatten().filter_map(|c| c["searchterm"].as_str()).collect();
    assert_eq!(terms, ["cats"]);

    // The statistics count every GIF, hidden ones included.
    let stats: OverviewStats = admin.read("/api/stats?refresh=true").await;
    assert_eq!(stats.total_gifs, 3);
    let cats = stats.most_used_tags.iter().find(|(name, _)| name == "cats").map(|(_, n)| n.as_str());
    assert_eq!(cats, Some("2"), "{:?}", stats.most_used_tags);
}

on_both_backends!(tag_counts_leave_hidden_gifs_out_and_statistics_count_them);
