use chrono::{Duration, NaiveDate, NaiveDateTime};
use gifshelf_db::Database;
use gifshelf_domain::gif::{
    Description, Fingerprint, GifEdit, GifFilter, GifId, GifSort, NewGif, PageRequest, Rendition, RenditionKind,
    Renditions, TagName, Title,
};
use gifshelf_domain::ports::{BlobKeyIndex, GifRepository, TagRepository, UserRepository};
use gifshelf_domain::user::{Email, NewUser, PasswordHash, Role, UserId, Username};
use gifshelf_domain::{RepoError, Unique};

use crate::on_both_backends;

pub(crate) fn t0() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, 1).and_then(|d| d.and_hms_opt(8, 0, 0)).unwrap_or_default()
}

pub(crate) async fn user(db: &Database, name: &str) -> UserId {
    let new = NewUser {
        username: Username::parse(name).unwrap_or_else(|e| panic!("{e}")),
        email: Email::parse(&format!("{name}@example.com")).unwrap_or_else(|e| panic!("{e}")),
        password_hash: PasswordHash("h".into()),
        role: Role::User,
        created_at: t0(),
    };
    UserRepository::create(db, new, false).await.unwrap_or_else(|e| panic!("{e}")).id
}

fn rendition(kind: RenditionKind, prefix: &str, what: &str, size: i64) -> Rendition {
    Rendition {
        kind,
        key: format!("gifs/{prefix}/{what}"),
        content_type: "image/gif".into(),
        size,
        width: 320,
        height: 240,
        frames: 3,
        duration_ms: Some(300),
        codec: None,
        preferred: kind == RenditionKind::Original,
    }
}

pub(crate) fn new_gif(uploader: UserId, n: i64, title: &str, description: &str, tags: &[&str]) -> NewGif {
    let prefix = format!("p{n}");
    NewGif {
        share_id: format!("share-{n}"),
        title: Title::parse(title).unwrap_or_else(|e| panic!("{e}")),
        description: Description::parse(description).unwrap_or_else(|e| panic!("{e}")),
        tags: TagName::parse_list(tags).unwrap_or_else(|e| panic!("{e}")),
        uploader_id: uploader,
        uploaded_at: t0() + Duration::minutes(n),
        frame_count: 5,
        rating: gifshelf_domain::gif::Rating::G,
        renditions: Renditions::new([
            rendition(RenditionKind::Original, &prefix, "original.gif", 1000 + n),
            rendition(RenditionKind::Thumbnail, &prefix, "thumbnail.gif", 500),
            rendition(RenditionKind::Still, &prefix, "static.png", 100),
        ]),
        fingerprint: Fingerprint::default(),
        jobs: Vec::new(),
        caption_text: None,
        transparent: false,
    }
}

fn page(page: u32, size: u32) -> PageRequest {
    PageRequest { page, size }
}

/// How many GIFs a search for `words` finds (`None` when the search fails).
async fn search_total(db: &Database, words: &str) -> Option<i64> {
    let filter = GifFilter::search(words).unwrap_or_else(|e| panic!("{e}"));
    db.list(&filter, GifSort::Newest, page(0, 5)).await.map(|p| p.total).ok()
}

fn titles(gifs: &[gifshelf_domain::gif::Gif]) -> Vec<&str> {
    gifs.iter().map(|g| g.title.as_str()).collect()
}

async fn insert_links_tags_and_reads_back_everything(db: &Database) {
    let alice = user(db, "alice").await;
    let gif = db
        .insert(new_gif(alice, 1, "Dancing cat", "A cat that dances", &["cats", "funny"]))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(gif.title.as_str(), "Dancing cat");
    assert_eq!(gif.uploader.as_str(), "alice");
    assert_eq!(gif.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["cats", "funny"]);
    let original = gif.rendition(RenditionKind::Original).cloned().unwrap_or_else(|| panic!("no original"));
    assert_eq!((original.size, original.width, gif.frame_count, gif.view_count), (1001, 320, 5, 0));
    assert_eq!(gif.rendition(RenditionKind::Still).map(|r| r.key.as_str()), Some("gifs/p1/static.png"));
    assert_eq!(gif.renditions.len(), 3);
    assert_eq!(db.find(gif.id).await.ok().as_ref(), Some(&gif));
    assert_eq!(db.find_by_share_id("share-1").await.map(|g| g.id).ok(), Some(gif.id));
    assert!(matches!(db.find(GifId(999)).await, Err(RepoError::NotFound)));
    assert!(matches!(db.find_by_share_id("nope").await, Err(RepoError::NotFound)));
}

async fn lists_are_newest_first_and_paging_is_stable(db: &Database) {
    let alice = user(db, "alice").await;
    let bob = user(db, "bob").await;
    for n in 1..=7 {
        let who = if n % 2 == 0 { bob } else { alice };
        db.insert(new_gif(who, n, &format!("gif {n}"), "", &[])).await.unwrap_or_else(|e| panic!("{e}"));
    }
    let first = db.list(&GifFilter::All, GifSort::Newest, page(0, 3)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(titles(&first.items), ["gif 7", "gif 6", "gif 5"]);
    assert_eq!((first.total, first.total_pages(), first.has_next(), first.has_previous()), (7, 3, true, false));
    let last = db.list(&GifFilter::All, GifSort::Newest, page(2, 3)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(titles(&last.items), ["gif 1"]);
    assert!(!last.has_next() && last.has_previous());
    let beyond = db.list(&GifFilter::All, GifSort::Newest, page(5, 3)).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(beyond.items.is_empty());

    let bobs =
        db.list(&GifFilter::User("BOB".into()), GifSort::Newest, page(0, 10)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(titles(&bobs.items), ["gif 6", "gif 4", "gif 2"]);
    assert_eq!(bobs.total, 3);
    let nobody =
        db.list(&GifFilter::User("carol".into()), GifSort::Newest, page(0, 10)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(nobody.total, 0);
}

async fn same_instant_uploads_order_by_id(db: &Database) {
    let alice = user(db, "alice").await;
    for n in 1..=3 {
        let mut g = new_gif(alice, n, &format!("same {n}"), "", &[]);
        g.uploaded_at = t0();
        db.insert(g).await.unwrap_or_else(|e| panic!("{e}"));
    }
    let all = db.list(&GifFilter::All, GifSort::Newest, page(0, 10)).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(titles(&all.items), ["same 3", "same 2", "same 1"]);
}

async fn tag_filter_and_counts(db: &Database) {
    let alice = user(db, "alice").await;
    db.insert(new_gif(alice, 1, "one", "", &["cats"])).await.unwrap_or_else(|e| panic!("{e}"));
    db.insert(new_gif(alice, 2, "two", "", &["cats", "dogs"])).await.unwrap_or_else(|e| panic!("{e}"));
    db.insert(new_gif(alice, 3, "three", "", &["dogs"])).await.unwrap_or_else(|e| panic!("{e}"));
    TagRepository::create(db, &TagName::parse("empty").unwrap_or_else(|e| panic!("{e}")), t0())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let cats = db
        .list(&GifFilter::Tag(TagName::from_trusted("cats".into())), GifSort::Newest, page(0, 10))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(titles(&cats.items), ["two", "one"]);
    let tags = db.list_with_counts().await.unwrap_or_else(|e| panic!("{e}"));
    let summary: Vec<(&str, i64)> = tags.iter().map(|t| (t.name.as_str(), t.count)).collect();
    assert_eq!(summary, [("cats", 2), ("dogs", 2), ("empty", 0)]);
    let dogs = db.find_by_name(&TagName::from_trusted("dogs".into())).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(dogs.count, 2);
    let dup = TagRepository::create(db, &TagName::from_trusted("cats".into()), t0()).await;
    assert!(matches!(dup, Err(RepoError::Conflict(Unique::TagName))), "{dup:?}");
}

async fn search_needs_every_word_in_title_description_or_tags(db: &Database) {
    let alice = user(db, "alice").await;
    db.insert(new_gif(alice, 1, "Happy Cat", "jumps over the fence", &["animals"]))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    db.insert(new_gif(alice, 2, "Sad dog", "rainy day", &["animals", "weather"]))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    db.insert(new_gif(alice, 3, "100% done", "progress_bar", &["work"])).await.unwrap_or_else(|e| panic!("{e}"));
    let search = |term: &str| {
        let filter = GifFilter::search(term).unwrap_or_else(|e| panic!("{e}"));
        async move {
            db.list(&filter, GifSort::Newest, page(0, 10))
                .await
                .map(|p| (p.total, p.items.iter().map(|g| g.title.as_str().to_owned()).collect::<Vec<_>>()))
        }
    };
    let cases: &[(&str, &[&str])] = &[
        ("happy", &["Happy Cat"]),
        ("HAPPY fence", &["Happy Cat"]),
        ("animals", &["Sad dog", "Happy Cat"]),
        ("animal rain", &["Sad dog"]),
        ("weather cat", &[]),
        ("ap", &["Happy Cat"]),
        ("a", &["100% done", "Sad dog", "Happy Cat"]),
        ("%", &["100% done"]),
        ("o_e", &[]),
        ("progress_bar", &["100% done"]),
        ("nothing-here", &[]),
    ];
    for (term, expected) in cases {
        let (total, got) = search(term).await.unwrap_or_else(|e| panic!("{term}: {e}"));
        assert_eq!(got, *expected, "search {term:?}");
        assert_eq!(total, expected.len() as i64, "count for {term:?}");
    }
}

async fn update_replaces_fields_and_tags_and_search_follows(db: &Database) {
    let alice = user(db, "alice").await;
    let gif = db
        .insert(new_gif(alice, 1, "Old title", "old words", &["cats", "old"]))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let edit = GifEdit {
        title: Title::parse("New title").unwrap_or_else(|e| panic!("{e}")),
        description: Description::parse("fresh words").unwrap_or_else(|e| panic!("{e}")),
        tags: TagName::parse_list(&["brand-new", "cats"]).unwrap_or_else(|e| panic!("{e}")),
        rating: Some(gifshelf_domain::gif::Rating::R),
        caption_text: None,
        at: t0() + Duration::hours(2),
    };
    let updated = db.update(gif.id, edit.clone()).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(updated.title.as_str(), "New title");
    assert_eq!(updated.rating, gifshelf_domain::gif::Rating::R);
    assert_eq!(gif.rating, gifshelf_domain::gif::Rating::G);
    assert_eq!(updated.tags.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["brand-new", "cats"]);
    assert_eq!(search_total(db, "old").await, Some(0));
    assert_eq!(search_total(db, "fresh brand").await, Some(1));
    let counts: Vec<(String, i64)> = db
        .list_with_counts()
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|t| (t.name.as_str().to_owned(), t.count))
        .collect();
    assert!(counts.contains(&("old".to_owned(), 0)), "{counts:?}");
    assert!(matches!(db.update(GifId(999), edit).await, Err(RepoError::NotFound)));
}

async fn delete_removes_row_links_and_search_entry(db: &Database) {
    let alice = user(db, "alice").await;
    let gif = db.insert(new_gif(alice, 1, "Doomed", "", &["cats"])).await.unwrap_or_else(|e| panic!("{e}"));
    let removed = db.delete(gif.id).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(removed.id, gif.id);
    assert!(matches!(db.find(gif.id).await, Err(RepoError::NotFound)));
    assert_eq!(search_total(db, "doomed").await, Some(0));
    assert_eq!(db.list_with_counts().await.unwrap_or_default().first().map(|t| t.count), Some(0));
    assert!(db.all_blob_keys().await.unwrap_or_default().is_empty());
    assert!(matches!(db.delete(gif.id).await, Err(RepoError::NotFound)));
}

async fn views_and_blob_keys(db: &Database) {
    let alice = user(db, "alice").await;
    let gif = db.insert(new_gif(alice, 1, "Viewed", "", &[])).await.unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..3 {
        db.add_view(gif.id, gif.uploaded_at.date()).await.unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(db.find(gif.id).await.map(|g| g.view_count).ok(), Some(3));
    assert!(matches!(db.add_view(GifId(999), chrono::NaiveDate::MIN).await, Err(RepoError::NotFound)));
    let mut keys = db.all_blob_keys().await.unwrap_or_default();
    keys.sort();
    assert_eq!(keys, ["gifs/p1/original.gif", "gifs/p1/static.png", "gifs/p1/thumbnail.gif"]);
}

async fn concurrent_uploads_with_the_same_new_tag(db: &Database) {
    let alice = user(db, "alice").await;
    let mut tasks = Vec::new();
    for n in 1..=6 {
        let db = db.clone();
        tasks.push(tokio::spawn(
            async move { db.insert(new_gif(alice, n, &format!("g{n}"), "", &["brand", "new"])).await },
        ));
    }
    for task in tasks {
        task.await.unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|e| panic!("{e}"));
    }
    let tags = db.list_with_counts().await.unwrap_or_default();
    assert_eq!(tags.iter().map(|t| (t.name.as_str(), t.count)).collect::<Vec<_>>(), [("brand", 6), ("new", 6)]);
}

/// The gallery's total comes from a counter the writes keep, never from counting the table: it
/// must follow inserts (also concurrent ones), deletes and a bulk seed exactly.
async fn the_gallery_total_follows_every_write(db: &Database) {
    let total = |db: Database| async move {
        db.list(&GifFilter::All, GifSort::Newest, page(0, 1)).await.map(|p| p.total).unwrap_or_else(|e| panic!("{e}"))
    };
    assert_eq!(total(db.clone()).await, 0);
    let alice = user(db, "alice").await;
    let mut tasks = Vec::new();
    for n in 1..=8 {
        let db = db.clone();
        tasks.push(tokio::spawn(async move { db.insert(new_gif(alice, n, &format!("g{n}"), "", &[])).await }));
    }
    let mut ids = Vec::new();
    for task in tasks {
        ids.push(task.await.unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|e| panic!("{e}")).id);
    }
    assert_eq!(total(db.clone()).await, 8);
    for id in &ids[..3] {
        db.delete(*id).await.unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(matches!(db.delete(ids[0]).await, Err(RepoError::NotFound)));
    assert_eq!(total(db.clone()).await, 5);
    // A duplicate refused by its unique constraint leaves the counter alone (the insert rolled back).
    let mut twin = new_gif(alice, 20, "twin", "", &[]);
    twin.fingerprint.sha256 = "ab".repeat(32);
    db.insert(twin.clone()).await.unwrap_or_else(|e| panic!("{e}"));
    twin.share_id = "share-twin".into();
    assert!(db.insert(twin).await.is_err());
    assert_eq!(total(db.clone()).await, 6);
}

async fn rename_delete_and_delete_empty_keep_search_in_step(db: &Database) {
    let alice = user(db, "alice").await;
    db.insert(new_gif(alice, 1, "one", "", &["kitty", "misc"])).await.unwrap_or_else(|e| panic!("{e}"));
    db.insert(new_gif(alice, 2, "two", "", &["kitty"])).await.unwrap_or_else(|e| panic!("{e}"));
    let empty_a = TagRepository::create(db, &TagName::from_trusted("zzz-empty".into()), t0())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let empty_b = TagRepository::create(db, &TagName::from_trusted("aaa-empty".into()), t0())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let kitty = db.find_by_name(&TagName::from_trusted("kitty".into())).await.unwrap_or_else(|e| panic!("{e}"));

    let renamed = db.rename(kitty.id, &TagName::from_trusted("cat".into())).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((renamed.name.as_str(), renamed.count), ("cat", 2));
    assert_eq!(search_total(db, "kitty").await, Some(0));
    assert_eq!(search_total(db, "cat").await, Some(2));
    let clash = db.rename(kitty.id, &TagName::from_trusted("misc".into())).await;
    assert!(matches!(clash, Err(RepoError::Conflict(Unique::TagName))), "{clash:?}");
    assert!(matches!(
        db.rename(gifshelf_domain::gif::TagId(999), &TagName::from_trusted("x".into())).await,
        Err(RepoError::NotFound)
    ));

    db.delete_tag(kitty.id).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        db.list(&GifFilter::All, GifSort::Newest, page(0, 5)).await.map(|p| p.total).ok(),
        Some(2),
        "the GIFs stay"
    );
    assert_eq!(search_total(db, "cat").await, Some(0));
    assert!(matches!(db.find_tag(kitty.id).await, Err(RepoError::NotFound)));
    assert!(matches!(db.delete_tag(kitty.id).await, Err(RepoError::NotFound)));

    let mut deleted = db.delete_empty().await.unwrap_or_else(|e| panic!("{e}"));
    deleted.sort();
    let mut expected = vec![empty_a.id, empty_b.id];
    expected.sort();
    assert_eq!(deleted, expected);
    let left: Vec<(String, i64)> = db
        .list_with_counts()
        .await
        .unwrap_or_default()
        .into_iter()
        .map(|t| (t.name.as_str().to_owned(), t.count))
        .collect();
    assert_eq!(left, [("misc".to_owned(), 1)]);
    assert!(db.delete_empty().await.unwrap_or_default().is_empty());
}

/// A random pick among a search's matches takes only matches, every one of them in time, and reads
/// the search's words literally: a common word (drawn ids tested at once) and a rare one with
/// LIKE's wildcards in it (no draw hits it: counted instead) both work.
async fn random_search_picks_only_matches_common_or_rare(db: &Database) {
    let alice = user(db, "alice").await;
    let mut cats = std::collections::HashSet::new();
    for n in 1..=120 {
        let title = if n % 3 == 0 { format!("cat {n}") } else { format!("dog {n}") };
        let gif = db.insert(new_gif(alice, n, &title, "", &[])).await.unwrap_or_else(|e| panic!("{e}"));
        if n % 3 == 0 {
            cats.insert(gif.id);
        }
    }
    let rare = db.insert(new_gif(alice, 121, "sale 100% off", "", &[])).await.unwrap_or_else(|e| panic!("{e}")).id;
    let pick = |words: &[&str]| {
        let filter = GifFilter::Search(words.iter().map(|w| (*w).to_owned()).collect());
        async move {
            db.random(&filter, gifshelf_domain::gif::Rating::R, gifshelf_domain::gif::Shelf::Gifs).await.map(|g| g.id)
        }
    };
    let mut seen = std::collections::HashSet::new();
    for _ in 0..400 {
        let id = pick(&["cat"]).await.unwrap_or_else(|e| panic!("{e}"));
        assert!(cats.contains(&id), "{id:?} is not a cat");
        seen.insert(id);
    }
    assert!(seen.len() >= 30, "400 picks among 40 cats found only {}", seen.len());
    for _ in 0..20 {
        assert_eq!(pick(&["0%"]).await.ok(), Some(rare), "the % is a literal percent sign");
        assert_eq!(pick(&["sale", "off"]).await.ok(), Some(rare));
    }
    assert!(matches!(pick(&["0_"]).await, Err(RepoError::NotFound)), "the _ is a literal underscore");
    assert!(matches!(pick(&["cat", "dog"]).await, Err(RepoError::NotFound)));
}

on_both_backends!(
    insert_links_tags_and_reads_back_everything,
    lists_are_newest_first_and_paging_is_stable,
    same_instant_uploads_order_by_id,
    tag_filter_and_counts,
    search_needs_every_word_in_title_description_or_tags,
    update_replaces_fields_and_tags_and_search_follows,
    delete_removes_row_links_and_search_entry,
    views_and_blob_keys,
    concurrent_uploads_with_the_same_new_tag,
    the_gallery_total_follows_every_write,
    rename_delete_and_delete_empty_keep_search_in_step,
    random_search_picks_only_matches_common_or_rare
);
