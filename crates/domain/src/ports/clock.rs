//! The time and random identifiers, injectable so tests can fix them.

use chrono::NaiveDateTime;

/// The time, injectable for tests. UTC.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait Clock: Send + Sync {
    fn now(&self) -> NaiveDateTime;
}

/// Random identifiers: share ids (at least 96 bits, URL-safe) and blob key prefixes.
#[cfg_attr(feature = "mock", mockall::automock)]
pub trait IdGenerator: Send + Sync {
    fn share_id(&self) -> String;
    fn blob_prefix(&self) -> String;
}
