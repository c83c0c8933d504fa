//! Members as administrators see them: an account with its standing and its GIF count.

use chrono::NaiveDateTime;

use crate::user::{Role, User};
use crate::ValidationError;

/// The longest search text of the Members list, in characters.
pub const MEMBER_SEARCH_MAX: usize = 100;

/// An account on the Members list.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub user: User,
    /// The statistics' exact per-user counter (`stats_users`), never a count of the library.
    pub gif_count: i64,
    /// The stored bytes of the member's GIFs: originals and every rendition.
    pub storage_bytes: i64,
}

/// What the Members list matches: a lower-cased piece of a username or an email, or everything.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemberSearch(Option<String>);

impl MemberSearch {
    /// # Errors
    /// A `ValidationError` on `q` for a text longer than `MEMBER_SEARCH_MAX` characters.
    pub fn parse(raw: Option<&str>) -> Result<Self, ValidationError> {
        let text = raw.map(str::trim).unwrap_or_default();
        if text.chars().count() > MEMBER_SEARCH_MAX {
            return Err(ValidationError::new(
                "q",
                format!("Search text must be at most {MEMBER_SEARCH_MAX} characters"),
            ));
        }
        Ok(Self((!text.is_empty()).then(|| text.to_lowercase())))
    }

    /// The lower-cased text to find, if any.
    pub fn text(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

/// Whether an account may be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberStatus {
    Active,
    Disabled,
}

/// An administrator's change to an account; `None` keeps what is stored.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MemberChange {
    pub role: Option<Role>,
    pub status: Option<MemberStatus>,
}

/// What came of a `MemberChange`.
#[derive(Debug, Clone, PartialEq)]
pub enum MemberUpdate {
    Updated(Member),
    /// Refused, nothing changed: no active administrator would be left.
    LastAdmin,
}

/// Whether `user` is an administrator who can act (not disabled).
pub fn is_active_admin(user: &User) -> bool {
    user.role == Role::Admin && user.disabled_at.is_none()
}

/// Last-seen times are written at most this often per account (seconds).
pub const LAST_SEEN_EVERY_SECS: i64 = 3600;

/// Whether a request at `now` should record the account as seen.
pub fn should_touch_last_seen(last_seen_at: Option<NaiveDateTime>, now: NaiveDateTime) -> bool {
    last_seen_at.is_none_or(|at| (now - at).num_seconds() >= LAST_SEEN_EVERY_SECS || now < at)
}
