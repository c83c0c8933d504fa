//! Reports: a member tells the admins that a GIF should not be in the library, and an admin hides
//! the GIF or dismisses the report.

use chrono::NaiveDateTime;

use crate::gif::{GifId, Title};
use crate::user::{UserId, Username};
use crate::ValidationError;

/// The longest note a report keeps, in characters.
pub const REPORT_NOTE_MAX: usize = 500;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReportId(pub i64);

/// Why a GIF was reported: one of a short list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportReason {
    Spam,
    Offensive,
    Copyright,
    Other,
}

impl ReportReason {
    pub const ALL: [Self; 4] = [Self::Spam, Self::Offensive, Self::Copyright, Self::Other];

    /// The name the API and the database carry.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Spam => "spam",
            Self::Offensive => "offensive",
            Self::Copyright => "copyright",
            Self::Other => "other",
        }
    }

    /// The words a GIF's owner reads when a report with this reason hid it (docs/texts.md).
    pub fn label(self) -> &'static str {
        match self {
            Self::Spam => "Spam",
            Self::Offensive => "Offensive content",
            Self::Copyright => "Copyright infringement",
            Self::Other => "Other",
        }
    }

    /// # Errors
    /// A name that is none of [`ReportReason::ALL`].
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        Self::ALL
            .into_iter()
            .find(|r| r.as_str() == raw)
            .ok_or_else(|| ValidationError::new("reason", "Reason must be one of spam, offensive, copyright or other."))
    }
}

/// A report's note: optional words of the reporter, trimmed, at most [`REPORT_NOTE_MAX`] characters.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReportNote(String);

impl ReportNote {
    /// # Errors
    /// A note longer than [`REPORT_NOTE_MAX`] characters.
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let trimmed = raw.trim();
        if trimmed.chars().count() > REPORT_NOTE_MAX {
            return Err(ValidationError::new(
                "note",
                format!("The note is too long (at most {REPORT_NOTE_MAX} characters)."),
            ));
        }
        Ok(Self(trimmed.to_owned()))
    }

    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// What an admin did with a report: hid its GIF (closing every open report of it) or dismissed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    Hidden,
    Dismissed,
}

impl Resolution {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Hidden => "hidden",
            Self::Dismissed => "dismissed",
        }
    }

    pub fn from_stored(raw: &str) -> Option<Self> {
        [Self::Hidden, Self::Dismissed].into_iter().find(|r| r.as_str() == raw)
    }
}

/// Which reports a queue lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportStatus {
    /// Waiting for an admin, oldest first.
    Open,
    /// Hidden or dismissed, most recently closed first.
    Closed,
}

impl ReportStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Closed => "closed",
        }
    }

    /// # Errors
    /// Neither `open` nor `closed`.
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        match raw {
            "open" => Ok(Self::Open),
            "closed" => Ok(Self::Closed),
            _ => Err(ValidationError::new("status", "Status must be open or closed.")),
        }
    }
}

/// The reported GIF as the queue shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportedGif {
    pub id: GifId,
    pub title: Title,
    pub owner: Username,
    /// Whether it is hidden now.
    pub hidden: bool,
}

/// A stored report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub id: ReportId,
    pub gif: ReportedGif,
    pub reason: ReportReason,
    pub note: ReportNote,
    pub reporter: Username,
    /// UTC.
    pub created_at: NaiveDateTime,
    /// `None` while open.
    pub resolution: Option<Resolution>,
    pub resolved_by: Option<Username>,
    pub resolved_at: Option<NaiveDateTime>,
}

impl Report {
    pub fn status(&self) -> ReportStatus {
        if self.resolution.is_some() {
            ReportStatus::Closed
        } else {
            ReportStatus::Open
        }
    }
}

/// A report to file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReport {
    pub gif: GifId,
    pub reporter: UserId,
    pub reason: ReportReason,
    pub note: ReportNote,
    pub at: NaiveDateTime,
}

/// What a moderator does to a GIF's visibility.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VisibilityChange {
    /// Hide it with this reason (shown to its owner); its open reports close as hidden.
    Hide {
        reason: String,
    },
    Restore,
}

/// The longest reason an admin gives when hiding a GIF directly, in characters.
pub const HIDDEN_REASON_MAX: usize = 200;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_parse_back_and_unknown_ones_are_refused() {
        for reason in ReportReason::ALL {
            assert_eq!(ReportReason::parse(reason.as_str()).ok(), Some(reason));
        }
        assert!(ReportReason::parse("Spam").is_err());
        assert!(ReportReason::parse("boring").is_err());
    }

    #[test]
    fn a_note_is_trimmed_and_bounded() {
        assert_eq!(ReportNote::parse("  why  ").map(|n| n.as_str().to_owned()).ok(), Some("why".into()));
        assert!(ReportNote::parse(&"é".repeat(REPORT_NOTE_MAX)).is_ok());
        assert!(ReportNote::parse(&"é".repeat(REPORT_NOTE_MAX + 1)).is_err());
    }
}
