//! Throttling of failed logins, per account and per client address (bad-input.md "Brute force").
//!
//! Per account: after `account_max_failures` consecutive failures the account refuses logins for
//! `account_lockout`, doubling with every further failure up to `account_lockout_max`; a success
//! resets it. Per address: at most `ip_max_failures` failures within `ip_window` (generous, since
//! many people can share one address). State lives in memory and is pruned as it grows.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

use chrono::{Duration, NaiveDateTime};

#[derive(Debug, Clone)]
pub struct ThrottleConfig {
    pub account_max_failures: u32,
    pub account_lockout: Duration,
    pub account_lockout_max: Duration,
    pub ip_max_failures: u32,
    pub ip_window: Duration,
}

impl Default for ThrottleConfig {
    fn default() -> Self {
        Self {
            account_max_failures: 5,
            account_lockout: Duration::seconds(30),
            account_lockout_max: Duration::minutes(15),
            ip_max_failures: 100,
            ip_window: Duration::minutes(15),
        }
    }
}

#[derive(Debug, Default)]
struct AccountState {
    consecutive_failures: u32,
    locked_until: Option<NaiveDateTime>,
}

#[derive(Debug, Default)]
struct AddressState {
    window_start: Option<NaiveDateTime>,
    failures: u32,
}

/// Most entries kept before expired ones are pruned.
const PRUNE_ABOVE: usize = 10_000;

#[derive(Debug)]
pub struct LoginThrottle {
    config: ThrottleConfig,
    accounts: Mutex<HashMap<String, AccountState>>,
    addresses: Mutex<HashMap<IpAddr, AddressState>>,
}

impl LoginThrottle {
    pub fn new(config: ThrottleConfig) -> Self {
        Self { config, accounts: Mutex::default(), addresses: Mutex::default() }
    }

    /// Seconds to wait before another attempt is allowed, or `None` when it may go ahead.
    pub fn check(&self, account_key: &str, address: Option<IpAddr>, now: NaiveDateTime) -> Option<u64> {
        let account_wait = lock(&self.accounts)
            .get(account_key)
            .and_then(|s| s.locked_until)
            .filter(|until| *until > now)
            .map(|until| until - now);
        let address_wait = address.and_then(|ip| {
            let addresses = lock(&self.addresses);
            let state = addresses.get(&ip)?;
            let start = state.window_start?;
            let end = start + self.config.ip_window;
            (state.failures >= self.config.ip_max_failures && end > now).then(|| end - now)
        });
        account_wait.max(address_wait).map(ceil_secs)
    }

    /// Records a failed attempt.
    pub fn failed(&self, account_key: &str, address: Option<IpAddr>, now: NaiveDateTime) {
        {
            let mut accounts = lock(&self.accounts);
            if accounts.len() > PRUNE_ABOVE {
                accounts.retain(|_, s| s.locked_until.is_some_and(|u| u > now) || s.consecutive_failures > 0);
            }
            let state = accounts.entry(account_key.to_owned()).or_default();
            state.consecutive_failures = state.consecutive_failures.saturating_add(1);
            if state.consecutive_failures >= self.config.account_max_failures {
                let extra = state.consecutive_failures - self.config.account_max_failures;
                let factor = 1_i32 << extra.min(16);
                let lockout = (self.config.account_lockout * factor).min(self.config.account_lockout_max);
                state.locked_until = Some(now + lockout);
            }
        }
        if let Some(ip) = address {
            let mut addresses = lock(&self.addresses);
            if addresses.len() > PRUNE_ABOVE {
                let window = self.config.ip_window;
                addresses.retain(|_, s| s.window_start.is_some_and(|start| start + window > now));
            }
            let state = addresses.entry(ip).or_default();
            match state.window_start {
                Some(start) if start + self.config.ip_window > now => state.failures += 1,
                _ => {
                    state.window_start = Some(now);
                    state.failures = 1;
                }
            }
        }
    }

    /// Records a successful login: the account's failure streak ends.
    pub fn succeeded(&self, account_key: &str) {
        lock(&self.accounts).remove(account_key);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding the lock cannot leave the maps inconsistent; carry on.
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn ceil_secs(wait: Duration) -> u64 {
    let millis = wait.num_milliseconds().max(0);
    u64::try_from((millis + 999) / 1000).unwrap_or(1).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::test_support::at;

    fn config() -> ThrottleConfig {
        ThrottleConfig {
            account_max_failures: 3,
            account_lockout: Duration::seconds(30),
            account_lockout_max: Duration::seconds(100),
            ip_max_failures: 5,
            ip_window: Duration::seconds(60),
        }
    }

    #[test]
    fn account_locks_after_consecutive_failures_and_unlocks_later() {
        let t = LoginThrottle::new(config());
        let now = at(10, 0, 0);
        for _ in 0..2 {
            t.failed("alice", None, now);
        }
        assert_eq!(t.check("alice", None, now), None);
        t.failed("alice", None, now);
        assert_eq!(t.check("alice", None, now), Some(30));
        assert_eq!(t.check("bob", None, now), None, "other accounts are unaffected");
        assert_eq!(t.check("alice", None, at(10, 0, 31)), None);
        // The next failure doubles the lockout, capped at the maximum.
        t.failed("alice", None, at(10, 0, 31));
        assert_eq!(t.check("alice", None, at(10, 0, 31)), Some(60));
        t.failed("alice", None, at(10, 1, 31));
        t.failed("alice", None, at(10, 1, 31));
        assert_eq!(t.check("alice", None, at(10, 1, 31)), Some(100));
    }

    #[test]
    fn success_resets_the_streak() {
        let t = LoginThrottle::new(config());
        let now = at(10, 0, 0);
        t.failed("alice", None, now);
        t.failed("alice", None, now);
        t.succeeded("alice");
        t.failed("alice", None, now);
        t.failed("alice", None, now);
        assert_eq!(t.check("alice", None, now), None);
    }

    #[test]
    fn address_limit_counts_failures_across_accounts_within_the_window() {
        let t = LoginThrottle::new(config());
        let ip: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        for i in 0..5 {
            t.failed(&format!("user{i}"), Some(ip), at(10, 0, i));
        }
        assert_eq!(t.check("fresh", Some(ip), at(10, 0, 10)), Some(50));
        assert_eq!(t.check("fresh", Some(other), at(10, 0, 10)), None);
        assert_eq!(t.check("fresh", Some(ip), at(10, 1, 0)), None, "the window has passed");
    }
}
