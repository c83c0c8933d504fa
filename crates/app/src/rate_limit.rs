//! A fixed-window rate limit per key (an address, an API key): at most `limit` events per
//! `window`; past it the caller learns how long to wait. In memory and bounded (see `bounded`), or
//! shared by every instance through the database ([`SharedRateLimiter`]).

use std::fmt::Display;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use chrono::{Duration, NaiveDateTime};
use gifshelf_domain::ports::{Restart, SharedCounters};

use crate::bounded::Bounded;

#[derive(Debug)]
struct Window {
    start: NaiveDateTime,
    count: u32,
}

/// At most `limit` events per key within each `window`.
#[derive(Debug)]
pub struct RateLimiter<K> {
    limit: u32,
    window: Duration,
    windows: Mutex<Bounded<K, Window>>,
}

impl<K: Clone + Eq + Hash> RateLimiter<K> {
    pub fn new(limit: u32, window: Duration) -> Self {
        Self { limit, window, windows: Mutex::default() }
    }

    /// Whether `key` may act now, without counting anything.
    ///
    /// # Errors
    /// The seconds until the key may act again, when it used up its window.
    pub fn check(&self, key: &K, now: NaiveDateTime) -> Result<(), u64> {
        let windows = self.windows.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match windows.map.get(key) {
            Some(w) if w.start + self.window > now && w.count >= self.limit => {
                let wait = (w.start + self.window - now).num_milliseconds().max(0);
                Err(u64::try_from((wait + 999) / 1000).unwrap_or(1).max(1))
            }
            _ => Ok(()),
        }
    }

    /// Counts one event for `key`.
    ///
    /// # Errors
    /// The seconds until the key may act again, when it used up its window (the refused event is
    /// not counted).
    pub fn hit(&self, key: &K, now: NaiveDateTime) -> Result<(), u64> {
        let window = self.window;
        let mut windows = self.windows.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        windows.make_room(key, |w| w.start + window <= now, |w| (false, w.start));
        let state = windows.map.entry(key.clone()).or_insert(Window { start: now, count: 0 });
        if state.start + window <= now {
            *state = Window { start: now, count: 0 };
        }
        if state.count >= self.limit {
            let wait = (state.start + window - now).num_milliseconds().max(0);
            return Err(u64::try_from((wait + 999) / 1000).unwrap_or(1).max(1));
        }
        state.count += 1;
        Ok(())
    }
}

/// A [`RateLimiter`] whose counts every instance shares when the database can share them
/// (PostgreSQL): each key's window is a row counted by one atomic upsert. Without a shared store,
/// or while it fails (logged), it counts in this instance's memory.
pub struct SharedRateLimiter<K> {
    local: RateLimiter<K>,
    shared: Option<(Arc<dyn SharedCounters>, &'static str)>,
}

impl<K: Clone + Eq + Hash + Display> SharedRateLimiter<K> {
    /// Counts in memory only.
    pub fn local(limit: u32, window: Duration) -> Self {
        Self { local: RateLimiter::new(limit, window), shared: None }
    }

    /// Counts in `counters`, under keys `{name}:{key}`.
    #[must_use]
    pub fn shared_in(self, counters: Arc<dyn SharedCounters>, name: &'static str) -> Self {
        Self { shared: Some((counters, name)), ..self }
    }

    fn wait(&self, began: NaiveDateTime, now: NaiveDateTime) -> u64 {
        let wait = (began + self.local.window - now).num_milliseconds().max(0);
        u64::try_from((wait + 999) / 1000).unwrap_or(1).max(1)
    }

    /// Whether `key` may act now, without counting anything.
    ///
    /// # Errors
    /// The seconds until the key may act again.
    pub async fn check(&self, key: &K, now: NaiveDateTime) -> Result<(), u64> {
        let Some((counters, name)) = &self.shared else { return self.local.check(key, now) };
        match counters.read(&format!("{name}:{key}")).await {
            Ok(Some(c)) if c.began + self.local.window > now && c.count >= i64::from(self.local.limit) => {
                Err(self.wait(c.began, now))
            }
            Ok(_) => Ok(()),
            Err(e) => {
                tracing::warn!(error = %e, "shared rate limits unavailable: counting in memory");
                self.local.check(key, now)
            }
        }
    }

    /// Counts one event for `key`.
    ///
    /// # Errors
    /// The seconds until the key may act again, when it used up its window (the refused event is
    /// not counted).
    pub async fn hit(&self, key: &K, now: NaiveDateTime) -> Result<(), u64> {
        let Some((counters, name)) = &self.shared else { return self.local.hit(key, now) };
        let id = format!("{name}:{key}");
        let restart = Restart::IfBeganBy(now - self.local.window);
        match counters.bump(&id, now, restart).await {
            Ok(c) if c.count > i64::from(self.local.limit) => {
                if let Err(e) = counters.refund(&id).await {
                    tracing::warn!(error = %e, "cannot take back a refused count");
                }
                Err(self.wait(c.began, now))
            }
            Ok(_) => Ok(()),
            Err(e) => {
                tracing::warn!(error = %e, "shared rate limits unavailable: counting in memory");
                self.local.hit(key, now)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;

    use super::*;

    fn at(secs: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 24).and_then(|d| d.and_hms_opt(10, 0, 0)).unwrap_or_default()
            + Duration::seconds(i64::from(secs))
    }

    #[test]
    fn limits_each_key_within_its_window() {
        let limiter = RateLimiter::new(3, Duration::seconds(60));
        for _ in 0..3 {
            assert_eq!(limiter.hit(&"a", at(0)), Ok(()));
        }
        assert_eq!(limiter.hit(&"a", at(10)), Err(50));
        assert_eq!(limiter.check(&"a", at(10)), Err(50), "checking counts nothing and tells the same");
        assert_eq!(limiter.check(&"b", at(10)), Ok(()));
        assert_eq!(limiter.hit(&"b", at(10)), Ok(()), "keys are apart");
        assert_eq!(limiter.hit(&"a", at(60)), Ok(()), "a new window");
    }

    #[test]
    fn memory_stays_bounded() {
        let limiter = RateLimiter::new(1, Duration::seconds(60));
        for i in 0..100_000u32 {
            let _ = limiter.hit(&i, at(0));
        }
        let len = limiter.windows.lock().map(|w| w.map.len()).unwrap_or(usize::MAX);
        assert!(len <= crate::bounded::HARD_CAP, "{len}");
    }
}
