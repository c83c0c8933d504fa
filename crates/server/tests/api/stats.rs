use gifshelf_http::dto::{DetailedStats, GifDto, GifStatRow, OverviewStats, UserStatRow};
use reqwest::StatusCode;

use crate::helpers::{dto_of, error_of, png, Backend};
use crate::{app, on_both_backends};

/// The count (text, as the spec says) of `label` in a `[label, count]` list.
fn count_of(list: &[(String, String)], label: &str) -> Option<String> {
    list.iter().find(|(l, _)| l == label).map(|(_, count)| count.clone())
}

fn pair(label: &str, count: &str) -> (String, String) {
    (label.to_owned(), count.to_owned())
}

async fn admin_sees_text_counts_and_consistent_drill_downs(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let bob = app.user("bob").await;
    let empty: OverviewStats = admin.read("/api/stats").await;
    assert_eq!((empty.total_gifs, empty.average_views_per_gif), (0, 0.0));

    let first = bob.upload_gif("Cat one", "", &["cats", "funny"]).await;
    bob.upload_gif("Cat two", "", &["cats"]).await;
    let _: GifDto = dto_of(bob.upload("p.png", png(300, 200), "A png", "", &["misc"]).await, StatusCode::CREATED).await;
    for _ in 0..2 {
        bob.gif(first.id).await;
    }

    // The figures are a snapshot: the same until fresh ones are asked for (Refresh Data).
    let snapshot: OverviewStats = admin.read("/api/stats").await;
    assert_eq!((snapshot.total_gifs, &snapshot.last_updated), (0, &empty.last_updated));
    let o: OverviewStats = admin.read("/api/stats?refresh=true").await;
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

    // Drill-downs number what the aggregates say.
    for (label, count, _) in buckets {
        let rows: Vec<GifStatRow> = admin.read(&format!("/api/stats/detailed/size/{label}")).await;
        assert_eq!(rows.len().to_string(), *count, "{label}");
    }
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

    // The detailed figures are a snapshot too; Refresh Data (`refresh=true`) makes a fresh one.
    bob.upload_gif("Cat three", "", &["cats"]).await;
    let unchanged: DetailedStats = admin.read("/api/stats/detailed").await;
    assert_eq!(unchanged.daily_uploads_last_week[6].1, "3");
    let refreshed: DetailedStats = admin.read("/api/stats/detailed?refresh=true").await;
    assert_eq!(refreshed.daily_uploads_last_week[6].1, "4");
    let overview: OverviewStats = admin.read("/api/stats").await;
    assert_eq!(overview.total_gifs, 3, "the overview's snapshot stays until it is refreshed");
    assert_eq!(admin.read::<OverviewStats>("/api/stats?refresh=true").await.total_gifs, 4);

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
