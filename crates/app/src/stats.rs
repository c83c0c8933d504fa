//! The statistics dashboard's use cases (admins only; the HTTP layer checks the role).
//!
//! The overview and the detailed figures aggregate the whole library, which takes long at a
//! million GIFs, so they are served from a snapshot: computed on the first read, recomputed in the
//! background (`refresh_read`, every `refresh_every`) while admins keep reading it, computed again
//! on a read once it is older than twice that, and on demand (`Freshness::Fresh`, the dashboard's
//! Refresh Data). The overview's `computed_at` (the spec's `lastUpdated`) says when.

use std::sync::{Arc, Mutex, PoisonError};

use chrono::{Duration, NaiveDate, NaiveDateTime};
use gifshelf_domain::gif::TagName;
use gifshelf_domain::ports::{Clock, StatsRepository};
use gifshelf_domain::stats::{ActivityLevel, DetailedFigures, GifStat, OverviewFigures, SizeBucket, UserStat};

use crate::AppError;

/// How many entries the "top" lists and the tag distribution show.
pub const TOP: i64 = 10;
/// Most rows a drill-down returns.
pub const DRILL_DOWN_LIMIT: i64 = 1000;

/// The overview of spec §3 with its derived figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Overview {
    pub figures: OverviewFigures,
    pub average_tags_per_gif: f64,
    pub average_gifs_per_user: f64,
    pub average_views_per_gif: f64,
    pub total_content_mb: f64,
    pub computed_at: NaiveDateTime,
}

/// Whether a read may be answered from the snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Freshness {
    /// The snapshot while it is young enough, else a fresh computation.
    Snapshot,
    /// Always a fresh computation (which becomes the snapshot).
    Fresh,
}

/// One set of figures as last computed, and whether anyone read it since.
struct Snapshot<T> {
    value: Option<(T, NaiveDateTime)>,
    read: bool,
}

impl<T> Default for Snapshot<T> {
    fn default() -> Self {
        Self { value: None, read: false }
    }
}

pub struct StatsService {
    stats: Arc<dyn StatsRepository>,
    clock: Arc<dyn Clock>,
    refresh_every: Duration,
    overview: Mutex<Snapshot<Overview>>,
    detailed: Mutex<Snapshot<DetailedFigures>>,
}

/// The snapshot's value when it may answer a read at `now` (marking it read), else `None`.
fn cached<T: Clone>(slot: &Mutex<Snapshot<T>>, now: NaiveDateTime, max_age: Duration) -> Option<T> {
    let mut snapshot = slot.lock().unwrap_or_else(PoisonError::into_inner);
    let value = snapshot.value.as_ref().filter(|(_, at)| now - *at < max_age).map(|(v, _)| v.clone())?;
    snapshot.read = true;
    Some(value)
}

fn store<T>(slot: &Mutex<Snapshot<T>>, value: T, at: NaiveDateTime) {
    *slot.lock().unwrap_or_else(PoisonError::into_inner) = Snapshot { value: Some((value, at)), read: false };
}

/// Whether the snapshot was read since it was computed (and so deserves a background refresh).
fn was_read<T>(slot: &Mutex<Snapshot<T>>) -> bool {
    slot.lock().unwrap_or_else(PoisonError::into_inner).read
}

/// `n / d`, or 0 for an empty library (never NaN).
fn ratio(n: i64, d: i64) -> f64 {
    if d == 0 {
        0.0
    } else {
        round2(n as f64 / d as f64)
    }
}

pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

pub fn bytes_to_mb(bytes: f64) -> f64 {
    round2(bytes / (1024.0 * 1024.0))
}

fn start_of(day: NaiveDate) -> NaiveDateTime {
    day.and_hms_opt(0, 0, 0).unwrap_or_default()
}

impl StatsService {
    /// `refresh_every`: the background refresh's period; a snapshot older than twice that is not
    /// served.
    pub fn new(stats: Arc<dyn StatsRepository>, clock: Arc<dyn Clock>, refresh_every: Duration) -> Self {
        Self { stats, clock, refresh_every, overview: Mutex::default(), detailed: Mutex::default() }
    }

    fn max_age(&self) -> Duration {
        self.refresh_every * 2
    }

    /// The overview, from the snapshot unless `freshness` asks for a fresh one.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn overview(&self, freshness: Freshness) -> Result<Overview, AppError> {
        if freshness == Freshness::Snapshot {
            if let Some(overview) = cached(&self.overview, self.clock.now(), self.max_age()) {
                return Ok(overview);
            }
        }
        let overview = self.compute_overview().await?;
        store(&self.overview, overview.clone(), overview.computed_at);
        Ok(overview)
    }

    /// The detailed figures, from the snapshot unless `freshness` asks for fresh ones.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn detailed(&self, freshness: Freshness) -> Result<DetailedFigures, AppError> {
        if freshness == Freshness::Snapshot {
            if let Some(detailed) = cached(&self.detailed, self.clock.now(), self.max_age()) {
                return Ok(detailed);
            }
        }
        let now = self.clock.now();
        let detailed = self.compute_detailed().await?;
        store(&self.detailed, detailed.clone(), now);
        Ok(detailed)
    }

    /// Recomputes each snapshot that was read since it was computed (the background refresh; an
    /// unread snapshot is left to age, so an idle dashboard costs nothing).
    ///
    /// # Errors
    /// Storage errors (the old snapshot stays).
    pub async fn refresh_read(&self) -> Result<(), AppError> {
        if was_read(&self.overview) {
            let overview = self.compute_overview().await?;
            store(&self.overview, overview.clone(), overview.computed_at);
        }
        if was_read(&self.detailed) {
            let now = self.clock.now();
            let detailed = self.compute_detailed().await?;
            store(&self.detailed, detailed, now);
        }
        Ok(())
    }

    /// "Today" is the current UTC day; "this week" the last 7 UTC days including today, the same
    /// days the daily uploads chart shows.
    async fn compute_overview(&self) -> Result<Overview, AppError> {
        let now = self.clock.now();
        let today = now.date();
        let week = today - Duration::days(6);
        let figures = self.stats.overview(start_of(today), start_of(week), TOP).await?;
        Ok(Overview {
            average_tags_per_gif: ratio(figures.tag_links, figures.total_gifs),
            average_gifs_per_user: ratio(figures.total_gifs, figures.total_users),
            average_views_per_gif: ratio(figures.total_views, figures.total_gifs),
            total_content_mb: bytes_to_mb(figures.total_content_bytes as f64),
            computed_at: now,
            figures,
        })
    }

    async fn compute_detailed(&self) -> Result<DetailedFigures, AppError> {
        let today = self.clock.now().date();
        let first = today - Duration::days(6);
        let mut figures = self.stats.detailed(first, TOP).await?;
        // Exactly 7 days, oldest first, zero-count days included.
        let days: Vec<(NaiveDate, i64)> = (0..7)
            .map(|i| {
                let day = first + Duration::days(i);
                let count = figures.daily_uploads.iter().find(|(d, _)| *d == day).map_or(0, |(_, n)| *n);
                (day, count)
            })
            .collect();
        figures.daily_uploads = days;
        Ok(figures)
    }

    /// # Errors
    /// `Validation` naming the valid ranges for an unknown one.
    pub async fn gifs_in_range(&self, range: &str) -> Result<Vec<GifStat>, AppError> {
        let bucket = SizeBucket::parse(range)?;
        Ok(self.stats.gifs_in_bucket(bucket, DRILL_DOWN_LIMIT).await?)
    }

    /// # Errors
    /// `Validation` for a blank tag.
    pub async fn gifs_with_tag(&self, tag: &str) -> Result<Vec<GifStat>, AppError> {
        let tag = TagName::parse(tag)?;
        Ok(self.stats.gifs_with_tag(&tag, DRILL_DOWN_LIMIT).await?)
    }

    /// # Errors
    /// Storage errors.
    pub async fn gifs_of_type(&self, content_type: &str) -> Result<Vec<GifStat>, AppError> {
        Ok(self.stats.gifs_of_type(content_type.trim(), DRILL_DOWN_LIMIT).await?)
    }

    /// # Errors
    /// `Validation` naming the valid levels for an unknown one.
    pub async fn users_at_level(&self, level: &str) -> Result<Vec<UserStat>, AppError> {
        let level = ActivityLevel::parse(level)?;
        Ok(self.stats.users_at_level(level, DRILL_DOWN_LIMIT).await?)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use chrono::NaiveDate;
    use gifshelf_domain::ports::{MockClock, MockStatsRepository};
    use gifshelf_domain::stats::{DetailedFigures, OverviewFigures};

    use super::*;

    fn now() -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 22).and_then(|d| d.and_hms_opt(15, 30, 0)).unwrap_or_default()
    }

    fn service(repo: MockStatsRepository) -> StatsService {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        StatsService::new(Arc::new(repo), Arc::new(clock), Duration::seconds(60))
    }

    #[tokio::test]
    async fn an_empty_library_has_zero_averages_not_nan() {
        let mut repo = MockStatsRepository::new();
        repo.expect_overview().returning(|_, _, _| Ok(OverviewFigures::default()));
        let overview = service(repo).overview(Freshness::Snapshot).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (overview.average_tags_per_gif, overview.average_gifs_per_user, overview.average_views_per_gif),
            (0.0, 0.0, 0.0)
        );
        assert_eq!(overview.total_content_mb, 0.0);
    }

    #[tokio::test]
    async fn averages_days_and_week_start() {
        let mut repo = MockStatsRepository::new();
        repo.expect_overview()
            .withf(|today, week, top| {
                *today == NaiveDate::from_ymd_opt(2026, 11, 22).and_then(|d| d.and_hms_opt(0, 0, 0)).unwrap_or_default()
                    && *week
                        == NaiveDate::from_ymd_opt(2026, 11, 16)
                            .and_then(|d| d.and_hms_opt(0, 0, 0))
                            .unwrap_or_default()
                    && *top == 10
            })
            .returning(|_, _, _| {
                Ok(OverviewFigures {
                    total_gifs: 3,
                    total_users: 2,
                    total_views: 10,
                    tag_links: 4,
                    total_content_bytes: 3 * 1024 * 1024 + 512 * 1024,
                    ..OverviewFigures::default()
                })
            });
        let o = service(repo).overview(Freshness::Snapshot).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((o.average_tags_per_gif, o.average_gifs_per_user, o.average_views_per_gif), (1.33, 1.5, 3.33));
        assert_eq!(o.total_content_mb, 3.5);
        assert_eq!(o.computed_at, now());
    }

    #[tokio::test]
    async fn detailed_has_seven_days_oldest_first_with_zeros() {
        let mut repo = MockStatsRepository::new();
        repo.expect_detailed()
            .withf(|first, _| *first == NaiveDate::from_ymd_opt(2026, 11, 16).unwrap_or_default())
            .returning(|first, _| {
                Ok(DetailedFigures {
                    daily_uploads: vec![(first + Duration::days(2), 5)],
                    ..DetailedFigures::default()
                })
            });
        let d = service(repo).detailed(Freshness::Snapshot).await.unwrap_or_else(|e| panic!("{e}"));
        let counts: Vec<i64> = d.daily_uploads.iter().map(|(_, n)| *n).collect();
        assert_eq!(counts, [0, 0, 5, 0, 0, 0, 0]);
        assert_eq!(d.daily_uploads.last().map(|(day, _)| *day), NaiveDate::from_ymd_opt(2026, 11, 22));
    }

    #[tokio::test]
    async fn unknown_ranges_and_levels_are_validation_errors() {
        let s = service(MockStatsRepository::new());
        assert!(matches!(s.gifs_in_range("huge").await, Err(AppError::Validation(v)) if v.message.contains("0-100KB")));
        assert!(matches!(s.users_at_level("lazy").await, Err(AppError::Validation(v)) if v.message.contains("power")));
    }

    /// A service whose clock reads `minutes` after `now()`, and the number of overview
    /// computations the repository was asked for.
    fn snapshot_service(
        minutes: Arc<std::sync::atomic::AtomicI64>,
    ) -> (StatsService, Arc<std::sync::atomic::AtomicI64>) {
        use std::sync::atomic::{AtomicI64, Ordering};
        let computed = Arc::new(AtomicI64::new(0));
        let mut repo = MockStatsRepository::new();
        let counter = computed.clone();
        repo.expect_overview().returning(move |_, _, _| {
            let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
            Ok(OverviewFigures { total_gifs: n, ..OverviewFigures::default() })
        });
        let mut clock = MockClock::new();
        clock.expect_now().returning(move || now() + Duration::minutes(minutes.load(Ordering::SeqCst)));
        (StatsService::new(Arc::new(repo), Arc::new(clock), Duration::minutes(1)), computed)
    }

    #[tokio::test]
    async fn the_overview_is_a_snapshot_until_fresh_figures_are_asked_for_or_it_ages() {
        use std::sync::atomic::{AtomicI64, Ordering};
        let minutes = Arc::new(AtomicI64::new(0));
        let (stats, computed) = snapshot_service(minutes.clone());
        let first = stats.overview(Freshness::Snapshot).await.unwrap_or_else(|e| panic!("{e}"));
        minutes.store(1, Ordering::SeqCst);
        let again = stats.overview(Freshness::Snapshot).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((again.figures.total_gifs, again.computed_at), (1, first.computed_at), "served from the snapshot");
        let fresh = stats.overview(Freshness::Fresh).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((fresh.figures.total_gifs, fresh.computed_at), (2, now() + Duration::minutes(1)));
        minutes.store(3, Ordering::SeqCst);
        let aged = stats.overview(Freshness::Snapshot).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(aged.figures.total_gifs, 3, "two refresh periods old: computed again");
        assert_eq!(computed.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn the_background_refresh_recomputes_only_what_was_read() {
        use std::sync::atomic::{AtomicI64, Ordering};
        let minutes = Arc::new(AtomicI64::new(0));
        let (stats, computed) = snapshot_service(minutes.clone());
        stats.refresh_read().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(computed.load(Ordering::SeqCst), 0, "nothing read, nothing computed");
        stats.overview(Freshness::Snapshot).await.unwrap_or_else(|e| panic!("{e}"));
        stats.refresh_read().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(computed.load(Ordering::SeqCst), 1, "computed by the read, not read since");
        stats.overview(Freshness::Snapshot).await.unwrap_or_else(|e| panic!("{e}"));
        minutes.store(1, Ordering::SeqCst);
        stats.refresh_read().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(computed.load(Ordering::SeqCst), 2, "read since: refreshed");
        let served = stats.overview(Freshness::Snapshot).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((served.figures.total_gifs, served.computed_at), (2, now() + Duration::minutes(1)));
    }
}
