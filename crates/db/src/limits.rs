//! Shared counters (`SharedCounters`): one row per key, counted by a single upsert, so callers on
//! any number of instances count atomically.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Nullable, Text, Timestamp};
use gifshelf_domain::ports::{Counter, Restart, SharedCounters};
use gifshelf_domain::RepoError;

use crate::connection::{AnyConnection, Database};
use crate::error::repo_error;
use crate::schema::shared_counters;

#[derive(QueryableByName)]
struct Row {
    #[diesel(sql_type = BigInt)]
    count: i64,
    #[diesel(sql_type = Timestamp)]
    began: NaiveDateTime,
    #[diesel(sql_type = Timestamp)]
    last: NaiveDateTime,
}

/// `$1` key, `$2` now, `$3` restart if the run began by, `$4` restart if last counted by.
/// (SQLite reads `?N` for PostgreSQL's `$N`.)
const BUMP: &str = "INSERT INTO shared_counters (key, count, began, last) VALUES ($1, 1, $2, $2) \
    ON CONFLICT (key) DO UPDATE SET \
    count = CASE WHEN shared_counters.began <= $3 OR shared_counters.last <= $4 THEN 1 ELSE shared_counters.count + 1 END, \
    began = CASE WHEN shared_counters.began <= $3 OR shared_counters.last <= $4 THEN $2 ELSE shared_counters.began END, \
    last = $2 \
    RETURNING count, began, last";

fn bump(conn: &mut AnyConnection, key: &str, now: NaiveDateTime, restart: Restart) -> QueryResult<Row> {
    // The comparison with NULL is never true: only the rule given restarts the counter.
    let (began_by, last_by) = match restart {
        Restart::IfBeganBy(t) => (Some(t), None),
        Restart::IfLastBy(t) => (None, Some(t)),
    };
    macro_rules! run {
        ($conn:expr, $sql:expr) => {
            diesel::sql_query($sql)
                .bind::<Text, _>(key)
                .bind::<Timestamp, _>(now)
                .bind::<Nullable<Timestamp>, _>(began_by)
                .bind::<Nullable<Timestamp>, _>(last_by)
                .get_result::<Row>($conn)
        };
    }
    match conn {
        AnyConnection::Postgresql(pg) => run!(pg, BUMP),
        AnyConnection::Sqlite(lite) => run!(lite, BUMP.replace('$', "?")),
    }
}

#[async_trait]
impl SharedCounters for Database {
    async fn bump(&self, key: &str, now: NaiveDateTime, restart: Restart) -> Result<Counter, RepoError> {
        let key = key.to_owned();
        self.run(move |conn| {
            let row = bump(conn, &key, now, restart).map_err(repo_error)?;
            Ok(Counter { count: row.count, began: row.began, last: row.last })
        })
        .await
    }

    async fn read(&self, key: &str) -> Result<Option<Counter>, RepoError> {
        let key = key.to_owned();
        self.run(move |conn| {
            let row: Option<(i64, NaiveDateTime, NaiveDateTime)> = shared_counters::table
                .filter(shared_counters::key.eq(&key))
                .select((shared_counters::count, shared_counters::began, shared_counters::last))
                .first(conn)
                .optional()
                .map_err(repo_error)?;
            Ok(row.map(|(count, began, last)| Counter { count, began, last }))
        })
        .await
    }

    async fn refund(&self, key: &str) -> Result<(), RepoError> {
        let key = key.to_owned();
        self.run(move |conn| {
            diesel::update(
                shared_counters::table.filter(shared_counters::key.eq(&key)).filter(shared_counters::count.gt(0)),
            )
            .set(shared_counters::count.eq(shared_counters::count - 1))
            .execute(conn)
            .map(drop)
            .map_err(repo_error)
        })
        .await
    }

    async fn forget(&self, key: &str) -> Result<(), RepoError> {
        let key = key.to_owned();
        self.run(move |conn| {
            diesel::delete(shared_counters::table.filter(shared_counters::key.eq(&key)))
                .execute(conn)
                .map(drop)
                .map_err(repo_error)
        })
        .await
    }

    async fn forget_older(&self, before: NaiveDateTime) -> Result<usize, RepoError> {
        self.run(move |conn| {
            diesel::delete(shared_counters::table.filter(shared_counters::last.lt(before)))
                .execute(conn)
                .map_err(repo_error)
        })
        .await
    }
}
