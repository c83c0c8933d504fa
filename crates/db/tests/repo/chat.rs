//! What the chat APIs rank by: views per day ("featured"), shares, searched terms and suggestions.

use chrono::Duration;
use gifshelf_db::Database;
use gifshelf_domain::gif::{CaptionText, NewGif, PageRequest, Rating, Shelf};
use gifshelf_domain::ports::{ChatFeedRepository, GifRepository, ReportRepository, TermRepository};
use gifshelf_domain::report::VisibilityChange;
use gifshelf_domain::search::{Audience, Suggestion, SuggestionKind};
use gifshelf_domain::RepoError;

use crate::gifs::{new_gif, t0, user};
use crate::on_both_backends;

fn ok<T>(result: Result<T, RepoError>) -> T {
    result.unwrap_or_else(|e| panic!("{e}"))
}

async fn featured_ranks_recent_views_then_all_time_views_then_newest(db: &Database) {
    let alice = user(db, "alice").await;
    let mut ids = Vec::new();
    for n in 1..=4 {
        ids.push(ok(db.insert(new_gif(alice, n, &format!("Gif {n}"), "", &[])).await).id);
    }
    let today = t0().date();
    // GIF 1: many views long ago; GIF 2: two views this week; GIF 3: one view today.
    for _ in 0..5 {
        ok(db.add_view(ids[0], today - Duration::days(60)).await);
    }
    ok(db.add_view(ids[1], today - Duration::days(3)).await);
    ok(db.add_view(ids[1], today).await);
    ok(db.add_view(ids[2], today).await);
    let since = today - Duration::days(28);
    let page =
        ok(db.featured(since, PageRequest { page: 0, size: 3 }, gifshelf_domain::gif::Rating::R, Shelf::Gifs).await);
    let order: Vec<i64> = page.items.iter().map(|g| g.id.0).collect();
    assert_eq!(order, [ids[1].0, ids[2].0, ids[0].0], "recent, then all-time");
    assert_eq!(page.total, 4);
    let rest =
        ok(db.featured(since, PageRequest { page: 1, size: 3 }, gifshelf_domain::gif::Rating::R, Shelf::Gifs).await);
    assert_eq!(rest.items.iter().map(|g| g.id.0).collect::<Vec<_>>(), [ids[3].0]);
    assert_eq!(ok(db.find(ids[1]).await).view_count, 2, "the all-time count still counts every view");

    ok(db.add_share(ids[3]).await);
    ok(db.add_share(ids[3]).await);
    assert_eq!(ok(db.find(ids[3]).await).share_count, 2);
    assert!(matches!(db.add_share(gifshelf_domain::gif::GifId(999)).await, Err(RepoError::NotFound)));
    // A deleted GIF takes its days with it.
    ok(db.delete(ids[1]).await);
    let after =
        ok(db.featured(since, PageRequest { page: 0, size: 3 }, gifshelf_domain::gif::Rating::R, Shelf::Gifs).await);
    assert_eq!(after.items.first().map(|g| g.id), Some(ids[2]));
}

async fn trending_terms_count_recent_searches_and_suggestions_come_from_tags_titles_and_searches(db: &Database) {
    let alice = user(db, "alice").await;
    let today = t0().date();
    for (term, days_ago) in [("cats", 0), ("cats", 1), ("dogs", 2), ("dogs", 2), ("dogs", 30), ("party", 0)] {
        ok(db.record_search(term, today - Duration::days(days_ago)).await);
    }
    let week = today - Duration::days(7);
    assert_eq!(ok(db.trending_terms(week, 10).await), ["cats", "dogs", "party"]);
    assert_eq!(ok(db.trending_terms(week, 1).await), ["cats"]);
    assert!(ok(db.trending_terms(today + Duration::days(1), 10).await).is_empty());

    ok(db.insert(new_gif(alice, 1, "Happy dance", "", &["happy", "hat"])).await);
    ok(db.insert(new_gif(alice, 2, "Hat trick", "", &["happy"])).await);
    ok(db.insert(new_gif(alice, 3, "100% done", "", &[])).await);
    let member = Audience::Member(alice);
    // Each kind's best first: tags on most GIFs, titles of the most viewed (then newest) GIFs.
    assert_eq!(
        texts(ok(db.suggestions("ha", member, 10).await)),
        ["happy (tag)", "hat (tag)", "hat trick (title)", "happy dance (title)"]
    );
    assert_eq!(texts(ok(db.suggestions("ha", member, 1).await)), ["happy (tag)", "hat trick (title)"]);
    // LIKE's wildcards are taken literally.
    assert_eq!(texts(ok(db.suggestions("100%", member, 10).await)), ["100% done (title)"]);
    assert!(ok(db.suggestions("%", member, 10).await).is_empty());
    assert!(ok(db.suggestions("_", member, 10).await).is_empty());
    // Searched terms, searched most first.
    assert_eq!(texts(ok(db.suggestions("ca", member, 10).await)), ["cats (search)"]);
}

fn texts(found: Vec<Suggestion>) -> Vec<String> {
    found.into_iter().map(|s| format!("{} ({})", s.text, s.kind.as_str())).collect()
}

fn captioned(uploader: gifshelf_domain::user::UserId, n: i64, title: &str, caption: &str) -> NewGif {
    NewGif { caption_text: CaptionText::parse(caption).ok().flatten(), ..new_gif(uploader, n, title, "", &[]) }
}

async fn caption_words_are_suggested_from_gifs_the_audience_may_see(db: &Database) {
    let alice = user(db, "alice").await;
    let bob = user(db, "bob").await;
    ok(db.insert(captioned(alice, 1, "One", "THIS IS FINE")).await);
    ok(db.insert(captioned(alice, 2, "Two", "this is\nfinally friday")).await);
    let hidden = ok(db.insert(captioned(bob, 3, "Three", "Fiasco")).await).id;
    let rated = ok(db.insert(NewGif { rating: Rating::R, ..captioned(bob, 4, "Four", "fiery") }).await).id;
    let words = |found: Vec<Suggestion>| -> Vec<String> {
        found.into_iter().filter(|s| s.kind == SuggestionKind::Caption).map(|s| s.text).collect()
    };
    // In most GIFs first, lower case; the words typed before the last are kept in front.
    assert_eq!(
        words(ok(db.suggestions("fi", Audience::Member(alice), 10).await)),
        ["fiasco", "fiery", "finally", "fine"]
    );
    assert_eq!(words(ok(db.suggestions("this is fi", Audience::Member(alice), 10).await)).len(), 4);
    assert_eq!(words(ok(db.suggestions("th", Audience::Member(alice), 10).await)), ["this"]);
    // A hidden GIF lends its words to its owner only; a chat app's rating leaves out the rest.
    ok(db.set_visibility(hidden, VisibilityChange::Hide { reason: "Spam".into() }, alice, t0()).await);
    assert_eq!(words(ok(db.suggestions("fi", Audience::Member(alice), 10).await)), ["fiery", "finally", "fine"]);
    assert_eq!(
        words(ok(db.suggestions("fi", Audience::Member(bob), 10).await)),
        ["fiasco", "fiery", "finally", "fine"]
    );
    assert_eq!(words(ok(db.suggestions("fi", Audience::Chat(Rating::Pg13), 10).await)), ["finally", "fine"]);
    let _ = rated;
}

async fn top_tags_come_with_their_most_viewed_gif(db: &Database) {
    let alice = user(db, "alice").await;
    let a = ok(db.insert(new_gif(alice, 1, "A", "", &["cats", "dogs"])).await).id;
    let b = ok(db.insert(new_gif(alice, 2, "B", "", &["cats", "birds"])).await).id;
    let c = ok(db.insert(new_gif(alice, 3, "C", "", &["cats", "dogs"])).await).id;
    ok(gifshelf_domain::ports::TagRepository::create(
        db,
        &gifshelf_domain::gif::TagName::parse("unused").unwrap_or_else(|e| panic!("{e}")),
        t0(),
    )
    .await);
    ok(db.add_view(a, t0().date()).await);
    ok(db.add_view(a, t0().date()).await);
    ok(db.add_view(b, t0().date()).await);
    let top = ok(db.top_tags_with_gif(10, gifshelf_domain::gif::Rating::R).await);
    let got: Vec<(&str, i64, i64)> = top.iter().map(|(t, g)| (t.name.as_str(), t.count, g.id.0)).collect();
    // cats (3): A has most views; dogs (2): A; birds (1): B. Ties between tags go by name; an
    // unused tag is no category.
    assert_eq!(got, [("cats", 3, a.0), ("dogs", 2, a.0), ("birds", 1, b.0)]);
    let first = ok(db.top_tags_with_gif(1, gifshelf_domain::gif::Rating::R).await);
    assert_eq!(first.iter().map(|(t, _)| t.name.as_str()).collect::<Vec<_>>(), ["cats"]);
    // Without views, the newest GIF of the tag.
    ok(db.delete(a).await);
    let after = ok(db.top_tags_with_gif(10, gifshelf_domain::gif::Rating::R).await);
    let got: Vec<(&str, i64)> = after.iter().map(|(t, g)| (t.name.as_str(), g.id.0)).collect();
    assert_eq!(got, [("cats", b.0), ("birds", b.0), ("dogs", c.0)]);
}

/// GIPHY's stickers: the transparent GIFs, in each list the chat APIs read, within the rating.
async fn stickers_are_the_transparent_gifs_of_search_featured_and_random(db: &Database) {
    use gifshelf_domain::gif::{GifFilter, GifSort};
    let alice = user(db, "alice").await;
    let star = ok(db.insert(NewGif { transparent: true, ..new_gif(alice, 1, "Party star", "", &["party"]) }).await);
    let rated = NewGif { transparent: true, rating: Rating::R, ..new_gif(alice, 2, "Party ghost", "", &["party"]) };
    let ghost = ok(db.insert(rated).await);
    let cat = ok(db.insert(new_gif(alice, 3, "Party cat", "", &["party"])).await);
    let page = PageRequest { page: 0, size: 10 };
    let ids = |gifs: &[gifshelf_domain::gif::Gif]| gifs.iter().map(|g| g.id).collect::<Vec<_>>();
    let party = GifFilter::search("party").unwrap_or_else(|e| panic!("{e}"));
    for (max, expected) in [(Rating::R, vec![ghost.id, star.id]), (Rating::G, vec![star.id])] {
        let found = ok(db.list_rated(&party, GifSort::RelevanceThenViews, page, max, Shelf::Stickers).await);
        let mut got = ids(&found.items);
        got.sort_by_key(|id| std::cmp::Reverse(id.0));
        assert_eq!((got, found.total), (expected.clone(), expected.len() as i64), "search up to {max:?}");
        let all = ok(db.list_rated(&GifFilter::All, GifSort::Views, page, max, Shelf::Stickers).await);
        assert_eq!(all.total, expected.len() as i64);
        let featured = ok(db.featured(t0().date(), page, max, Shelf::Stickers).await);
        assert_eq!((ids(&featured.items), featured.total), (expected.clone(), expected.len() as i64));
        for _ in 0..8 {
            let picked = ok(db.random(&party, max, Shelf::Stickers).await).id;
            assert!(expected.contains(&picked), "{picked:?} is no sticker up to {max:?}");
        }
    }
    // The GIFs' lists keep every GIF.
    let every = ok(db.list_rated(&party, GifSort::RelevanceThenViews, page, Rating::R, Shelf::Gifs).await);
    assert!(every.total == 3 && ids(&every.items).contains(&cat.id));
    let nothing = GifFilter::search("nothing").unwrap_or_else(|e| panic!("{e}"));
    assert!(matches!(db.random(&nothing, Rating::R, Shelf::Stickers).await, Err(RepoError::NotFound)));
}

on_both_backends!(
    stickers_are_the_transparent_gifs_of_search_featured_and_random,
    top_tags_come_with_their_most_viewed_gif,
    featured_ranks_recent_views_then_all_time_views_then_newest,
    trending_terms_count_recent_searches_and_suggestions_come_from_tags_titles_and_searches,
    caption_words_are_suggested_from_gifs_the_audience_may_see
);
