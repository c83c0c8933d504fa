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
    /// Runs `make_gif` jobs; without it they fail (and are retried by a worker that has one).
    maker: Option<Arc<crate::make::MakeService>>,
    /// Runs `read_text` jobs; without it they fail (and are retried by a worker that has one).
    text: Option<Arc<super::TextReading>>,
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
        Self { queue, renditions, clock, name, settings, maker: None, text: None }
    }

    /// The maker that runs `make_gif` jobs.
    #[must_use]
    pub fn with_maker(mut self, maker: Arc<crate::make::MakeService>) -> Self {
        self.maker = Some(maker);
        self
    }

    /// The reader that runs `read_text` jobs.
    #[must_use]
    pub fn with_text(mut self, text: Option<Arc<super::TextReading>>) -> Self {
        self.text = text;
        self
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
            Task::MakeGif(id) => match &self.maker {
                Some(maker) => maker.run(id).await,
                None => Err(AppError::internal("this worker has no maker")),
            },
            Task::ReadText(id) => match &self.text {
                Some(text) => text.read(id).await.map(|read| {
                    if read == super::Read::GifGone {
                        tracing::info!(gif_id = id.0, "the GIF was deleted before its text was read");
                    }
                }),
                None => Err(AppError::internal("this worker reads no text (tesseract is off or missing)")),
            },
        }
    }

    async fn settle_failure(&self, job: &ClaimedJob, error: String, last: bool) -> Result<Settled, AppError> {
        let held = if last {
            if let (Ok(Task::MakeGif(id)), Some(maker)) = (Task::decode(&job.kind, &job.payload), &self.maker) {
                maker.give_up(id, &error).await?;
            }
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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use chrono::NaiveDateTime;
    use gifshelf_domain::gif::GifId;
    use gifshelf_domain::job::JobId;
    use gifshelf_domain::ports::{
        MockBlobStore, MockClock, MockGifRepository, MockJobQueue, MockMediaProcessor, MockRenditionRepository,
    };
    use gifshelf_domain::RepoError;

    use super::*;
    use crate::gifs::test_support::now;

    fn job(attempts: i32, payload: &str) -> ClaimedJob {
        ClaimedJob {
            id: JobId(9),
            kind: Task::MAKE_RENDITIONS.into(),
            payload: payload.into(),
            attempts,
            locked_until: now(),
        }
    }

    /// A runner on `queue` whose renditions job finds the GIF as `gifs` says.
    fn runner_with(queue: MockJobQueue, gifs: MockGifRepository, settings: RunnerSettings) -> JobRunner {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        let clock = Arc::new(clock);
        let maker = RenditionMaker::new(
            Arc::new(gifs),
            Arc::new(MockRenditionRepository::new()),
            Arc::new(MockJobQueue::new()),
            Arc::new(MockBlobStore::new()),
            Arc::new(MockMediaProcessor::new()),
            clock.clone(),
        );
        JobRunner::new(Arc::new(queue), Arc::new(maker), clock, "host:1:1".into(), settings)
    }

    /// A runner whose renditions job always fails (the GIF cannot be read).
    fn runner(queue: MockJobQueue) -> JobRunner {
        let mut gifs = MockGifRepository::new();
        gifs.expect_find().returning(|_| Err(RepoError::other("database down")));
        let settings =
            RunnerSettings { lease: Duration::from_secs(60), max_attempts: 3, retry_after: Duration::from_secs(10) };
        runner_with(queue, gifs, settings)
    }

    fn claiming(attempts: i32, payload: &'static str) -> MockJobQueue {
        let mut queue = MockJobQueue::new();
        queue
            .expect_claim()
            .withf(|worker, at, until| {
                worker == "host:1:1" && *at == now() && *until == now() + chrono::Duration::seconds(60)
            })
            .returning(move |_, _, _| Ok(Some(job(attempts, payload))));
        queue
    }

    #[tokio::test]
    async fn a_failing_job_is_retried_later_with_a_growing_pause_and_its_error() {
        let retried: Arc<Mutex<Vec<NaiveDateTime>>> = Arc::default();
        for attempts in [1, 2] {
            let mut queue = claiming(attempts, "7");
            let seen = retried.clone();
            queue.expect_retry().times(1).returning(move |id, worker, error, at| {
                assert_eq!((id, worker), (JobId(9), "host:1:1"));
                assert!(error.contains("database down"), "{error}");
                seen.lock().unwrap_or_else(|e| e.into_inner()).push(at);
                Ok(true)
            });
            queue.expect_give_up().never();
            let ran = runner(queue).run_once().await.unwrap_or_else(|e| panic!("{e}"));
            assert!(matches!(ran, Some((_, Settled::Retry { .. }))), "{ran:?}");
        }
        let at = retried.lock().unwrap_or_else(|e| e.into_inner()).clone();
        assert_eq!(at, [now() + chrono::Duration::seconds(10), now() + chrono::Duration::seconds(20)]);
    }

    #[tokio::test]
    async fn the_last_attempt_gives_up_and_keeps_the_error() {
        let mut queue = claiming(3, "7");
        queue.expect_retry().never();
        queue
            .expect_give_up()
            .withf(|id, _, error| *id == JobId(9) && error.contains("database down"))
            .times(1)
            .returning(|_, _, _| Ok(true));
        let ran = runner(queue).run_once().await.unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(ran, Some((_, Settled::GaveUp { .. }))), "{ran:?}");
    }

    #[tokio::test]
    async fn a_job_whose_workers_kept_dying_is_given_up_without_running_it() {
        let mut queue = claiming(4, "7");
        queue
            .expect_give_up()
            .withf(|_, _, error| error.contains("gave up after 3 attempts"))
            .times(1)
            .returning(|_, _, _| Ok(true));
        let ran = runner(queue).run_once().await.unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(ran, Some((_, Settled::GaveUp { .. }))), "{ran:?}");
    }

    #[tokio::test]
    async fn a_job_nobody_understands_is_given_up_at_once() {
        let mut queue = claiming(1, "not-an-id");
        queue.expect_give_up().withf(|_, _, error| error.contains("GIF id")).times(1).returning(|_, _, _| Ok(true));
        let ran = runner(queue).run_once().await.unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(ran, Some((_, Settled::GaveUp { .. }))), "{ran:?}");
    }

    #[tokio::test]
    async fn a_job_of_a_deleted_gif_is_done_and_an_empty_queue_is_none() {
        let mut queue = MockJobQueue::new();
        queue.expect_claim().returning(|_, _, _| Ok(Some(job(1, "7"))));
        queue.expect_complete().withf(|id, _| *id == JobId(9)).times(1).returning(|_, _| Ok(true));
        let mut gifs = MockGifRepository::new();
        gifs.expect_find().withf(|id| *id == GifId(7)).returning(|_| Err(RepoError::NotFound));
        let runner = runner_with(queue, gifs, RunnerSettings::default());
        let ran = runner.run_once().await.unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(ran, Some((_, Settled::Done))), "{ran:?}");

        let mut empty = MockJobQueue::new();
        empty.expect_claim().returning(|_, _, _| Ok(None));
        assert!(self::runner(empty).run_once().await.unwrap_or_else(|e| panic!("{e}")).is_none());
    }

    #[tokio::test]
    async fn a_make_gif_job_on_a_worker_without_a_maker_runs_again_later() {
        let mut queue = MockJobQueue::new();
        queue.expect_claim().returning(|_, _, _| Ok(Some(ClaimedJob { kind: Task::MAKE_GIF.into(), ..job(1, "12") })));
        queue
            .expect_retry()
            .withf(|id, _, error, _| *id == JobId(9) && error.contains("no maker"))
            .times(1)
            .returning(|_, _, _, _| Ok(true));
        let ran = runner(queue).run_once().await.unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(ran, Some((_, Settled::Retry { .. }))), "{ran:?}");
    }
}
