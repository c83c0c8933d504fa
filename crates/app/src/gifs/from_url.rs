use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use gifshelf_domain::gif::{Description, Rating, TagName, Title};
use gifshelf_domain::media::MediaRejection;
use gifshelf_domain::ports::{Clock, FetchError, UrlFetcher};
use gifshelf_domain::user::UserId;

use super::{GifService, UploadInput, Uploaded};
use crate::auth::Actor;
use crate::rate_limit::RateLimiter;
use crate::AppError;

/// The answer when every fetch slot of the server is taken (nothing queues).
pub const FETCH_BUSY: &str = "The server is busy fetching other links. Try again in a moment.";
/// What a person is told to wait when their own fetches are all running.
const OWN_FETCHES_RETRY_SECS: u64 = 5;

/// How many links are fetched at once, and how many one person may start.
#[derive(Debug, Clone, Copy)]
pub struct FetchLimits {
    /// Fetches at once over everyone; past it, 503 at once.
    pub concurrent: usize,
    /// Fetches at once per person; past it, 429.
    pub per_user_concurrent: usize,
    /// Fetches a person may start an hour; past it, 429.
    pub per_user_per_hour: u32,
}

impl Default for FetchLimits {
    fn default() -> Self {
        Self { concurrent: 4, per_user_concurrent: 2, per_user_per_hour: 30 }
    }
}

#[derive(Debug, Default)]
struct InFlight {
    total: usize,
    by_user: HashMap<UserId, usize>,
}

/// A running fetch: counted until dropped (whatever way the request ends).
struct Slot<'a> {
    flights: &'a Mutex<InFlight>,
    user: UserId,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut flights = self.flights.lock().unwrap_or_else(PoisonError::into_inner);
        flights.total = flights.total.saturating_sub(1);
        if let Some(count) = flights.by_user.get_mut(&self.user) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                flights.by_user.remove(&self.user);
            }
        }
    }
}

/// An upload whose image the server fetches from a link.
#[derive(Debug, Clone)]
pub struct UrlUploadInput {
    pub url: String,
    pub title: String,
    pub description: String,
    pub tags: Vec<String>,
    /// As [`UploadInput::rating`].
    pub rating: Option<String>,
}

/// "From a link": fetch the image, then store it exactly as an upload. Fetches are bounded (see
/// [`FetchLimits`]), each holding at most `max_bytes` while it runs.
pub struct UrlImport {
    gifs: Arc<GifService>,
    fetcher: Arc<dyn UrlFetcher>,
    max_bytes: u64,
    limits: FetchLimits,
    flights: Mutex<InFlight>,
    hourly: RateLimiter<UserId>,
    clock: Arc<dyn Clock>,
}

impl UrlImport {
    pub fn new(
        gifs: Arc<GifService>,
        fetcher: Arc<dyn UrlFetcher>,
        max_bytes: u64,
        limits: FetchLimits,
        clock: Arc<dyn Clock>,
    ) -> Self {
        let hourly = RateLimiter::new(limits.per_user_per_hour, chrono::Duration::hours(1));
        Self { gifs, fetcher, max_bytes, limits, flights: Mutex::default(), hourly, clock }
    }

    /// A fetch slot for `user`, or the answer: 429 while their own fetches are all running or their
    /// hour is used up, 503 while the server's are.
    fn slot(&self, user: UserId) -> Result<Slot<'_>, AppError> {
        let mut flights = self.flights.lock().unwrap_or_else(PoisonError::into_inner);
        if flights.by_user.get(&user).copied().unwrap_or(0) >= self.limits.per_user_concurrent {
            tracing::info!("link fetch refused: this person's fetches are all running");
            return Err(AppError::RateLimited { retry_after_secs: OWN_FETCHES_RETRY_SECS });
        }
        if flights.total >= self.limits.concurrent {
            tracing::warn!(running = flights.total, "link fetch refused: every fetch slot is taken");
            return Err(AppError::Unavailable(FETCH_BUSY.into()));
        }
        self.hourly.hit(&user, self.clock.now()).map_err(|retry_after_secs| {
            tracing::info!("link fetch refused: this person's hourly fetches are used up");
            AppError::RateLimited { retry_after_secs }
        })?;
        flights.total += 1;
        *flights.by_user.entry(user).or_default() += 1;
        Ok(Slot { flights: &self.flights, user })
    }

    /// Checks the form, fetches the image (at most the upload limit) and uploads it.
    ///
    /// # Errors
    /// `Validation` for the form (before anything is fetched), `UrlRefused`, `UrlFetchFailed`,
    /// `TooLarge`, `BadMedia` for a page without an image, `RateLimited` past the person's
    /// fetches, `Unavailable` past the server's, then whatever `GifService::upload` answers.
    #[tracing::instrument(skip_all, fields(user_id = current.id.0))]
    pub async fn upload_from_url(&self, current: &Actor, input: UrlUploadInput) -> Result<Uploaded, AppError> {
        Title::parse(&input.title)?;
        Description::parse(&input.description)?;
        TagName::parse_list(&input.tags)?;
        input.rating.as_deref().map(Rating::parse).transpose()?;
        let slot = self.slot(current.id)?;
        let bytes = self.fetcher.fetch_image(input.url.trim(), self.max_bytes).await.map_err(fetch_error)?;
        drop(slot);
        self.gifs
            .upload(
                current,
                UploadInput {
                    title: input.title,
                    description: input.description,
                    tags: input.tags,
                    rating: input.rating,
                    bytes: Arc::new(bytes),
                    caption_text: None,
                },
            )
            .await
    }
}

impl UrlImport {
    /// The bytes at `url` (at most `max_bytes`), fetched under the same rules and limits as an
    /// upload from a link (the maker's `sourceUrl`); a page gives the video it names (`og:video`).
    ///
    /// # Errors
    /// `UrlRefused`, `UrlFetchFailed`, `TooLarge`, `BadMedia`, `RateLimited`, `Unavailable`.
    pub async fn fetch(&self, current: &Actor, url: &str, max_bytes: u64) -> Result<Vec<u8>, AppError> {
        let slot = self.slot(current.id)?;
        let bytes = self.fetcher.fetch_video(url.trim(), max_bytes).await.map_err(fetch_error)?;
        drop(slot);
        Ok(bytes)
    }
}

fn fetch_error(err: FetchError) -> AppError {
    tracing::info!(error = %err, "link not fetched");
    match err {
        FetchError::Refused(message) => AppError::UrlRefused(message),
        FetchError::Failed(message) => AppError::UrlFetchFailed(message),
        FetchError::TooLarge(message) => AppError::TooLarge(message),
        FetchError::NoImage(message) => AppError::BadMedia(MediaRejection::UnsupportedType(message)),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use gifshelf_domain::media::MediaRejection;
    use gifshelf_domain::ports::{FetchError, MockClock, MockUrlFetcher};
    use gifshelf_domain::user::{Role, UserId, Username};

    use super::{FetchLimits, UrlImport, UrlUploadInput, FETCH_BUSY};
    use crate::auth::Actor;
    use crate::gifs::test_support::Mocks;
    use crate::AppError;

    fn clock() -> Arc<MockClock> {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(crate::gifs::test_support::now());
        Arc::new(clock)
    }

    fn alice() -> Actor {
        Actor::session(UserId(1), Username::from_trusted("alice".into()), Role::User)
    }

    fn input(title: &str) -> UrlUploadInput {
        UrlUploadInput {
            url: " https://example.com/cat.gif ".into(),
            title: title.into(),
            description: String::new(),
            tags: vec![],
            rating: None,
        }
    }

    #[tokio::test]
    async fn form_errors_come_before_any_fetch() {
        let mut fetcher = MockUrlFetcher::new();
        fetcher.expect_fetch_image().never();
        let import =
            UrlImport::new(Arc::new(Mocks::new().service()), Arc::new(fetcher), 100, FetchLimits::default(), clock());
        let err = import.upload_from_url(&alice(), input("  ")).await.err();
        assert!(matches!(err, Some(AppError::Validation(_))), "{err:?}");
    }

    #[tokio::test]
    async fn fetch_errors_become_their_answers_and_nothing_is_processed() {
        type Expected = fn(&AppError) -> bool;
        let cases: [(FetchError, Expected); 4] = [
            (FetchError::Refused("private".into()), |e| matches!(e, AppError::UrlRefused(m) if m == "private")),
            (FetchError::Failed("404".into()), |e| matches!(e, AppError::UrlFetchFailed(_))),
            (FetchError::TooLarge("big".into()), |e| matches!(e, AppError::TooLarge(_))),
            (FetchError::NoImage("no og:image".into()), |e| {
                matches!(e, AppError::BadMedia(MediaRejection::UnsupportedType(_)))
            }),
        ];
        for (fetch_error, expected) in cases {
            let mut mocks = Mocks::new();
            mocks.media.expect_process().never();
            let mut fetcher = MockUrlFetcher::new();
            fetcher
                .expect_fetch_image()
                .withf(|url, max| url == "https://example.com/cat.gif" && *max == 100)
                .returning(move |_, _| Err(fetch_error.clone()));
            let import =
                UrlImport::new(Arc::new(mocks.service()), Arc::new(fetcher), 100, FetchLimits::default(), clock());
            let err = import.upload_from_url(&alice(), input("Cat")).await.err();
            assert!(err.as_ref().is_some_and(expected), "{err:?}");
        }
    }

    #[test]
    fn fetches_are_bounded_per_person_and_over_everyone_without_queueing() {
        let limits = FetchLimits { concurrent: 3, per_user_concurrent: 2, per_user_per_hour: 4 };
        let import =
            UrlImport::new(Arc::new(Mocks::new().service()), Arc::new(MockUrlFetcher::new()), 100, limits, clock());
        let (alice, bob, carol) = (UserId(1), UserId(2), UserId(3));
        let first = import.slot(alice);
        let second = import.slot(alice);
        assert!(first.is_ok() && second.is_ok());
        let third = import.slot(alice).err();
        assert!(matches!(third, Some(AppError::RateLimited { retry_after_secs: 5 })), "{third:?}");
        let bobs = import.slot(bob);
        assert!(bobs.is_ok(), "another person has their own fetches");
        let busy = import.slot(carol).err();
        assert!(matches!(&busy, Some(AppError::Unavailable(m)) if m == FETCH_BUSY), "{busy:?}");
        drop(first);
        assert!(import.slot(carol).is_ok(), "an ended fetch frees its slot at once");
        drop(second);
        // alice started two; two more this hour, then she waits for the window.
        drop(bobs);
        assert!(import.slot(alice).is_ok() && import.slot(alice).is_ok());
        let hourly = import.slot(alice).err();
        assert!(matches!(hourly, Some(AppError::RateLimited { retry_after_secs: 3600 })), "{hourly:?}");
    }
}
