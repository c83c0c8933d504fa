//! Login throttling every instance shares (PostgreSQL): the same rules as [`LoginThrottle`], counted
//! in [`SharedCounters`] so that guesses spread over two instances are throttled as on one.
//!
//! An account's counter is its failure streak (it starts over a day after its last attempt, and a
//! success forgets it); its lockout follows from the count and the last attempt. An address's
//! counter is a fixed window, counted first and taken back when over the limit, atomically. The
//! account is read (a lockout refuses at once), then counted: an attempt whose count shows others
//! counted in between is refused past the limit, so parallel guesses pass no more than one
//! instance lets through.
//! While the database cannot count, this instance's own memory does (logged).

use std::net::IpAddr;
use std::sync::Arc;

use chrono::{Duration, NaiveDateTime};
use gifshelf_domain::ports::{Counter, Restart, SharedCounters};
use gifshelf_domain::RepoError;

use super::throttle::{account_key, address_key, ceil_secs, LoginThrottle, STREAK_MEMORY};

pub struct Throttle {
    local: LoginThrottle,
    shared: Option<Arc<dyn SharedCounters>>,
}

fn account_id(account: &str) -> String {
    format!("login-account:{}", account_key(account))
}

fn address_id(ip: IpAddr) -> String {
    format!("login-address:{}", address_key(ip))
}

impl Throttle {
    pub fn new(local: LoginThrottle) -> Self {
        Self { local, shared: None }
    }

    #[must_use]
    pub fn shared_in(self, counters: Arc<dyn SharedCounters>) -> Self {
        Self { shared: Some(counters), ..self }
    }

    /// Starts an attempt: `Err(seconds to wait)` while the account or the address is throttled;
    /// otherwise the attempt counts as a failure until [`Self::succeeded`] refunds it.
    ///
    /// # Errors
    /// The seconds to wait.
    pub async fn begin(&self, account: &str, address: Option<IpAddr>, now: NaiveDateTime) -> Result<(), u64> {
        let Some(shared) = &self.shared else { return self.local.begin(account, address, now) };
        match self.begin_shared(shared.as_ref(), account, address, now).await {
            Ok(answer) => answer,
            Err(e) => {
                tracing::warn!(error = %e, "shared login throttling unavailable: counting in memory");
                self.local.begin(account, address, now)
            }
        }
    }

    async fn begin_shared(
        &self,
        shared: &dyn SharedCounters,
        account: &str,
        address: Option<IpAddr>,
        now: NaiveDateTime,
    ) -> Result<Result<(), u64>, RepoError> {
        let account = account_id(account);
        let streak = shared.read(&account).await?.filter(|c| c.last + STREAK_MEMORY > now);
        if let Some(until) = streak.and_then(|c| self.locked_until(c, now)) {
            if until > now {
                return Ok(Err(ceil_secs(until - now)));
            }
        }
        let config = self.local.config();
        if let Some(ip) = address {
            let id = address_id(ip);
            let restart = Restart::IfBeganBy(now - config.ip_window);
            let counted = shared.bump(&id, now, restart).await?;
            if counted.count > i64::from(config.ip_max_failures) {
                shared.refund(&id).await?;
                return Ok(Err(ceil_secs(counted.began + config.ip_window - now)));
            }
        }
        let counted = shared.bump(&account, now, Restart::IfLastBy(now - STREAK_MEMORY)).await?;
        // Attempts counted between this one's read and its count are racing it: past the limit,
        // the lockout the earlier of them set (just now) refuses this one, as one instance would.
        let raced = counted.count != streak.map_or(0, |c| c.count) + 1;
        let earlier = u32::try_from(counted.count - 1).unwrap_or(u32::MAX);
        if let (true, Some(lockout)) = (raced, self.local.lockout(earlier)) {
            shared.refund(&account).await?;
            if let Some(ip) = address {
                shared.refund(&address_id(ip)).await?;
            }
            return Ok(Err(ceil_secs(lockout)));
        }
        Ok(Ok(()))
    }

    /// When the account's streak `counter` keeps it locked until, if it does.
    fn locked_until(&self, counter: Counter, now: NaiveDateTime) -> Option<NaiveDateTime> {
        if counter.last + STREAK_MEMORY <= now {
            return None;
        }
        let failures = u32::try_from(counter.count).unwrap_or(u32::MAX);
        self.local.lockout(failures).map(|lockout: Duration| counter.last + lockout)
    }

    /// The attempt begun for this account and address succeeded: the streak ends and the address
    /// gets its attempt back.
    pub async fn succeeded(&self, account: &str, address: Option<IpAddr>) {
        let Some(shared) = &self.shared else { return self.local.succeeded(account, address) };
        let mut result = shared.forget(&account_id(account)).await;
        if let (Ok(()), Some(ip)) = (&result, address) {
            result = shared.refund(&address_id(ip)).await;
        }
        if let Err(e) = result {
            tracing::warn!(error = %e, "shared login throttling unavailable: counting in memory");
            self.local.succeeded(account, address);
        }
    }
}
