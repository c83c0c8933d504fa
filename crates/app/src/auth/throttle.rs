//! Throttling of failed logins, per account and per client address (docs/security.md "Brute force").
//!
//! Per account: after `account_max_failures` consecutive failures the account refuses logins for
//! `account_lockout`, doubling with every further failure up to `account_lockout_max`; a success
//! resets it, and a streak is forgotten a day after its last attempt. Per address: at most
//! `ip_max_failures` failures within `ip_window` (generous, since many people can share one
//! address); IPv6 addresses count per /64, the block one subscriber usually holds.
//!
//! An attempt is counted when it begins, before the password is checked, and refunded when it
//! succeeds: a burst of parallel guesses cannot pass the limit while the first ones are still
//! hashing. State lives in memory, bounded: expired entries are pruned as the maps grow, and past a
//! hard cap the entries idle longest are dropped, so a flood of distinct names cannot grow memory.

use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;

use chrono::{Duration, NaiveDateTime};

use crate::bounded::Bounded;
#[cfg(test)]
use crate::bounded::HARD_CAP;

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

/// How long a failure streak is remembered after its last attempt.
pub(crate) const STREAK_MEMORY: Duration = Duration::days(1);
/// Characters of an account key that count (usernames are far shorter; this bounds the key).
const KEY_CHARS: usize = 64;

#[derive(Debug)]
struct AccountState {
    consecutive_failures: u32,
    locked_until: Option<NaiveDateTime>,
    last_attempt: NaiveDateTime,
}

#[derive(Debug)]
struct AddressState {
    window_start: NaiveDateTime,
    failures: u32,
}

/// The throttling key of an account: the username as typed, trimmed, lower-cased, bounded.
pub fn account_key(username: &str) -> String {
    username.trim().chars().take(KEY_CHARS).flat_map(char::to_lowercase).collect()
}

/// The throttling key of an address: IPv4 as is (also when mapped into IPv6), IPv6 by its /64.
pub(crate) fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        },
    }
}

#[derive(Debug)]
pub struct LoginThrottle {
    config: ThrottleConfig,
    accounts: Mutex<Bounded<String, AccountState>>,
    addresses: Mutex<Bounded<IpAddr, AddressState>>,
}

impl LoginThrottle {
    pub fn new(config: ThrottleConfig) -> Self {
        Self { config, accounts: Mutex::default(), addresses: Mutex::default() }
    }

    /// Starts an attempt: `Err(seconds to wait)` while the account or the address is throttled;
    /// otherwise the attempt is counted as a failure until [`Self::succeeded`] refunds it.
    ///
    /// # Errors
    /// The seconds to wait before another attempt is allowed.
    pub fn begin(&self, account: &str, address: Option<IpAddr>, now: NaiveDateTime) -> Result<(), u64> {
        let key = account_key(account);
        let address = address.map(address_key);
        // Both maps are locked together, in one order, so that check and count are one step.
        let mut accounts = lock(&self.accounts);
        let mut addresses = lock(&self.addresses);
        let account_wait =
            accounts.map.get(&key).and_then(|s| s.locked_until).filter(|until| *until > now).map(|until| until - now);
        let address_wait = address.and_then(|ip| {
            let state = addresses.map.get(&ip)?;
            let end = state.window_start + self.config.ip_window;
            (state.failures >= self.config.ip_max_failures && end > now).then(|| end - now)
        });
        if let Some(wait) = account_wait.max(address_wait) {
            return Err(ceil_secs(wait));
        }
        self.count_account(&mut accounts, key, now);
        if let Some(ip) = address {
            self.count_address(&mut addresses, ip, now);
        }
        Ok(())
    }

    fn count_account(&self, accounts: &mut Bounded<String, AccountState>, key: String, now: NaiveDateTime) {
        accounts.make_room(
            &key,
            |s| s.locked_until.is_none_or(|u| u <= now) && s.last_attempt + STREAK_MEMORY <= now,
            |s| (s.locked_until.is_some_and(|u| u > now), s.last_attempt),
        );
        let state = accounts.map.entry(key).or_insert(AccountState {
            consecutive_failures: 0,
            locked_until: None,
            last_attempt: now,
        });
        if state.last_attempt + STREAK_MEMORY <= now {
            state.consecutive_failures = 0;
        }
        state.last_attempt = now;
        state.consecutive_failures = state.consecutive_failures.saturating_add(1);
        if let Some(lockout) = self.lockout(state.consecutive_failures) {
            state.locked_until = Some(now + lockout);
        }
    }

    /// How long an account is locked after `failures` consecutive failures, if at all: from the
    /// limit on, the lockout doubles with every further failure up to its maximum.
    pub(crate) fn lockout(&self, failures: u32) -> Option<Duration> {
        let extra = failures.checked_sub(self.config.account_max_failures)?;
        let factor = 1_i32 << extra.min(16);
        Some((self.config.account_lockout * factor).min(self.config.account_lockout_max))
    }

    pub(crate) fn config(&self) -> &ThrottleConfig {
        &self.config
    }

    fn count_address(&self, addresses: &mut Bounded<IpAddr, AddressState>, ip: IpAddr, now: NaiveDateTime) {
        let window = self.config.ip_window;
        addresses.make_room(&ip, |s| s.window_start + window <= now, |s| (false, s.window_start));
        let state = addresses.map.entry(ip).or_insert(AddressState { window_start: now, failures: 0 });
        if state.window_start + window <= now {
            *state = AddressState { window_start: now, failures: 0 };
        }
        state.failures = state.failures.saturating_add(1);
    }

    /// The attempt begun for this account and address succeeded: the account's streak ends and
    /// the address gets its attempt back.
    pub fn succeeded(&self, account: &str, address: Option<IpAddr>) {
        lock(&self.accounts).map.remove(&account_key(account));
        if let Some(ip) = address.map(address_key) {
            if let Some(state) = lock(&self.addresses).map.get_mut(&ip) {
                state.failures = state.failures.saturating_sub(1);
            }
        }
    }

    /// How many accounts and addresses are remembered (for tests of the memory bound).
    pub fn entries(&self) -> (usize, usize) {
        (lock(&self.accounts).map.len(), lock(&self.addresses).map.len())
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while holding the lock cannot leave the maps inconsistent; carry on.
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub(crate) fn ceil_secs(wait: Duration) -> u64 {
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
        for _ in 0..3 {
            assert_eq!(t.begin("alice", None, now), Ok(()));
        }
        assert_eq!(t.begin("alice", None, now), Err(30));
        assert_eq!(t.begin("bob", None, now), Ok(()), "other accounts are unaffected");
        // The next failure doubles the lockout, capped at the maximum.
        assert_eq!(t.begin("alice", None, at(10, 0, 31)), Ok(()));
        assert_eq!(t.begin("alice", None, at(10, 0, 31)), Err(60));
        assert_eq!(t.begin("ALICE ", None, at(10, 1, 31)), Ok(()), "the key ignores case and spaces");
        assert_eq!(t.begin("alice", None, at(10, 1, 31)), Err(100));
    }

    #[test]
    fn success_resets_the_streak_and_refunds_the_address() {
        let t = LoginThrottle::new(config());
        let ip: IpAddr = [10, 0, 0, 1].into();
        let now = at(10, 0, 0);
        for _ in 0..2 {
            assert_eq!(t.begin("alice", Some(ip), now), Ok(()));
        }
        assert_eq!(t.begin("alice", Some(ip), now), Ok(()));
        t.succeeded("alice", Some(ip));
        for _ in 0..2 {
            assert_eq!(t.begin("alice", Some(ip), now), Ok(()));
        }
        assert_eq!(t.begin("alice", Some(ip), now), Ok(()), "four failures and a success: not yet at five");
        assert!(t.begin("alice", Some(ip), now).is_err());
    }

    #[test]
    fn a_streak_is_forgotten_a_day_after_its_last_attempt() {
        let t = LoginThrottle::new(config());
        for _ in 0..2 {
            assert_eq!(t.begin("alice", None, at(10, 0, 0)), Ok(()));
        }
        let next_day = at(10, 0, 0) + Duration::days(1);
        for _ in 0..2 {
            assert_eq!(t.begin("alice", None, next_day), Ok(()));
        }
        assert_eq!(t.begin("alice", None, next_day), Ok(()), "the old streak no longer counts");
        assert!(t.begin("alice", None, next_day).is_err());
    }

    #[test]
    fn parallel_attempts_never_pass_the_limit() {
        let t = std::sync::Arc::new(LoginThrottle::new(config()));
        let passed: usize = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..50)
                .map(|_| {
                    let t = t.clone();
                    scope.spawn(move || usize::from(t.begin("alice", None, at(10, 0, 0)).is_ok()))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
        });
        assert_eq!(passed, 3);
    }

    #[test]
    fn address_limit_counts_failures_across_accounts_within_the_window() {
        let t = LoginThrottle::new(config());
        let ip: IpAddr = [10, 0, 0, 1].into();
        let other: IpAddr = [10, 0, 0, 2].into();
        for i in 0..5 {
            assert_eq!(t.begin(&format!("user{i}"), Some(ip), at(10, 0, i)), Ok(()));
        }
        assert_eq!(t.begin("fresh", Some(ip), at(10, 0, 10)), Err(50));
        assert_eq!(t.begin("fresh", Some(other), at(10, 0, 10)), Ok(()));
        assert_eq!(t.begin("fresh", Some(ip), at(10, 1, 0)), Ok(()), "the window has passed");
    }

    #[test]
    fn ipv6_addresses_count_per_64_block_and_mapped_ipv4_as_ipv4() {
        let t = LoginThrottle::new(config());
        for i in 0..5u16 {
            let ip = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 1, 2, i, i, i, i));
            assert_eq!(t.begin(&format!("user{i}"), Some(ip), at(10, 0, 0)), Ok(()));
        }
        let same_block = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 1, 2, 9, 9, 9, 9));
        let next_block = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 1, 3, 0, 0, 0, 1));
        assert!(t.begin("fresh", Some(same_block), at(10, 0, 1)).is_err());
        assert_eq!(t.begin("fresh", Some(next_block), at(10, 0, 1)), Ok(()));
        let v4: IpAddr = [192, 0, 2, 7].into();
        let mapped = IpAddr::V6(Ipv6Addr::new(0, 0, 0, 0, 0, 0xffff, 0xc000, 0x0207));
        assert_eq!(address_key(mapped), v4);
    }

    #[test]
    fn keys_are_bounded() {
        assert_eq!(account_key(&"A".repeat(10_000)).len(), KEY_CHARS);
        assert_eq!(account_key("  Alice "), "alice");
    }

    #[test]
    fn memory_stays_bounded_under_a_flood_of_distinct_names_and_addresses() {
        let t = LoginThrottle::new(ThrottleConfig { ip_max_failures: 1_000_000, ..config() });
        for i in 0..100_000u32 {
            let ip = IpAddr::V4(std::net::Ipv4Addr::from(0x0a00_0000 + i));
            let _ = t.begin(&format!("user{i}"), Some(ip), at(10, 0, 0));
        }
        let (accounts, addresses) = t.entries();
        assert!(accounts <= HARD_CAP && addresses <= HARD_CAP, "{accounts} accounts, {addresses} addresses");
        // A locked account survives the eviction of idle ones.
        let t = LoginThrottle::new(config());
        for _ in 0..3 {
            let _ = t.begin("victim", None, at(10, 0, 0));
        }
        for i in 0..100_000u32 {
            let _ = t.begin(&format!("user{i}"), None, at(10, 0, 1));
        }
        assert!(t.begin("victim", None, at(10, 0, 2)).is_err(), "the flood unlocked the victim");
    }
}
