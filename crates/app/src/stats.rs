//! The statistics dashboard's use cases (admins only; the HTTP layer checks the role).
//!
//! Every figure is read from counters the storage keeps with the data (in the transaction of each
//! change), so each read is exact and cheap; `Overview::computed_at` (the spec's `lastUpdated`)
//! is the read's time.

use std::sync::Arc;

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
    /// When the figures were read.
    pub computed_at: NaiveDateTime,
}

pub struct StatsService {
    stats: Arc<dyn StatsRepository>,
    clock: Arc<dyn Clock>,
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
    pub fn new(stats: Arc<dyn StatsRepository>, clock: Arc<dyn Clock>) -> Self {
        Self { stats, clock }
    }

    /// The overview as it is now. "Today" is the current UTC day; "this week" the last 7 UTC days
    /// including today, the same days the daily uploads chart shows.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn overview(&self) -> Result<Overview, AppError> {
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

    /// The distributions as they are now.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn detailed(&self) -> Result<DetailedFigures, AppError> {
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
        StatsService::new(Arc::new(repo), Arc::new(clock))
    }

    #[tokio::test]
    async fn an_empty_library_has_zero_averages_not_nan() {
        let mut repo = MockStatsRepository::new();
        repo.expect_overview().returning(|_, _, _| Ok(OverviewFigures::default()));
        let overview = service(repo).overview().await.unwrap_or_else(|e| panic!("{e}"));
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
        let o = service(repo).overview().await.unwrap_or_else(|e| panic!("{e}"));
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
        let d = service(repo).detailed().await.unwrap_or_else(|e| panic!("{e}"));
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

    #[tokio::test]
    async fn every_read_asks_the_repository_and_is_dated_at_the_read() {
        use std::sync::atomic::{AtomicI64, Ordering};
        let asked = Arc::new(AtomicI64::new(0));
        let minutes = Arc::new(AtomicI64::new(0));
        let mut repo = MockStatsRepository::new();
        let counter = asked.clone();
        repo.expect_overview().returning(move |_, _, _| {
            let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
            Ok(OverviewFigures { total_gifs: n, ..OverviewFigures::default() })
        });
        let mut clock = MockClock::new();
        let clock_minutes = minutes.clone();
        clock.expect_now().returning(move || now() + Duration::minutes(clock_minutes.load(Ordering::SeqCst)));
        let stats = StatsService::new(Arc::new(repo), Arc::new(clock));
        let first = stats.overview().await.unwrap_or_else(|e| panic!("{e}"));
        minutes.store(1, Ordering::SeqCst);
        let second = stats.overview().await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((first.figures.total_gifs, first.computed_at), (1, now()));
        assert_eq!((second.figures.total_gifs, second.computed_at), (2, now() + Duration::minutes(1)));
    }
}
