//! Ranked searches past the 2,000 matches that are ranked in full: the GIFs with every word in the
//! title first, then the rest, each tier newest first, with paging that runs across the tiers.

use gifshelf_db::Database;
use gifshelf_domain::gif::{GifFilter, GifSort, PageRequest};
use gifshelf_domain::ports::GifRepository;

use crate::on_both_backends;

/// The seeded library's size: every description is "a … gif", so "gif" matches all of them.
const GIFS: i64 = 2_200;

async fn ids(db: &Database, page: u32) -> (Vec<i64>, i64) {
    let filter = GifFilter::search("gif").unwrap_or_else(|e| panic!("{e}"));
    let found = db.list(&filter, GifSort::Relevance, PageRequest { page, size: 12 }).await;
    let found = found.unwrap_or_else(|e| panic!("{e}"));
    (found.items.iter().map(|g| g.id.0).collect(), found.total)
}

async fn a_common_word_lists_title_matches_first_then_the_rest(db: &Database) {
    gifshelf_db::testing::seed(db, 10, GIFS as usize, 20).unwrap_or_else(|e| panic!("{e}"));
    // 22 GIFs get the word in their title too (the seeded GIFs are newer as their id grows).
    gifshelf_db::testing::execute(db, "UPDATE gifs SET title = title || ' GIF' WHERE id % 100 = 7")
        .unwrap_or_else(|e| panic!("{e}"));
    let titled: Vec<i64> = (1..=GIFS).rev().filter(|id| id % 100 == 7).collect();
    let rest: Vec<i64> = (1..=GIFS).rev().filter(|id| id % 100 != 7).collect();
    let ranked: Vec<i64> = titled.iter().chain(&rest).copied().collect();

    let (first, total) = ids(db, 0).await;
    assert_eq!((first.as_slice(), total), (&ranked[..12], GIFS), "the newest titled GIFs first");
    let (second, _) = ids(db, 1).await;
    assert_eq!(second, &ranked[12..24], "the last ten titled GIFs, then the newest others");
    for page in [2, 5, 183] {
        let start = 12 * page as usize;
        let (found, _) = ids(db, page).await;
        assert_eq!(found, &ranked[start..(start + 12).min(ranked.len())], "page {page}");
    }
    // With a sort, the sort alone.
    let filter = GifFilter::search("gif").unwrap_or_else(|e| panic!("{e}"));
    let oldest = db.list(&filter, GifSort::Oldest, PageRequest { page: 0, size: 3 }).await;
    let oldest: Vec<i64> = oldest.unwrap_or_else(|e| panic!("{e}")).items.iter().map(|g| g.id.0).collect();
    assert_eq!(oldest, [1, 2, 3]);
}

on_both_backends!(a_common_word_lists_title_matches_first_then_the_rest);
