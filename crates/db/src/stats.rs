//! `StatsRepository`: every figure is read from the counters that triggers keep in the transaction
//! of each change (migration 000014: totals, GIFs per upload day, size bucket, content type, user
//! and tag), or from an index (the top GIFs, the drill-downs), so a read is exact and never
//! aggregates the library. Identical SQL on both backends where the DSL cannot say it, casts
//! making the types agree.

use async_trait::async_trait;
use chrono::{Duration, NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use gifshelf_domain::gif::TagName;
use gifshelf_domain::ports::StatsRepository;
use gifshelf_domain::stats::{ActivityLevel, DetailedFigures, GifStat, OverviewFigures, SizeBucket, UserStat};
use gifshelf_domain::RepoError;

use crate::connection::{AnyConnection, Database};
use crate::error::repo_error;
use crate::gifs::listing::library_size;
use crate::schema::{gif_tags, gifs, tags, users};

#[derive(QueryableByName)]
struct Number {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

#[derive(QueryableByName)]
struct Totals {
    #[diesel(sql_type = BigInt)]
    views: i64,
    #[diesel(sql_type = BigInt)]
    shares: i64,
    #[diesel(sql_type = BigInt)]
    content_bytes: i64,
    #[diesel(sql_type = BigInt)]
    tag_links: i64,
}

#[derive(QueryableByName)]
struct Counted {
    #[diesel(sql_type = Text)]
    label: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
}

#[derive(QueryableByName)]
struct TypeRow {
    #[diesel(sql_type = Text)]
    label: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = BigInt)]
    bytes: i64,
}

#[derive(QueryableByName)]
struct BucketRow {
    #[diesel(sql_type = BigInt)]
    bucket: i64,
    #[diesel(sql_type = BigInt)]
    n: i64,
    #[diesel(sql_type = BigInt)]
    bytes: i64,
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

#[derive(QueryableByName)]
struct UserRow {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = Text)]
    username: String,
    #[diesel(sql_type = BigInt)]
    n: i64,
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

/// A day as the counters name it (`YYYY-MM-DD`, so that text order is date order).
fn day_key(day: NaiveDate) -> String {
    day.format("%Y-%m-%d").to_string()
}

/// GIFs uploaded on `from` or a later day.
fn uploads_since(conn: &mut AnyConnection, from: NaiveDate) -> Result<i64, RepoError> {
    number(
        conn,
        &format!(
            "SELECT CAST(COALESCE(SUM(gifs), 0) AS BIGINT) AS n FROM stats_daily_uploads WHERE day >= '{}'",
            day_key(from)
        ),
    )
}

/// The `top` rows of a per-row counter with at least one GIF, most first, then by name: the
/// counter's index finds the `top`-th count, and only the rows at or above it are sorted.
fn top_counted(
    conn: &mut AnyConnection,
    counter: &str,
    key: &str,
    named: &str,
    name: &str,
    top: i64,
) -> Result<Vec<(String, i64)>, RepoError> {
    let top = top.max(1);
    let sql = format!(
        "SELECT o.{name} AS label, c.gifs AS n FROM {counter} c JOIN {named} o ON o.id = c.{key} \
         WHERE c.gifs > 0 AND c.gifs >= COALESCE((SELECT gifs FROM {counter} ORDER BY gifs DESC LIMIT 1 OFFSET {}), 1) \
         ORDER BY c.gifs DESC, o.{name} LIMIT {top}",
        top - 1
    );
    Ok(raw::<Counted>(conn, &sql)?.into_iter().map(|r| (r.label, r.n)).collect())
}

fn tag_counts(conn: &mut AnyConnection, top: i64) -> Result<Vec<(String, i64)>, RepoError> {
    top_counted(conn, "stats_tags", "tag_id", "tags", "name", top)
}

const ACTIVITY_SQL: &str = "SELECT \
       CAST(COALESCE(SUM(CASE WHEN gifs = 0 THEN 1 ELSE 0 END), 0) AS BIGINT) AS inactive, \
       CAST(COALESCE(SUM(CASE WHEN gifs BETWEEN 1 AND 4 THEN 1 ELSE 0 END), 0) AS BIGINT) AS casual, \
       CAST(COALESCE(SUM(CASE WHEN gifs BETWEEN 5 AND 19 THEN 1 ELSE 0 END), 0) AS BIGINT) AS active, \
       CAST(COALESCE(SUM(CASE WHEN gifs >= 20 THEN 1 ELSE 0 END), 0) AS BIGINT) AS power \
     FROM stats_users";

/// Activity levels by GIF count (`ActivityLevel::bounds`), one row per user.
fn activity(conn: &mut AnyConnection) -> Result<Vec<(ActivityLevel, i64)>, RepoError> {
    Ok(raw::<Activity>(conn, ACTIVITY_SQL)?
        .first()
        .map(|a| {
            vec![
                (ActivityLevel::Inactive, a.inactive),
                (ActivityLevel::Casual, a.casual),
                (ActivityLevel::Active, a.active),
                (ActivityLevel::Power, a.power),
            ]
        })
        .unwrap_or_default())
}

/// Every bucket in order, with its count and average size in bytes.
fn size_buckets(conn: &mut AnyConnection) -> Result<Vec<(SizeBucket, i64, f64)>, RepoError> {
    let rows = raw::<BucketRow>(
        conn,
        "SELECT CAST(bucket AS BIGINT) AS bucket, gifs AS n, bytes FROM stats_size_buckets ORDER BY bucket",
    )?;
    Ok(SizeBucket::ALL
        .iter()
        .map(|b| {
            let row = rows.iter().find(|r| r.bucket == b.index() as i64);
            (*b, row.map_or(0, |r| r.n), row.map_or(0.0, |r| average(r.n, r.bytes)))
        })
        .collect())
}

/// The average size in bytes of `n` GIFs of `bytes` together (0 for none).
fn average(n: i64, bytes: i64) -> f64 {
    if n == 0 {
        0.0
    } else {
        bytes as f64 / n as f64
    }
}

/// The 7 days from `first_day`, oldest first, each with its uploads.
fn daily_uploads(conn: &mut AnyConnection, first_day: NaiveDate) -> Result<Vec<(NaiveDate, i64)>, RepoError> {
    let last = first_day + Duration::days(6);
    let rows = raw::<Counted>(
        conn,
        &format!(
            "SELECT day AS label, gifs AS n FROM stats_daily_uploads WHERE day >= '{}' AND day <= '{}'",
            day_key(first_day),
            day_key(last)
        ),
    )?;
    Ok((0..7)
        .map(|i| {
            let day = first_day + Duration::days(i);
            let key = day_key(day);
            (day, rows.iter().find(|r| r.label == key).map_or(0, |r| r.n))
        })
        .collect())
}

fn content_types(conn: &mut AnyConnection) -> Result<Vec<(String, i64, f64)>, RepoError> {
    Ok(raw::<TypeRow>(
        conn,
        "SELECT content_type AS label, gifs AS n, bytes FROM stats_content_types WHERE gifs > 0 \
         ORDER BY gifs DESC, content_type",
    )?
    .iter()
    .map(|r| (r.label.clone(), r.n, average(r.n, r.bytes)))
    .collect())
}

fn totals(conn: &mut AnyConnection) -> Result<Totals, RepoError> {
    let rows = raw::<Totals>(
        conn,
        "SELECT CAST(COALESCE(SUM(views), 0) AS BIGINT) AS views, CAST(COALESCE(SUM(shares), 0) AS BIGINT) AS shares, \
         CAST(COALESCE(SUM(content_bytes), 0) AS BIGINT) AS content_bytes, \
         CAST(COALESCE(SUM(tag_links), 0) AS BIGINT) AS tag_links FROM stats_totals",
    )?;
    Ok(rows.into_iter().next().unwrap_or(Totals { views: 0, shares: 0, content_bytes: 0, tag_links: 0 }))
}

type GifStatRow = (i64, String, i64, i64, String);

fn to_stat((id, title, size_bytes, views, content_type): GifStatRow) -> GifStat {
    GifStat { id, title, size_bytes, views, content_type }
}

fn stat_columns() -> (gifs::id, gifs::title, gifs::content_size, gifs::view_count, gifs::content_type) {
    (gifs::id, gifs::title, gifs::content_size, gifs::view_count, gifs::content_type)
}

/// The three "most" lists of GIFs, each read from its count's index.
fn top_gifs(conn: &mut AnyConnection, top: i64) -> Result<[Vec<(String, i64)>; 3], RepoError> {
    let most_viewed = gifs::table
        .select((gifs::title, gifs::view_count))
        .order((gifs::view_count.desc(), gifs::id.desc()))
        .limit(top)
        .load(conn)
        .map_err(repo_error)?;
    let most_favourited = gifs::table
        .filter(gifs::favourite_count.gt(0_i64))
        .select((gifs::title, gifs::favourite_count))
        .order((gifs::favourite_count.desc(), gifs::id.desc()))
        .limit(top)
        .load(conn)
        .map_err(repo_error)?;
    let most_shared = gifs::table
        .filter(gifs::share_count.gt(0_i64))
        .select((gifs::title, gifs::share_count))
        .order((gifs::share_count.desc(), gifs::id.desc()))
        .limit(top)
        .load(conn)
        .map_err(repo_error)?;
    Ok([most_viewed, most_favourited, most_shared])
}

fn overview_on(
    conn: &mut AnyConnection,
    today: NaiveDate,
    week: NaiveDate,
    top: i64,
) -> Result<OverviewFigures, RepoError> {
    let totals = totals(conn)?;
    let [most_viewed, most_favourited, most_shared] = top_gifs(conn, top)?;
    Ok(OverviewFigures {
        total_gifs: library_size(conn)?,
        total_users: users::table.count().get_result(conn).map_err(repo_error)?,
        total_tags: tags::table.count().get_result(conn).map_err(repo_error)?,
        empty_tags: number(conn, "SELECT CAST(COUNT(*) AS BIGINT) AS n FROM stats_tags WHERE gifs = 0")?,
        total_views: totals.views,
        total_shares: totals.shares,
        tag_links: totals.tag_links,
        total_content_bytes: totals.content_bytes,
        uploaded_today: uploads_since(conn, today)?,
        uploaded_this_week: uploads_since(conn, week)?,
        most_used_tags: tag_counts(conn, top)?,
        top_users: top_counted(conn, "stats_users", "user_id", "users", "username", top)?,
        most_viewed,
        most_favourited,
        most_shared,
    })
}

#[async_trait]
impl StatsRepository for Database {
    /// "Today" and "this week" are whole UTC days (the service passes their midnights): the
    /// uploads counted per day answer them.
    async fn overview(
        &self,
        today: NaiveDateTime,
        week: NaiveDateTime,
        top: i64,
    ) -> Result<OverviewFigures, RepoError> {
        self.run(move |conn| overview_on(conn, today.date(), week.date(), top)).await
    }

    async fn detailed(&self, first_day: NaiveDate, top: i64) -> Result<DetailedFigures, RepoError> {
        self.run(move |conn| {
            Ok(DetailedFigures {
                daily_uploads: daily_uploads(conn, first_day)?,
                tag_distribution: tag_counts(conn, top)?,
                activity: activity(conn)?,
                size_buckets: size_buckets(conn)?,
                content_types: content_types(conn)?,
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

    /// The users whose GIF count (the per-user counter) is in the level's range.
    async fn users_at_level(&self, level: ActivityLevel, limit: i64) -> Result<Vec<UserStat>, RepoError> {
        self.run(move |conn| {
            let (low, high) = level.bounds();
            let sql = format!(
                "SELECT u.id, u.username, s.gifs AS n FROM stats_users s JOIN users u ON u.id = s.user_id \
                 WHERE s.gifs >= {low} AND s.gifs <= {high} ORDER BY s.gifs DESC, u.username LIMIT {limit}"
            );
            Ok(raw::<UserRow>(conn, &sql)?
                .into_iter()
                .map(|r| UserStat { id: r.id, username: r.username, gif_count: r.n })
                .collect())
        })
        .await
    }
}
