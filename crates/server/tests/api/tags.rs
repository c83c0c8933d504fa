use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::helpers::{error_of, json_of, Backend, TestApp};
use crate::{api_tests, app};

async fn call(app: &TestApp, method: Method, path: &str, token: &str) -> reqwest::Response {
    app.client.request(method, app.url(path)).bearer_auth(token).send().await.unwrap_or_else(|e| panic!("{e}"))
}

async fn tag_counts(app: &TestApp, token: &str) -> Vec<(String, i64)> {
    let tags = json_of(app.get("/api/tags", Some(token)).await, StatusCode::OK).await;
    tags.as_array()
        .into_iter()
        .flatten()
        .map(|t| (t["name"].as_str().unwrap_or_default().to_owned(), t["count"].as_i64().unwrap_or(-1)))
        .collect()
}

fn id_of(tags: &Value, name: &str) -> i64 {
    tags.as_array().into_iter().flatten().find(|t| t["name"] == name).and_then(|t| t["id"].as_i64()).unwrap_or(-1)
}

api_tests! {
    async fn counts_follow_uploads_edits_and_deletes(backend: Backend) {
        let app = app!(backend);
        let token = app.signed_in("alice").await;
        let a = app.upload_gif(&token, "a", "", &["cats", "funny"]).await;
        app.upload_gif(&token, "b", "", &["cats"]).await;
        assert_eq!(tag_counts(&app, &token).await, [("cats".to_owned(), 2), ("funny".to_owned(), 1)]);
        let id = a["id"].as_i64().unwrap_or_default();
        json_of(app.put_json(&format!("/api/gifs/{id}"), &token, &serde_json::json!({"title": "a", "description": "", "tags": ["dogs"]})).await, StatusCode::OK).await;
        assert_eq!(tag_counts(&app, &token).await, [("cats".to_owned(), 1), ("dogs".to_owned(), 1), ("funny".to_owned(), 0)]);
        assert_eq!(call(&app, Method::DELETE, &format!("/api/gifs/{id}"), &token).await.status(), StatusCode::NO_CONTENT);
        assert_eq!(tag_counts(&app, &token).await, [("cats".to_owned(), 1), ("dogs".to_owned(), 0), ("funny".to_owned(), 0)]);
    }

    async fn admin_curation_and_refusals_for_everyone_else(backend: Backend) {
        let app = app!(backend);
        let admin = app.signed_in("admin").await;
        let bob = app.signed_in("bob").await;
        app.upload_gif(&bob, "a", "", &["kitty", "misc"]).await;
        for name in ["empty-one", "empty-two"] {
            call(&app, Method::POST, &format!("/api/tags?name={name}"), &bob).await;
        }
        let tags = json_of(app.get("/api/tags", Some(&admin)).await, StatusCode::OK).await;
        let (kitty, misc) = (id_of(&tags, "kitty"), id_of(&tags, "misc"));
        let empties = [id_of(&tags, "empty-one"), id_of(&tags, "empty-two")];

        // A plain user: 403 on every admin call, and nothing changes.
        for (method, path) in [
            (Method::PUT, format!("/api/tags/{kitty}?name=cat")),
            (Method::DELETE, format!("/api/tags/{kitty}")),
            (Method::DELETE, "/api/tags/empty".to_owned()),
        ] {
            error_of(call(&app, method, &path, &bob).await, StatusCode::FORBIDDEN, "forbidden").await;
        }
        assert_eq!(tag_counts(&app, &bob).await.len(), 4);

        let renamed = json_of(call(&app, Method::PUT, &format!("/api/tags/{kitty}?name=%20Cat%20"), &admin).await, StatusCode::OK).await;
        assert_eq!((renamed["name"].as_str(), renamed["count"].as_i64()), (Some("cat"), Some(1)));
        let search = json_of(app.get("/api/gifs/dtos/search?q=cat", Some(&admin)).await, StatusCode::OK).await;
        assert_eq!(search["totalElements"], 1, "search follows the rename");
        error_of(call(&app, Method::PUT, &format!("/api/tags/{kitty}?name=cat"), &admin).await, StatusCode::BAD_REQUEST, "validation").await;
        error_of(call(&app, Method::PUT, &format!("/api/tags/{kitty}?name=%20"), &admin).await, StatusCode::BAD_REQUEST, "validation").await;
        error_of(call(&app, Method::PUT, &format!("/api/tags/{kitty}?name=misc"), &admin).await, StatusCode::CONFLICT, "conflict").await;
        error_of(call(&app, Method::PUT, "/api/tags/99999?name=zzz", &admin).await, StatusCode::NOT_FOUND, "not_found").await;

        assert_eq!(call(&app, Method::DELETE, &format!("/api/tags/{misc}"), &admin).await.status(), StatusCode::NO_CONTENT);
        error_of(call(&app, Method::DELETE, &format!("/api/tags/{misc}"), &admin).await, StatusCode::NOT_FOUND, "not_found").await;
        let gifs = json_of(app.get("/api/gifs/dtos", Some(&admin)).await, StatusCode::OK).await;
        assert_eq!(gifs["totalElements"], 1, "the GIF stays");
        assert_eq!(gifs["content"][0]["tags"].as_array().map(Vec::len), Some(1));

        let deleted = json_of(call(&app, Method::DELETE, "/api/tags/empty", &admin).await, StatusCode::OK).await;
        let mut ids: Vec<i64> = deleted["deletedIds"].as_array().into_iter().flatten().filter_map(Value::as_i64).collect();
        ids.sort();
        let mut expected = empties.to_vec();
        expected.sort();
        assert_eq!(ids, expected, "exactly the empty tags");
        assert_eq!(tag_counts(&app, &admin).await, [("cat".to_owned(), 1)]);
    }
}
