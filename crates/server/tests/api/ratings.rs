//! Ratings (`g`, `pg`, `pg-13`, `r`): set on upload (with the configured default), changed by an
//! edit, refused in any other spelling.

use gifshelf_http::dto::{GifDto, Rating};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::helpers::{dto_of, error_of, send, Backend, Client};
use crate::{app, on_both_backends};

/// Uploads a fresh GIF with this `gifData`.
pub(crate) async fn upload_with(client: &Client, bytes: Vec<u8>, data: &Value) -> reqwest::Response {
    let file = reqwest::multipart::Part::bytes(bytes)
        .file_name("cat.gif")
        .mime_str("image/gif")
        .unwrap_or_else(|e| panic!("{e}"));
    let data =
        reqwest::multipart::Part::text(data.to_string()).mime_str("application/json").unwrap_or_else(|e| panic!("{e}"));
    let form = reqwest::multipart::Form::new().part("file", file).part("gifData", data);
    send(client.request(Method::POST, "/api/gifs").multipart(form)).await
}

async fn uploads_and_edits_set_the_rating_in_lower_case_only(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let plain = alice.upload_gif("plain", "", &[]).await;
    assert_eq!(plain.rating, Rating::G, "g out of the box");
    let rated: GifDto = dto_of(
        upload_with(&alice, alice.fresh_gif(), &json!({"title": "t", "rating": "pg-13"})).await,
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(rated.rating, Rating::Pg13);
    assert_eq!(alice.gif(rated.id).await.rating, Rating::Pg13);
    for bad in ["x", "PG", "", "pg13"] {
        let response = upload_with(&alice, alice.fresh_gif(), &json!({"title": "t", "rating": bad})).await;
        error_of(response, StatusCode::BAD_REQUEST, "validation").await;
    }
    let page: gifshelf_http::dto::PagedGifs = alice.read("/api/gifs/dtos").await;
    assert_eq!(page.total_elements, 2, "a refused rating stores nothing");

    let path = format!("/api/gifs/{}", plain.id);
    let edited: GifDto =
        dto_of(alice.put_json(&path, &json!({"title": "plain", "rating": "r"})).await, StatusCode::OK).await;
    assert_eq!(edited.rating, Rating::R);
    let kept: GifDto = dto_of(alice.put_json(&path, &json!({"title": "renamed"})).await, StatusCode::OK).await;
    assert_eq!((kept.title.as_str(), kept.rating), ("renamed", Rating::R), "no rating keeps it");
    for bad in [json!("PG"), json!("x"), json!(3)] {
        let response = alice.put_json(&path, &json!({"title": "plain", "rating": bad})).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{bad}");
    }
    assert_eq!(alice.gif(plain.id).await.rating, Rating::R);
    // An admin may re-rate anyone's GIF; another member may not.
    let by_admin: GifDto =
        dto_of(admin.put_json(&path, &json!({"title": "plain", "rating": "pg"})).await, StatusCode::OK).await;
    assert_eq!(by_admin.rating, Rating::Pg);
    let bob = app.user("bob").await;
    error_of(bob.put_json(&path, &json!({"title": "plain", "rating": "g"})).await, StatusCode::FORBIDDEN, "forbidden")
        .await;
}

async fn the_default_rating_is_configurable(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_DEFAULT_RATING", "pg")]);
    let alice = app.user("alice").await;
    assert_eq!(alice.upload_gif("a", "", &[]).await.rating, Rating::Pg);
    let explicit: GifDto = dto_of(
        upload_with(&alice, alice.fresh_gif(), &json!({"title": "b", "rating": "g"})).await,
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(explicit.rating, Rating::G);
}

async fn a_link_upload_refuses_a_bad_rating_before_fetching(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let body = json!({"url": "http://192.0.2.1/cat.gif", "title": "t", "rating": "PG"});
    error_of(alice.post_json("/api/gifs/from-url", &body).await, StatusCode::BAD_REQUEST, "validation").await;
}

async fn the_giphy_api_answers_each_gifs_own_rating(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_CHAT_API_ANONYMOUS", "true")]);
    let alice = app.user("alice").await;
    let rated: GifDto = dto_of(
        upload_with(&alice, alice.fresh_gif(), &json!({"title": "rated", "rating": "pg-13"})).await,
        StatusCode::CREATED,
    )
    .await;
    let plain = alice.upload_gif("plain", "", &[]).await;
    for (gif, rating) in [(&rated, "pg-13"), (&plain, "g")] {
        let answer = app.anonymous().get(&format!("/api/giphy/v1/gifs/{}", gif.share_id)).await;
        let body: Value = dto_of(answer, StatusCode::OK).await;
        assert_eq!(body["data"]["rating"], rating, "{body}");
    }
}

/// How many of the four GIFs (one per rating, all titled "sunset") a chat API path answers.
async fn sunsets(app: &crate::helpers::TestApp, path: &str) -> usize {
    let body: Value = dto_of(app.anonymous().get(path).await, StatusCode::OK).await;
    let list = body.get("results").or_else(|| body.get("data")).and_then(Value::as_array).cloned();
    list.unwrap_or_default().len()
}

async fn tenor_contentfilter_and_giphy_rating_filter_by_the_real_rating(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_CHAT_API_ANONYMOUS", "true")]);
    let alice = app.user("alice").await;
    for rating in ["g", "pg", "pg-13", "r"] {
        let data = json!({"title": format!("sunset {rating}"), "rating": rating});
        assert_eq!(upload_with(&alice, alice.fresh_gif(), &data).await.status(), StatusCode::CREATED);
    }
    for (filter, count) in [
        ("", 4),
        ("&contentfilter=off", 4),
        ("&contentfilter=low", 3),
        ("&contentfilter=medium", 2),
        ("&contentfilter=high", 1),
    ] {
        assert_eq!(sunsets(&app, &format!("/api/tenor/v2/search?q=sunset{filter}")).await, count, "search{filter}");
        assert_eq!(sunsets(&app, &format!("/api/tenor/v2/featured?limit=50{filter}")).await, count, "featured{filter}");
    }
    for (filter, count) in [("", 4), ("&rating=r", 4), ("&rating=pg-13", 3), ("&rating=pg", 2), ("&rating=g", 1)] {
        assert_eq!(
            sunsets(&app, &format!("/api/giphy/v1/gifs/search?q=sunset{filter}")).await,
            count,
            "search{filter}"
        );
        assert_eq!(
            sunsets(&app, &format!("/api/giphy/v1/gifs/trending?limit=50{filter}")).await,
            count,
            "trending{filter}"
        );
    }
    let strict: Value =
        dto_of(app.anonymous().get("/api/giphy/v1/gifs/search?q=sunset&rating=g").await, StatusCode::OK).await;
    assert_eq!(strict["data"][0]["rating"], "g");
    assert_eq!(strict["pagination"]["total_count"], 1, "{strict}");
    let picked: Value =
        dto_of(app.anonymous().get("/api/giphy/v1/gifs/random?tag=sunset&rating=g").await, StatusCode::OK).await;
    assert_eq!(picked["data"]["rating"], "g", "{picked}");
    for bad in ["/api/tenor/v2/search?q=sunset&contentfilter=strict", "/api/giphy/v1/gifs/search?q=sunset&rating=x"] {
        assert_eq!(app.anonymous().get(bad).await.status(), StatusCode::BAD_REQUEST, "{bad}");
    }
}

on_both_backends!(
    tenor_contentfilter_and_giphy_rating_filter_by_the_real_rating,
    uploads_and_edits_set_the_rating_in_lower_case_only,
    the_default_rating_is_configurable,
    a_link_upload_refuses_a_bad_rating_before_fetching,
    the_giphy_api_answers_each_gifs_own_rating
);
