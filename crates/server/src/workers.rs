//! Job workers: tasks that claim jobs from the database queue and run them (the renditions of
//! new GIFs). `gifshelf serve` runs `GIFSHELF_WORKERS` of them beside the web server;
//! `gifshelf worker` runs only them, so transcoding can live on other machines.

use std::sync::Arc;
use std::time::Duration;

use gifshelf_app::jobs::{JobRunner, RenditionMaker, RunnerSettings};
use gifshelf_domain::ports::{Clock, JobQueue};
use tokio::sync::watch;
use tokio::task::JoinHandle;

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
        queue: Arc<dyn JobQueue>,
        renditions: Arc<RenditionMaker>,
        settings: RunnerSettings,
        poll: Duration,
        clock: Arc<dyn Clock>,
    ) -> Self {
        let (stop, stopped) = watch::channel(false);
        let process = process_name();
        let handles = (1..=count)
            .map(|n| {
                let runner = JobRunner::new(
                    queue.clone(),
                    renditions.clone(),
                    clock.clone(),
                    format!("{process}:{n}"),
                    settings,
                );
                tokio::spawn(work(runner, poll, stopped.clone()))
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

async fn work(runner: JobRunner, poll: Duration, mut stopped: watch::Receiver<bool>) {
    loop {
        if *stopped.borrow() {
            return;
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
                _ = stopped.changed() => return,
            }
        }
    }
}
