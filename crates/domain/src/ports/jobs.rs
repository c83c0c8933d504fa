//! The durable job queue.

use async_trait::async_trait;
use chrono::NaiveDateTime;

use crate::job::{ClaimedJob, FailedJob, JobCounts, JobId, KindCounts, Task};
use crate::RepoError;

/// The durable job queue. A claim is a lease: a job whose worker died runs again once
/// `locked_until` has passed. Every call is one short transaction.
#[cfg_attr(feature = "mock", mockall::automock)]
#[async_trait]
pub trait JobQueue: Send + Sync {
    /// Adds a job that may run from `run_after` on, unless the same work (`Task::dedup_key`) is
    /// queued or running already: then nothing is added and that job's id is returned.
    ///
    /// # Errors
    /// Storage errors.
    async fn enqueue(&self, task: Task, run_after: NaiveDateTime) -> Result<JobId, RepoError>;

    /// Takes the oldest job that is due (queued with `run_after <= now`, or running with an
    /// expired lease) for `worker` until `lease_until`, counting one more attempt. Two workers
    /// never get the same job while its lease holds.
    ///
    /// # Errors
    /// Storage errors.
    async fn claim(
        &self,
        worker: &str,
        now: NaiveDateTime,
        lease_until: NaiveDateTime,
    ) -> Result<Option<ClaimedJob>, RepoError>;

    /// Removes a job its worker finished. `false` when the worker no longer held it (its lease
    /// expired and another worker took it).
    ///
    /// # Errors
    /// Storage errors.
    async fn complete(&self, id: JobId, worker: &str) -> Result<bool, RepoError>;

    /// Puts a failed attempt back in the queue until `run_after`, keeping its error.
    ///
    /// # Errors
    /// Storage errors.
    async fn retry(&self, id: JobId, worker: &str, error: &str, run_after: NaiveDateTime) -> Result<bool, RepoError>;

    /// Gives up on a job: it stays, `failed`, with its error, and never runs again by itself.
    ///
    /// # Errors
    /// Storage errors.
    async fn give_up(&self, id: JobId, worker: &str, error: &str) -> Result<bool, RepoError>;

    /// The payloads of the jobs of `kind` waiting or running (what a backfill need not queue).
    ///
    /// # Errors
    /// Storage errors.
    async fn pending(&self, kind: &str) -> Result<Vec<String>, RepoError>;

    /// # Errors
    /// Storage errors.
    async fn counts(&self) -> Result<JobCounts, RepoError>;

    /// The jobs of each kind by state, with the creation time of the oldest one waiting (what the
    /// metrics show as a queue's age), kinds in name order.
    ///
    /// # Errors
    /// Storage errors.
    async fn counts_by_kind(&self) -> Result<Vec<KindCounts>, RepoError>;

    /// Jobs given up on, newest first, at most `limit`.
    ///
    /// # Errors
    /// Storage errors.
    async fn failed(&self, limit: i64) -> Result<Vec<FailedJob>, RepoError>;
}
