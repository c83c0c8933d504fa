//! PostgreSQL notifications, each channel listened to by a thread with its own connection, which
//! blocks on its socket and passes what arrives on:
//!
//! - `gifshelf_jobs` wakes idle job workers. The `jobs` table's trigger (migration
//!   `000016_job_notify`) sends it when a statement queues jobs, delivered on commit. A wake-up is a
//!   hint and never the only way to a job: workers still poll, for jobs due later, for expired
//!   leases, and for what was queued while the listener was reconnecting. SQLite has no such
//!   signal: its workers only poll.
//! - `gifshelf_accounts` ends the reuse of session checks (`accounts.rs`).

mod accounts;
mod libpq;

use std::time::{Duration, Instant};

use tokio::sync::watch;

pub use self::accounts::AccountGenerations;
use self::libpq::Listener;
use crate::connection::Database;

/// How long a listener blocks before looking whether anyone still wants its notifications.
const CHECK_EVERY: Duration = Duration::from_secs(1);
/// How often a listener runs a query of its own: a connection a firewall dropped in silence
/// would otherwise wait forever.
const PROBE_EVERY: Duration = Duration::from_secs(60);
/// Reconnection back-off: doubles from the first pause up to the last.
const RETRY_FIRST: Duration = Duration::from_millis(500);
const RETRY_MAX: Duration = Duration::from_secs(30);

/// Where a listener thread passes its channel's notifications.
trait Subscriber {
    /// The channel listened to.
    const CHANNEL: &'static str;
    /// What the subscriber is, for the log ("new jobs").
    const WHAT: &'static str;
    /// What happens without the notifications, for the log ("workers poll").
    const MEANWHILE: &'static str;

    /// Whether anyone still wants the notifications; the thread ends when nobody does.
    fn wanted(&self) -> bool;
    /// Notifications arrived (or may have been missed while nobody listened).
    fn notified(&self);
    /// Whether notifications are being listened to now.
    fn listening(&self, on: bool);
}

/// Tells an idle worker that jobs may have been queued. Each worker keeps its own clone.
#[derive(Debug, Clone)]
pub struct JobWakeups(watch::Receiver<u64>);

impl JobWakeups {
    /// Forgets the wake-ups so far. Call it before looking at the queue: [`JobWakeups::woken`]
    /// then returns for any job queued after that look, even one queued before the wait began.
    pub fn mark_seen(&mut self) {
        self.0.borrow_and_update();
    }

    /// Returns once jobs may have been queued since [`JobWakeups::mark_seen`] (at once when they
    /// already were). Never returns if the listener thread is gone: the worker's poll remains.
    pub async fn woken(&mut self) {
        if self.0.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

struct Jobs(watch::Sender<u64>);

impl Subscriber for Jobs {
    const CHANNEL: &'static str = "gifshelf_jobs";
    const WHAT: &'static str = "new jobs";
    const MEANWHILE: &'static str = "workers poll";

    fn wanted(&self) -> bool {
        !self.0.is_closed()
    }

    fn notified(&self) {
        self.0.send_modify(|n| *n = n.wrapping_add(1));
    }

    fn listening(&self, _on: bool) {}
}

impl Database {
    /// Wake-ups for idle job workers when jobs are queued, or `None` on SQLite (its workers only
    /// poll). On PostgreSQL each call starts a thread with one more connection that LISTENs for
    /// the `jobs` trigger's notifications (so call it once and clone the handle); the thread ends
    /// within a second of the last handle being dropped.
    pub fn job_wakeups(&self) -> Option<JobWakeups> {
        let url = self.postgres_url()?.to_owned();
        let (wake, wakeups) = watch::channel(0_u64);
        spawn_listener(url, Jobs(wake)).then_some(JobWakeups(wakeups))
    }
}

/// Starts the thread listening for `subscriber`; `false` when it cannot start.
fn spawn_listener<S: Subscriber + Send + 'static>(url: String, subscriber: S) -> bool {
    let thread = std::thread::Builder::new()
        .name(format!("{}-listener", S::CHANNEL.replace('_', "-")))
        .spawn(move || listen(&url, &subscriber));
    match thread {
        Ok(_) => true,
        Err(err) => {
            tracing::warn!(error = %err, "cannot listen for {}; {}", S::WHAT, S::MEANWHILE);
            false
        }
    }
}

/// The listener thread: (re)connects with back-off until nobody wants the notifications. One line
/// is logged when the connection is lost or cannot be made, and one when it is back.
fn listen<S: Subscriber>(url: &str, subscriber: &S) {
    let mut retry = RETRY_FIRST;
    let (mut connected_once, mut outage_logged) = (false, false);
    while subscriber.wanted() {
        match Listener::connect(url, S::CHANNEL) {
            Ok(mut listener) => {
                if connected_once {
                    tracing::info!("listening for {} again", S::WHAT);
                } else {
                    tracing::info!(channel = S::CHANNEL, "listening for {} (PostgreSQL LISTEN)", S::WHAT);
                }
                connected_once = true;
                retry = RETRY_FIRST;
                subscriber.listening(true);
                // What was sent while nobody listened announced itself to no one.
                subscriber.notified();
                let outcome = relay(&mut listener, subscriber);
                subscriber.listening(false);
                let Err(error) = outcome else { return };
                if !subscriber.wanted() {
                    return;
                }
                tracing::warn!(%error, "lost the connection listening for {}; {} until it is back", S::WHAT, S::MEANWHILE);
            }
            Err(error) if outage_logged => tracing::debug!(%error, "still cannot listen for {}", S::WHAT),
            Err(error) => tracing::warn!(%error, "cannot listen for {}; {} until it works", S::WHAT, S::MEANWHILE),
        }
        outage_logged = true;
        pause(retry, subscriber);
        retry = (retry * 2).min(RETRY_MAX);
    }
}

/// Passes notifications on until the connection breaks (`Err`) or nobody wants them (`Ok`).
fn relay<S: Subscriber>(listener: &mut Listener, subscriber: &S) -> Result<(), String> {
    let mut probed = Instant::now();
    while subscriber.wanted() {
        let mut notified = listener.wait(CHECK_EVERY)?;
        if probed.elapsed() >= PROBE_EVERY {
            notified += listener.probe()?;
            probed = Instant::now();
        }
        if notified > 0 {
            subscriber.notified();
        }
    }
    Ok(())
}

/// Sleeps `total`, or less once nobody wants the notifications.
fn pause<S: Subscriber>(total: Duration, subscriber: &S) {
    let until = Instant::now() + total;
    while subscriber.wanted() {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        std::thread::sleep(left.min(CHECK_EVERY));
    }
}
