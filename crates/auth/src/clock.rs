use std::sync::{Arc, Mutex};

use chrono::NaiveDateTime;
use gifshelf_domain::ports::Clock;

/// The real clock, in UTC.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> NaiveDateTime {
        chrono::Utc::now().naive_utc()
    }
}

/// A clock tests move, for time windows (token expiry, lockouts, rate limits, the Slack
/// signature's five minutes) that must not wait for real time to pass. Clones share one time.
///
/// [`ManualClock::new`] stands still until moved; [`ManualClock::running`] follows the real
/// clock shifted by every move, so whatever a test does not move keeps its order in time.
#[derive(Debug, Clone)]
pub struct ManualClock {
    time: Arc<Mutex<Time>>,
}

#[derive(Debug, Clone, Copy)]
enum Time {
    Frozen(NaiveDateTime),
    Shifted(chrono::Duration),
}

impl ManualClock {
    /// Stands at the real time (whole seconds) until moved.
    pub fn new() -> Self {
        let now = chrono::Utc::now().naive_utc();
        Self::at(now - chrono::Duration::nanoseconds(i64::from(now.and_utc().timestamp_subsec_nanos())))
    }

    /// Stands at `now` until moved.
    pub fn at(now: NaiveDateTime) -> Self {
        Self { time: Arc::new(Mutex::new(Time::Frozen(now))) }
    }

    /// Runs with the real clock, ahead of it by every [`Self::advance`].
    pub fn running() -> Self {
        Self { time: Arc::new(Mutex::new(Time::Shifted(chrono::Duration::zero()))) }
    }

    /// Moves the time forward (or back, for a negative duration).
    pub fn advance(&self, by: chrono::Duration) {
        let mut time = self.time.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *time = match *time {
            Time::Frozen(at) => Time::Frozen(at + by),
            Time::Shifted(ahead) => Time::Shifted(ahead + by),
        };
    }
}

impl Default for ManualClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for ManualClock {
    fn now(&self) -> NaiveDateTime {
        match *self.time.lock().unwrap_or_else(std::sync::PoisonError::into_inner) {
            Time::Frozen(at) => at,
            Time::Shifted(ahead) => chrono::Utc::now().naive_utc() + ahead,
        }
    }
}
