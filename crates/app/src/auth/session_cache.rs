//! Session checks reused for a few seconds. A media page asks for dozens of files at once, each with
//! the same session: checking it once, not once per file, spares the database a read per request.
//! A check is reused only under the [`AccountChanges`] generation it was made under, so a change to
//! any account (a disable, a new role or password, a removal) ends every reuse at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::{Duration, NaiveDateTime};
use gifshelf_domain::ports::AccountChanges;

use super::Actor;

/// The longest a check is reused when nothing changes.
pub const REUSE_FOR: Duration = Duration::seconds(30);
/// Sessions remembered at most; past it, the stale ones go, and if none is stale, all.
const CAPACITY: usize = 10_000;

struct Entry {
    actor: Actor,
    generation: u64,
    until: NaiveDateTime,
}

/// Recent session checks by token.
pub(crate) struct SessionCache {
    changes: Arc<dyn AccountChanges>,
    entries: Mutex<HashMap<String, Entry>>,
}

impl SessionCache {
    pub(crate) fn new(changes: Arc<dyn AccountChanges>) -> Self {
        Self { changes, entries: Mutex::new(HashMap::new()) }
    }

    /// The current generation: a check reads it before it reads the account, so a change
    /// committed meanwhile makes the check stale at once.
    pub(crate) fn generation(&self) -> Option<u64> {
        self.changes.generation()
    }

    /// The actor `token` opened under `generation` (the current one), before `now` passed its
    /// reuse time.
    pub(crate) fn get(&self, token: &str, generation: u64, now: NaiveDateTime) -> Option<Actor> {
        let entries = self.entries.lock().ok()?;
        let entry = entries.get(token)?;
        (entry.generation == generation && now < entry.until).then(|| entry.actor.clone())
    }

    /// Remembers a check made under `generation` until `until`.
    pub(crate) fn put(&self, token: &str, actor: &Actor, generation: u64, now: NaiveDateTime, until: NaiveDateTime) {
        let Ok(mut entries) = self.entries.lock() else { return };
        if entries.len() >= CAPACITY {
            entries.retain(|_, e| e.generation == generation && e.until > now);
            if entries.len() >= CAPACITY {
                entries.clear();
            }
        }
        entries.insert(token.to_owned(), Entry { actor: actor.clone(), generation, until });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;

    use gifshelf_domain::auth::SessionClaims;
    use gifshelf_domain::ports::{MockAccountChanges, MockClock};
    use gifshelf_domain::user::Role;

    use crate::auth::test_support::{at, user, Mocks};
    use crate::auth::{AuthConfig, AuthService};
    use crate::AppError;

    /// A token of alice's issued at 9:30, expiring at `expires`.
    fn mocks(expires: chrono::NaiveDateTime, reads: usize) -> Mocks {
        let mut m = Mocks::new(at(10, 0, 0));
        m.tokens.expect_verify().returning(move |_| {
            Ok(SessionClaims {
                username: "alice".into(),
                role: Role::User,
                issued_at: at(9, 30, 0).and_utc().timestamp(),
                expires_at: expires.and_utc().timestamp(),
            })
        });
        m.users.expect_find_by_username().times(reads).returning(|_| Ok(user("alice", Role::User)));
        m
    }

    /// Generations as `changes` holds them (`u64::MAX`: none can be seen).
    fn service(m: Mocks, changes: Arc<AtomicU64>) -> AuthService {
        let mut port = MockAccountChanges::new();
        port.expect_generation().returning(move || Some(changes.load(Ordering::SeqCst)).filter(|&g| g != u64::MAX));
        m.service(AuthConfig::default()).with_session_cache(Arc::new(port))
    }

    #[tokio::test]
    async fn a_check_is_reused_while_no_account_changes() {
        let auth = service(mocks(at(11, 0, 0), 1), Arc::new(AtomicU64::new(3)));
        for _ in 0..5 {
            assert_eq!(auth.authenticate("t").await.map(|a| a.role).ok(), Some(Role::User));
        }
    }

    #[tokio::test]
    async fn a_change_to_any_account_makes_the_next_check_read_again() {
        let changes = Arc::new(AtomicU64::new(3));
        let auth = service(mocks(at(11, 0, 0), 2), changes.clone());
        assert!(auth.authenticate("t").await.is_ok());
        changes.store(4, Ordering::SeqCst);
        assert!(auth.authenticate("t").await.is_ok());
        assert!(auth.authenticate("t").await.is_ok());
    }

    #[tokio::test]
    async fn nothing_is_reused_while_changes_cannot_be_seen() {
        let auth = service(mocks(at(11, 0, 0), 3), Arc::new(AtomicU64::new(u64::MAX)));
        for _ in 0..3 {
            assert!(auth.authenticate("t").await.is_ok());
        }
    }

    #[tokio::test]
    async fn a_check_is_not_reused_past_the_token_expiry_or_the_reuse_time() {
        // The token expires at 10:00:10; the clock says 10:00:00, then 10:00:20.
        let mut m = mocks(at(10, 0, 10), 2);
        let mut clock = MockClock::new();
        let mut times = [at(10, 0, 0), at(10, 0, 20)].into_iter();
        clock.expect_now().returning(move || times.next().unwrap_or(at(10, 0, 20)));
        m.clock = clock;
        let auth = service(m, Arc::new(AtomicU64::new(1)));
        assert!(auth.authenticate("t").await.is_ok());
        assert!(auth.authenticate("t").await.is_ok());
    }

    #[tokio::test]
    async fn a_refusal_is_never_reused() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.tokens.expect_verify().returning(|_| {
            let issued_at = at(9, 30, 0).and_utc().timestamp();
            Ok(SessionClaims { username: "alice".into(), role: Role::User, issued_at, expires_at: issued_at + 3600 })
        });
        let mut disabled = user("alice", Role::User);
        disabled.disabled_at = Some(at(9, 45, 0));
        m.users.expect_find_by_username().times(2).returning(move |_| Ok(disabled.clone()));
        let auth = service(m, Arc::new(AtomicU64::new(1)));
        for _ in 0..2 {
            assert!(matches!(auth.authenticate("t").await, Err(AppError::AccountDisabled)));
        }
    }
}
