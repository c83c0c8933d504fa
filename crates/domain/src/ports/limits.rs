//! Counters every instance shares, for the limits that must hold however many instances run
//! (login throttling, the registration allowance, the chat API limits): kept in PostgreSQL when
//! there is one; one instance on SQLite counts in its own memory instead.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::RepoError;

/// A counter as stored: how many, since when this run of counting began, and the latest count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counter {
    pub count: i64,
    pub began: NaiveDateTime,
    pub last: NaiveDateTime,
}

/// When a counter starts over at one instead of adding to what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Restart {
    /// A fixed window: when the run began at or before this time.
    IfBeganBy(NaiveDateTime),
    /// A streak: when the latest count was at or before this time.
    IfLastBy(NaiveDateTime),
}

#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait SharedCounters: Send + Sync {
    /// Counts one for `key` at `now`, atomically among every caller, starting over at one when
    /// `restart` says so; answers the counter as it is after.
    ///
    /// # Errors
    /// Storage errors.
    async fn bump(&self, key: &str, now: NaiveDateTime, restart: Restart) -> Result<Counter, RepoError>;

    /// The counter of `key`, if any.
    ///
    /// # Errors
    /// Storage errors.
    async fn read(&self, key: &str) -> Result<Option<Counter>, RepoError>;

    /// Takes one back (never below zero).
    ///
    /// # Errors
    /// Storage errors.
    async fn refund(&self, key: &str) -> Result<(), RepoError>;

    /// Forgets `key`.
    ///
    /// # Errors
    /// Storage errors.
    async fn forget(&self, key: &str) -> Result<(), RepoError>;

    /// Forgets every counter last counted before `before`; answers how many.
    ///
    /// # Errors
    /// Storage errors.
    async fn forget_older(&self, before: NaiveDateTime) -> Result<usize, RepoError>;
}
