//! Maximum ratings beyond search and featured: each chat integration's own maximum for its slash
//! commands (set through `/api/integrations`, audited), and the chat APIs' lookups by id,
//! categories and Stoat's gifbox, which answer no GIF rated above what the caller allows.

use gifshelf_http::dto::{GifDto, IntegrationDto, PagedAuditEvents, Rating};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::commands::{mattermost, now, slack, SECRETS_KEY};
use crate::helpers::{dto_of, error_of, json_of, Backend, Client, TestApp};
use crate::ratings::upload_with;
use crate::{app, on_both_backends};

const CONFIGURED_TOKEN: &str = "pbte7m9wbbfbmjk1f4mhsibbzc";
const TEAM_TOKEN: &str = "teamtokenTEAMTOKEN12345";
const SLACK_SECRET: &str = "8f742231b10e8888abcd99yyyzzz85a5";

/// Uploads a GIF rated `rating`, titled `title` and tagged `tags`.
async fn rated(client: &Client, title: &str, rating: &str, tags: &[&str]) -> GifDto {
    let data = json!({"title": title, "rating": rating, "tags": tags});
    dto_of(upload_with(client, client.fresh_gif(), &data).await, StatusCode::CREATED).await
}

/// Two sunsets: a `g` one, and an `r` one viewed more (the best match when `r` is allowed).
async fn two_sunsets(admin: &Client) -> (GifDto, GifDto) {
    let mild = rated(admin, "Calm sunset", "g", &["sunset"]).await;
    let strong = rated(admin, "Wild sunset", "r", &["sunset"]).await;
    admin.gif(strong.id).await;
    admin.gif(strong.id).await;
    (mild, strong)
}

/// The text of a Mattermost answer to `/gif sunset` with `token`.
async fn mattermost_answer(app: &TestApp, token: &str) -> String {
    let reply = json_of(mattermost(app, token, "sunset").await, StatusCode::OK).await;
    reply["text"].as_str().unwrap_or_default().to_owned()
}

async fn each_integration_answers_commands_within_its_own_maximum(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_MATTERMOST_TOKENS", CONFIGURED_TOKEN), SECRETS_KEY]);
    let admin = app.admin().await;
    let (mild, strong) = two_sunsets(&admin).await;

    // The configuration's integrations answer up to the default rating (g out of the box).
    let configured = mattermost_answer(&app, CONFIGURED_TOKEN).await;
    assert!(configured.contains(&mild.share_id) && !configured.contains(&strong.share_id), "{configured}");

    let form = json!({"platform": "mattermost", "name": "Team", "secret": TEAM_TOKEN, "maxRating": "r"});
    let team: IntegrationDto = dto_of(admin.post_json("/api/integrations", &form).await, StatusCode::CREATED).await;
    assert_eq!(team.max_rating, Rating::R);
    let answer = mattermost_answer(&app, TEAM_TOKEN).await;
    assert!(answer.contains(&strong.share_id), "the most viewed match within r: {answer}");
    let still = mattermost_answer(&app, CONFIGURED_TOKEN).await;
    assert!(still.contains(&mild.share_id), "the other integration keeps its own maximum: {still}");

    // A Slack secret added without a maximum gets the default; its signed command follows it.
    let slack_form = json!({"platform": "slack", "name": "Team Slack", "secret": SLACK_SECRET});
    let team_slack: IntegrationDto =
        dto_of(admin.post_json("/api/integrations", &slack_form).await, StatusCode::CREATED).await;
    assert_eq!(team_slack.max_rating, Rating::G);
    let signed = json_of(slack(&app, SLACK_SECRET, now(), "sunset").await, StatusCode::OK).await.to_string();
    assert!(signed.contains(&mild.share_id) && !signed.contains(&strong.share_id), "{signed}");
    let path = format!("/api/integrations/{}", team_slack.id);
    let changed: IntegrationDto =
        dto_of(admin.put_json(&path, &json!({"maxRating": "pg-13"})).await, StatusCode::OK).await;
    assert_eq!(changed.max_rating, Rating::Pg13);
    let signed = json_of(slack(&app, SLACK_SECRET, now(), "sunset").await, StatusCode::OK).await.to_string();
    assert!(signed.contains(&mild.share_id), "r is still above pg-13: {signed}");

    // Lowering the team's maximum takes effect on its next command.
    let path = format!("/api/integrations/{}", team.id);
    let lowered: IntegrationDto = dto_of(admin.put_json(&path, &json!({"maxRating": "g"})).await, StatusCode::OK).await;
    assert_eq!((lowered.id, lowered.max_rating, lowered.name.as_str()), (team.id, Rating::G, "Team"));
    let answer = mattermost_answer(&app, TEAM_TOKEN).await;
    assert!(answer.contains(&mild.share_id) && !answer.contains(&strong.share_id), "{answer}");
    let listed: Vec<IntegrationDto> = admin.read("/api/integrations").await;
    let ratings: Vec<Rating> = listed.iter().map(|i| i.max_rating).collect();
    assert_eq!(ratings, [Rating::G, Rating::Pg13]);

    // Each change is in the audit log, in words; setting the same maximum again records nothing.
    dto_of::<IntegrationDto>(admin.put_json(&path, &json!({"maxRating": "g"})).await, StatusCode::OK).await;
    let log: PagedAuditEvents = admin.read("/api/admin/audit?size=50").await;
    let changes: Vec<(String, String)> = log
        .content
        .iter()
        .filter(|e| e.action == "integration.max_rating_changed")
        .map(|e| (e.target.clone(), e.detail.clone()))
        .collect();
    assert_eq!(
        changes,
        [
            (format!("Team (mattermost, #{})", team.id), "maximum rating: r → g".to_owned()),
            (format!("Team Slack (slack, #{})", team_slack.id), "maximum rating: g → pg-13".to_owned()),
        ],
        "newest first"
    );
}

async fn a_bad_maximum_rating_is_refused_and_changes_nothing(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let alice = app.user("alice").await;
    for bad in [json!("PG"), json!("nc-17"), json!(""), json!(3)] {
        let form = json!({"platform": "zulip", "name": "Zulip", "secret": "xvOzfurIutdRRVLz", "maxRating": bad});
        assert_eq!(admin.post_json("/api/integrations", &form).await.status(), StatusCode::BAD_REQUEST, "{bad}");
    }
    let listed: Vec<IntegrationDto> = admin.read("/api/integrations").await;
    assert!(listed.is_empty(), "a refused form stores nothing");

    let form = json!({"platform": "zulip", "name": "Zulip", "secret": "xvOzfurIutdRRVLz", "maxRating": "pg"});
    let zulip: IntegrationDto = dto_of(admin.post_json("/api/integrations", &form).await, StatusCode::CREATED).await;
    let path = format!("/api/integrations/{}", zulip.id);
    error_of(admin.put_json(&path, &json!({"maxRating": "PG-13"})).await, StatusCode::BAD_REQUEST, "validation").await;
    for bad in [json!({}), json!({"maxRating": null}), json!({"maxRating": 2})] {
        assert_eq!(admin.put_json(&path, &bad).await.status(), StatusCode::BAD_REQUEST, "{bad}");
    }
    error_of(alice.put_json(&path, &json!({"maxRating": "r"})).await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(
        app.anonymous().put_json(&path, &json!({"maxRating": "r"})).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    )
    .await;
    error_of(
        admin.put_json("/api/integrations/999999", &json!({"maxRating": "r"})).await,
        StatusCode::NOT_FOUND,
        "not_found",
    )
    .await;
    let listed: Vec<IntegrationDto> = admin.read("/api/integrations").await;
    assert_eq!(listed.iter().map(|i| i.max_rating).collect::<Vec<_>>(), [Rating::Pg], "unchanged");
    let log: PagedAuditEvents = admin.read("/api/admin/audit?size=50").await;
    assert!(!log.content.iter().any(|e| e.action == "integration.max_rating_changed"), "nothing audited");
}

/// The share ids a chat answer lists (`results` or `data`, each with an `id`).
fn ids_in(body: &Value) -> Vec<String> {
    let list = body.get("results").or_else(|| body.get("data")).and_then(Value::as_array).cloned().unwrap_or_default();
    list.iter().filter_map(|r| r["id"].as_str().map(str::to_owned)).collect()
}

async fn get(app: &TestApp, path: &str) -> Value {
    json_of(app.anonymous().get(path).await, StatusCode::OK).await
}

async fn lookups_by_id_and_categories_follow_the_rating_filters(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_CHAT_API_ANONYMOUS", "true")]);
    let alice = app.user("alice").await;
    let mut gifs = Vec::new();
    for rating in ["g", "pg", "pg-13", "r"] {
        gifs.push(rated(&alice, &format!("sunset {rating}"), rating, &["sunset", &format!("only-{rating}")]).await);
    }
    let all: Vec<String> = gifs.iter().map(|g| g.share_id.clone()).collect();
    let ids = all.join(",");
    // Tenor `posts`: every GIF without a filter, in the order asked, each with its content rating.
    let posts = get(&app, &format!("/api/tenor/v2/posts?ids={ids}")).await;
    assert_eq!(ids_in(&posts), all);
    let ratings: Vec<&str> =
        posts["results"].as_array().into_iter().flatten().filter_map(|r| r["content_rating"].as_str()).collect();
    assert_eq!(ratings, ["g", "pg", "pg-13", "r"]);
    for (filter, count) in [("off", 4), ("low", 3), ("medium", 2), ("high", 1)] {
        let posts = get(&app, &format!("/api/tenor/v2/posts?ids={ids}&contentfilter={filter}")).await;
        assert_eq!(ids_in(&posts), all[..count], "posts {filter}");
    }
    // GIPHY by ids and by id.
    for (rating, count) in [("r", 4), ("pg-13", 3), ("pg", 2), ("g", 1)] {
        let found = get(&app, &format!("/api/giphy/v1/gifs?ids={ids}&rating={rating}")).await;
        assert_eq!(ids_in(&found), all[..count], "gifs?ids {rating}");
        assert_eq!(found["pagination"]["total_count"], count);
    }
    let strong = format!("/api/giphy/v1/gifs/{}", all[3]);
    assert_eq!(get(&app, &strong).await["data"]["rating"], "r", "no rating: every GIF");
    let refused = app.anonymous().get(&format!("{strong}?rating=pg-13")).await;
    assert_eq!(refused.status(), StatusCode::NOT_FOUND);
    let mild = get(&app, &format!("/api/giphy/v1/gifs/{}?rating=pg-13", all[1])).await;
    assert_eq!(mild["data"]["id"], all[1].as_str());
    for bad in [format!("/api/tenor/v2/posts?ids={ids}&contentfilter=x"), format!("{strong}?rating=x")] {
        assert_eq!(app.anonymous().get(&bad).await.status(), StatusCode::BAD_REQUEST, "{bad}");
    }

    // Categories: only the tags of GIFs within the filter, each shown with such a GIF.
    let names = |body: &Value, list: &str, field: &str| -> Vec<String> {
        body[list].as_array().into_iter().flatten().filter_map(|c| c[field].as_str().map(str::to_owned)).collect()
    };
    let tenor = get(&app, "/api/tenor/v2/categories?contentfilter=medium").await;
    let mut terms = names(&tenor, "tags", "searchterm");
    terms.sort();
    assert_eq!(terms, ["only-g", "only-pg", "sunset"]);
    let sunset = tenor["tags"].as_array().into_iter().flatten().find(|c| c["searchterm"] == "sunset").cloned();
    let sunset = sunset.unwrap_or_default();
    let image = sunset["image"].as_str().unwrap_or_default();
    assert!(image.contains(&all[0]) || image.contains(&all[1]), "{sunset}");
    assert!(sunset["path"].as_str().is_some_and(|p| p.ends_with("&contentfilter=medium")), "{sunset}");
    assert_eq!(names(&get(&app, "/api/tenor/v2/categories").await, "tags", "searchterm").len(), 5);
    let giphy = get(&app, "/api/giphy/v1/gifs/categories?rating=g").await;
    let mut named = names(&giphy, "data", "name");
    named.sort();
    assert_eq!(named, ["only-g", "sunset"]);
    assert_eq!(giphy["data"][0]["gif"]["rating"], "g", "{giphy}");
    assert_eq!(names(&get(&app, "/api/giphy/v1/gifs/categories").await, "data", "name").len(), 5);
}

async fn gifbox_answers_up_to_the_default_rating(backend: Backend) {
    for (default, expected) in [(None, 1), (Some("pg-13"), 3)] {
        let mut env = vec![("GIFSHELF_CHAT_API_ANONYMOUS", "true")];
        if let Some(rating) = default {
            env.push(("GIFSHELF_DEFAULT_RATING", rating));
        }
        let app = app!(backend, &env);
        let alice = app.user("alice").await;
        for rating in ["g", "pg", "pg-13", "r"] {
            rated(&alice, &format!("sunset {rating}"), rating, &[&format!("only-{rating}")]).await;
        }
        let search = get(&app, "/api/gifbox/search?query=sunset").await;
        assert_eq!(ids_in(&search).len(), expected, "search, default {default:?}");
        let trending = get(&app, "/api/gifbox/trending").await;
        assert_eq!(ids_in(&trending).len(), expected, "trending, default {default:?}");
        let categories = get(&app, "/api/gifbox/categories").await;
        assert_eq!(categories.as_array().map(Vec::len), Some(expected), "categories, default {default:?}");
    }
}

on_both_backends!(
    each_integration_answers_commands_within_its_own_maximum,
    a_bad_maximum_rating_is_refused_and_changes_nothing,
    lookups_by_id_and_categories_follow_the_rating_filters,
    gifbox_answers_up_to_the_default_rating
);
