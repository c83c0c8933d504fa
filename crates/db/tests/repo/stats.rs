//! Each aggregate against a hand-computed fixture, on both backends.

use chrono::{NaiveDate, NaiveDateTime};
use gifshelf_db::Database;
use gifshelf_domain::gif::{
    Description, Fingerprint, GifId, NewGif, Rendition, RenditionKind, Renditions, TagName, Title,
};
use gifshelf_domain::ports::{GifRepository, StatsRepository, TagRepository, UserRepository};
use gifshelf_domain::stats::{ActivityLevel, SizeBucket};
use gifshelf_domain::user::{Email, NewUser, PasswordHash, Role, UserId, Username};

use crate::on_both_backends;

const KB: i64 = 1024;
const MB: i64 = 1024 * 1024;

fn day(d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, d).unwrap_or_default()
}

fn at(d: u32, h: u32) -> NaiveDateTime {
    day(d).and_hms_opt(h, 0, 0).unwrap_or_default()
}

async fn user(db: &Database, name: &str) -> UserId {
    let new = NewUser {
        username: Username::parse(name).unwrap_or_else(|e| panic!("{e}")),
        email: Email::parse(&format!("{name}@example.com")).unwrap_or_else(|e| panic!("{e}")),
        password_hash: PasswordHash("h".into()),
        role: Role::User,
        created_at: at(1, 0),
    };
    UserRepository::create(db, new, false).await.unwrap_or_else(|e| panic!("{e}")).id
}

async fn gif(
    db: &Database,
    who: UserId,
    n: u32,
    when: NaiveDateTime,
    size: i64,
    content_type: &str,
    tags: &[&str],
) -> GifId {
    let r = |kind: RenditionKind, what: &str| Rendition {
        kind,
        key: format!("gifs/{n}/{what}"),
        content_type: content_type.into(),
        size,
        width: 10,
        height: 10,
        frames: 1,
        duration_ms: None,
        codec: None,
        preferred: false,
    };
    let new = NewGif {
        share_id: format!("s{n}"),
        title: Title::parse(&format!("gif {n}")).unwrap_or_else(|e| panic!("{e}")),
        description: Description::default(),
        tags: TagName::parse_list(tags).unwrap_or_else(|e| panic!("{e}")),
        uploader_id: who,
        uploaded_at: when,
        frame_count: 1,
        renditions: Renditions::new([
            r(RenditionKind::Original, "original"),
            r(RenditionKind::Thumbnail, "thumbnail"),
            r(RenditionKind::Still, "static"),
        ]),
        fingerprint: Fingerprint::default(),
        jobs: Vec::new(),
    };
    db.insert(new).await.unwrap_or_else(|e| panic!("{e}")).id
}

async fn empty_database_gives_zeros(db: &Database) {
    let o = db.overview(at(22, 0), at(16, 0), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((o.total_gifs, o.total_users, o.total_tags, o.total_views, o.total_content_bytes), (0, 0, 0, 0, 0));
    assert!(o.most_used_tags.is_empty() && o.top_users.is_empty() && o.most_viewed.is_empty());
    let d = db.detailed(day(16), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.daily_uploads.iter().map(|(_, n)| *n).sum::<i64>(), 0);
    assert_eq!(
        d.size_buckets.iter().map(|(b, n, avg)| (b.label(), *n, *avg)).collect::<Vec<_>>(),
        [
            ("0-100KB", 0, 0.0),
            ("100KB-500KB", 0, 0.0),
            ("500KB-1MB", 0, 0.0),
            ("1MB-5MB", 0, 0.0),
            ("5MB-10MB", 0, 0.0)
        ]
    );
    assert_eq!(d.activity.iter().map(|(_, n)| *n).collect::<Vec<_>>(), [0, 0, 0, 0]);
    assert!(d.content_types.is_empty());
}

async fn aggregates_match_a_hand_computed_fixture(db: &Database) {
    // Users in every activity category: carol 0, bob 2 (casual), alice 5 (active), dave 20 (power).
    let alice = user(db, "alice").await;
    let bob = user(db, "bob").await;
    let _carol = user(db, "carol").await;
    let dave = user(db, "dave").await;
    // alice: five GIFs on several days, sizes in four buckets, two content types.
    let a1 = gif(db, alice, 1, at(22, 9), 50 * KB, "image/gif", &["cats", "funny"]).await;
    gif(db, alice, 2, at(22, 1), 200 * KB, "image/gif", &["cats"]).await;
    gif(db, alice, 3, at(20, 12), 700 * KB, "image/png", &["dogs"]).await;
    gif(db, alice, 4, at(16, 0), 2 * MB, "image/gif", &[]).await;
    gif(db, alice, 5, at(15, 23), 6 * MB, "image/webp", &[]).await;
    // bob: two old GIFs.
    let b1 = gif(db, bob, 6, at(1, 10), 10 * KB, "image/gif", &["cats"]).await;
    gif(db, bob, 7, at(2, 10), 20 * KB, "image/png", &[]).await;
    // dave: twenty small old GIFs.
    for n in 0..20 {
        gif(db, dave, 100 + n, at(3, 10), KB, "image/gif", &[]).await;
    }
    TagRepository::create(db, &TagName::from_trusted("unused".into()), at(1, 0))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..3 {
        db.add_view(a1, NaiveDate::from_ymd_opt(2026, 11, 20).unwrap_or_default())
            .await
            .unwrap_or_else(|e| panic!("{e}"));
    }
    db.add_view(b1, NaiveDate::from_ymd_opt(2026, 11, 20).unwrap_or_default()).await.unwrap_or_else(|e| panic!("{e}"));

    let o = db.overview(at(22, 0), at(16, 0), 3).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((o.total_gifs, o.total_users, o.total_tags, o.empty_tags), (27, 4, 4, 1));
    assert_eq!((o.total_views, o.tag_links), (4, 5));
    assert_eq!(o.total_content_bytes, 50 * KB + 200 * KB + 700 * KB + 2 * MB + 6 * MB + 10 * KB + 20 * KB + 20 * KB);
    assert_eq!((o.uploaded_today, o.uploaded_this_week), (2, 4));
    assert_eq!(o.most_used_tags, [("cats".to_owned(), 3), ("dogs".to_owned(), 1), ("funny".to_owned(), 1)]);
    assert_eq!(o.top_users, [("dave".to_owned(), 20), ("alice".to_owned(), 5), ("bob".to_owned(), 2)]);
    assert_eq!(o.most_viewed.first(), Some(&("gif 1".to_owned(), 3)));
    assert_eq!(o.most_viewed.get(1), Some(&("gif 6".to_owned(), 1)));

    let d = db.detailed(day(16), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.daily_uploads.iter().map(|(_, n)| *n).collect::<Vec<_>>(), [1, 0, 0, 0, 1, 0, 2]);
    assert_eq!(d.daily_uploads.first().map(|(d, _)| *d), Some(day(16)));
    let buckets: Vec<(&str, i64)> = d.size_buckets.iter().map(|(b, n, _)| (b.label(), *n)).collect();
    assert_eq!(buckets, [("0-100KB", 23), ("100KB-500KB", 1), ("500KB-1MB", 1), ("1MB-5MB", 1), ("5MB-10MB", 1)]);
    let small_avg = d.size_buckets[0].2;
    assert!((small_avg - (50 + 10 + 20 + 20) as f64 * 1024.0 / 23.0).abs() < 0.01, "{small_avg}");
    assert_eq!(
        d.activity,
        [
            (ActivityLevel::Inactive, 1),
            (ActivityLevel::Casual, 1),
            (ActivityLevel::Active, 1),
            (ActivityLevel::Power, 1)
        ]
    );
    let types: Vec<(&str, i64)> = d.content_types.iter().map(|(t, n, _)| (t.as_str(), *n)).collect();
    assert_eq!(types, [("image/gif", 24), ("image/png", 2), ("image/webp", 1)]);
    assert_eq!(d.tag_distribution, [("cats".to_owned(), 3), ("dogs".to_owned(), 1), ("funny".to_owned(), 1)]);

    // Drill-downs agree with the aggregates.
    for (bucket, n) in SizeBucket::ALL.iter().zip([23, 1, 1, 1, 1]) {
        assert_eq!(db.gifs_in_bucket(*bucket, 1000).await.map(|r| r.len()).ok(), Some(n), "{}", bucket.label());
    }
    let cats = db.gifs_with_tag(&TagName::from_trusted("cats".into()), 1000).await.unwrap_or_default();
    assert_eq!(
        cats.iter().map(|g| (g.title.as_str(), g.views)).collect::<Vec<_>>(),
        [("gif 1", 3), ("gif 6", 1), ("gif 2", 0)]
    );
    let pngs = db.gifs_of_type("image/png", 1000).await.unwrap_or_default();
    assert_eq!(
        pngs.iter().map(|g| (g.title.as_str(), g.size_bytes)).collect::<Vec<_>>(),
        [("gif 3", 700 * KB), ("gif 7", 20 * KB)]
    );
    for (level, who) in [
        (ActivityLevel::Inactive, "carol"),
        (ActivityLevel::Casual, "bob"),
        (ActivityLevel::Active, "alice"),
        (ActivityLevel::Power, "dave"),
    ] {
        let users = db.users_at_level(level, 1000).await.unwrap_or_default();
        assert_eq!(users.iter().map(|u| u.username.as_str()).collect::<Vec<_>>(), [who], "{}", level.label());
    }
    assert_eq!(db.users_at_level(ActivityLevel::Power, 1000).await.unwrap_or_default()[0].gif_count, 20);
}

on_both_backends!(empty_database_gives_zeros, aggregates_match_a_hand_computed_fixture);
