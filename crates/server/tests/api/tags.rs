use gifshelf_http::dto::{DeletedTagsResponse, GifDto, PagedGifs, TagDto};
use reqwest::StatusCode;

use crate::helpers::{dto_of, error_of, Backend, Client};
use crate::{app, on_both_backends};

async fn tag_counts(client: &Client) -> Vec<(String, i64)> {
    let tags: Vec<TagDto> = client.read("/api/tags").await;
    tags.into_iter().map(|t| (t.name, t.count)).collect()
}

fn id_of(tags: &[TagDto], name: &str) -> i64 {
    tags.iter().find(|t| t.name == name).map_or(-1, |t| t.id)
}

async fn counts_follow_uploads_edits_and_deletes(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let a = alice.upload_gif("a", "", &["cats", "funny"]).await;
    alice.upload_gif("b", "", &["cats"]).await;
    assert_eq!(tag_counts(&alice).await, [("cats".to_owned(), 2), ("funny".to_owned(), 1)]);
    let path = format!("/api/gifs/{}", a.id);
    let edit = serde_json::json!({"title": "a", "description": "", "tags": ["dogs"]});
    let _: GifDto = dto_of(alice.put_json(&path, &edit).await, StatusCode::OK).await;
    assert_eq!(tag_counts(&alice).await, [("cats".to_owned(), 1), ("dogs".to_owned(), 1), ("funny".to_owned(), 0)]);
    assert_eq!(alice.delete(&path).await.status(), StatusCode::NO_CONTENT);
    assert_eq!(tag_counts(&alice).await, [("cats".to_owned(), 1), ("dogs".to_owned(), 0), ("funny".to_owned(), 0)]);
}

async fn admin_curation_and_refusals_for_everyone_else(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let bob = app.user("bob").await;
    bob.upload_gif("a", "", &["kitty", "misc"]).await;
    for name in ["empty-one", "empty-two"] {
        bob.post(&format!("/api/tags?name={name}")).await;
    }
    let tags: Vec<TagDto> = admin.read("/api/tags").await;
    let (kitty, misc) = (id_of(&tags, "kitty"), id_of(&tags, "misc"));
    let empties = [id_of(&tags, "empty-one"), id_of(&tags, "empty-two")];

    // A plain user: 403 on every admin call, and nothing changes.
    error_of(bob.put(&format!("/api/tags/{kitty}?name=cat")).await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(bob.delete(&format!("/api/tags/{kitty}")).await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(bob.delete("/api/tags/empty").await, StatusCode::FORBIDDEN, "forbidden").await;
    assert_eq!(tag_counts(&bob).await.len(), 4);

    let renamed: TagDto = dto_of(admin.put(&format!("/api/tags/{kitty}?name=%20Cat%20")).await, StatusCode::OK).await;
    assert_eq!((renamed.name.as_str(), renamed.count), ("cat", 1));
    let search: PagedGifs = admin.read("/api/gifs/dtos/search?q=cat").await;
    assert_eq!(search.total_elements, 1, "search follows the rename");
    for (name, status, code) in [
        ("cat", StatusCode::BAD_REQUEST, "validation"),
        ("%20", StatusCode::BAD_REQUEST, "validation"),
        ("misc", StatusCode::CONFLICT, "tag_name_taken"),
    ] {
        error_of(admin.put(&format!("/api/tags/{kitty}?name={name}")).await, status, code).await;
    }
    error_of(admin.put("/api/tags/99999?name=zzz").await, StatusCode::NOT_FOUND, "not_found").await;

    assert_eq!(admin.delete(&format!("/api/tags/{misc}")).await.status(), StatusCode::NO_CONTENT);
    error_of(admin.delete(&format!("/api/tags/{misc}")).await, StatusCode::NOT_FOUND, "not_found").await;
    let gifs: PagedGifs = admin.read("/api/gifs/dtos").await;
    assert_eq!(gifs.total_elements, 1, "the GIF stays");
    assert_eq!(gifs.content[0].tags.len(), 1);

    let deleted: DeletedTagsResponse = dto_of(admin.delete("/api/tags/empty").await, StatusCode::OK).await;
    let mut ids = deleted.deleted_ids;
    ids.sort_unstable();
    let mut expected = empties.to_vec();
    expected.sort_unstable();
    assert_eq!(ids, expected, "exactly the empty tags");
    assert_eq!(tag_counts(&admin).await, [("cat".to_owned(), 1)]);
}

on_both_backends!(counts_follow_uploads_edits_and_deletes, admin_curation_and_refusals_for_everyone_else);
