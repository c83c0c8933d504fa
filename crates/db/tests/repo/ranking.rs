//! Search without a sort ranks every match by where its words are (title, then a tag, the
//! description, the text in the GIF; ties newest first), however many match, and the ranking
//! follows every edit.

use gifshelf_db::Database;
use gifshelf_domain::gif::{CaptionText, Description, Gif, GifEdit, GifFilter, GifSort, PageRequest, TagName, Title};
use gifshelf_domain::ports::{GifRepository, TagRepository};

use crate::gifs::{new_gif, t0, user};
use crate::on_both_backends;

fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| panic!("{e}"))
}

/// One page of a search: its GIFs and the number of matches.
async fn search(db: &Database, words: &str, sort: GifSort, page: u32, size: u32) -> (Vec<Gif>, i64) {
    let filter = ok(GifFilter::search(words));
    let found = ok(db.list(&filter, sort, PageRequest { page, size }).await);
    (found.items, found.total)
}

/// Every match of a search, newest first.
async fn every_match(db: &Database, words: &str) -> Vec<Gif> {
    let mut all = Vec::new();
    for page in 0.. {
        let (gifs, total) = search(db, words, GifSort::Newest, page, 500).await;
        all.extend(gifs);
        if i64::try_from(all.len()).unwrap_or(i64::MAX) >= total {
            return all;
        }
    }
    all
}

/// The score the ranking gives: per word, 128 in the title, 64 in a tag, 32 in the description,
/// 16 in the text in the GIF.
fn score(gif: &Gif, words: &[&str]) -> i64 {
    let caption = gif.caption_text.as_ref().map(|c| c.as_str().split_whitespace().collect::<Vec<_>>().join(" "));
    let has = |text: &str, word: &str| text.to_lowercase().contains(word);
    words
        .iter()
        .map(|word| {
            let mut s = 0;
            if has(gif.title.as_str(), word) {
                s += 128;
            }
            if gif.tags.iter().any(|t| has(t.name.as_str(), word)) {
                s += 64;
            }
            if has(gif.description.as_str(), word) {
                s += 32;
            }
            if caption.as_deref().is_some_and(|c| has(c, word)) {
                s += 16;
            }
            s
        })
        .sum()
}

fn ids(gifs: &[Gif]) -> Vec<i64> {
    gifs.iter().map(|g| g.id.0).collect()
}

/// Pages `pages` (and the last) of a ranked search, against an oracle that scores every match.
async fn pages_match_the_oracle(db: &Database, words: &str, pages: &[u32]) -> Vec<Gif> {
    let terms: Vec<&str> = words.split(' ').collect();
    let mut expected = every_match(db, words).await;
    // Stable: ties stay newest first.
    expected.sort_by_key(|g| -score(g, &terms));
    let total = i64::try_from(expected.len()).unwrap_or_default();
    let last = u32::try_from((expected.len() - 1) / 24).unwrap_or_default();
    for &page in pages.iter().chain([last / 2, last].iter()) {
        let (found, found_total) = search(db, words, GifSort::Relevance, page, 24).await;
        assert_eq!(found_total, total, "{words}");
        let from = page as usize * 24;
        let want = &expected[from..expected.len().min(from + 24)];
        assert_eq!(ids(&found), ids(want), "{words}, page {page}");
    }
    expected
}

/// 16,000 seeded GIFs: "pizza" is in over 2,000 of them, in every mix of fields; "gif" is in
/// every description, and in the text of one GIF in four: two scores of thousands of GIFs each,
/// ordered by walking the index of the newest.
async fn many_matches_are_ranked_all_the_way_down(db: &Database) {
    ok(gifshelf_db::testing::seed(db, 20, 16_000, 40));
    for words in ["pizza", "pizza sun"] {
        let terms: Vec<&str> = words.split(' ').collect();
        let expected = pages_match_the_oracle(db, words, &[0, 1]).await;
        if words == "pizza" {
            assert!(expected.len() > 2_000, "{} matches", expected.len());
        }
        let (top, _) = search(db, words, GifSort::Relevance, 0, 1).await;
        assert!(score(&top[0], &terms) > 128 * terms.len() as i64, "{words}: every word in its title, and more");
        assert_ne!(ids(&top), ids(&every_match(db, words).await[..1]), "{words}: not merely the newest");
    }
    // 4,000 GIFs with "gif" in their text come first (pages 0 to 166), then 12,000 without.
    let expected = pages_match_the_oracle(db, "gif", &[0, 1, 166, 167, 400]).await;
    assert_eq!(expected.len(), 16_000);
    assert_eq!(score(&expected[3_999], &["gif"]), 48);
    assert_eq!(score(&expected[4_000], &["gif"]), 32);
}

fn edit(title: &str, description: &str, tags: &[&str], caption: Option<&str>) -> GifEdit {
    GifEdit {
        title: ok(Title::parse(title)),
        description: ok(Description::parse(description)),
        tags: ok(TagName::parse_list(tags)),
        rating: None,
        caption_text: caption.map(|c| ok(CaptionText::parse(c))),
        at: t0(),
    }
}

async fn ranked_titles(db: &Database, word: &str) -> Vec<String> {
    let (found, _) = search(db, word, GifSort::Relevance, 0, 50).await;
    found.into_iter().map(|g| g.title.as_str().to_owned()).collect()
}

/// Each field's words are found where they are now, after edits, a tag renamed or deleted, and a
/// GIF deleted.
async fn the_ranking_follows_every_edit(db: &Database) {
    let alice = user(db, "alice").await;
    let a = ok(db.insert(new_gif(alice, 1, "Plain", "", &[])).await);
    let b = ok(db.insert(new_gif(alice, 2, "Second", "", &["mango"])).await);
    let c = ok(db.insert(new_gif(alice, 3, "Mango", "", &[])).await);
    assert_eq!(ranked_titles(db, "mango").await, ["Mango", "Second"]);

    ok(db.update(a.id, edit("Plain", "a mango here", &[], None)).await);
    assert_eq!(ranked_titles(db, "mango").await, ["Mango", "Second", "Plain"]);

    let mango = ok(db.find_by_name(&TagName::from_trusted("mango".into())).await);
    ok(db.rename(mango.id, &TagName::from_trusted("kiwi".into())).await);
    assert_eq!(ranked_titles(db, "mango").await, ["Mango", "Plain"]);
    assert_eq!(ranked_titles(db, "kiwi").await, ["Second"]);

    ok(db.update(c.id, edit("Kiwi split", "", &[], None)).await);
    ok(db.update(a.id, edit("Plain", "a mango here", &[], Some("KIWI\nFRUIT"))).await);
    assert_eq!(ranked_titles(db, "mango").await, ["Plain"]);
    assert_eq!(ranked_titles(db, "kiwi").await, ["Kiwi split", "Second", "Plain"]);
    assert_eq!(ranked_titles(db, "\"kiwi fruit\"").await, ["Plain"], "the text's lines read as one");

    // A tag added to the text-only GIF lifts it over the tag-only one (tag and text beat tag).
    ok(db.update(a.id, edit("Plain", "a mango here", &["kiwi"], Some("KIWI\nFRUIT"))).await);
    assert_eq!(ranked_titles(db, "kiwi").await, ["Kiwi split", "Plain", "Second"]);
    ok(db.update(b.id, edit("Second", "", &[], None)).await);
    assert_eq!(ranked_titles(db, "kiwi").await, ["Kiwi split", "Plain"]);

    let kiwi = ok(db.find_by_name(&TagName::from_trusted("kiwi".into())).await);
    ok(db.delete_tag(kiwi.id).await);
    ok(db.delete(c.id).await);
    assert_eq!(ranked_titles(db, "kiwi").await, ["Plain"], "the text alone is left");
    let (_, total) = search(db, "kiwi", GifSort::Relevance, 0, 10).await;
    assert_eq!(total, 1);
}

/// Hidden GIFs are ranked for their owner only, and a rating ceiling leaves the rest out.
async fn hidden_and_rated_out_gifs_are_left_out_of_the_ranking(db: &Database) {
    use gifshelf_domain::gif::{Rating, Shelf};
    use gifshelf_domain::ports::ReportRepository;
    use gifshelf_domain::report::VisibilityChange;

    let (alice, bob) = (user(db, "alice").await, user(db, "bob").await);
    let hidden = ok(db.insert(new_gif(alice, 1, "Mango one", "", &[])).await);
    let mut rated = new_gif(alice, 2, "Mango two", "", &[]);
    rated.rating = Rating::R;
    ok(db.insert(rated).await);
    ok(db.insert(new_gif(bob, 3, "Mango three", "", &[])).await);
    ok(db.insert(new_gif(bob, 4, "Four", "mango", &[])).await);
    let hide = VisibilityChange::Hide { reason: "spam".into() };
    ok(db.set_visibility(hidden.id, hide, bob, t0()).await);

    let filter = ok(GifFilter::search("mango"));
    let first = PageRequest { page: 0, size: 10 };
    let titles = |page: gifshelf_domain::gif::Page<Gif>| {
        (page.total, page.items.into_iter().map(|g| g.title.as_str().to_owned()).collect::<Vec<_>>())
    };
    let all = titles(ok(db.list(&filter, GifSort::Relevance, first).await));
    assert_eq!(all, (3, vec!["Mango three".into(), "Mango two".into(), "Four".into()]));
    let own = titles(ok(db.list_with_own(alice, &filter, GifSort::Relevance, first).await));
    assert_eq!(own.0, 4);
    assert_eq!(own.1[..3], ["Mango three", "Mango two", "Mango one"]);
    let rated = titles(ok(db.list_rated(&filter, GifSort::RelevanceThenViews, first, Rating::G, Shelf::Gifs).await));
    assert_eq!(rated, (2, vec!["Mango three".into(), "Four".into()]));
}

on_both_backends!(
    many_matches_are_ranked_all_the_way_down,
    the_ranking_follows_every_edit,
    hidden_and_rated_out_gifs_are_left_out_of_the_ranking
);
