//! What administrators do to whole accounts beyond their role and status: removing one (with its
//! GIFs, or handing them to another member), one-time password reset links, and quotas.

use chrono::{Duration, NaiveDateTime};

use crate::member::Member;
use crate::user::UserId;
use crate::ValidationError;

/// How long a password reset link works.
pub const RESET_LINK_HOURS: i64 = 24;

/// A presented reset token longer than this is no token of ours.
pub const RESET_TOKEN_MAX: usize = 200;

/// What becomes of a removed account's GIFs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GifDisposal {
    /// Removed with the account, files too.
    Delete,
    /// Handed to another active member, who owns them from then on.
    Transfer(UserId),
}

impl GifDisposal {
    /// The API's `gifs` and `to` query values.
    ///
    /// # Errors
    /// A `ValidationError` on `gifs` when it is missing or unknown, on `to` when `transfer` names
    /// no member.
    pub fn parse(gifs: Option<&str>, to: Option<i64>) -> Result<Self, ValidationError> {
        match (gifs, to) {
            (Some("delete"), _) => Ok(Self::Delete),
            (Some("transfer"), Some(to)) => Ok(Self::Transfer(UserId(to))),
            (Some("transfer"), None) => Err(ValidationError::new("to", "Choose the member who gets the GIFs")),
            _ => Err(ValidationError::new("gifs", "gifs must be \"delete\" or \"transfer\"")),
        }
    }

    /// The audit log's words for it.
    pub fn describe(self, gifs: i64) -> String {
        match self {
            Self::Delete => format!("{gifs} GIFs deleted"),
            Self::Transfer(to) => format!("{gifs} GIFs handed to #{}", to.0),
        }
    }
}

/// What came of removing an account.
#[derive(Debug, Clone, PartialEq)]
pub enum AccountRemoval {
    /// Removed; `blob_keys` are the files of its deleted GIFs, to remove from storage now that the
    /// rows are gone (none when the GIFs were handed over).
    Removed { member: Member, blob_keys: Vec<String> },
    /// Refused, nothing changed: no active administrator would be left.
    LastAdmin,
    /// Refused, nothing changed: the member to hand the GIFs to is unknown, disabled or the
    /// removed account itself.
    RecipientInvalid,
}

/// A stored reset link: the account, the digest of its token and when it stops working.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPasswordReset {
    pub user_id: UserId,
    pub token_digest: String,
    pub expires_at: NaiveDateTime,
}

impl NewPasswordReset {
    pub fn new(user_id: UserId, token_digest: String, now: NaiveDateTime) -> Self {
        Self { user_id, token_digest, expires_at: now + Duration::hours(RESET_LINK_HOURS) }
    }
}

/// A quota: storage in bytes and uploads per UTC day; `None` is unlimited (or, for a member's
/// override, "the default").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quota {
    pub storage_bytes: Option<i64>,
    pub uploads_per_day: Option<i64>,
}

impl Quota {
    /// # Errors
    /// A `ValidationError` on a negative value.
    pub fn new(storage_bytes: Option<i64>, uploads_per_day: Option<i64>) -> Result<Self, ValidationError> {
        if storage_bytes.is_some_and(|b| b < 0) {
            return Err(ValidationError::new("storageBytes", "The storage quota cannot be negative"));
        }
        if uploads_per_day.is_some_and(|n| n < 0) {
            return Err(ValidationError::new("uploadsPerDay", "The upload quota cannot be negative"));
        }
        Ok(Self { storage_bytes, uploads_per_day })
    }

    /// This override over `defaults`: each limit it names wins, the others are the defaults'.
    #[must_use]
    pub fn over(self, defaults: Self) -> Self {
        Self {
            storage_bytes: self.storage_bytes.or(defaults.storage_bytes),
            uploads_per_day: self.uploads_per_day.or(defaults.uploads_per_day),
        }
    }
}

/// What a member uses: the stored bytes of their GIFs (originals and renditions) and their
/// uploads since the start of the UTC day.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usage {
    pub storage_bytes: i64,
    pub uploads_today: i64,
}

/// Which quota an upload would break.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuotaBreach {
    Storage(i64),
    Uploads(i64),
}

impl QuotaBreach {
    /// The message the upload toasts show ("Upload failed: {message}").
    pub fn message(self) -> String {
        match self {
            Self::Storage(bytes) => format!("Storage quota of {} reached", megabytes(bytes)),
            Self::Uploads(n) => format!("Upload limit of {n} GIFs a day reached"),
        }
    }
}

/// Bytes as people say them: whole megabytes ("50 MB"), or bytes below one.
fn megabytes(bytes: i64) -> String {
    const MB: i64 = 1024 * 1024;
    if bytes >= MB && bytes % MB == 0 {
        format!("{} MB", bytes / MB)
    } else if bytes >= MB {
        format!("{:.1} MB", bytes as f64 / MB as f64)
    } else {
        format!("{bytes} bytes")
    }
}

/// Whether storing `adding` more bytes as one more upload stays within `quota`.
///
/// # Errors
/// The breached quota (uploads first: it is the one a retry tomorrow fixes).
pub fn check_quota(quota: Quota, usage: Usage, adding: i64) -> Result<(), QuotaBreach> {
    if let Some(limit) = quota.uploads_per_day {
        if usage.uploads_today + 1 > limit {
            return Err(QuotaBreach::Uploads(limit));
        }
    }
    if let Some(limit) = quota.storage_bytes {
        if usage.storage_bytes.saturating_add(adding) > limit {
            return Err(QuotaBreach::Storage(limit));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edge_of_a_quota_is_inside_it() {
        let quota = Quota::new(Some(100), Some(2)).unwrap_or_default();
        assert_eq!(check_quota(quota, Usage { storage_bytes: 60, uploads_today: 1 }, 40), Ok(()));
        assert_eq!(
            check_quota(quota, Usage { storage_bytes: 60, uploads_today: 1 }, 41),
            Err(QuotaBreach::Storage(100))
        );
        assert_eq!(check_quota(quota, Usage { storage_bytes: 0, uploads_today: 2 }, 1), Err(QuotaBreach::Uploads(2)));
        assert_eq!(check_quota(Quota::default(), Usage { storage_bytes: i64::MAX, uploads_today: 9 }, 9), Ok(()));
    }

    #[test]
    fn negative_quotas_are_refused_and_messages_name_the_quota() {
        assert!(Quota::new(Some(-1), None).is_err());
        assert!(Quota::new(None, Some(-1)).is_err());
        assert_eq!(QuotaBreach::Storage(50 * 1024 * 1024).message(), "Storage quota of 50 MB reached");
        assert_eq!(QuotaBreach::Uploads(20).message(), "Upload limit of 20 GIFs a day reached");
    }

    #[test]
    fn an_override_wins_where_it_names_a_limit() {
        let defaults = Quota { storage_bytes: Some(10), uploads_per_day: Some(5) };
        let own = Quota { storage_bytes: Some(99), uploads_per_day: None };
        assert_eq!(own.over(defaults), Quota { storage_bytes: Some(99), uploads_per_day: Some(5) });
    }

    #[test]
    fn the_gifs_choice_is_required() {
        assert!(GifDisposal::parse(None, None).is_err());
        assert!(GifDisposal::parse(Some("keep"), None).is_err());
        assert!(GifDisposal::parse(Some("transfer"), None).is_err());
        assert_eq!(GifDisposal::parse(Some("transfer"), Some(3)), Ok(GifDisposal::Transfer(UserId(3))));
        assert_eq!(GifDisposal::parse(Some("delete"), Some(3)), Ok(GifDisposal::Delete));
    }
}
