//! Each aggregate against a hand-computed fixture, on both backends.

use chrono::{NaiveDate, NaiveDateTime};
use gifshelf_db::Database;
use gifshelf_domain::gif::{
    Description, Fingerprint, GifEdit, GifId, NewGif, Rendition, RenditionKind, Renditions, TagName, Title,
};
use gifshelf_domain::ports::{ChatFeedRepository, GifRepository, StatsRepository, TagRepository, UserRepository};
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
        rating: gifshelf_domain::gif::Rating::G,
        renditions: Renditions::new([
            r(RenditionKind::Original, "original"),
            r(RenditionKind::Thumbnail, "thumbnail"),
            r(RenditionKind::Still, "static"),
        ]),
        fingerprint: Fingerprint::default(),
        jobs: Vec::new(),
        caption_text: None,
        transparent: false,
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

/// The fixture's drill-downs list what its aggregates count: per bucket, the cats tag, the PNGs and
/// one user at each activity level.
async fn fixture_drill_downs_agree(db: &Database) {
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
    fixture_drill_downs_agree(db).await;
}

/// Each drill-down lists as many rows as the detailed figures count for its bucket, tag, level
/// and content type.
async fn drill_downs_agree(db: &Database) {
    let d = db.detailed(day(16), 10).await.unwrap_or_else(|e| panic!("{e}"));
    for (bucket, n, _) in &d.size_buckets {
        assert_eq!(db.gifs_in_bucket(*bucket, 1000).await.map(|r| r.len() as i64).ok(), Some(*n), "{}", bucket.label());
    }
    for (tag, n) in &d.tag_distribution {
        let rows = db.gifs_with_tag(&TagName::from_trusted(tag.clone()), 1000).await.unwrap_or_default();
        assert_eq!(rows.len() as i64, *n, "tag {tag}");
    }
    for (level, n) in &d.activity {
        assert_eq!(db.users_at_level(*level, 1000).await.map(|r| r.len() as i64).ok(), Some(*n), "{}", level.label());
    }
    for (content_type, n, _) in &d.content_types {
        assert_eq!(db.gifs_of_type(content_type, 1000).await.map(|r| r.len() as i64).ok(), Some(*n), "{content_type}");
    }
}

/// Counts per size bucket, in order.
async fn buckets(db: &Database) -> Vec<i64> {
    let d = db.detailed(day(16), 10).await.unwrap_or_else(|e| panic!("{e}"));
    d.size_buckets.iter().map(|(_, n, _)| *n).collect()
}

fn pairs(list: &[(&str, i64)]) -> Vec<(String, i64)> {
    list.iter().map(|(label, n)| ((*label).to_owned(), *n)).collect()
}

fn run(db: &Database, sql: &str) {
    gifshelf_db::testing::execute(db, sql).unwrap_or_else(|e| panic!("{e}"));
}

async fn figures_are_exact_after_every_kind_of_change(db: &Database) {
    let alice = user(db, "alice").await;
    let bob = user(db, "bob").await;
    let g1 = gif(db, alice, 1, at(22, 9), 50 * KB, "image/gif", &["cats"]).await;
    let g2 = gif(db, alice, 2, at(21, 9), 200 * KB, "image/png", &["cats", "dogs"]).await;
    let g3 = gif(db, bob, 3, at(22, 10), 2 * MB, "image/gif", &[]).await;

    // Inserts: in every figure at once.
    let o = db.overview(at(22, 0), at(16, 0), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((o.total_gifs, o.total_users, o.tag_links, o.uploaded_today, o.uploaded_this_week), (3, 2, 3, 2, 3));
    assert_eq!(o.total_content_bytes, 250 * KB + 2 * MB);
    assert_eq!(o.most_used_tags, pairs(&[("cats", 2), ("dogs", 1)]));
    assert_eq!(o.top_users, pairs(&[("alice", 2), ("bob", 1)]));
    assert_eq!(buckets(db).await, [1, 1, 0, 1, 0]);
    drill_downs_agree(db).await;

    // An edit that changes the tags.
    let edit = GifEdit {
        title: Title::parse("gif 2").unwrap_or_else(|e| panic!("{e}")),
        description: Description::default(),
        tags: TagName::parse_list(&["dogs", "birds"]).unwrap_or_else(|e| panic!("{e}")),
        rating: None,
        caption_text: None,
        at: at(22, 11),
    };
    db.update(g2, edit).await.unwrap_or_else(|e| panic!("{e}"));
    let o = db.overview(at(22, 0), at(16, 0), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.most_used_tags, pairs(&[("birds", 1), ("cats", 1), ("dogs", 1)]));
    assert_eq!((o.tag_links, o.total_tags, o.empty_tags), (3, 3, 0));
    drill_downs_agree(db).await;

    // A change of size, type, day and uploader (no repository call makes one today; the counters
    // follow the row whatever changes it).
    run(
        db,
        &format!(
            "UPDATE gifs SET content_size = {}, content_type = 'image/webp', uploader_id = {}, \
             uploaded_at = '2026-11-10 08:00:00' WHERE id = {}",
            6 * MB,
            bob.0,
            g1.0
        ),
    );
    let o = db.overview(at(22, 0), at(16, 0), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((o.uploaded_today, o.uploaded_this_week), (1, 2));
    assert_eq!(o.total_content_bytes, 200 * KB + 2 * MB + 6 * MB);
    assert_eq!(o.top_users, pairs(&[("bob", 2), ("alice", 1)]));
    assert_eq!(buckets(db).await, [0, 1, 0, 1, 1]);
    let d = db.detailed(day(16), 10).await.unwrap_or_else(|e| panic!("{e}"));
    let types: Vec<(&str, i64, f64)> = d.content_types.iter().map(|(t, n, avg)| (t.as_str(), *n, *avg)).collect();
    assert_eq!(
        types,
        [("image/gif", 1, (2 * MB) as f64), ("image/png", 1, (200 * KB) as f64), ("image/webp", 1, (6 * MB) as f64)]
    );
    drill_downs_agree(db).await;

    // Views and shares.
    db.add_view(g2, day(22)).await.unwrap_or_else(|e| panic!("{e}"));
    db.add_share(g2).await.unwrap_or_else(|e| panic!("{e}"));
    db.add_share(g3).await.unwrap_or_else(|e| panic!("{e}"));
    let o = db.overview(at(22, 0), at(16, 0), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((o.total_views, o.total_shares), (1, 2));

    deletes_take_everything_out(db, alice, g3).await;
}

/// Deletes, after `figures_are_exact_after_every_kind_of_change`'s changes: of a GIF, of a tag
/// (its links go with it), of an account (its GIFs go with it).
async fn deletes_take_everything_out(db: &Database, alice: UserId, g3: GifId) {
    db.delete(g3).await.unwrap_or_else(|e| panic!("{e}"));
    let birds = db.find_by_name(&TagName::from_trusted("birds".into())).await.unwrap_or_else(|e| panic!("{e}"));
    db.delete_tag(birds.id).await.unwrap_or_else(|e| panic!("{e}"));
    let o = db.overview(at(22, 0), at(16, 0), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((o.total_gifs, o.total_shares, o.tag_links, o.total_tags, o.empty_tags), (2, 1, 2, 2, 0));
    assert_eq!(o.total_content_bytes, 200 * KB + 6 * MB);
    assert_eq!(o.top_users, pairs(&[("alice", 1), ("bob", 1)]));
    drill_downs_agree(db).await;
    run(db, &format!("DELETE FROM users WHERE id = {}", alice.0));
    let o = db.overview(at(22, 0), at(16, 0), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((o.total_gifs, o.total_users, o.total_views, o.tag_links, o.uploaded_this_week), (1, 1, 0, 1, 0));
    assert_eq!(o.empty_tags, 1, "dogs lost its only GIF");
    assert_eq!(o.top_users, pairs(&[("bob", 1)]));
    assert_eq!(buckets(db).await, [0, 0, 0, 0, 1]);
    let d = db.detailed(day(16), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.content_types.iter().map(|(t, n, _)| (t.as_str(), *n)).collect::<Vec<_>>(), [("image/webp", 1)]);
    assert_eq!(d.tag_distribution, pairs(&[("cats", 1)]));
    drill_downs_agree(db).await;
}

/// Many rows in one statement (as an import or a bulk insert writes them) count like one at a time.
async fn bulk_statements_count_every_row(db: &Database) {
    gifshelf_db::testing::seed(db, 7, 500, 20).unwrap_or_else(|e| panic!("{e}"));
    let o = db.overview(at(22, 0), at(16, 0), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((o.total_gifs, o.total_users), (500, 7));
    assert_eq!(o.top_users.iter().map(|(_, n)| n).sum::<i64>(), 500, "7 uploaders, all in the top 10");
    let d = db.detailed(day(16), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.size_buckets.iter().map(|(_, n, _)| n).sum::<i64>(), 500);
    assert_eq!(d.content_types.iter().map(|(_, n, _)| n).sum::<i64>(), 500);
    drill_downs_agree(db).await;
    run(db, "DELETE FROM gifs WHERE id % 2 = 0");
    let o = db.overview(at(22, 0), at(16, 0), 10).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(o.total_gifs, 250);
    assert_eq!(o.top_users.iter().map(|(_, n)| n).sum::<i64>(), 250);
    drill_downs_agree(db).await;
}

on_both_backends!(
    empty_database_gives_zeros,
    aggregates_match_a_hand_computed_fixture,
    figures_are_exact_after_every_kind_of_change,
    bulk_statements_count_every_row
);
