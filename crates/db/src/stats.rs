//! `StatsRepository`: every figure is one aggregate query (a handful per request), identical SQL on
//! both backends where the DSL cannot say it (sums, CASE buckets), casts making the types agree.

use async_trait::async_trait;
use chrono::{Duration, NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Double, Text};
use gifshelf_domain::gif::TagName;
use gifshelf_domain::ports::StatsRepository;
use gifshelf_domain::stats::{ActivityLevel, DetailedFigures, GifStat, OverviewFigures, SizeBucket, UserStat};
use gifshelf_domain::RepoError;

use crate::connection::{AnyConnection, Database};
use crate::error::repo_error;
use crate::schema::{gif_tags, gifs, tags, users};

#[derive(QueryableByName)]
struct Number {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

#[derive(QueryableByName)]
struct Bucket {
    #[diesel(sql_type = BigInt)]
    bucket: i64,
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = Double)]
    avg: f64,
}

#[derive(QueryableByName)]
struct TypeRow {
    #[diesel(sql_type = Text)]
    content_type: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = Double)]
    avg: f64,
}

#[derive(QueryableByName)]
struct Activity {
    #[diesel(sql_type = BigInt)]
    inactive: i64,
    #[diesel(sql_type = BigInt)]
    casual: i64,
    #[diesel(sql_type = BigInt)]
    active: i64,
    #[diesel(sql_type = BigInt)]
    power: i64,
}

/// Runs the same bind-free SQL on whichever backend this is.
fn raw<T>(conn: &mut AnyConnection, sql: &str) -> Result<Vec<T>, RepoError>
where
    T: QueryableByName<diesel::sqlite::Sqlite> + QueryableByName<diesel::pg::Pg> + 'static,
{
    match conn {
        AnyConnection::Sqlite(c) => diesel::sql_query(sql).load(c),
        AnyConnection::Postgresql(c) => diesel::sql_query(sql).load(c),
    }
    .map_err(repo_error)
}

fn number(conn: &mut AnyConnection, sql: &str) -> Result<i64, RepoError> {
    Ok(raw::<Number>(conn, sql)?.first().map_or(0, |r| r.n))
}

fn uploads_between(conn: &mut AnyConnection, from: NaiveDateTime, to: NaiveDateTime) -> Result<i64, RepoError> {
    gifs::table
        .filter(gifs::uploaded_at.ge(from))
        .filter(gifs::uploaded_at.lt(to))
        .count()
        .get_result(conn)
        .map_err(repo_error)
}

fn tag_counts(conn: &mut AnyConnection, top: i64) -> Result<Vec<(String, i64)>, RepoError> {
    let count = diesel::dsl::count(gif_tags::gif_id);
    tags::table
        .inner_join(gif_tags::table)
        .group_by((tags::id, tags::name))
        .select((tags::name, count))
        .order((count.desc(), tags::name.asc()))
        .limit(top)
        .load(conn)
        .map_err(repo_error)
}

const SIZE_BUCKETS_SQL: &str = "SELECT CAST(CASE \
       WHEN content_size < 102400 THEN 0 \
       WHEN content_size < 512000 THEN 1 \
       WHEN content_size < 1048576 THEN 2 \
       WHEN content_size < 5242880 THEN 3 \
       ELSE 4 END AS BIGINT) AS bucket, \
     CAST(COUNT(*) AS BIGINT) AS n, CAST(AVG(content_size) AS DOUBLE PRECISION) AS avg \
     FROM gifs GROUP BY 1 ORDER BY 1";

const ACTIVITY_SQL: &str = "SELECT \
       CAST(COALESCE(SUM(CASE WHEN c = 0 THEN 1 ELSE 0 END), 0) AS BIGINT) AS inactive, \
       CAST(COALESCE(SUM(CASE WHEN c BETWEEN 1 AND 4 THEN 1 ELSE 0 END), 0) AS BIGINT) AS casual, \
       CAST(COALESCE(SUM(CASE WHEN c BETWEEN 5 AND 19 THEN 1 ELSE 0 END), 0) AS BIGINT) AS active, \
       CAST(COALESCE(SUM(CASE WHEN c >= 20 THEN 1 ELSE 0 END), 0) AS BIGINT) AS power \
     FROM (SELECT u.id, COUNT(g.id) AS c FROM users u LEFT JOIN gifs g ON g.uploader_id = u.id GROUP BY u.id) per_user";

type GifStatRow = (i64, String, i64, i64, String);

fn to_stat((id, title, size_bytes, views, content_type): GifStatRow) -> GifStat {
    GifStat { id, title, size_bytes, views, content_type }
}

fn stat_columns() -> (gifs::id, gifs::title, gifs::content_size, gifs::view_count, gifs::content_type) {
    (gifs::id, gifs::title, gifs::content_size, gifs::view_count, gifs::content_type)
}

#[async_trait]
impl StatsRepository for Database {
    async fn overview(
        &self,
        today: NaiveDateTime,
        week: NaiveDateTime,
        top: i64,
    ) -> Result<OverviewFigures, RepoError> {
        self.run(move |conn| {
            let far_future = today + Duration::days(36_500);
            let used = gif_tags::table.select(gif_tags::tag_id);
            Ok(OverviewFigures {
                total_gifs: gifs::table.count().get_result(conn).map_err(repo_error)?,
                total_users: users::table.count().get_result(conn).map_err(repo_error)?,
                total_tags: tags::table.count().get_result(conn).map_err(repo_error)?,
                empty_tags: tags::table
                    .filter(diesel::dsl::not(tags::id.eq_any(used)))
                    .count()
                    .get_result(conn)
                    .map_err(repo_error)?,
                total_views: number(conn, "SELECT CAST(COALESCE(SUM(view_count), 0) AS BIGINT) AS n FROM gifs")?,
                total_shares: number(conn, "SELECT CAST(COALESCE(SUM(share_count), 0) AS BIGINT) AS n FROM gifs")?,
                tag_links: gif_tags::table.count().get_result(conn).map_err(repo_error)?,
                total_content_bytes: number(
                    conn,
                    "SELECT CAST(COALESCE(SUM(content_size), 0) AS BIGINT) AS n FROM gifs",
                )?,
                uploaded_today: uploads_between(conn, today, far_future)?,
                uploaded_this_week: uploads_between(conn, week, far_future)?,
                most_used_tags: tag_counts(conn, top)?,
                top_users: {
                    let count = diesel::dsl::count(gifs::id);
                    users::table
                        .inner_join(gifs::table)
                        .group_by((users::id, users::username))
                        .select((users::username, count))
                        .order((count.desc(), users::username.asc()))
                        .limit(top)
                        .load(conn)
                        .map_err(repo_error)?
                },
                most_viewed: gifs::table
                    .select((gifs::title, gifs::view_count))
                    .order((gifs::view_count.desc(), gifs::id.desc()))
                    .limit(top)
                    .load(conn)
                    .map_err(repo_error)?,
                most_favourited: gifs::table
                    .filter(gifs::favourite_count.gt(0_i64))
                    .select((gifs::title, gifs::favourite_count))
                    .order((gifs::favourite_count.desc(), gifs::id.desc()))
                    .limit(top)
                    .load(conn)
                    .map_err(repo_error)?,
                most_shared: gifs::table
                    .filter(gifs::share_count.gt(0_i64))
                    .select((gifs::title, gifs::share_count))
                    .order((gifs::share_count.desc(), gifs::id.desc()))
                    .limit(top)
                    .load(conn)
                    .map_err(repo_error)?,
            })
        })
        .await
    }

    async fn detailed(&self, first_day: NaiveDate, top: i64) -> Result<DetailedFigures, RepoError> {
        self.run(move |conn| {
            let mut daily_uploads = Vec::with_capacity(7);
            for i in 0..7 {
                let day = first_day + Duration::days(i);
                let start = day.and_hms_opt(0, 0, 0).unwrap_or_default();
                daily_uploads.push((day, uploads_between(conn, start, start + Duration::days(1))?));
            }
            let buckets = raw::<Bucket>(conn, SIZE_BUCKETS_SQL)?;
            let size_buckets = SizeBucket::ALL
                .iter()
                .map(|b| {
                    let row = buckets.iter().find(|r| r.bucket == b.index() as i64);
                    (*b, row.map_or(0, |r| r.n), row.map_or(0.0, |r| r.avg))
                })
                .collect();
            let activity = raw::<Activity>(conn, ACTIVITY_SQL)?
                .first()
                .map(|a| {
                    vec![
                        (ActivityLevel::Inactive, a.inactive),
                        (ActivityLevel::Casual, a.casual),
                        (ActivityLevel::Active, a.active),
                        (ActivityLevel::Power, a.power),
                    ]
                })
                .unwrap_or_default();
            let content_types = raw::<TypeRow>(
                conn,
                "SELECT content_type, CAST(COUNT(*) AS BIGINT) AS n, CAST(AVG(content_size) AS DOUBLE PRECISION) AS avg \
                 FROM gifs GROUP BY content_type ORDER BY n DESC, content_type",
            )?
            .into_iter()
            .map(|r| (r.content_type, r.n, r.avg))
            .collect();
            Ok(DetailedFigures {
                daily_uploads,
                tag_distribution: tag_counts(conn, top)?,
                activity,
                size_buckets,
                content_types,
            })
        })
        .await
    }

    async fn gifs_in_bucket(&self, bucket: SizeBucket, limit: i64) -> Result<Vec<GifStat>, RepoError> {
        self.run(move |conn| {
            let (low, high) = bucket.bounds();
            let rows: Vec<GifStatRow> = gifs::table
                .filter(gifs::content_size.ge(low))
                .filter(gifs::content_size.lt(high))
                .select(stat_columns())
                .order((gifs::content_size.desc(), gifs::id.desc()))
                .limit(limit)
                .load(conn)
                .map_err(repo_error)?;
            Ok(rows.into_iter().map(to_stat).collect())
        })
        .await
    }

    async fn gifs_with_tag(&self, tag: &TagName, limit: i64) -> Result<Vec<GifStat>, RepoError> {
        let name = tag.as_str().to_owned();
        self.run(move |conn| {
            let tagged = gif_tags::table.inner_join(tags::table).filter(tags::name.eq(name)).select(gif_tags::gif_id);
            let rows: Vec<GifStatRow> = gifs::table
                .filter(gifs::id.eq_any(tagged))
                .select(stat_columns())
                .order((gifs::view_count.desc(), gifs::id.desc()))
                .limit(limit)
                .load(conn)
                .map_err(repo_error)?;
            Ok(rows.into_iter().map(to_stat).collect())
        })
        .await
    }

    async fn gifs_of_type(&self, content_type: &str, limit: i64) -> Result<Vec<GifStat>, RepoError> {
        let content_type = content_type.to_owned();
        self.run(move |conn| {
            let rows: Vec<GifStatRow> = gifs::table
                .filter(gifs::content_type.eq(content_type))
                .select(stat_columns())
                .order((gifs::content_size.desc(), gifs::id.desc()))
                .limit(limit)
                .load(conn)
                .map_err(repo_error)?;
            Ok(rows.into_iter().map(to_stat).collect())
        })
        .await
    }

    async fn users_at_level(&self, level: ActivityLevel, limit: i64) -> Result<Vec<UserStat>, RepoError> {
        self.run(move |conn| {
            let (low, high) = level.bounds();
            let count = diesel::dsl::count(gifs::id.nullable());
            let rows: Vec<(i64, String, i64)> = users::table
                .left_join(gifs::table)
                .group_by((users::id, users::username))
                .having(count.ge(low).and(count.le(high)))
                .select((users::id, users::username, count))
                .order((count.desc(), users::username.asc()))
                .limit(limit)
                .load(conn)
                .map_err(repo_error)?;
            Ok(rows.into_iter().map(|(id, username, gif_count)| UserStat { id, username, gif_count }).collect())
        })
        .await
    }
}
