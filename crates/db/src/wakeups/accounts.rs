//! The account generation that reused session checks are made under (the `AccountChanges` port).
//! It moves on when this process changes an account (after the change commits, before its call
//! returns) and when another process does, as the `users` table's triggers (migration
//! `000029_account_notify`) tell: on PostgreSQL by `NOTIFY gifshelf_accounts` on commit, to a
//! thread that LISTENs; on SQLite by a counter (`account_changes`) that a thread reads every
//! [`SQLITE_LOOK_EVERY`]. While those are not heard (before the first connection or read, after a
//! failed one) the generation is unknown and nothing is reused; once they are again it moves on,
//! for the changes nobody heard.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use diesel::sql_types::BigInt;
use diesel::{QueryableByName, RunQueryDsl};
use gifshelf_domain::ports::AccountChanges;

use super::Subscriber;
use crate::connection::{Backend, Database};

/// How often a server on SQLite reads the count of account changes.
pub const SQLITE_LOOK_EVERY: Duration = Duration::from_millis(100);

#[derive(Debug, Default)]
struct Generation {
    number: AtomicU64,
    /// Whether other processes' changes are heard now (the listener listens, the counter is read).
    seen: AtomicBool,
    /// Whether the thread that hears them was started.
    started: AtomicBool,
}

impl Generation {
    fn move_on(&self) {
        self.number.fetch_add(1, Ordering::SeqCst);
    }
}

/// The generation of the accounts, shared by a database's clones.
#[derive(Debug, Clone)]
pub struct AccountGenerations(Arc<Generation>);

impl AccountGenerations {
    /// Nothing is reused until other processes' changes are heard.
    pub(crate) fn new() -> Self {
        Self(Arc::new(Generation::default()))
    }

    /// An account changed: checks made before are stale.
    pub(crate) fn moved_on(&self) {
        self.0.move_on();
    }
}

impl AccountChanges for AccountGenerations {
    fn generation(&self) -> Option<u64> {
        // The number is read after `seen`: a reconnection moves it on after setting `seen`.
        self.0.seen.load(Ordering::SeqCst).then(|| self.0.number.load(Ordering::SeqCst))
    }
}

/// The listener's handle: it ends when the database's last clone is dropped.
struct Accounts(Weak<Generation>);

impl Subscriber for Accounts {
    const CHANNEL: &'static str = "gifshelf_accounts";
    const WHAT: &'static str = "account changes";
    const MEANWHILE: &'static str = "every session check reads the database";

    fn wanted(&self) -> bool {
        self.0.strong_count() > 0
    }

    fn notified(&self) {
        if let Some(generation) = self.0.upgrade() {
            generation.move_on();
        }
    }

    fn listening(&self, on: bool) {
        if let Some(generation) = self.0.upgrade() {
            generation.seen.store(on, Ordering::SeqCst);
        }
    }
}

impl Database {
    /// The account generation, for reusing session checks. The first call starts a thread that
    /// hears other processes' changes: on PostgreSQL with one more connection that LISTENs, on
    /// SQLite reading the counter with a pooled connection. It ends within a second of the
    /// database's last clone being dropped.
    pub fn account_changes(&self) -> AccountGenerations {
        let generations = self.account_generations();
        if !generations.0.started.swap(true, Ordering::SeqCst) {
            let weak = Arc::downgrade(&generations.0);
            match (self.backend(), self.postgres_url()) {
                (Backend::Postgres, Some(url)) => {
                    super::spawn_listener(url.to_owned(), Accounts(weak));
                }
                _ => {
                    let db = self.without_generations();
                    let thread = std::thread::Builder::new()
                        .name("gifshelf-account-changes".into())
                        .spawn(move || read_changes(&db, &weak));
                    if let Err(err) = thread {
                        tracing::warn!(error = %err, "cannot look for account changes; every session check reads the database");
                    }
                }
            }
        }
        generations.clone()
    }
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    generation: i64,
}

/// SQLite's thread: reads the counter every [`SQLITE_LOOK_EVERY`] until the database is dropped.
fn read_changes(db: &Database, generation: &Weak<Generation>) {
    let mut last = None;
    let mut failing = false;
    while let Some(shared) = generation.upgrade() {
        let read = db.with_conn(|conn| {
            diesel::sql_query("SELECT generation FROM account_changes")
                .get_result::<Count>(conn)
                .map_err(|e| crate::DbError::Connect(Box::new(e)))
        });
        match read {
            Ok(Count { generation: now }) => {
                if last != Some(now) {
                    shared.move_on();
                    last = Some(now);
                }
                shared.seen.store(true, Ordering::SeqCst);
                failing = false;
            }
            Err(error) => {
                shared.seen.store(false, Ordering::SeqCst);
                last = None;
                if !failing {
                    tracing::warn!(%error, "cannot read the account changes; every session check reads the database");
                }
                failing = true;
            }
        }
        drop(shared);
        std::thread::sleep(SQLITE_LOOK_EVERY);
    }
}
