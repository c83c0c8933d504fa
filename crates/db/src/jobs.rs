//! `JobQueue` on diesel: a `jobs` table claimed row by row. PostgreSQL workers take the oldest due
//! row with `FOR UPDATE SKIP LOCKED`, so concurrent claims never wait on or return the same job;
//! SQLite claims inside an IMMEDIATE transaction (one writer at a time). A claim is a lease:
//! a row left `running` past `locked_until` (its worker died) is due again.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::job::{ClaimedJob, FailedJob, JobCounts, JobId, KindCounts, Task};
use gifshelf_domain::ports::JobQueue;
use gifshelf_domain::{RepoError, Unique};

use crate::connection::{write_tx, AnyConnection, Database};
use crate::error::repo_error;
use crate::schema::jobs;

const QUEUED: &str = "queued";
const RUNNING: &str = "running";
const FAILED: &str = "failed";

/// Jobs that may run at `now`: queued and past their time, or running past their lease (their
/// worker died).
macro_rules! due {
    ($now:expr) => {
        (jobs::state.eq(QUEUED).and(jobs::run_after.le($now)))
            .or(jobs::state.eq(RUNNING).and(jobs::locked_until.lt($now)))
    };
}

/// The id of the oldest due job, locked for this transaction (PostgreSQL) or under the write
/// lock (SQLite).
fn oldest_due(conn: &mut AnyConnection, now: NaiveDateTime) -> QueryResult<Option<i64>> {
    // Written out per backend: `SKIP LOCKED` exists only on PostgreSQL.
    match conn {
        AnyConnection::Postgresql(pg) => jobs::table
            .filter(due!(now))
            .order((jobs::run_after.asc(), jobs::id.asc()))
            .select(jobs::id)
            .for_update()
            .skip_locked()
            .first(pg)
            .optional(),
        AnyConnection::Sqlite(sqlite) => jobs::table
            .filter(due!(now))
            .order((jobs::run_after.asc(), jobs::id.asc()))
            .select(jobs::id)
            .first(sqlite)
            .optional(),
    }
}

/// Whether any job is due, read without locking: idle workers poll often, and on SQLite a claim
/// takes the database's one write lock, which an empty queue must not cost every writer.
fn any_due(conn: &mut AnyConnection, now: NaiveDateTime) -> QueryResult<bool> {
    jobs::table.filter(due!(now)).select(jobs::id).first::<i64>(conn).optional().map(|id| id.is_some())
}

/// The job queued or running for the same work, if any.
fn waiting(conn: &mut AnyConnection, dedup_key: &str) -> Result<Option<JobId>, RepoError> {
    jobs::table
        .filter(jobs::dedup_key.eq(dedup_key).and(jobs::state.ne(FAILED)))
        .select(jobs::id)
        .first::<i64>(conn)
        .optional()
        .map(|id| id.map(JobId))
        .map_err(repo_error)
}

/// Queues `task` inside the caller's transaction, unless the same work is queued or running:
/// then that job's id. (The unique index `jobs_dedup_uq` holds the rule against a concurrent
/// enqueue, which then fails with `Conflict(Unique::Job)`.)
pub(crate) fn enqueue_in(conn: &mut AnyConnection, task: &Task, run_after: NaiveDateTime) -> Result<JobId, RepoError> {
    let dedup_key = task.dedup_key();
    if let Some(existing) = waiting(conn, &dedup_key)? {
        return Ok(existing);
    }
    let (kind, payload) = task.encode();
    diesel::insert_into(jobs::table)
        .values((
            jobs::kind.eq(kind),
            jobs::payload.eq(&payload),
            jobs::dedup_key.eq(&dedup_key),
            jobs::state.eq(QUEUED),
            jobs::attempts.eq(0),
            jobs::run_after.eq(run_after),
            jobs::created_at.eq(run_after),
        ))
        .returning(jobs::id)
        .get_result(conn)
        .map(JobId)
        .map_err(repo_error)
}

/// The rows of a job its worker still holds.
macro_rules! held {
    ($id:expr, $worker:expr) => {
        jobs::table.filter(jobs::id.eq($id.0).and(jobs::state.eq(RUNNING)).and(jobs::locked_by.eq($worker)))
    };
}

#[async_trait]
impl JobQueue for Database {
    async fn enqueue(&self, task: Task, run_after: NaiveDateTime) -> Result<JobId, RepoError> {
        self.run(move |conn| match write_tx(conn, |conn| enqueue_in(conn, &task, run_after)) {
            // Another enqueue of the same work committed between our look and our insert.
            Err(RepoError::Conflict(Unique::Job)) => waiting(conn, &task.dedup_key())?.ok_or(RepoError::NotFound),
            other => other,
        })
        .await
    }

    async fn claim(
        &self,
        worker: &str,
        now: NaiveDateTime,
        lease_until: NaiveDateTime,
    ) -> Result<Option<ClaimedJob>, RepoError> {
        let worker = worker.to_owned();
        self.run(move |conn| {
            if !any_due(conn, now).map_err(repo_error)? {
                return Ok(None);
            }
            write_tx(conn, |conn| {
                let Some(id) = oldest_due(conn, now).map_err(repo_error)? else {
                    return Ok(None);
                };
                let (kind, payload, attempts): (String, String, i32) = diesel::update(jobs::table.find(id))
                    .set((
                        jobs::state.eq(RUNNING),
                        jobs::locked_by.eq(&worker),
                        jobs::locked_until.eq(lease_until),
                        jobs::attempts.eq(jobs::attempts + 1),
                    ))
                    .returning((jobs::kind, jobs::payload, jobs::attempts))
                    .get_result(conn)
                    .map_err(repo_error)?;
                Ok(Some(ClaimedJob { id: JobId(id), kind, payload, attempts, locked_until: lease_until }))
            })
        })
        .await
    }

    async fn complete(&self, id: JobId, worker: &str) -> Result<bool, RepoError> {
        let worker = worker.to_owned();
        self.run(move |conn| diesel::delete(held!(id, &worker)).execute(conn).map(|n| n == 1).map_err(repo_error)).await
    }

    async fn retry(&self, id: JobId, worker: &str, error: &str, run_after: NaiveDateTime) -> Result<bool, RepoError> {
        let (worker, error) = (worker.to_owned(), error.to_owned());
        self.run(move |conn| {
            diesel::update(held!(id, &worker))
                .set((
                    jobs::state.eq(QUEUED),
                    jobs::run_after.eq(run_after),
                    jobs::last_error.eq(&error),
                    jobs::locked_by.eq(None::<String>),
                    jobs::locked_until.eq(None::<NaiveDateTime>),
                ))
                .execute(conn)
                .map(|n| n == 1)
                .map_err(repo_error)
        })
        .await
    }

    async fn give_up(&self, id: JobId, worker: &str, error: &str) -> Result<bool, RepoError> {
        let (worker, error) = (worker.to_owned(), error.to_owned());
        self.run(move |conn| {
            diesel::update(held!(id, &worker))
                .set((
                    jobs::state.eq(FAILED),
                    jobs::last_error.eq(&error),
                    jobs::locked_by.eq(None::<String>),
                    jobs::locked_until.eq(None::<NaiveDateTime>),
                ))
                .execute(conn)
                .map(|n| n == 1)
                .map_err(repo_error)
        })
        .await
    }

    async fn pending(&self, kind: &str) -> Result<Vec<String>, RepoError> {
        let kind = kind.to_owned();
        self.run(move |conn| {
            jobs::table
                .filter(jobs::kind.eq(&kind).and(jobs::state.eq_any([QUEUED, RUNNING])))
                .order(jobs::id.asc())
                .select(jobs::payload)
                .load(conn)
                .map_err(repo_error)
        })
        .await
    }

    async fn counts(&self) -> Result<JobCounts, RepoError> {
        self.run(|conn| {
            let rows: Vec<(String, i64)> = jobs::table
                .group_by(jobs::state)
                .select((jobs::state, diesel::dsl::count_star()))
                .load(conn)
                .map_err(repo_error)?;
            let mut counts = JobCounts::default();
            for (state, n) in rows {
                match state.as_str() {
                    QUEUED => counts.queued = n,
                    RUNNING => counts.running = n,
                    FAILED => counts.failed = n,
                    _ => {}
                }
            }
            Ok(counts)
        })
        .await
    }

    async fn counts_by_kind(&self) -> Result<Vec<KindCounts>, RepoError> {
        self.run(|conn| {
            let rows: Vec<(String, String, i64, Option<NaiveDateTime>)> = jobs::table
                .group_by((jobs::kind, jobs::state))
                .select((jobs::kind, jobs::state, diesel::dsl::count_star(), diesel::dsl::min(jobs::created_at)))
                .order_by(jobs::kind)
                .load(conn)
                .map_err(repo_error)?;
            let mut kinds: Vec<KindCounts> = Vec::new();
            for (kind, state, n, oldest) in rows {
                if kinds.last().is_none_or(|k| k.kind != kind) {
                    kinds.push(KindCounts { kind, counts: JobCounts::default(), oldest_queued: None });
                }
                let Some(entry) = kinds.last_mut() else { continue };
                match state.as_str() {
                    QUEUED => (entry.counts.queued, entry.oldest_queued) = (n, oldest),
                    RUNNING => entry.counts.running = n,
                    FAILED => entry.counts.failed = n,
                    _ => {}
                }
            }
            Ok(kinds)
        })
        .await
    }

    async fn failed(&self, limit: i64) -> Result<Vec<FailedJob>, RepoError> {
        self.run(move |conn| {
            let rows: Vec<(i64, String, String, i32, Option<String>)> = jobs::table
                .filter(jobs::state.eq(FAILED))
                .order(jobs::id.desc())
                .limit(limit)
                .select((jobs::id, jobs::kind, jobs::payload, jobs::attempts, jobs::last_error))
                .load(conn)
                .map_err(repo_error)?;
            Ok(rows
                .into_iter()
                .map(|(id, kind, payload, attempts, last_error)| FailedJob {
                    id: JobId(id),
                    kind,
                    payload,
                    attempts,
                    last_error: last_error.unwrap_or_default(),
                })
                .collect())
        })
        .await
    }
}
