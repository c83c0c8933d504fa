//! Access control.

use super::*;

// ---------------------------------------------------------------------------------------------
// Access control

pub(super) async fn access_other_users_gif_is_unchanged_and_owner_fields_are_ignored(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    let bob = app.user("bob").await;
    let gif = alice.upload_gif("Mine", "original", &["cats"]).await;
    let id = gif.id;
    let path = format!("/api/gifs/{id}");
    let hijack = json!({
        "title": "Hijacked", "description": "x", "tags": ["pwned"],
        "uploadedBy": "bob", "role": "ADMIN", "viewCount": 999
    });
    error_of(bob.put_json(&path, &hijack).await, StatusCode::FORBIDDEN, "forbidden").await;
    for other in [&bob, &admin] {
        error_of(other.delete(&path).await, StatusCode::FORBIDDEN, "forbidden").await;
    }
    error_of(bob.put_json("/api/gifs/987654", &hijack).await, StatusCode::NOT_FOUND, "not_found").await;
    let unchanged = alice.gif(id).await;
    assert_eq!(
        (unchanged.title.as_str(), unchanged.description.as_str(), unchanged.uploaded_by.as_str()),
        ("Mine", "original", "alice")
    );
    assert_eq!(unchanged.tags.len(), 1);
    assert_eq!(app.stored_files().len(), 3, "the blobs are still there");
    let tags: Vec<TagDto> = alice.read("/api/tags").await;
    assert!(tags.iter().all(|t| !t.name.contains("pwned")), "{tags:?}");

    // The owner's own edit ignores the fields the server owns.
    let edited: GifDto = dto_of(alice.put_json(&path, &hijack).await, StatusCode::OK).await;
    assert_eq!((edited.title.as_str(), edited.uploaded_by.as_str()), ("Hijacked", "alice"));
    assert!(edited.view_count < 999, "{edited:?}");
    // A role in a registration or a profile body is ignored too.
    let register = json!({
        "username": "mallory", "email": "m@example.com", "password": "secret1", "confirmPassword": "secret1",
        "role": "ADMIN", "roles": "ROLE_USER,ROLE_ADMIN"
    });
    let _: ProfileDto =
        dto_of(app.anonymous().post_json("/api/auth/register", &register).await, StatusCode::CREATED).await;
    let mallory = app.sign_in("mallory", "secret1").await;
    assert_eq!(claims_of(mallory.token()).roles, "ROLE_USER");
    let promote = json!({"username": "mallory", "email": null, "role": "ADMIN"});
    let _: ProfileDto = dto_of(mallory.put_json("/api/settings/profile", &promote).await, StatusCode::OK).await;
    error_of(mallory.get("/api/stats").await, StatusCode::FORBIDDEN, "forbidden").await;
    still_serving(&app).await;
}

pub(super) async fn access_admin_endpoints_are_403_for_non_admins_whatever_the_token_claims(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let bob = app.user("bob").await;
    bob.upload_gif("a", "", &["kitty"]).await;
    let created: TagDto = dto_of(bob.post("/api/tags?name=empty-one").await, StatusCode::CREATED).await;
    let tag = created.id;
    let tags = |list: Vec<TagDto>| list.into_iter().map(|t| (t.id, t.name, t.count)).collect::<Vec<_>>();
    let before = tags(admin.read("/api/tags").await);
    // A correctly signed token for bob that claims the admin role: the stored role decides.
    let forged = app.with_token(&mint(
        &json!({"sub": "bob", "roles": "ROLE_USER,ROLE_ADMIN", "iat": now(), "exp": now() + 3600}),
        jsonwebtoken::Algorithm::HS256,
        SECRET,
    ));
    let endpoints = [
        (Method::PUT, format!("/api/tags/{tag}?name=renamed")),
        (Method::DELETE, format!("/api/tags/{tag}")),
        (Method::DELETE, "/api/tags/empty".to_owned()),
        (Method::GET, "/api/stats".to_owned()),
        (Method::GET, "/api/stats/detailed".to_owned()),
        (Method::GET, "/api/stats/detailed/size/0-100KB".to_owned()),
        (Method::GET, "/api/stats/detailed/tag/kitty".to_owned()),
        (Method::GET, "/api/stats/detailed/activity/casual".to_owned()),
        (Method::GET, "/api/stats/detailed/content-type?type=image%2Fgif".to_owned()),
    ];
    for (method, path) in &endpoints {
        for client in [&bob, &forged] {
            let response = send(client.request(method.clone(), path)).await;
            let message = error_of(response, StatusCode::FORBIDDEN, "forbidden").await;
            assert_eq!(message, "This needs an administrator account.", "{method} {path}");
        }
        let anonymous = send(app.anonymous().request(method.clone(), path)).await;
        error_of(anonymous, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    assert_eq!(tags(admin.read("/api/tags").await), before, "nothing changed");
    // The control: the admin may.
    let stats: OverviewStats = admin.read("/api/stats").await;
    assert_eq!(stats.total_gifs, 1);
    still_serving(&app).await;
}

pub(super) async fn access_share_ids_are_random_and_a_deleted_link_looks_never_existing(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let mut ids = Vec::new();
    for n in 0..6 {
        let gif = alice.upload_gif(&format!("gif {n}"), "", &[]).await;
        ids.push((gif.id, gif.share_id));
    }
    for (_, share) in &ids {
        // At least 96 bits: 16 or more URL-safe base64 characters.
        assert!(share.len() >= 16, "{share}");
        assert!(share.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{share}");
    }
    let mut shares: Vec<&String> = ids.iter().map(|(_, s)| s).collect();
    shares.sort();
    shares.dedup();
    assert_eq!(shares.len(), ids.len(), "distinct");
    let prefixes: std::collections::HashSet<&str> = shares.iter().map(|s| &s[..4]).collect();
    assert!(prefixes.len() > 1, "not sequential: {shares:?}");

    let (id, share) = ids[0].clone();
    let delete = alice.delete(&format!("/api/gifs/{id}")).await;
    assert_eq!(delete.status(), StatusCode::NO_CONTENT);
    let never = "A".repeat(share.len());
    for suffix in ["", ".gif"] {
        let gone = app.anonymous().get(&format!("/s/{share}{suffix}")).await;
        let missing = app.anonymous().get(&format!("/s/{never}{suffix}")).await;
        assert_eq!(gone.status(), StatusCode::NOT_FOUND);
        assert_eq!(missing.status(), StatusCode::NOT_FOUND);
        assert_eq!(header(&gone, "content-type"), header(&missing, "content-type"));
        assert_eq!(gone.text().await.unwrap_or_default(), missing.text().await.unwrap_or_default(), "{suffix}");
    }
    still_serving(&app).await;
}

on_both_backends!(
    access_other_users_gif_is_unchanged_and_owner_fields_are_ignored,
    access_admin_endpoints_are_403_for_non_admins_whatever_the_token_claims,
    access_share_ids_are_random_and_a_deleted_link_looks_never_existing,
);
