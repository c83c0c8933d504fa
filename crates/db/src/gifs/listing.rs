//! Lists and random picks: which ids a filter keeps, in which order, a page at a time.

use std::ops::RangeInclusive;

use diesel::prelude::*;
use diesel::sql_types::Bool;
use gifshelf_domain::gif::{GifFilter, GifSort, Rating, Shelf};
use gifshelf_domain::RepoError;

use crate::connection::{AnyConnection, MultiBackend};
use crate::error::repo_error;
use crate::schema::{favourites, gif_count, gif_tags, gifs, tags, users};
use crate::search;

/// Which GIFs a list shows: never hidden ones but, optionally, the viewer's own (their library);
/// and, for the chat APIs, only those rated at most `max`, and for GIPHY's stickers only the
/// transparent ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shown {
    own: Option<i64>,
    max: Rating,
    stickers: bool,
}

impl Shown {
    /// Every GIF no moderator hid.
    pub(crate) const VISIBLE: Self = Self { own: None, max: Rating::R, stickers: false };

    pub(crate) fn with_own(owner: i64) -> Self {
        Self { own: Some(owner), ..Self::VISIBLE }
    }

    /// The visible GIFs rated at most `max`.
    pub(crate) fn rated(max: Rating) -> Self {
        Self { max, ..Self::VISIBLE }
    }

    /// The visible GIFs rated at most `max` on `shelf` (stickers: the transparent ones).
    pub(crate) fn on_shelf(max: Rating, shelf: Shelf) -> Self {
        Self { max, stickers: shelf == Shelf::Stickers, ..Self::VISIBLE }
    }

    /// Whether the rating or the stickers' transparency leaves some out (then totals are
    /// counted, not derived, and a random pick draws among the matches).
    pub(crate) fn narrowed(self) -> bool {
        self.max < Rating::R || self.stickers
    }

    fn ratings(self) -> Vec<&'static str> {
        self.max.up_to().into_iter().map(Rating::as_str).collect()
    }

    /// The SQL condition that keeps the GIFs shown (an id is a number and ratings are constants:
    /// nothing to escape).
    pub(crate) fn sql(self) -> String {
        self.condition("")
    }

    /// [`Self::sql`] on the columns of `alias` (a query that joins other tables).
    pub(crate) fn sql_of(self, alias: &str) -> String {
        self.condition(&format!("{alias}."))
    }

    fn condition(self, prefix: &str) -> String {
        let mut sql = match self.own {
            None => format!("{prefix}hidden_at IS NULL"),
            Some(owner) => format!("({prefix}hidden_at IS NULL OR {prefix}uploader_id = {owner})"),
        };
        if self.max < Rating::R {
            let list: Vec<String> = self.ratings().iter().map(|r| format!("'{r}'")).collect();
            sql.push_str(&format!(" AND {prefix}rating IN ({})", list.join(", ")));
        }
        if self.stickers {
            // As the partial index `gifs_transparent_idx` says it (null, not known, is left out).
            sql.push_str(&format!(" AND {prefix}transparent"));
        }
        sql
    }

    /// The SQL condition that a GIF id in another table (`column`) is one shown. Unless ratings
    /// or transparency narrow it, asked as "not left out" through the partial index of the few
    /// hidden GIFs: "among the shown" would list the whole library for every page.
    pub(crate) fn keeps(self, column: &str) -> String {
        if self.narrowed() {
            return format!("{column} IN (SELECT id FROM gifs WHERE {})", self.sql());
        }
        match self.own {
            None => format!("{column} NOT IN (SELECT id FROM gifs WHERE hidden_at IS NOT NULL)"),
            Some(owner) => {
                format!("{column} NOT IN (SELECT id FROM gifs WHERE hidden_at IS NOT NULL AND uploader_id <> {owner})")
            }
        }
    }

    fn keep(self, query: gifs::BoxedQuery<'static, MultiBackend>) -> gifs::BoxedQuery<'static, MultiBackend> {
        let query = match self.own {
            None => query.filter(gifs::hidden_at.is_null()),
            Some(owner) => query.filter(gifs::hidden_at.is_null().or(gifs::uploader_id.eq(owner))),
        };
        let query = if self.max < Rating::R { query.filter(gifs::rating.eq_any(self.ratings())) } else { query };
        if self.stickers {
            query.filter(diesel::dsl::sql::<Bool>("gifs.transparent"))
        } else {
            query
        }
    }

    /// The SQL condition of the GIFs this leaves out: while that is only hidden GIFs (no rating
    /// or stickers narrow the list), one the partial index of hidden GIFs answers.
    pub(crate) fn left_out_sql(self) -> String {
        if self.narrowed() {
            return format!("({}) IS NOT TRUE", self.sql());
        }
        match self.own {
            None => "hidden_at IS NOT NULL".to_owned(),
            Some(owner) => format!("hidden_at IS NOT NULL AND uploader_id <> {owner}"),
        }
    }

    /// How many hidden GIFs this leaves out, through the partial index of hidden GIFs (there are
    /// few). Ratings aside: a rated list counts its total.
    pub(crate) fn left_out(self, conn: &mut AnyConnection) -> Result<i64, RepoError> {
        let hidden = gifs::table.filter(gifs::hidden_at.is_not_null()).into_boxed();
        let hidden = match self.own {
            None => hidden,
            Some(owner) => hidden.filter(gifs::uploader_id.ne(owner)),
        };
        hidden.count().get_result(conn).map_err(repo_error)
    }
}

/// The GIFs a filter keeps, as one query both the page and the count start from: a new filter is
/// one arm here. Search is the exception: its SQL differs per backend (`search.rs`).
pub(super) fn filtered(filter: &GifFilter, shown: Shown) -> gifs::BoxedQuery<'static, MultiBackend> {
    kept_by(filter, shown.keep(gifs::table.into_boxed()))
}

/// `query` narrowed to the GIFs `filter` keeps.
fn kept_by(
    filter: &GifFilter,
    query: gifs::BoxedQuery<'static, MultiBackend>,
) -> gifs::BoxedQuery<'static, MultiBackend> {
    match filter {
        GifFilter::All | GifFilter::Search(_) => query,
        GifFilter::Tag(name) => query.filter(
            gifs::id.eq_any(
                gif_tags::table
                    .inner_join(tags::table)
                    .filter(tags::name.eq(name.as_str().to_owned()))
                    .select(gif_tags::gif_id),
            ),
        ),
        GifFilter::User(username) => query.filter(
            gifs::uploader_id
                .eq_any(users::table.filter(users::username_key.eq(username.to_lowercase())).select(users::id)),
        ),
        GifFilter::Favourites(user) => query.filter(
            gifs::id.eq_any(favourites::table.filter(favourites::user_id.eq(user.0)).select(favourites::gif_id)),
        ),
    }
}

/// The `ORDER BY` of a sort, ties broken by id; each one has its index (migration 000005).
pub(super) fn sorted(
    query: gifs::BoxedQuery<'static, MultiBackend>,
    sort: GifSort,
) -> gifs::BoxedQuery<'static, MultiBackend> {
    match sort {
        // Without words to rank by, relevance is its tie-break alone.
        GifSort::Newest | GifSort::Relevance => query.order((gifs::uploaded_at.desc(), gifs::id.desc())),
        GifSort::Oldest => query.order((gifs::uploaded_at.asc(), gifs::id.asc())),
        GifSort::Views | GifSort::RelevanceThenViews => query.order((gifs::view_count.desc(), gifs::id.desc())),
        GifSort::Favourites => query.order((gifs::favourite_count.desc(), gifs::id.desc())),
        GifSort::Title => {
            query.order(diesel::dsl::sql::<diesel::sql_types::Text>("lower(title)").asc()).then_order_by(gifs::id.asc())
        }
    }
}

/// A person's favourites by when they were favourited (`favourites_user_newest_idx`).
pub(super) fn favourites_by_time(
    conn: &mut AnyConnection,
    user: i64,
    newest_first: bool,
    limit: i64,
    offset: i64,
    shown: Shown,
) -> Result<(Vec<i64>, i64), RepoError> {
    let kept = || diesel::dsl::sql::<Bool>(&shown.keeps("favourites.gif_id"));
    let query =
        favourites::table.filter(favourites::user_id.eq(user)).filter(kept()).select(favourites::gif_id).into_boxed();
    let query = if newest_first {
        query.order((favourites::created_at.desc(), favourites::gif_id.desc()))
    } else {
        query.order((favourites::created_at.asc(), favourites::gif_id.asc()))
    };
    let ids = query.limit(limit).offset(offset).load(conn).map_err(repo_error)?;
    let total = favourites::table
        .filter(favourites::user_id.eq(user))
        .filter(kept())
        .count()
        .get_result(conn)
        .map_err(repo_error)?;
    Ok((ids, total))
}

pub(super) fn page_of_ids(
    conn: &mut AnyConnection,
    filter: &GifFilter,
    sort: GifSort,
    limit: i64,
    offset: i64,
    shown: Shown,
) -> Result<(Vec<i64>, i64), RepoError> {
    match (filter, sort) {
        (GifFilter::Search(words), _) => return search::page(conn, words, sort, limit, offset, shown),
        (GifFilter::Favourites(user), GifSort::Newest | GifSort::Oldest | GifSort::Relevance) => {
            return favourites_by_time(conn, user.0, sort != GifSort::Oldest, limit, offset, shown)
        }
        _ => {}
    }
    // While no GIF is left out (nearly always: hidden GIFs are few), the sort's index alone pages,
    // with no row read to test whether it is hidden.
    let left_out = if shown.narrowed() { None } else { Some(shown.left_out(conn)?) };
    let query = if left_out == Some(0) { kept_by(filter, gifs::table.into_boxed()) } else { filtered(filter, shown) };
    let ids = sorted(query, sort).select(gifs::id).limit(limit).offset(offset).load(conn).map_err(repo_error)?;
    let total = match (filter, left_out) {
        (GifFilter::All, Some(left_out)) => library_size(conn)? - left_out,
        (_, Some(0)) => kept_by(filter, gifs::table.into_boxed()).count().get_result(conn).map_err(repo_error)?,
        _ => filtered(filter, shown).count().get_result(conn).map_err(repo_error)?,
    };
    Ok((ids, total))
}

/// How many GIFs the library holds, from the counter the writes keep (never a count of the table).
pub(crate) fn library_size(conn: &mut AnyConnection) -> Result<i64, RepoError> {
    gif_count::table.select(gif_count::gifs).first(conn).optional().map_err(repo_error).map(Option::unwrap_or_default)
}

/// Tries of the unfiltered pick before it falls back to counting (ids have few gaps: one try
/// nearly always does).
pub(super) const RANDOM_ID_TRIES: usize = 16;

/// Ids drawn at once for a search's pick: a word in one GIF of 20 is found among them nineteen
/// times in twenty; rarer words are counted, which their index makes cheap.
pub(super) const RANDOM_SEARCH_DRAWS: usize = 64;

/// A uniformly random GIF id the filter keeps, never a hidden one. Unfiltered: a random id between the smallest and
/// the largest, drawn again while it names no GIF (each existing id is equally likely; two index
/// lookups per try). A search: ids drawn the same way, all tested in one query, the first drawn
/// that matches taken (rejection sampling: still uniform), so a common word is never counted.
/// Otherwise, and when no draw matched: count the matches, draw k, read the k-th in newest order.
pub(super) fn random_id(conn: &mut AnyConnection, filter: &GifFilter, shown: Shown) -> Result<i64, RepoError> {
    use rand::Rng;
    if matches!(filter, GifFilter::All | GifFilter::Search(_)) && !shown.narrowed() {
        let (low, high): (Option<i64>, Option<i64>) = gifs::table
            .select((diesel::dsl::min(gifs::id), diesel::dsl::max(gifs::id)))
            .first(conn)
            .map_err(repo_error)?;
        let (Some(low), Some(high)) = (low, high) else { return Err(RepoError::NotFound) };
        let drawn = match filter {
            GifFilter::Search(words) => drawn_search_match(conn, words, low..=high)?,
            _ => drawn_existing(conn, low..=high)?,
        };
        if let Some(id) = drawn {
            return Ok(id);
        }
    }
    let (_, total) = page_of_ids(conn, filter, GifSort::Newest, 0, 0, shown)?;
    if total == 0 {
        return Err(RepoError::NotFound);
    }
    let k = rand::thread_rng().gen_range(0..total);
    let (ids, _) = page_of_ids(conn, filter, GifSort::Newest, 1, k, shown)?;
    // The k-th can vanish between the two reads (a delete): that pick is simply not found.
    ids.first().copied().ok_or(RepoError::NotFound)
}

/// An id drawn from `range` that names a GIF no moderator hid, within `RANDOM_ID_TRIES` draws.
pub(super) fn drawn_existing(conn: &mut AnyConnection, range: RangeInclusive<i64>) -> Result<Option<i64>, RepoError> {
    use rand::Rng;
    for _ in 0..RANDOM_ID_TRIES {
        let id = rand::thread_rng().gen_range(range.clone());
        let found: Option<i64> = gifs::table
            .find(id)
            .filter(gifs::hidden_at.is_null())
            .select(gifs::id)
            .first(conn)
            .optional()
            .map_err(repo_error)?;
        if found.is_some() {
            return Ok(found);
        }
    }
    Ok(None)
}

/// The first of `RANDOM_SEARCH_DRAWS` ids drawn from `range` that names a GIF with every word.
pub(super) fn drawn_search_match(
    conn: &mut AnyConnection,
    words: &[String],
    range: RangeInclusive<i64>,
) -> Result<Option<i64>, RepoError> {
    use rand::Rng;
    let drawn: Vec<i64> = (0..RANDOM_SEARCH_DRAWS).map(|_| rand::thread_rng().gen_range(range.clone())).collect();
    let mut query =
        gifs::table.filter(gifs::id.eq_any(&drawn)).filter(gifs::hidden_at.is_null()).select(gifs::id).into_boxed();
    for word in words {
        query = query.filter(gifs::search_text.like(search::like_pattern(word)).escape('\\'));
    }
    let matching: Vec<i64> = query.load(conn).map_err(repo_error)?;
    Ok(drawn.into_iter().find(|id| matching.contains(id)))
}
