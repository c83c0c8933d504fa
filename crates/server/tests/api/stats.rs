use gifshelf_http::dto::{DetailedStats, GifDto, GifStatRow, OverviewStats, UserStatRow};
use reqwest::StatusCode;

use crate::helpers::{dto_of, error_of, png, Backend, Client};
use crate::{app, on_both_backends};

/// The count (text, as the spec says) of `label` in a `[label, count]` list.
fn count_of(list: &[(String, String)], label: &str) -> Option<String> {
    list.iter().find(|(l, _)| l == label).map(|(_, count)| count.clone())
}

fn pair(label: &str, count: &str) -> (String, String) {
    (label.to_owned(), count.to_owned())
}

/// Every drill-down lists as many rows as its bucket, tag, level or type counts in the detailed
/// figures read just before.
async fn drill_downs_match(admin: &Client) {
    let d: DetailedStats = admin.read("/api/stats/detailed").await;
    for (label, count, _) in &d.size_buckets {
        let rows: Vec<GifStatRow> = admin.read(&format!("/api/stats/detailed/size/{label}")).await;
        assert_eq!(rows.len().to_string(), *count, "size {label}");
    }
    for (tag, count) in &d.tag_distribution {
        let rows: Vec<GifStatRow> = admin.read(&format!("/api/stats/detailed/tag/{tag}")).await;
        assert_eq!(rows.len().to_string(), *count, "tag {tag}");
    }
    for (level, count) in &d.user_activity_stats {
        let rows: Vec<UserStatRow> = admin.read(&format!("/api/stats/detailed/activity/{level}")).await;
        assert_eq!(rows.len().to_string(), *count, "level {level}");
    }
    for (content_type, count, _) in &d.content_type_stats {
        let path = format!("/api/stats/detailed/content-type?type={}", content_type.replace('/', "%2F"));
        let rows: Vec<GifStatRow> = admin.read(&path).await;
        assert_eq!(rows.len().to_string(), *count, "type {content_type}");
    }
}

/// The overview read at once after the uploads and views, with no Refresh Data.
async fn assert_overview_counts(admin: &Client, empty: &OverviewStats) {
    let o: OverviewStats = admin.read("/api/stats").await;
    assert!(o.last_updated >= empty.last_updated, "{} after {}", o.last_updated, empty.last_updated);
    assert_eq!((o.total_gifs, o.total_users, o.total_tags, o.empty_tags_count), (3, 2, 3, 0));
    assert_eq!((o.total_views, o.gifs_uploaded_today, o.gifs_uploaded_this_week), (2, 3, 3));
    assert_eq!((o.average_tags_per_gif, o.average_gifs_per_user, o.average_views_per_gif), (1.33, 1.5, 0.67));
    assert!(o.total_content_size_bytes > 0);
    assert!(o.total_content_size_mb >= 0.0);
    assert!(o.last_updated.ends_with('Z'), "{}", o.last_updated);
    assert_eq!(o.most_used_tags[0], pair("cats", "2"), "pairs carry text counts");
    assert_eq!(count_of(&o.top_users, "bob").as_deref(), Some("3"));
    assert_eq!(o.most_viewed_gifs[0], pair("Cat one", "2"));
}

/// The detailed figures after the uploads: a week of days, activity levels, size buckets, types.
async fn assert_detailed_figures(admin: &Client) {
    let d: DetailedStats = admin.read("/api/stats/detailed").await;
    let days = &d.daily_uploads_last_week;
    assert_eq!(days.len(), 7);
    assert_eq!(days[6].1, "3", "today is last");
    assert!(days.windows(2).all(|w| w[0].0 < w[1].0), "oldest first");
    assert_eq!(count_of(&d.user_activity_stats, "casual").as_deref(), Some("1"));
    assert_eq!(count_of(&d.user_activity_stats, "inactive").as_deref(), Some("1"));
    let buckets = &d.size_buckets;
    assert_eq!(
        buckets.iter().map(|(label, _, _)| label.as_str()).collect::<Vec<_>>(),
        ["0-100KB", "100KB-500KB", "500KB-1MB", "1MB-5MB", "5MB-10MB"]
    );
    assert_eq!(buckets[0].1, "3");
    let by_type = |content_type: &str| {
        d.content_type_stats.iter().find(|(t, _, _)| t == content_type).map(|(_, count, _)| count.as_str())
    };
    assert_eq!(by_type("image/gif"), Some("2"));
    assert_eq!(by_type("image/png"), Some("1"));
}

/// The drill-downs number what the aggregates say, and refuse unknown buckets and levels.
async fn assert_drill_down_rows(admin: &Client) {
    drill_downs_match(admin).await;
    let cats: Vec<GifStatRow> = admin.read("/api/stats/detailed/tag/cats").await;
    assert_eq!(cats.len(), 2);
    assert_eq!((cats[0].title.as_str(), cats[0].views), ("Cat one", 2));
    assert!(cats[0].size_mb >= 0.0 && cats[0].content_type == "image/gif");
    let casual: Vec<UserStatRow> = admin.read("/api/stats/detailed/activity/casual").await;
    assert_eq!((casual[0].username.as_str(), casual[0].gif_count), ("bob", 3));
    let pngs: Vec<GifStatRow> = admin.read("/api/stats/detailed/content-type?type=image%2Fpng").await;
    assert_eq!(pngs[0].title, "A png");
    let message =
        error_of(admin.get("/api/stats/detailed/size/huge").await, StatusCode::BAD_REQUEST, "validation").await;
    assert!(message.contains("0-100KB") && message.contains("5MB-10MB"), "{message}");
    let message =
        error_of(admin.get("/api/stats/detailed/activity/lazy").await, StatusCode::BAD_REQUEST, "validation").await;
    assert!(message.contains("inactive") && message.contains("power"), "{message}");
}

/// An upload, a retag, a bulk tag and a delete each show at once in every figure and drill-down.
async fn later_changes_show_at_once(admin: &Client, bob: &Client, first: i64, second: i64) {
    let third = bob.upload_gif("Cat three", "", &["cats"]).await;
    let now: DetailedStats = admin.read("/api/stats/detailed").await;
    assert_eq!(now.daily_uploads_last_week[6].1, "4");
    assert_eq!(count_of(&now.tag_distribution, "cats").as_deref(), Some("3"));
    assert_eq!(admin.read::<OverviewStats>("/api/stats").await.total_gifs, 4);
    assert_eq!(admin.read::<OverviewStats>("/api/stats?refresh=true").await.total_gifs, 4);
    let refreshed: DetailedStats = admin.read("/api/stats/detailed?refresh=true").await;
    assert_eq!(refreshed.daily_uploads_last_week[6].1, "4");
    drill_downs_match(admin).await;
    let edit = serde_json::json!({"title": "Cat three", "description": "", "tags": ["dogs"]});
    assert!(bob.put_json(&format!("/api/gifs/{}", third.id), &edit).await.status().is_success());
    let retagged: OverviewStats = admin.read("/api/stats").await;
    assert_eq!(count_of(&retagged.most_used_tags, "cats").as_deref(), Some("2"));
    assert_eq!(count_of(&retagged.most_used_tags, "dogs").as_deref(), Some("1"));
    drill_downs_match(admin).await;
    let bulk = serde_json::json!({"ids": [second, third.id], "addTags": ["bulk"]});
    assert!(bob.post_json("/api/gifs/bulk", &bulk).await.status().is_success());
    let bulked: OverviewStats = admin.read("/api/stats").await;
    assert_eq!(count_of(&bulked.most_used_tags, "bulk").as_deref(), Some("2"));
    drill_downs_match(admin).await;
    assert!(bob.delete(&format!("/api/gifs/{}", first)).await.status().is_success());
    let after: OverviewStats = admin.read("/api/stats").await;
    assert_eq!((after.total_gifs, after.total_views, after.gifs_uploaded_today), (3, 0, 3));
    assert_eq!(count_of(&after.most_used_tags, "funny"), None, "a tag of no GIF is not among the most used");
    assert_eq!(after.empty_tags_count, 1);
    drill_downs_match(admin).await;
    error_of(admin.get("/api/stats?refresh=maybe").await, StatusCode::BAD_REQUEST, "bad_request").await;
}

async fn admin_sees_text_counts_and_consistent_drill_downs(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let bob = app.user("bob").await;
    let empty: OverviewStats = admin.read("/api/stats").await;
    assert_eq!((empty.total_gifs, empty.average_views_per_gif), (0, 0.0));

    let first = bob.upload_gif("Cat one", "", &["cats", "funny"]).await;
    let second = bob.upload_gif("Cat two", "", &["cats"]).await;
    let _: GifDto = dto_of(bob.upload("p.png", png(300, 200), "A png", "", &["misc"]).await, StatusCode::CREATED).await;
    for _ in 0..2 {
        bob.gif(first.id).await;
    }

    // Read at once, with no Refresh Data: the uploads and views are in.
    assert_overview_counts(&admin, &empty).await;

    assert_detailed_figures(&admin).await;

    // Drill-downs number what the aggregates say.
    assert_drill_down_rows(&admin).await;

    // Every later change shows at once too, in every figure and drill-down; Refresh Data's
    // `refresh=true` is still accepted (and gives the same exact figures).
    later_changes_show_at_once(&admin, &bob, first.id, second.id).await;

    let anonymous = app.anonymous();
    for path in [
        "/api/stats",
        "/api/stats/detailed",
        "/api/stats/detailed/size/0-100KB",
        "/api/stats/detailed/tag/cats",
        "/api/stats/detailed/activity/casual",
        "/api/stats/detailed/content-type?type=image%2Fgif",
    ] {
        error_of(bob.get(path).await, StatusCode::FORBIDDEN, "forbidden").await;
        error_of(anonymous.get(path).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
}

on_both_backends!(admin_sees_text_counts_and_consistent_drill_downs);
