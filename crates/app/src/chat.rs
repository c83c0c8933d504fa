//! What chat apps ask of a library through the Tenor-, GIPHY- and gifbox-compatible APIs: search,
//! featured, categories, suggestions, trending terms, GIFs by their public id, and shares. GIFs are
//! named by their share id there (the row id would tell how big the library is and walk it).

use std::sync::Arc;

use chrono::{Duration, NaiveDate};
use gifshelf_domain::gif::{Gif, GifFilter, Page, PageRequest, Rating, Tag, MAX_PAGE_SIZE};
use gifshelf_domain::ports::{ChatFeedRepository, Clock, GifRepository, TagRepository, TermRepository};
use gifshelf_domain::search::{by_kind, merge_suggestions, Audience};
use gifshelf_domain::RepoError;

use crate::gifs::gif_not_found;
use crate::AppError;

/// "Featured" ranks by the views of this many recent days.
pub const FEATURED_DAYS: i64 = 28;
/// Trending terms count the searches of this many recent days.
pub const TRENDING_DAYS: i64 = 7;
/// Related tags are counted over this many of the most viewed GIFs matching the term.
pub const RELATED_SAMPLE: u32 = 50;
/// The furthest a list may be paged (GIPHY's own limit is lower).
pub const MAX_OFFSET: u32 = 100_000;

/// A slice of a list: `limit` GIFs from `offset` (chat APIs page by offset, not by page number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub offset: u32,
    pub limit: u32,
}

impl Window {
    /// # Errors
    /// `Validation` for a limit outside 1..=100 or an offset past [`MAX_OFFSET`].
    pub fn new(offset: u32, limit: u32) -> Result<Self, AppError> {
        if limit == 0 || limit > MAX_PAGE_SIZE {
            return Err(AppError::Validation(gifshelf_domain::ValidationError::new(
                "limit",
                format!("limit must be between 1 and {MAX_PAGE_SIZE}"),
            )));
        }
        if offset > MAX_OFFSET {
            return Err(AppError::Validation(gifshelf_domain::ValidationError::new(
                "offset",
                format!("offset must be at most {MAX_OFFSET}"),
            )));
        }
        Ok(Self { offset, limit })
    }
}

/// GIFs of a window and how many the whole list holds.
#[derive(Debug, Clone)]
pub struct Found {
    pub gifs: Vec<Gif>,
    pub total: i64,
}

impl Found {
    /// The offset of the next window, when there is more.
    pub fn next_offset(&self, window: Window) -> Option<u32> {
        let next = u64::from(window.offset) + self.gifs.len() as u64;
        (!self.gifs.is_empty() && i64::try_from(next).is_ok_and(|n| n < self.total))
            .then(|| u32::try_from(next).ok())
            .flatten()
    }
}

pub use gifshelf_domain::gif::Shelf;

/// Which list a window is taken from.
#[derive(Debug, Clone)]
enum Source {
    Filtered(GifFilter, Rating, Shelf),
    Featured(NaiveDate, Rating, Shelf),
}

/// A tag shown as a category, with the GIF that illustrates it.
#[derive(Debug, Clone)]
pub struct Category {
    pub tag: Tag,
    pub gif: Gif,
}

pub struct ChatService {
    gifs: Arc<dyn GifRepository>,
    feed: Arc<dyn ChatFeedRepository>,
    tags: Arc<dyn TagRepository>,
    terms: Arc<dyn TermRepository>,
    clock: Arc<dyn Clock>,
    default_rating: Rating,
}

impl ChatService {
    pub fn new(
        gifs: Arc<dyn GifRepository>,
        feed: Arc<dyn ChatFeedRepository>,
        tags: Arc<dyn TagRepository>,
        terms: Arc<dyn TermRepository>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self { gifs, feed, tags, terms, clock, default_rating: Rating::G }
    }

    /// The maximum rating of the callers that cannot name one (Stoat's gifbox): the server's
    /// default rating; `g` unless set.
    #[must_use]
    pub fn with_default_rating(mut self, rating: Rating) -> Self {
        self.default_rating = rating;
        self
    }

    /// The highest rating answered to callers that cannot name one.
    pub fn default_rating(&self) -> Rating {
        self.default_rating
    }

    fn today(&self) -> NaiveDate {
        self.clock.now().date()
    }

    async fn page(&self, source: &Source, request: PageRequest) -> Result<Page<Gif>, RepoError> {
        match source {
            Source::Filtered(filter, max, shelf) => {
                self.gifs.list_rated(filter, filter.chat_sort(), request, *max, *shelf).await
            }
            Source::Featured(since, max, shelf) => self.feed.featured(*since, request, *max, *shelf).await,
        }
    }

    /// The window read as one page when it is aligned to its limit, else as the two pages it
    /// straddles.
    async fn window(&self, source: &Source, window: Window) -> Result<Found, AppError> {
        let Window { offset, limit } = window;
        let first = PageRequest { page: offset / limit, size: limit };
        let page = self.page(source, first).await?;
        let skip = usize::try_from(offset % limit).unwrap_or(0);
        let mut gifs = page.items;
        if skip > 0 {
            if u64::from(first.page + 1) * u64::from(limit) < u64::try_from(page.total).unwrap_or(0) {
                let second = self.page(source, PageRequest { page: first.page + 1, size: limit }).await?;
                gifs.extend(second.items);
            }
            gifs = gifs.into_iter().skip(skip).take(usize::try_from(limit).unwrap_or(0)).collect();
        }
        Ok(Found { gifs, total: page.total })
    }

    /// GIFs rated at most `max` matching every word of `query` in their title, description, tags
    /// or text, best match first, then most viewed. A first page with results counts the search for trending terms. An empty query
    /// finds nothing (a chat app asks `featured` for that).
    ///
    /// # Errors
    /// `Validation` for a query longer than 200 bytes; storage errors.
    pub async fn search(&self, query: &str, window: Window, max: Rating) -> Result<Found, AppError> {
        self.search_shelf(Shelf::Gifs, query, window, max).await
    }

    /// As [`Self::search`], on a shelf: GIPHY's `stickers/search` looks among the transparent
    /// GIFs only (counted as a search all the same).
    ///
    /// # Errors
    /// `Validation` for a query longer than 200 bytes; storage errors.
    pub async fn search_shelf(
        &self,
        shelf: Shelf,
        query: &str,
        window: Window,
        max: Rating,
    ) -> Result<Found, AppError> {
        let filter = GifFilter::search(query)?;
        let GifFilter::Search(words) = &filter else {
            return Ok(Found { gifs: Vec::new(), total: 0 });
        };
        let found = self.window(&Source::Filtered(filter.clone(), max, shelf), window).await?;
        if window.offset == 0 && !found.gifs.is_empty() {
            let term = words.join(" ");
            if let Err(err) = self.terms.record_search(&term, self.today()).await {
                tracing::warn!(error = %err, "could not count a search");
            }
        }
        Ok(found)
    }

    /// The best match for a phrase (GIPHY's `translate`): the first GIF its search finds, rated at
    /// most `max`; `None` when nothing matches. Counted as a search.
    ///
    /// # Errors
    /// `Validation` for a phrase longer than 200 bytes; storage errors.
    pub async fn translate(&self, phrase: &str, max: Rating) -> Result<Option<Gif>, AppError> {
        let found = self.search(phrase, Window { offset: 0, limit: 1 }, max).await?;
        Ok(found.gifs.into_iter().next())
    }

    /// Every GIF rated at most `max`, the most viewed of the last [`FEATURED_DAYS`] days first (then of all time).
    ///
    /// # Errors
    /// Storage errors.
    pub async fn featured(&self, window: Window, max: Rating) -> Result<Found, AppError> {
        self.featured_shelf(Shelf::Gifs, window, max).await
    }

    /// As [`Self::featured`], on a shelf (GIPHY's `stickers/trending`: the transparent GIFs).
    ///
    /// # Errors
    /// Storage errors.
    pub async fn featured_shelf(&self, shelf: Shelf, window: Window, max: Rating) -> Result<Found, AppError> {
        let since = self.today() - Duration::days(FEATURED_DAYS);
        self.window(&Source::Featured(since, max, shelf), window).await
    }

    /// The GIFs with these share ids rated at most `max`, in this order; unknown ids (and GIFs
    /// rated higher) are left out.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn by_share_ids(&self, ids: &[String], max: Rating) -> Result<Vec<Gif>, AppError> {
        let mut gifs = Vec::with_capacity(ids.len());
        for id in ids {
            match self.gifs.find_by_share_id(id).await {
                Ok(gif) if gif.rating <= max && !gifs.iter().any(|g: &Gif| g.id == gif.id) => gifs.push(gif),
                Ok(_) | Err(RepoError::NotFound) => {}
                Err(other) => return Err(AppError::from_repo(other)),
            }
        }
        Ok(gifs)
    }

    /// # Errors
    /// `NotFound` ("GIF not found").
    pub async fn by_share_id(&self, id: &str) -> Result<Gif, AppError> {
        self.gifs.find_by_share_id(id).await.map_err(gif_not_found)
    }

    /// The GIF with this share id, when it is rated at most `max`.
    ///
    /// # Errors
    /// `NotFound` ("GIF not found") for an unknown id or a GIF rated higher.
    pub async fn rated_by_share_id(&self, id: &str, max: Rating) -> Result<Gif, AppError> {
        let gif = self.by_share_id(id).await?;
        if gif.rating <= max {
            Ok(gif)
        } else {
            Err(gif_not_found(RepoError::NotFound))
        }
    }

    /// A GIF at random, rated at most `max`, among those matching `words` when given.
    ///
    /// # Errors
    /// `NotFound` when nothing matches; `Validation` for an over-long query.
    pub async fn random(&self, words: &str, max: Rating) -> Result<Gif, AppError> {
        self.random_shelf(Shelf::Gifs, words, max).await
    }

    /// As [`Self::random`], on a shelf (GIPHY's `stickers/random`: a transparent GIF).
    ///
    /// # Errors
    /// `NotFound` when nothing matches; `Validation` for an over-long query.
    pub async fn random_shelf(&self, shelf: Shelf, words: &str, max: Rating) -> Result<Gif, AppError> {
        let filter = GifFilter::search(words)?;
        self.gifs.random(&filter, max, shelf).await.map_err(|err| match err {
            RepoError::NotFound => AppError::NotFound("No GIF to pick from".into()),
            other => AppError::from_repo(other),
        })
    }

    /// The tags most used by GIFs rated at most `max`, each with its most viewed such GIF, at most
    /// `limit`.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn categories(&self, limit: usize, max: Rating) -> Result<Vec<Category>, AppError> {
        let top = self.feed.top_tags_with_gif(i64::try_from(limit).unwrap_or(i64::MAX), max).await?;
        Ok(top.into_iter().map(|(tag, gif)| Category { tag, gif }).collect())
    }

    /// What the search box would propose for what was typed (tags, searched terms, titles and
    /// words of the text in GIFs rated at most `max`), each once, at most `limit`.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn suggestions(&self, typed: &str, limit: usize, max: Rating) -> Result<Vec<String>, AppError> {
        let Some(prefix) = gifshelf_domain::search::typed_prefix(typed) else {
            return Ok(Vec::new());
        };
        let per_kind = i64::try_from(limit).unwrap_or(i64::MAX);
        let found = self.terms.suggestions(&prefix, Audience::Chat(max), per_kind).await?;
        Ok(merge_suggestions(by_kind(found), limit).into_iter().map(|s| s.text).collect())
    }

    /// Tags that go with `term`: the tags of the GIFs rated at most `max` that match it (the
    /// [`RELATED_SAMPLE`] most viewed), most frequent first, then by name, without the term's own
    /// words, at most `limit`. Not counted as a search.
    ///
    /// # Errors
    /// `Validation` for a term longer than 200 bytes; storage errors.
    pub async fn related_terms(&self, term: &str, limit: usize, max: Rating) -> Result<Vec<String>, AppError> {
        let filter = GifFilter::search(term)?;
        let GifFilter::Search(words) = &filter else {
            return Ok(Vec::new());
        };
        let words = words.clone();
        let sample = Window::new(0, RELATED_SAMPLE)?;
        let found = self.window(&Source::Filtered(filter, max, Shelf::Gifs), sample).await?;
        let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
        for tag in found.gifs.iter().flat_map(|g| g.tags.iter()) {
            let name = tag.name.as_str();
            if !words.iter().any(|w| w == name) && name != words.join(" ") {
                *counts.entry(name).or_default() += 1;
            }
        }
        let mut related: Vec<(&str, usize)> = counts.into_iter().collect();
        related.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        Ok(related.into_iter().take(limit).map(|(name, _)| name.to_owned()).collect())
    }

    /// The terms searched most in the last [`TRENDING_DAYS`] days, then the most used tags, each
    /// once, at most `limit`.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn trending_terms(&self, limit: usize) -> Result<Vec<String>, AppError> {
        let since = self.today() - Duration::days(TRENDING_DAYS);
        let mut terms = self.terms.trending_terms(since, i64::try_from(limit).unwrap_or(i64::MAX)).await?;
        if terms.len() < limit {
            let mut tags = self.tags.list_with_counts().await?;
            tags.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.name.as_str().cmp(b.name.as_str())));
            for tag in tags.into_iter().filter(|t| t.count > 0) {
                if terms.len() >= limit {
                    break;
                }
                if !terms.iter().any(|t| t == tag.name.as_str()) {
                    terms.push(tag.name.as_str().to_owned());
                }
            }
        }
        Ok(terms)
    }

    /// Counts a share of the GIF with this share id (a chat app posted it).
    ///
    /// # Errors
    /// `NotFound` ("GIF not found").
    pub async fn register_share(&self, share_id: &str) -> Result<Gif, AppError> {
        let gif = self.by_share_id(share_id).await?;
        self.feed.add_share(gif.id).await.map_err(gif_not_found)?;
        tracing::info!(gif_id = gif.id.0, "share registered");
        Ok(Gif { share_count: gif.share_count + 1, ..gif })
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::gif::{GifId, GifSort, TagId, TagName};
    use gifshelf_domain::ports::{
        MockChatFeedRepository, MockClock, MockGifRepository, MockTagRepository, MockTermRepository,
    };

    use super::*;
    use crate::gifs::test_support::{gif, now};

    struct Mocks {
        gifs: MockGifRepository,
        feed: MockChatFeedRepository,
        tags: MockTagRepository,
        terms: MockTermRepository,
    }

    impl Mocks {
        fn new() -> Self {
            Self {
                gifs: MockGifRepository::new(),
                feed: MockChatFeedRepository::new(),
                tags: MockTagRepository::new(),
                terms: MockTermRepository::new(),
            }
        }

        fn service(self) -> ChatService {
            let mut clock = MockClock::new();
            clock.expect_now().return_const(now());
            ChatService::new(
                Arc::new(self.gifs),
                Arc::new(self.feed),
                Arc::new(self.tags),
                Arc::new(self.terms),
                Arc::new(clock),
            )
        }
    }

    /// A list of `total` GIFs with ids 1..=total, paged as the repository pages.
    fn pages_of(
        total: i64,
    ) -> impl Fn(&GifFilter, GifSort, PageRequest, Rating, Shelf) -> Result<Page<Gif>, RepoError> {
        move |_, _, request, _, _| {
            let start = i64::from(request.page) * i64::from(request.size);
            let items = (start..(start + i64::from(request.size)).min(total)).map(|i| gif(i + 1, 1)).collect();
            Ok(Page { items, request, total })
        }
    }

    fn ids(found: &Found) -> Vec<i64> {
        found.gifs.iter().map(|g| g.id.0).collect()
    }

    #[tokio::test]
    async fn windows_at_any_offset_visit_each_gif_once_and_say_when_they_end() {
        let mut m = Mocks::new();
        m.gifs.expect_list_rated().returning(pages_of(30));
        m.terms.expect_record_search().times(1).returning(|_, _| Ok(()));
        let service = m.service();
        let mut seen = Vec::new();
        let mut offset = 0;
        loop {
            let window = Window::new(offset, 7).unwrap_or_else(|e| panic!("{e}"));
            let found = service.search("cat", window, Rating::R).await.unwrap_or_else(|e| panic!("{e}"));
            seen.extend(ids(&found));
            match found.next_offset(window) {
                Some(next) => offset = next,
                None => break,
            }
        }
        assert_eq!(seen, (1..=30).collect::<Vec<_>>());
        let odd = Window::new(5, 7).unwrap_or_else(|e| panic!("{e}"));
        let found = service.search("cat", odd, Rating::R).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ids(&found), (6..=12).collect::<Vec<_>>(), "an unaligned window straddles two pages");
        assert_eq!(found.next_offset(odd), Some(12));
    }

    #[tokio::test]
    async fn an_empty_query_finds_nothing_and_counts_nothing() {
        let mut m = Mocks::new();
        m.gifs.expect_list_rated().never();
        m.terms.expect_record_search().never();
        let found = m
            .service()
            .search("   ", Window { offset: 0, limit: 5 }, Rating::R)
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((found.gifs.len(), found.total, found.next_offset(Window { offset: 0, limit: 5 })), (0, 0, None));
    }

    #[tokio::test]
    async fn searches_are_counted_normalised_on_their_first_page_only() {
        let mut m = Mocks::new();
        m.gifs.expect_list_rated().returning(pages_of(30));
        m.terms
            .expect_record_search()
            .withf(|term, day| term == "happy cat" && *day == now().date())
            .times(1)
            .returning(|_, _| Ok(()));
        let service = m.service();
        for offset in [0, 10] {
            let found = service.search("  Happy   CAT ", Window { offset, limit: 10 }, Rating::R).await;
            assert!(found.is_ok());
        }
    }

    #[test]
    fn windows_are_bounded() {
        assert!(Window::new(0, 0).is_err());
        assert!(Window::new(0, 101).is_err());
        assert!(Window::new(MAX_OFFSET + 1, 10).is_err());
        assert!(Window::new(MAX_OFFSET, 100).is_ok());
    }

    #[tokio::test]
    async fn categories_are_the_most_used_tags_with_their_most_viewed_gif() {
        let mut m = Mocks::new();
        m.feed.expect_top_tags_with_gif().withf(|limit, max| *limit == 10 && *max == Rating::Pg).times(1).returning(
            |_, _| {
                Ok(vec![
                    (Tag { id: TagId(2), name: TagName::from_trusted("cats".into()), count: 5 }, gif(9, 1)),
                    (Tag { id: TagId(1), name: TagName::from_trusted("dogs".into()), count: 2 }, gif(4, 1)),
                ])
            },
        );
        let categories = m.service().categories(10, Rating::Pg).await.unwrap_or_else(|e| panic!("{e}"));
        let got: Vec<(&str, i64)> = categories.iter().map(|c| (c.tag.name.as_str(), c.gif.id.0)).collect();
        assert_eq!(got, [("cats", 9), ("dogs", 4)]);
    }

    #[tokio::test]
    async fn trending_terms_are_recent_searches_then_popular_tags() {
        let mut m = Mocks::new();
        m.terms
            .expect_trending_terms()
            .withf(|since, limit| *since == now().date() - Duration::days(TRENDING_DAYS) && *limit == 3)
            .returning(|_, _| Ok(vec!["party".into(), "cats".into()]));
        m.tags.expect_list_with_counts().returning(|| {
            Ok(vec![
                Tag { id: TagId(1), name: TagName::from_trusted("cats".into()), count: 7 },
                Tag { id: TagId(2), name: TagName::from_trusted("wave".into()), count: 3 },
            ])
        });
        let terms = m.service().trending_terms(3).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(terms, ["party", "cats", "wave"]);
    }

    #[tokio::test]
    async fn a_share_is_counted_on_the_gif_its_share_id_names() {
        let mut m = Mocks::new();
        m.gifs.expect_find_by_share_id().withf(|s| s == "abc").returning(|_| Ok(gif(4, 1)));
        m.gifs.expect_find_by_share_id().returning(|_| Err(RepoError::NotFound));
        m.feed.expect_add_share().withf(|id| *id == GifId(4)).times(1).returning(|_| Ok(()));
        let service = m.service();
        assert_eq!(service.register_share("abc").await.map(|g| g.share_count).ok(), Some(1));
        assert!(matches!(service.register_share("nope").await, Err(AppError::NotFound(_))));
    }

    #[tokio::test]
    async fn gifs_by_share_ids_keep_the_order_and_skip_unknown_and_repeated_ids() {
        let mut m = Mocks::new();
        m.gifs.expect_find_by_share_id().returning(|s| match s {
            "a" => Ok(gif(1, 1)),
            "b" => Ok(gif(2, 1)),
            _ => Err(RepoError::NotFound),
        });
        let ids = ["b", "x", "a", "b"].map(String::from);
        let found = m.service().by_share_ids(&ids, Rating::R).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(found.iter().map(|g| g.id.0).collect::<Vec<_>>(), [2, 1]);
    }

    #[tokio::test]
    async fn lookups_by_id_leave_out_gifs_rated_above_the_maximum() {
        let mut m = Mocks::new();
        m.gifs.expect_find_by_share_id().returning(|s| match s {
            "g" => Ok(gif(1, 1)),
            "r" => Ok(Gif { rating: Rating::R, ..gif(2, 1) }),
            _ => Err(RepoError::NotFound),
        });
        let service = m.service();
        let ids = ["r", "g"].map(String::from);
        let strict = service.by_share_ids(&ids, Rating::Pg13).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(strict.iter().map(|g| g.id.0).collect::<Vec<_>>(), [1]);
        let all = service.by_share_ids(&ids, Rating::R).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(all.iter().map(|g| g.id.0).collect::<Vec<_>>(), [2, 1]);
        assert!(matches!(service.rated_by_share_id("r", Rating::Pg13).await, Err(AppError::NotFound(_))));
        assert_eq!(service.rated_by_share_id("r", Rating::R).await.map(|g| g.id.0).ok(), Some(2));
    }

    /// The stickers' shelf asks the repositories for stickers, every time.
    #[tokio::test]
    async fn the_stickers_shelf_lists_and_picks_only_stickers() {
        let mut m = Mocks::new();
        let stickers = |shelf: &Shelf| *shelf == Shelf::Stickers;
        m.gifs.expect_list_rated().withf(move |_, _, _, _, shelf| stickers(shelf)).times(1).returning(pages_of(2));
        m.gifs
            .expect_random()
            .withf(move |_, _, shelf| stickers(shelf))
            .times(1)
            .returning(|_, max, _| Ok(Gif { rating: max, ..gif(9, 1) }));
        m.feed
            .expect_featured()
            .withf(move |_, _, _, shelf| stickers(shelf))
            .times(1)
            .returning(|_, request, _, _| Ok(Page { items: vec![gif(5, 1)], request, total: 1 }));
        m.terms.expect_record_search().times(1).returning(|_, _| Ok(()));
        let service = m.service();
        let window = Window::new(0, 10).unwrap_or_else(|e| panic!("{e}"));
        let found = service.search_shelf(Shelf::Stickers, "star", window, Rating::G).await;
        assert_eq!(found.map(|f| ids(&f)).ok(), Some(vec![1, 2]));
        let featured = service.featured_shelf(Shelf::Stickers, window, Rating::G).await;
        assert_eq!(featured.map(|f| ids(&f)).ok(), Some(vec![5]));
        let picked = service.random_shelf(Shelf::Stickers, "", Rating::Pg).await;
        assert_eq!(picked.map(|g| (g.id.0, g.rating)).ok(), Some((9, Rating::Pg)));
    }
}
