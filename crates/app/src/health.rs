//! Readiness: whether this instance can do its work now (the `/api/health/ready` probe and
//! `gifshelf healthcheck`). Each check is named, so an operator sees which one failed.

use std::sync::Arc;

use gifshelf_domain::ports::{BlobStore, IdGenerator, JobQueue, SchemaStatus, UserRepository};

/// The names of the checks, as the probe reports the failing ones.
pub const DATABASE: &str = "database";
pub const STORE: &str = "store";
pub const MIGRATIONS: &str = "migrations";
pub const JOB_BACKLOG: &str = "job_backlog";

/// Where the store check writes (and at once deletes) its probe blob: a key no GIF uses, which
/// `gifshelf fsck` removes should a crash leave one.
const PROBE_PREFIX: &str = "health/probe-";

/// What the ports a readiness check reads.
pub struct HealthService {
    users: Arc<dyn UserRepository>,
    schema: Arc<dyn SchemaStatus>,
    blobs: Arc<dyn BlobStore>,
    jobs: Arc<dyn JobQueue>,
    ids: Arc<dyn IdGenerator>,
    /// The most jobs waiting before the instance says it is not ready.
    max_backlog: i64,
}

/// The outcome: ready when no check failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Readiness {
    pub failing: Vec<&'static str>,
}

impl Readiness {
    pub fn is_ready(&self) -> bool {
        self.failing.is_empty()
    }
}

impl HealthService {
    pub fn new(
        users: Arc<dyn UserRepository>,
        schema: Arc<dyn SchemaStatus>,
        blobs: Arc<dyn BlobStore>,
        jobs: Arc<dyn JobQueue>,
        ids: Arc<dyn IdGenerator>,
        max_backlog: i64,
    ) -> Self {
        Self { users, schema, blobs, jobs, ids, max_backlog }
    }

    /// Runs every check: the database answers, its schema is this build's, the store takes a
    /// write and a delete, and the job queue holds at most the allowed backlog.
    pub async fn ready(&self) -> Readiness {
        let mut failing = Vec::new();
        if let Err(e) = self.users.ping().await {
            tracing::warn!(error = %e, "readiness: the database does not answer");
            failing.push(DATABASE);
        }
        match self.schema.pending_migrations().await {
            Ok(0) => {}
            Ok(pending) => {
                tracing::warn!(pending, "readiness: the database lacks migrations of this build");
                failing.push(MIGRATIONS);
            }
            Err(e) => {
                tracing::warn!(error = %e, "readiness: cannot read the applied migrations");
                failing.push(MIGRATIONS);
            }
        }
        if !self.store_writable().await {
            failing.push(STORE);
        }
        match self.jobs.counts().await {
            Ok(counts) if counts.queued <= self.max_backlog => {}
            Ok(counts) => {
                tracing::warn!(
                    queued = counts.queued,
                    limit = self.max_backlog,
                    "readiness: job backlog over its limit"
                );
                failing.push(JOB_BACKLOG);
            }
            Err(e) => {
                tracing::warn!(error = %e, "readiness: cannot count the jobs");
                failing.push(JOB_BACKLOG);
            }
        }
        Readiness { failing }
    }

    async fn store_writable(&self) -> bool {
        let key = format!("{PROBE_PREFIX}{}", self.ids.blob_prefix());
        if let Err(e) = self.blobs.put(&key, b"ok".to_vec(), "text/plain").await {
            tracing::warn!(error = %e, "readiness: the store refuses a write");
            return false;
        }
        if let Err(e) = self.blobs.delete(&key).await {
            tracing::warn!(error = %e, "readiness: the store refuses a delete");
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::job::JobCounts;
    use gifshelf_domain::ports::{
        BlobError, MockBlobStore, MockIdGenerator, MockJobQueue, MockSchemaStatus, MockUserRepository,
    };
    use gifshelf_domain::RepoError;

    use super::*;

    struct Parts {
        users: MockUserRepository,
        schema: MockSchemaStatus,
        blobs: MockBlobStore,
        jobs: MockJobQueue,
    }

    /// A store that takes the probe blob and its delete (once each).
    fn writable_store() -> MockBlobStore {
        let mut blobs = MockBlobStore::new();
        blobs.expect_put().withf(|key, _, _| key == "health/probe-abc").times(1).returning(|_, _, _| Ok(()));
        blobs.expect_delete().withf(|key| key == "health/probe-abc").times(1).returning(|_| Ok(()));
        blobs
    }

    /// Every port healthy but `blobs`, `queued` jobs waiting.
    fn healthy(queued: i64, blobs: MockBlobStore) -> Parts {
        let mut users = MockUserRepository::new();
        users.expect_ping().returning(|| Ok(()));
        let mut schema = MockSchemaStatus::new();
        schema.expect_pending_migrations().returning(|| Ok(0));
        let mut jobs = MockJobQueue::new();
        jobs.expect_counts().returning(move || Ok(JobCounts { queued, running: 1, failed: 3 }));
        Parts { users, schema, blobs, jobs }
    }

    fn service(parts: Parts) -> HealthService {
        let mut ids = MockIdGenerator::new();
        ids.expect_blob_prefix().returning(|| "abc".into());
        HealthService::new(
            Arc::new(parts.users),
            Arc::new(parts.schema),
            Arc::new(parts.blobs),
            Arc::new(parts.jobs),
            Arc::new(ids),
            10,
        )
    }

    #[tokio::test]
    async fn ready_when_every_check_passes_and_the_probe_blob_is_deleted() {
        assert_eq!(service(healthy(10, writable_store())).ready().await, Readiness { failing: vec![] });
    }

    #[tokio::test]
    async fn each_failing_check_is_named() {
        let mut blobs = MockBlobStore::new();
        blobs.expect_put().returning(|_, _, _| Err(BlobError::io("read-only")));
        let mut parts = healthy(11, blobs);
        parts.users = MockUserRepository::new();
        parts.users.expect_ping().returning(|| Err(RepoError::unavailable("down")));
        parts.schema = MockSchemaStatus::new();
        parts.schema.expect_pending_migrations().returning(|| Ok(2));
        let readiness = service(parts).ready().await;
        assert_eq!(readiness.failing, vec![DATABASE, MIGRATIONS, STORE, JOB_BACKLOG]);
        assert!(!readiness.is_ready());
    }
}
