//! A library a team curates together: favourites, sorting, random picks.

use gifshelf_http::dto::{FavouriteStateDto, GifDto, OverviewStats, PagedGifs};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;

use crate::helpers::{dto_of, error_of, Backend, TestApp};
use crate::{app, on_both_backends};

async fn favourite(app: &TestApp, token: &str, id: i64, on: bool) -> reqwest::Response {
    let method = if on { Method::PUT } else { Method::DELETE };
    app.http
        .request(method, app.url(&format!("/api/gifs/{id}/favourite")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

async fn favourite_ok(app: &TestApp, token: &str, id: i64, on: bool) -> (bool, i64) {
    let state: FavouriteStateDto = dto_of(favourite(app, token, id, on).await, StatusCode::OK).await;
    (state.favourite, state.favourite_count)
}

async fn page<T: DeserializeOwned>(app: &TestApp, token: &str, path: &str) -> T {
    dto_of(app.get(path, Some(token)).await, StatusCode::OK).await
}

fn ids(page: &PagedGifs) -> Vec<i64> {
    page.content.iter().map(|g| g.id).collect()
}

async fn upload(app: &TestApp, token: &str, title: &str, tags: &[&str]) -> i64 {
    app.upload_gif(token, title, "", tags).await.id
}

/// Every GIF of a list, read page by page at `size`.
async fn all_pages(app: &TestApp, token: &str, path: &str, size: u32) -> Vec<GifDto> {
    let mut items = Vec::new();
    for n in 0.. {
        let sep = if path.contains('?') { '&' } else { '?' };
        let body: PagedGifs = page(app, token, &format!("{path}{sep}page={n}&size={size}")).await;
        items.extend(body.content);
        if !body.has_next {
            break;
        }
    }
    items
}

async fn favourites_toggle_idempotently_with_exact_counts(backend: Backend) {
    let app = app!(backend);
    let alice = app.signed_in("alice").await;
    let bob = app.signed_in("bob").await;
    let cat = upload(&app, &alice, "Cat", &[]).await;
    let dog = upload(&app, &alice, "Dog", &[]).await;

    assert_eq!(favourite_ok(&app, &alice, cat, true).await, (true, 1));
    assert_eq!(favourite_ok(&app, &alice, cat, true).await, (true, 1), "a second star changes nothing");
    assert_eq!(favourite_ok(&app, &bob, cat, true).await, (true, 2));

    let detail: GifDto = page(&app, &alice, &format!("/api/gifs/dto/{cat}")).await;
    assert_eq!((detail.favourite, detail.favourite_count), (true, 2));
    let list: PagedGifs = page(&app, &bob, "/api/gifs/dtos").await;
    let marks: Vec<(i64, bool, i64)> = list.content.iter().map(|g| (g.id, g.favourite, g.favourite_count)).collect();
    assert_eq!(marks, [(dog, false, 0), (cat, true, 2)]);

    assert_eq!(favourite_ok(&app, &alice, cat, false).await, (false, 1));
    assert_eq!(favourite_ok(&app, &alice, cat, false).await, (false, 1), "a second unstar changes nothing");
    assert_eq!(favourite_ok(&app, &alice, dog, false).await, (false, 0), "never below zero");
    let detail: GifDto = page(&app, &alice, &format!("/api/gifs/dto/{cat}")).await;
    assert_eq!((detail.favourite, detail.favourite_count), (false, 1));

    error_of(favourite(&app, &alice, 999_999, true).await, StatusCode::NOT_FOUND, "not_found").await;
    error_of(favourite(&app, &alice, 999_999, false).await, StatusCode::NOT_FOUND, "not_found").await;
    let anonymous =
        app.http.put(app.url(&format!("/api/gifs/{cat}/favourite"))).send().await.unwrap_or_else(|e| panic!("{e}"));
    error_of(anonymous, StatusCode::UNAUTHORIZED, "unauthorized").await;

    // alice (the first account) is the admin: the statistics list the most favourited.
    let stats: OverviewStats = page(&app, &alice, "/api/stats").await;
    assert_eq!(stats.most_favourited_gifs, [("Cat".to_owned(), "1".to_owned())]);
}

async fn favourites_list_newest_favourited_first_and_only_your_own(backend: Backend) {
    let app = app!(backend);
    let alice = app.signed_in("alice").await;
    let bob = app.signed_in("bob").await;
    let mut gifs = Vec::new();
    for title in ["one", "two", "three", "four"] {
        gifs.push(upload(&app, &alice, title, &[]).await);
    }
    for i in [2, 0, 3, 1] {
        favourite_ok(&app, &alice, gifs[i], true).await;
        app.pass_seconds(1);
    }
    favourite_ok(&app, &bob, gifs[2], true).await;

    let first: PagedGifs = page(&app, &alice, "/api/gifs/dtos/favourites?page=0&size=3").await;
    assert_eq!(ids(&first), [gifs[1], gifs[3], gifs[0]]);
    assert_eq!((first.total_elements, first.total_pages), (4, 2));
    assert_eq!((first.has_next, first.has_previous), (true, false));
    assert!(first.content.iter().all(|g| g.favourite));
    let second = page(&app, &alice, "/api/gifs/dtos/favourites?page=1&size=3").await;
    assert_eq!(ids(&second), [gifs[2]]);
    let oldest = page(&app, &alice, "/api/gifs/dtos/favourites?sort=oldest").await;
    assert_eq!(ids(&oldest), [gifs[2], gifs[0], gifs[3], gifs[1]]);
    let by_title = page(&app, &alice, "/api/gifs/dtos/favourites?sort=title").await;
    assert_eq!(ids(&by_title), [gifs[3], gifs[0], gifs[2], gifs[1]]);

    assert_eq!(ids(&page(&app, &bob, "/api/gifs/dtos/favourites").await), [gifs[2]], "bob sees only his own");
    let carol = app.signed_in("carol").await;
    let none: PagedGifs = page(&app, &carol, "/api/gifs/dtos/favourites").await;
    assert_eq!((ids(&none), none.total_elements), (vec![], 0));

    // A deleted GIF leaves every favourites list.
    let deleted = app.http.delete(app.url(&format!("/api/gifs/{}", gifs[2]))).bearer_auth(&alice).send().await;
    assert_eq!(deleted.map(|r| r.status()).ok(), Some(StatusCode::NO_CONTENT));
    assert_eq!(page::<PagedGifs>(&app, &alice, "/api/gifs/dtos/favourites").await.total_elements, 3);
    assert_eq!(ids(&page(&app, &bob, "/api/gifs/dtos/favourites").await), Vec::<i64>::new());
}

async fn random_picks_every_gif_and_respects_filters(backend: Backend) {
    let app = app!(backend);
    let alice = app.signed_in("alice").await;
    let bob = app.signed_in("bob").await;
    let message = error_of(app.get("/api/gifs/random", Some(&alice)).await, StatusCode::NOT_FOUND, "not_found").await;
    assert_eq!(message, "No GIF to pick from");

    let mut gifs = Vec::new();
    for (i, title) in ["red panda", "blue whale", "red fox", "green frog", "blue jay"].into_iter().enumerate() {
        let token = if i < 3 { &alice } else { &bob };
        let tags: &[&str] = if i % 2 == 0 { &["even"] } else { &[] };
        gifs.push(upload(&app, token, title, tags).await);
    }

    let mut seen = std::collections::HashMap::new();
    for _ in 0..200 {
        let gif: GifDto = page(&app, &alice, "/api/gifs/random").await;
        *seen.entry(gif.id).or_insert(0) += 1;
    }
    for id in &gifs {
        assert!(seen.get(id).copied().unwrap_or(0) > 0, "GIF {id} never drawn in 200: {seen:?}");
    }
    assert_eq!(seen.len(), 5);

    let draws = |path: &'static str| {
        let (app, alice) = (&app, &alice);
        async move {
            let mut seen = std::collections::BTreeSet::new();
            for _ in 0..60 {
                seen.insert(page::<GifDto>(app, alice, path).await.id);
            }
            seen.into_iter().collect::<Vec<_>>()
        }
    };
    assert_eq!(draws("/api/gifs/random?tag=even").await, [gifs[0], gifs[2], gifs[4]]);
    assert_eq!(draws("/api/gifs/random?user=BOB").await, [gifs[3], gifs[4]]);
    assert_eq!(draws("/api/gifs/random?q=blue").await, [gifs[1], gifs[4]]);
    assert_eq!(draws("/api/gifs/random?q=").await.len(), 5, "an empty term is no filter");

    error_of(app.get("/api/gifs/random?tag=nope", Some(&alice)).await, StatusCode::NOT_FOUND, "not_found").await;
    error_of(app.get("/api/gifs/random?q=zebra", Some(&alice)).await, StatusCode::NOT_FOUND, "not_found").await;
    error_of(app.get("/api/gifs/random?tag=even&user=bob", Some(&alice)).await, StatusCode::BAD_REQUEST, "validation")
        .await;
    error_of(app.get("/api/gifs/random", None).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

/// Each sort against its rule, on a fixture with ties in views, favourites and titles; reading
/// two at a time gives the same GIFs, each once.
async fn sorts_order_with_ties_and_page_stably(backend: Backend) {
    let app = app!(backend);
    let alice = app.signed_in("alice").await;
    let bob = app.signed_in("bob").await;
    let mut gifs = Vec::new();
    for title in ["beta", "Alpha", "cat", "alpha", "Beta", "delta"] {
        gifs.push(upload(&app, &alice, title, &["zoo"]).await);
    }
    for (i, views) in [(0, 2), (1, 2), (2, 1), (5, 3)] {
        for _ in 0..views {
            let _: GifDto = page(&app, &alice, &format!("/api/gifs/dto/{}", gifs[i])).await;
        }
    }
    for (token, i) in [(&alice, 3), (&bob, 3), (&alice, 4), (&bob, 0)] {
        favourite_ok(&app, token, gifs[i], true).await;
    }

    type Key = (i64, i64, String);
    type Rule = (&'static str, fn(&GifDto) -> Key);
    let rules: [Rule; 5] = [
        ("newest", |g| (-g.id, 0, String::new())),
        ("oldest", |g| (g.id, 0, String::new())),
        ("views", |g| (-g.view_count, -g.id, String::new())),
        ("favourites", |g| (-g.favourite_count, -g.id, String::new())),
        ("title", |g| (0, 0, g.title.to_lowercase())),
    ];
    for list in ["/api/gifs/dtos", "/api/gifs/dtos/tag/zoo", "/api/gifs/dtos/user/alice", "/api/gifs/dtos/search?q=a"] {
        for (sort, key) in &rules {
            let path = format!("{list}{}sort={sort}", if list.contains('?') { '&' } else { '?' });
            let whole = all_pages(&app, &alice, &path, 100).await;
            let mut expected = whole.clone();
            expected.sort_by_key(|g| (key(g), g.id));
            let order: Vec<i64> = whole.iter().map(|g| g.id).collect();
            let want: Vec<i64> = expected.iter().map(|g| g.id).collect();
            assert_eq!(order, want, "{path}");
            let paged: Vec<i64> = all_pages(&app, &alice, &path, 2).await.iter().map(|g| g.id).collect();
            assert_eq!(paged, order, "{path} two at a time");
        }
    }
    let everything = all_pages(&app, &alice, "/api/gifs/dtos?sort=views", 100).await;
    assert_eq!(everything.len(), 6);
    let titles: Vec<String> =
        all_pages(&app, &alice, "/api/gifs/dtos?sort=title", 100).await.into_iter().map(|g| g.title).collect();
    assert_eq!(titles, ["Alpha", "alpha", "beta", "Beta", "cat", "delta"], "ties by id, the older first");

    for bad in ["random", "NEWEST", ""] {
        let message = error_of(
            app.get(&format!("/api/gifs/dtos?sort={bad}"), Some(&alice)).await,
            StatusCode::BAD_REQUEST,
            "validation",
        )
        .await;
        assert_eq!(message, "Sort must be one of newest, oldest, views, favourites, title.");
    }
    error_of(app.get("/api/gifs/dtos/favourites?sort=best", Some(&alice)).await, StatusCode::BAD_REQUEST, "validation")
        .await;
}

on_both_backends!(
    favourites_toggle_idempotently_with_exact_counts,
    favourites_list_newest_favourited_first_and_only_your_own,
    random_picks_every_gif_and_respects_filters,
    sorts_order_with_ties_and_page_stably
);
