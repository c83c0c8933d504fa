//! Job workers: tasks that claim jobs from the database queue and run them (the renditions of
//! new GIFs, the maker's GIFs, the text in GIFs). `gifshelf serve` runs `GIFSHELF_WORKERS` of them beside the web server;
//! `gifshelf worker` runs only them, so transcoding can live on other machines. An idle worker
//! looks at the queue every `poll`, and at once when PostgreSQL says jobs were queued
//! ([`Database::job_wakeups`]).

use std::sync::Arc;
use std::time::Duration;

use gifshelf_app::jobs::{JobRunner, RenditionMaker, RunnerSettings, TextReading};
use gifshelf_app::make::MakeService;
use gifshelf_db::{Database, JobWakeups};
use gifshelf_domain::ports::Clock;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// What workers run: the renditions of new GIFs, the maker's GIFs (none: those jobs wait for a
/// worker that has the maker), the text in GIFs (none: tesseract is off or missing).
#[derive(Clone)]
pub struct Runners {
    pub renditions: Arc<RenditionMaker>,
    pub maker: Option<Arc<MakeService>>,
    pub text: Option<Arc<TextReading>>,
}

/// Running workers; dropping them without [`Workers::stop`] leaves them running.
pub struct Workers {
    stop: watch::Sender<bool>,
    handles: Vec<JoinHandle<()>>,
}

/// This process's part of a worker name: host and process id (`locked_by` in the queue).
fn process_name() -> String {
    let host = std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".into());
    format!("{host}:{}", std::process::id())
}

impl Workers {
    /// Starts `count` workers (none for 0).
    pub fn start(
        count: usize,
        queue: Arc<Database>,
        runners: Runners,
        settings: RunnerSettings,
        poll: Duration,
        clock: Arc<dyn Clock>,
    ) -> Self {
        let (stop, stopped) = watch::channel(false);
        let process = process_name();
        let wakeups = if count > 0 { queue.job_wakeups() } else { None };
        let handles = (1..=count)
            .map(|n| {
                let runner = JobRunner::new(
                    queue.clone(),
                    runners.renditions.clone(),
                    clock.clone(),
                    format!("{process}:{n}"),
                    settings,
                )
                .with_text(runners.text.clone());
                let runner = match &runners.maker {
                    Some(maker) => runner.with_maker(maker.clone()),
                    None => runner,
                };
                tokio::spawn(work(runner, poll, wakeups.clone(), stopped.clone()))
            })
            .collect::<Vec<_>>();
        if count > 0 {
            tracing::info!(workers = count, "job workers started");
        }
        Self { stop, handles }
    }

    /// Stops taking jobs and ends the workers. A job cut off here runs again once its lease
    /// has passed (`GIFSHELF_JOB_LEASE_SECS`).
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        for handle in self.handles {
            handle.abort();
            let _ = handle.await;
        }
    }
}

async fn work(runner: JobRunner, poll: Duration, mut wakeups: Option<JobWakeups>, mut stopped: watch::Receiver<bool>) {
    loop {
        if *stopped.borrow() {
            return;
        }
        if let Some(wakeups) = &mut wakeups {
            wakeups.mark_seen();
        }
        let idle = match runner.run_once().await {
            Ok(Some(_)) => false,
            Ok(None) => true,
            Err(err) => {
                tracing::warn!(worker = runner.name(), error = %err, "the job queue cannot be read; trying again");
                true
            }
        };
        if idle {
            tokio::select! {
                _ = tokio::time::sleep(poll) => {}
                _ = woken(&mut wakeups) => {}
                _ = stopped.changed() => return,
            }
        }
    }
}

/// Once jobs may have been queued; never without wake-ups (SQLite), where only the poll remains.
async fn woken(wakeups: &mut Option<JobWakeups>) {
    match wakeups {
        Some(wakeups) => wakeups.woken().await,
        None => std::future::pending().await,
    }
}
