//! Wake-ups for idle job workers. On PostgreSQL the `jobs` table's trigger (migration
//! `000016_job_notify`) sends `NOTIFY gifshelf_jobs` when a statement queues jobs, delivered on
//! commit; a thread with its own connection LISTENs, blocks on its socket, and passes each
//! notification on to the workers. SQLite has no such signal: its workers only poll.
//!
//! A wake-up is a hint and never the only way to a job: workers still poll, for jobs due later,
//! for expired leases, and for what was queued while the listener was reconnecting.

mod libpq;

use std::time::{Duration, Instant};

use tokio::sync::watch;

use self::libpq::Listener;
use crate::connection::Database;

/// The channel the trigger notifies.
const CHANNEL: &str = "gifshelf_jobs";
/// How long the listener blocks before looking whether anyone still wants wake-ups.
const CHECK_EVERY: Duration = Duration::from_secs(1);
/// How often the listener runs a query of its own: a connection a firewall dropped in silence
/// would otherwise wait forever.
const PROBE_EVERY: Duration = Duration::from_secs(60);
/// Reconnection back-off: doubles from the first pause up to the last.
const RETRY_FIRST: Duration = Duration::from_millis(500);
const RETRY_MAX: Duration = Duration::from_secs(30);

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

impl Database {
    /// Wake-ups for idle job workers when jobs are queued, or `None` on SQLite (its workers only
    /// poll). On PostgreSQL each call starts a thread with one more connection that LISTENs for
    /// the `jobs` trigger's notifications (so call it once and clone the handle); the thread ends
    /// within a second of the last handle being dropped.
    pub fn job_wakeups(&self) -> Option<JobWakeups> {
        let url = self.postgres_url()?.to_owned();
        let (wake, wakeups) = watch::channel(0_u64);
        let thread =
            std::thread::Builder::new().name("gifshelf-job-listener".into()).spawn(move || listen(&url, &wake));
        match thread {
            Ok(_) => Some(JobWakeups(wakeups)),
            Err(err) => {
                tracing::warn!(error = %err, "cannot start the job listener; workers poll");
                None
            }
        }
    }
}

fn wake_all(wake: &watch::Sender<u64>) {
    wake.send_modify(|n| *n = n.wrapping_add(1));
}

/// The listener thread: (re)connects with back-off until no handle is left. One line is logged
/// when the connection is lost or cannot be made, and one when it is back.
fn listen(url: &str, wake: &watch::Sender<u64>) {
    let mut retry = RETRY_FIRST;
    let (mut connected_once, mut outage_logged) = (false, false);
    while !wake.is_closed() {
        match Listener::connect(url, CHANNEL) {
            Ok(mut listener) => {
                if connected_once {
                    tracing::info!("listening for new jobs again");
                } else {
                    tracing::info!(channel = CHANNEL, "workers wake on new jobs (PostgreSQL LISTEN)");
                }
                connected_once = true;
                retry = RETRY_FIRST;
                // Jobs queued while nobody listened announced themselves to no one.
                wake_all(wake);
                let Err(error) = relay(&mut listener, wake) else { return };
                if wake.is_closed() {
                    return;
                }
                tracing::warn!(%error, "lost the connection listening for new jobs; workers poll until it is back");
            }
            Err(error) if outage_logged => tracing::debug!(%error, "still cannot listen for new jobs"),
            Err(error) => tracing::warn!(%error, "cannot listen for new jobs; workers poll until it works"),
        }
        outage_logged = true;
        pause(retry, wake);
        retry = (retry * 2).min(RETRY_MAX);
    }
}

/// Passes notifications on until the connection breaks (`Err`) or no handle is left (`Ok`).
fn relay(listener: &mut Listener, wake: &watch::Sender<u64>) -> Result<(), String> {
    let mut probed = Instant::now();
    while !wake.is_closed() {
        let mut notified = listener.wait(CHECK_EVERY)?;
        if probed.elapsed() >= PROBE_EVERY {
            notified += listener.probe()?;
            probed = Instant::now();
        }
        if notified > 0 {
            wake_all(wake);
        }
    }
    Ok(())
}

/// Sleeps `total`, or less once no handle is left.
fn pause(total: Duration, wake: &watch::Sender<u64>) {
    let until = Instant::now() + total;
    while !wake.is_closed() {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        std::thread::sleep(left.min(CHECK_EVERY));
    }
}
