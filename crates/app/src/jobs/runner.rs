use std::sync::Arc;
use std::time::Duration;

use gifshelf_domain::job::{ClaimedJob, Task};
use gifshelf_domain::ports::{Clock, JobQueue};

use super::renditions::{Made, RenditionMaker};
use crate::AppError;

/// How a worker treats its jobs.
#[derive(Debug, Clone, Copy)]
pub struct RunnerSettings {
    /// How long a claim holds; a job whose worker died runs again after it.
    pub lease: Duration,
    /// Attempts before a job is given up (a worker that died mid-job counts as one).
    pub max_attempts: i32,
    /// The pause after the first failed attempt; it doubles with each further one (at most an hour).
    pub retry_after: Duration,
}

impl Default for RunnerSettings {
    fn default() -> Self {
        Self { lease: Duration::from_secs(15 * 60), max_attempts: 5, retry_after: Duration::from_secs(30) }
    }
}

/// What became of one claimed job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    Done,
    /// Failed; runs again from the time given.
    Retry {
        error: String,
    },
    /// Failed for the last time, or could not be understood; kept with its error.
    GaveUp {
        error: String,
    },
    /// The lease ran out while it ran and another worker took the job over.
    Lost,
}

/// One worker: claims a due job, runs it and settles it (done, retry later, or give up).
/// The loop around it (sleeping when idle, stopping) belongs to the process that runs workers.
pub struct JobRunner {
    queue: Arc<dyn JobQueue>,
    renditions: Arc<RenditionMaker>,
    clock: Arc<dyn Clock>,
    name: String,
    settings: RunnerSettings,
}

fn chrono_of(duration: Duration) -> chrono::Duration {
    chrono::Duration::from_std(duration).unwrap_or(chrono::Duration::MAX)
}

impl JobRunner {
    /// `name` identifies the worker in the queue (`locked_by`) and the log: host, process, number.
    pub fn new(
        queue: Arc<dyn JobQueue>,
        renditions: Arc<RenditionMaker>,
        clock: Arc<dyn Clock>,
        name: String,
        settings: RunnerSettings,
    ) -> Self {
        Self { queue, renditions, clock, name, settings }
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// Claims and runs one due job; `None` when none is due.
    ///
    /// # Errors
    /// Only the queue's own storage errors (a failing job is settled, not an error).
    #[tracing::instrument(skip(self), fields(worker = %self.name))]
    pub async fn run_once(&self) -> Result<Option<(ClaimedJob, Settled)>, AppError> {
        let now = self.clock.now();
        let Some(job) = self.queue.claim(&self.name, now, now + chrono_of(self.settings.lease)).await? else {
            return Ok(None);
        };
        tracing::info!(job_id = job.id.0, kind = %job.kind, payload = %job.payload, attempt = job.attempts, "job claimed");
        let settled = if job.attempts > self.settings.max_attempts {
            let error = format!(
                "gave up after {} attempts: the last one stopped without finishing (its worker died or was stopped)",
                self.settings.max_attempts
            );
            self.settle_failure(&job, error, true).await?
        } else {
            match Task::decode(&job.kind, &job.payload) {
                Err(error) => self.settle_failure(&job, error, true).await?,
                Ok(task) => match self.run(task).await {
                    Ok(()) => {
                        if self.queue.complete(job.id, &self.name).await? {
                            Settled::Done
                        } else {
                            Settled::Lost
                        }
                    }
                    Err(err) => {
                        let last = job.attempts >= self.settings.max_attempts;
                        self.settle_failure(&job, err.to_string(), last).await?
                    }
                },
            }
        };
        match &settled {
            Settled::Done => tracing::info!(job_id = job.id.0, "job done"),
            Settled::Retry { error } => tracing::warn!(job_id = job.id.0, %error, "job failed; it will run again"),
            Settled::GaveUp { error } => tracing::error!(job_id = job.id.0, %error, "job failed for good"),
            Settled::Lost => {
                tracing::warn!(job_id = job.id.0, "job lease ran out while it ran; another worker took it")
            }
        }
        Ok(Some((job, settled)))
    }

    async fn run(&self, task: Task) -> Result<(), AppError> {
        match task {
            Task::MakeRenditions(id) => self.renditions.make(id).await.map(|made| {
                if made == Made::GifGone {
                    tracing::info!(gif_id = id.0, "the GIF was deleted before its renditions were made");
                }
            }),
        }
    }

    async fn settle_failure(&self, job: &ClaimedJob, error: String, last: bool) -> Result<Settled, AppError> {
        let held = if last {
            self.queue.give_up(job.id, &self.name, &error).await?
        } else {
            let run_after = self.clock.now() + chrono_of(self.backoff(job.attempts));
            self.queue.retry(job.id, &self.name, &error, run_after).await?
        };
        Ok(match (held, last) {
            (false, _) => Settled::Lost,
            (true, true) => Settled::GaveUp { error },
            (true, false) => Settled::Retry { error },
        })
    }

    /// `retry_after`, doubled for each attempt after the first, at most an hour.
    fn backoff(&self, attempts: i32) -> Duration {
        let doublings = u32::try_from(attempts.saturating_sub(1)).unwrap_or(0).min(16);
        self.settings.retry_after.saturating_mul(1 << doublings).min(Duration::from_secs(3600))
    }
}
