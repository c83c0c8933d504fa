//! What the statistics dashboard shows (spec §2, §3) and the categories the server names
//! (product.md §10 "Statistics").

use chrono::NaiveDate;

use crate::ValidationError;

/// GIF sizes (original bytes), in order. Each label is also the drill-down's `{range}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SizeBucket {
    Under100Kb,
    To500Kb,
    To1Mb,
    To5Mb,
    To10Mb,
}

const KB: i64 = 1024;
const MB: i64 = 1024 * 1024;

impl SizeBucket {
    pub const ALL: [SizeBucket; 5] =
        [SizeBucket::Under100Kb, SizeBucket::To500Kb, SizeBucket::To1Mb, SizeBucket::To5Mb, SizeBucket::To10Mb];

    pub fn label(self) -> &'static str {
        match self {
            SizeBucket::Under100Kb => "0-100KB",
            SizeBucket::To500Kb => "100KB-500KB",
            SizeBucket::To1Mb => "500KB-1MB",
            SizeBucket::To5Mb => "1MB-5MB",
            SizeBucket::To10Mb => "5MB-10MB",
        }
    }

    /// `[low, high)` in bytes; the last bucket is open above, so every GIF is in exactly one.
    pub fn bounds(self) -> (i64, i64) {
        match self {
            SizeBucket::Under100Kb => (0, 100 * KB),
            SizeBucket::To500Kb => (100 * KB, 500 * KB),
            SizeBucket::To1Mb => (500 * KB, MB),
            SizeBucket::To5Mb => (MB, 5 * MB),
            SizeBucket::To10Mb => (5 * MB, i64::MAX),
        }
    }

    pub fn index(self) -> usize {
        Self::ALL.iter().position(|b| *b == self).unwrap_or(0)
    }

    pub fn parse(label: &str) -> Result<Self, ValidationError> {
        Self::ALL.into_iter().find(|b| b.label() == label).ok_or_else(|| {
            let valid: Vec<&str> = Self::ALL.iter().map(|b| b.label()).collect();
            ValidationError::new("range", format!("Unknown size range \"{label}\"; use one of {}", valid.join(", ")))
        })
    }
}

/// Uploaders by how many GIFs they have. Each name is also the drill-down's `{level}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ActivityLevel {
    Inactive,
    Casual,
    Active,
    Power,
}

impl ActivityLevel {
    pub const ALL: [ActivityLevel; 4] =
        [ActivityLevel::Inactive, ActivityLevel::Casual, ActivityLevel::Active, ActivityLevel::Power];

    pub fn label(self) -> &'static str {
        match self {
            ActivityLevel::Inactive => "inactive",
            ActivityLevel::Casual => "casual",
            ActivityLevel::Active => "active",
            ActivityLevel::Power => "power",
        }
    }

    /// Inclusive GIF-count range.
    pub fn bounds(self) -> (i64, i64) {
        match self {
            ActivityLevel::Inactive => (0, 0),
            ActivityLevel::Casual => (1, 4),
            ActivityLevel::Active => (5, 19),
            ActivityLevel::Power => (20, i64::MAX),
        }
    }

    pub fn parse(label: &str) -> Result<Self, ValidationError> {
        Self::ALL.into_iter().find(|l| l.label() == label).ok_or_else(|| {
            let valid: Vec<&str> = Self::ALL.iter().map(|l| l.label()).collect();
            ValidationError::new(
                "level",
                format!("Unknown activity level \"{label}\"; use one of {}", valid.join(", ")),
            )
        })
    }
}

/// Raw overview figures, all computed by aggregate queries.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OverviewFigures {
    pub total_gifs: i64,
    pub total_users: i64,
    pub total_tags: i64,
    pub empty_tags: i64,
    pub total_views: i64,
    /// Posts from chat apps, all GIFs together.
    pub total_shares: i64,
    /// Number of (GIF, tag) links, for the average tags per GIF.
    pub tag_links: i64,
    pub total_content_bytes: i64,
    pub uploaded_today: i64,
    pub uploaded_this_week: i64,
    pub most_used_tags: Vec<(String, i64)>,
    pub top_users: Vec<(String, i64)>,
    pub most_viewed: Vec<(String, i64)>,
    /// Titles and favourite counts, most favourited first (only GIFs someone favourited).
    pub most_favourited: Vec<(String, i64)>,
    /// Titles and share counts, most shared first (only GIFs shared at least once).
    pub most_shared: Vec<(String, i64)>,
}

/// Raw detailed figures.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DetailedFigures {
    /// Oldest first, every day present.
    pub daily_uploads: Vec<(NaiveDate, i64)>,
    pub tag_distribution: Vec<(String, i64)>,
    pub activity: Vec<(ActivityLevel, i64)>,
    /// Count and average size in bytes, every bucket present, in order.
    pub size_buckets: Vec<(SizeBucket, i64, f64)>,
    pub content_types: Vec<(String, i64, f64)>,
}

/// A GIF in a drill-down.
#[derive(Debug, Clone, PartialEq)]
pub struct GifStat {
    pub id: i64,
    pub title: String,
    pub size_bytes: i64,
    pub views: i64,
    pub content_type: String,
}

/// A user in a drill-down.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserStat {
    pub id: i64,
    pub username: String,
    pub gif_count: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_every_size_once() {
        for size in [0, 1, 100 * KB - 1, 100 * KB, 500 * KB, MB - 1, MB, 5 * MB, 10 * MB, 50 * MB] {
            let hits = SizeBucket::ALL.iter().filter(|b| (b.bounds().0..b.bounds().1).contains(&size)).count();
            assert_eq!(hits, 1, "size {size}");
        }
        assert_eq!(SizeBucket::parse("1MB-5MB"), Ok(SizeBucket::To5Mb));
        let err = SizeBucket::parse("huge").err().map(|e| e.message);
        assert_eq!(
            err.as_deref(),
            Some("Unknown size range \"huge\"; use one of 0-100KB, 100KB-500KB, 500KB-1MB, 1MB-5MB, 5MB-10MB")
        );
    }

    #[test]
    fn activity_levels() {
        let level = |n: i64| ActivityLevel::ALL.into_iter().find(|l| (l.bounds().0..=l.bounds().1).contains(&n));
        assert_eq!(
            [0, 1, 4, 5, 19, 20, 500].map(level),
            [
                Some(ActivityLevel::Inactive),
                Some(ActivityLevel::Casual),
                Some(ActivityLevel::Casual),
                Some(ActivityLevel::Active),
                Some(ActivityLevel::Active),
                Some(ActivityLevel::Power),
                Some(ActivityLevel::Power)
            ]
        );
        assert_eq!(ActivityLevel::parse("power"), Ok(ActivityLevel::Power));
        assert!(ActivityLevel::parse("lazy").is_err());
    }
}
