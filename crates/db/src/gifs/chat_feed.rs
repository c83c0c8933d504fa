//! `ChatFeedRepository` on diesel: the featured list, the top tags with their GIF, shares.

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Timestamp};
use gifshelf_domain::gif::{Gif, GifFilter, GifId, Page, PageRequest, Rating, Shelf, Tag, TagId, TagName};
use gifshelf_domain::ports::ChatFeedRepository;
use gifshelf_domain::RepoError;

use super::listing::{filtered, library_size, Shown};
use super::load_many;
use crate::connection::{AnyConnection, Database};
use crate::error::repo_error;
use crate::schema::gifs;

/// Ids in "featured" order (never a hidden GIF): views since `since`, then all-time views, then newest id.
pub(super) fn featured_ids(
    conn: &mut AnyConnection,
    since: NaiveDateTime,
    limit: i64,
    offset: i64,
    shown: Shown,
) -> Result<Vec<i64>, RepoError> {
    let sql = SQL.replace("{shown}", &shown.sql());
    const SQL: &str = "SELECT g.id AS id FROM gifs g LEFT JOIN \
         (SELECT gif_id, SUM(views) AS recent FROM gif_daily_views WHERE day >= {1} GROUP BY gif_id) r \
         ON r.gif_id = g.id WHERE {shown} ORDER BY COALESCE(r.recent, 0) DESC, g.view_count DESC, g.id DESC LIMIT {2} OFFSET {3}";
    let rows: Vec<crate::search::IdRow> = match conn {
        AnyConnection::Sqlite(c) => diesel::sql_query(sql.replace("{1}", "?").replace("{2}", "?").replace("{3}", "?"))
            .bind::<Timestamp, _>(since)
            .bind::<BigInt, _>(limit)
            .bind::<BigInt, _>(offset)
            .load(c),
        AnyConnection::Postgresql(c) => {
            diesel::sql_query(sql.replace("{1}", "$1").replace("{2}", "$2").replace("{3}", "$3"))
                .bind::<Timestamp, _>(since)
                .bind::<BigInt, _>(limit)
                .bind::<BigInt, _>(offset)
                .load(c)
        }
    }
    .map_err(repo_error)?;
    Ok(rows.into_iter().map(|r| r.id).collect())
}

#[derive(QueryableByName)]
pub(super) struct TopTagRow {
    #[diesel(sql_type = BigInt)]
    tag_id: i64,
    #[diesel(sql_type = diesel::sql_types::Text)]
    name: String,
    #[diesel(sql_type = BigInt)]
    gifs: i64,
    #[diesel(sql_type = BigInt)]
    gif_id: i64,
}

/// The most used tags with the id of each one's most viewed GIF, in one query (a window function
/// picks the GIF; both backends have them). Only the GIFs `shown` count and illustrate.
pub(super) fn top_tags_with_gif_ids(
    conn: &mut AnyConnection,
    limit: i64,
    shown: Shown,
) -> Result<Vec<TopTagRow>, RepoError> {
    const SQL: &str = "SELECT tag_id, name, gifs, gif_id FROM ( \
         SELECT top.tag_id, top.name, top.gifs, g.id AS gif_id, \
                ROW_NUMBER() OVER (PARTITION BY top.tag_id ORDER BY g.view_count DESC, g.id DESC) AS pick \
         FROM (SELECT t.id AS tag_id, t.name AS name, COUNT(*) AS gifs FROM tags t \
               JOIN gif_tags gt ON gt.tag_id = t.id JOIN gifs g ON g.id = gt.gif_id WHERE {shown} \
               GROUP BY t.id, t.name ORDER BY COUNT(*) DESC, t.name ASC LIMIT {1}) top \
         JOIN gif_tags gt ON gt.tag_id = top.tag_id JOIN gifs g ON g.id = gt.gif_id WHERE {shown}) ranked \
         WHERE pick = 1 ORDER BY gifs DESC, name ASC";
    let sql = SQL.replace("{shown}", &shown.sql_of("g"));
    match conn {
        AnyConnection::Sqlite(c) => diesel::sql_query(sql.replace("{1}", "?")).bind::<BigInt, _>(limit).load(c),
        AnyConnection::Postgresql(c) => diesel::sql_query(sql.replace("{1}", "$1")).bind::<BigInt, _>(limit).load(c),
    }
    .map_err(repo_error)
}

#[async_trait]
impl ChatFeedRepository for Database {
    async fn add_share(&self, id: GifId) -> Result<(), RepoError> {
        self.run(move |conn| {
            let updated = diesel::update(gifs::table.find(id.0))
                .set(gifs::share_count.eq(gifs::share_count + 1_i64))
                .execute(conn)
                .map_err(repo_error)?;
            if updated == 0 {
                Err(RepoError::NotFound)
            } else {
                Ok(())
            }
        })
        .await
    }

    async fn top_tags_with_gif(&self, limit: i64, max: Rating) -> Result<Vec<(Tag, Gif)>, RepoError> {
        self.run(move |conn| {
            let rows = top_tags_with_gif_ids(conn, limit, Shown::rated(max))?;
            let gifs: HashMap<i64, Gif> = load_many(conn, &rows.iter().map(|r| r.gif_id).collect::<Vec<_>>())?
                .into_iter()
                .map(|gif| (gif.id.0, gif))
                .collect();
            Ok(rows
                .into_iter()
                .filter_map(|row| {
                    let gif = gifs.get(&row.gif_id)?.clone();
                    Some((Tag { id: TagId(row.tag_id), name: TagName::from_trusted(row.name), count: row.gifs }, gif))
                })
                .collect())
        })
        .await
    }

    async fn featured(
        &self,
        since: NaiveDate,
        page: PageRequest,
        max: Rating,
        shelf: Shelf,
    ) -> Result<Page<Gif>, RepoError> {
        featured_page(self, since, page, Shown::on_shelf(max, shelf)).await
    }
}

/// A page of the featured GIFs `shown`.
async fn featured_page(
    db: &Database,
    since: NaiveDate,
    page: PageRequest,
    shown: Shown,
) -> Result<Page<Gif>, RepoError> {
    let since = since.and_time(NaiveTime::MIN);
    db.run(move |conn| {
        let ids = featured_ids(conn, since, i64::from(page.size), page.offset(), shown)?;
        let total = if shown.narrowed() {
            filtered(&GifFilter::All, shown).count().get_result(conn).map_err(repo_error)?
        } else {
            library_size(conn)? - shown.left_out(conn)?
        };
        Ok(Page { items: load_many(conn, &ids)?, request: page, total })
    })
    .await
}
