//! `GifRepository` on diesel. Lists load a page of ids first, then the rows and their tags in two
//! queries (never one query per GIF).

use std::collections::HashMap;
use std::ops::RangeInclusive;

use async_trait::async_trait;
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Timestamp};
use gifshelf_domain::gif::{
    Description, Fingerprint, Gif, GifEdit, GifFilter, GifId, GifSort, GifSummary, NewGif, Page, PageRequest,
    PerceptualHash, Rendition, RenditionKind, Renditions, Tag, TagId, TagName, TagRef, Title,
};
use gifshelf_domain::ports::{FavouriteRepository, GifRepository};
use gifshelf_domain::user::{UserId, Username};
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, AnyConnection, Database, MultiBackend};
use crate::error::repo_error;
use crate::schema::{favourites, gif_count, gif_renditions, gif_tags, gifs, tags, users};
use crate::tags::ensure_tags;
use crate::{duplicates, search};

#[derive(Queryable, Selectable)]
#[diesel(table_name = gifs)]
struct GifRow {
    id: i64,
    share_id: String,
    title: String,
    description: String,
    uploader_id: i64,
    uploaded_at: NaiveDateTime,
    view_count: i64,
    frame_count: i32,
    favourite_count: i64,
    share_count: i64,
}

#[derive(Queryable, Selectable, Insertable)]
#[diesel(table_name = gif_renditions)]
pub(crate) struct RenditionRow {
    gif_id: i64,
    kind: String,
    blob_key: String,
    content_type: String,
    size: i64,
    width: i32,
    height: i32,
    frames: i32,
    duration_ms: Option<i32>,
    codec: Option<String>,
    preferred: bool,
}

impl RenditionRow {
    pub(crate) fn of(gif_id: i64, r: &Rendition) -> Self {
        Self {
            gif_id,
            kind: r.kind.as_str().to_owned(),
            blob_key: r.key.clone(),
            content_type: r.content_type.clone(),
            size: r.size,
            width: r.width,
            height: r.height,
            frames: r.frames,
            duration_ms: r.duration_ms,
            codec: r.codec.clone(),
            preferred: r.preferred,
        }
    }

    /// `None` for a kind this version does not know (a newer version wrote it): the row stays and
    /// its blob stays referenced (fsck keeps it), but nothing here serves it.
    fn into_rendition(self) -> Option<Rendition> {
        Some(Rendition {
            kind: RenditionKind::parse(&self.kind)?,
            key: self.blob_key,
            content_type: self.content_type,
            size: self.size,
            width: self.width,
            height: self.height,
            frames: self.frames,
            duration_ms: self.duration_ms,
            codec: self.codec,
            preferred: self.preferred,
        })
    }
}

impl GifRow {
    fn into_gif(self, uploader: String, tags: Vec<TagRef>, renditions: Vec<Rendition>) -> Gif {
        Gif {
            id: GifId(self.id),
            share_id: self.share_id,
            title: Title::from_trusted(self.title),
            description: Description::from_trusted(self.description),
            tags,
            view_count: self.view_count,
            uploader_id: UserId(self.uploader_id),
            uploader: Username::from_trusted(uploader),
            uploaded_at: self.uploaded_at,
            frame_count: self.frame_count,
            renditions: Renditions::new(renditions),
            favourite_count: self.favourite_count,
            favourite: false,
            share_count: self.share_count,
        }
    }
}

/// Loads the GIFs with these ids, in this order, with uploaders, tags and renditions (three queries,
/// whatever the number of GIFs). One id is matched with `=`, not `IN (…)`: a statement of a fixed
/// shape, which the connection prepares once and reuses (every media request and detail page
/// reads one GIF).
pub(crate) fn load_many(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<Gif>, RepoError> {
    let mut rows = gifs::table.inner_join(users::table).select((GifRow::as_select(), users::username)).into_boxed();
    let mut links = gif_tags::table
        .inner_join(tags::table)
        .select((gif_tags::gif_id, tags::id, tags::name))
        .order(tags::name.asc())
        .into_boxed();
    let mut files = gif_renditions::table.select(RenditionRow::as_select()).into_boxed();
    match ids {
        [] => return Ok(Vec::new()),
        [id] => {
            rows = rows.filter(gifs::id.eq(*id));
            links = links.filter(gif_tags::gif_id.eq(*id));
            files = files.filter(gif_renditions::gif_id.eq(*id));
        }
        _ => {
            rows = rows.filter(gifs::id.eq_any(ids));
            links = links.filter(gif_tags::gif_id.eq_any(ids));
            files = files.filter(gif_renditions::gif_id.eq_any(ids));
        }
    }
    let rows: Vec<(GifRow, String)> = rows.load(conn).map_err(repo_error)?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let links: Vec<(i64, i64, String)> = links.load(conn).map_err(repo_error)?;
    let files: Vec<RenditionRow> = files.load(conn).map_err(repo_error)?;
    let mut tags_of: HashMap<i64, Vec<TagRef>> = HashMap::new();
    for (gif_id, tag_id, name) in links {
        tags_of.entry(gif_id).or_default().push(TagRef { id: TagId(tag_id), name: TagName::from_trusted(name) });
    }
    let mut renditions_of: HashMap<i64, Vec<Rendition>> = HashMap::new();
    for row in files {
        let gif_id = row.gif_id;
        if let Some(rendition) = row.into_rendition() {
            renditions_of.entry(gif_id).or_default().push(rendition);
        }
    }
    let mut by_id: HashMap<i64, Gif> = rows
        .into_iter()
        .map(|(row, uploader)| {
            let id = row.id;
            let tags = tags_of.remove(&id).unwrap_or_default();
            (id, row.into_gif(uploader, tags, renditions_of.remove(&id).unwrap_or_default()))
        })
        .collect();
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}

pub(crate) fn load_one(conn: &mut AnyConnection, id: i64) -> Result<Gif, RepoError> {
    load_many(conn, &[id])?.pop().ok_or(RepoError::NotFound)
}

/// The lower-cased text the search matches against: title, description and tag names.
fn search_text(title: &Title, description: &Description, tags: &[TagName]) -> String {
    let mut text = format!("{}\n{}", title.as_str(), description.as_str());
    for tag in tags {
        text.push('\n');
        text.push_str(tag.as_str());
    }
    text.to_lowercase()
}

/// Recomputes the search text of these GIFs from their current title, description and tags.
pub(crate) fn refresh_search_text(conn: &mut AnyConnection, gif_ids: &[i64]) -> Result<(), RepoError> {
    for chunk in gif_ids.chunks(500) {
        for gif in load_many(conn, chunk)? {
            let names: Vec<TagName> = gif.tags.iter().map(|t| t.name.clone()).collect();
            diesel::update(gifs::table.find(gif.id.0))
                .set(gifs::search_text.eq(search_text(&gif.title, &gif.description, &names)))
                .execute(conn)
                .map_err(repo_error)?;
        }
    }
    Ok(())
}

fn link_tags(conn: &mut AnyConnection, gif_id: i64, names: &[TagName], now: NaiveDateTime) -> Result<(), RepoError> {
    for tag_id in ensure_tags(conn, names, now)? {
        diesel::insert_into(gif_tags::table)
            .values((gif_tags::gif_id.eq(gif_id), gif_tags::tag_id.eq(tag_id)))
            .execute(conn)
            .map_err(repo_error)?;
    }
    Ok(())
}

/// The GIFs a filter keeps, as one query both the page and the count start from: a new filter is
/// one arm here. Search is the exception: its SQL differs per backend (`search.rs`).
fn filtered(filter: &GifFilter) -> gifs::BoxedQuery<'static, MultiBackend> {
    let query = gifs::table.into_boxed();
    match filter {
        GifFilter::All | GifFilter::Search(_) => query,
        GifFilter::Tag(name) => query.filter(
            gifs::id.eq_any(
                gif_tags::table
                    .inner_join(tags::table)
                    .filter(tags::name.eq(name.as_str().to_owned()))
                    .select(gif_tags::gif_id),
            ),
        ),
        GifFilter::User(username) => query.filter(
            gifs::uploader_id
                .eq_any(users::table.filter(users::username_key.eq(username.to_lowercase())).select(users::id)),
        ),
        GifFilter::Favourites(user) => query.filter(
            gifs::id.eq_any(favourites::table.filter(favourites::user_id.eq(user.0)).select(favourites::gif_id)),
        ),
    }
}

/// The `ORDER BY` of a sort, ties broken by id; each one has its index (migration 000005).
fn sorted(query: gifs::BoxedQuery<'static, MultiBackend>, sort: GifSort) -> gifs::BoxedQuery<'static, MultiBackend> {
    match sort {
        GifSort::Newest => query.order((gifs::uploaded_at.desc(), gifs::id.desc())),
        GifSort::Oldest => query.order((gifs::uploaded_at.asc(), gifs::id.asc())),
        GifSort::Views => query.order((gifs::view_count.desc(), gifs::id.desc())),
        GifSort::Favourites => query.order((gifs::favourite_count.desc(), gifs::id.desc())),
        GifSort::Title => {
            query.order(diesel::dsl::sql::<diesel::sql_types::Text>("lower(title)").asc()).then_order_by(gifs::id.asc())
        }
    }
}

/// Counts one view in the GIF's row for `day` (one statement: insert the row or add to it).
fn count_in_day(conn: &mut AnyConnection, gif_id: i64, day: NaiveDateTime) -> Result<(), RepoError> {
    const UPSERT: &str = "INSERT INTO gif_daily_views (gif_id, day, views) VALUES ({1}, {2}, 1) \
                          ON CONFLICT (gif_id, day) DO UPDATE SET views = gif_daily_views.views + 1";
    match conn {
        AnyConnection::Sqlite(c) => diesel::sql_query(UPSERT.replace("{1}", "?").replace("{2}", "?"))
            .bind::<BigInt, _>(gif_id)
            .bind::<Timestamp, _>(day)
            .execute(c),
        AnyConnection::Postgresql(c) => diesel::sql_query(UPSERT.replace("{1}", "$1").replace("{2}", "$2"))
            .bind::<BigInt, _>(gif_id)
            .bind::<Timestamp, _>(day)
            .execute(c),
    }
    .map(drop)
    .map_err(repo_error)
}

/// Ids in "featured" order: views since `since`, then all-time views, then newest id.
fn featured_ids(
    conn: &mut AnyConnection,
    since: NaiveDateTime,
    limit: i64,
    offset: i64,
) -> Result<Vec<i64>, RepoError> {
    const SQL: &str = "SELECT g.id AS id FROM gifs g LEFT JOIN \
         (SELECT gif_id, SUM(views) AS recent FROM gif_daily_views WHERE day >= {1} GROUP BY gif_id) r \
         ON r.gif_id = g.id ORDER BY COALESCE(r.recent, 0) DESC, g.view_count DESC, g.id DESC LIMIT {2} OFFSET {3}";
    let rows: Vec<crate::search::IdRow> = match conn {
        AnyConnection::Sqlite(c) => diesel::sql_query(SQL.replace("{1}", "?").replace("{2}", "?").replace("{3}", "?"))
            .bind::<Timestamp, _>(since)
            .bind::<BigInt, _>(limit)
            .bind::<BigInt, _>(offset)
            .load(c),
        AnyConnection::Postgresql(c) => {
            diesel::sql_query(SQL.replace("{1}", "$1").replace("{2}", "$2").replace("{3}", "$3"))
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
struct TopTagRow {
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
/// picks the GIF; both backends have them).
fn top_tags_with_gif_ids(conn: &mut AnyConnection, limit: i64) -> Result<Vec<TopTagRow>, RepoError> {
    const SQL: &str = "SELECT tag_id, name, gifs, gif_id FROM ( \
         SELECT top.tag_id, top.name, top.gifs, g.id AS gif_id, \
                ROW_NUMBER() OVER (PARTITION BY top.tag_id ORDER BY g.view_count DESC, g.id DESC) AS pick \
         FROM (SELECT t.id AS tag_id, t.name AS name, COUNT(*) AS gifs FROM tags t \
               JOIN gif_tags gt ON gt.tag_id = t.id GROUP BY t.id, t.name \
               ORDER BY COUNT(*) DESC, t.name ASC LIMIT {1}) top \
         JOIN gif_tags gt ON gt.tag_id = top.tag_id JOIN gifs g ON g.id = gt.gif_id) ranked \
         WHERE pick = 1 ORDER BY gifs DESC, name ASC";
    match conn {
        AnyConnection::Sqlite(c) => diesel::sql_query(SQL.replace("{1}", "?")).bind::<BigInt, _>(limit).load(c),
        AnyConnection::Postgresql(c) => diesel::sql_query(SQL.replace("{1}", "$1")).bind::<BigInt, _>(limit).load(c),
    }
    .map_err(repo_error)
}

/// A person's favourites by when they were favourited (`favourites_user_newest_idx`).
fn favourites_by_time(
    conn: &mut AnyConnection,
    user: i64,
    newest_first: bool,
    limit: i64,
    offset: i64,
) -> Result<(Vec<i64>, i64), RepoError> {
    let query = favourites::table.filter(favourites::user_id.eq(user)).select(favourites::gif_id).into_boxed();
    let query = if newest_first {
        query.order((favourites::created_at.desc(), favourites::gif_id.desc()))
    } else {
        query.order((favourites::created_at.asc(), favourites::gif_id.asc()))
    };
    let ids = query.limit(limit).offset(offset).load(conn).map_err(repo_error)?;
    let total = favourites::table.filter(favourites::user_id.eq(user)).count().get_result(conn).map_err(repo_error)?;
    Ok((ids, total))
}

fn page_of_ids(
    conn: &mut AnyConnection,
    filter: &GifFilter,
    sort: GifSort,
    limit: i64,
    offset: i64,
) -> Result<(Vec<i64>, i64), RepoError> {
    match (filter, sort) {
        (GifFilter::Search(words), _) => return search::page(conn, words, sort, limit, offset),
        (GifFilter::Favourites(user), GifSort::Newest | GifSort::Oldest) => {
            return favourites_by_time(conn, user.0, sort == GifSort::Newest, limit, offset)
        }
        _ => {}
    }
    let ids =
        sorted(filtered(filter), sort).select(gifs::id).limit(limit).offset(offset).load(conn).map_err(repo_error)?;
    let total = match filter {
        GifFilter::All => library_size(conn)?,
        _ => filtered(filter).count().get_result(conn).map_err(repo_error)?,
    };
    Ok((ids, total))
}

/// How many GIFs the library holds, from the counter the writes keep (never a count of the table).
pub(crate) fn library_size(conn: &mut AnyConnection) -> Result<i64, RepoError> {
    gif_count::table.select(gif_count::gifs).first(conn).optional().map_err(repo_error).map(Option::unwrap_or_default)
}

/// Tries of the unfiltered pick before it falls back to counting (ids have few gaps: one try
/// nearly always does).
const RANDOM_ID_TRIES: usize = 16;

/// Ids drawn at once for a search's pick: a word in one GIF of 20 is found among them nineteen
/// times in twenty; rarer words are counted, which their index makes cheap.
const RANDOM_SEARCH_DRAWS: usize = 64;

/// A uniformly random GIF id the filter keeps. Unfiltered: a random id between the smallest and
/// the largest, drawn again while it names no GIF (each existing id is equally likely; two index
/// lookups per try). A search: ids drawn the same way, all tested in one query, the first drawn
/// that matches taken (rejection sampling: still uniform), so a common word is never counted.
/// Otherwise, and when no draw matched: count the matches, draw k, read the k-th in newest order.
fn random_id(conn: &mut AnyConnection, filter: &GifFilter) -> Result<i64, RepoError> {
    use rand::Rng;
    if matches!(filter, GifFilter::All | GifFilter::Search(_)) {
        let (low, high): (Option<i64>, Option<i64>) = gifs::table
            .select((diesel::dsl::min(gifs::id), diesel::dsl::max(gifs::id)))
            .first(conn)
            .map_err(repo_error)?;
        let (Some(low), Some(high)) = (low, high) else { return Err(RepoError::NotFound) };
        let drawn = match filter {
            GifFilter::Search(words) => drawn_search_match(conn, words, low..=high)?,
            _ => drawn_existing(conn, low..=high)?,
        };
        if let Some(id) = drawn {
            return Ok(id);
        }
    }
    let (_, total) = page_of_ids(conn, filter, GifSort::Newest, 0, 0)?;
    if total == 0 {
        return Err(RepoError::NotFound);
    }
    let k = rand::thread_rng().gen_range(0..total);
    let (ids, _) = page_of_ids(conn, filter, GifSort::Newest, 1, k)?;
    // The k-th can vanish between the two reads (a delete): that pick is simply not found.
    ids.first().copied().ok_or(RepoError::NotFound)
}

/// An id drawn from `range` that names a GIF, within `RANDOM_ID_TRIES` draws.
fn drawn_existing(conn: &mut AnyConnection, range: RangeInclusive<i64>) -> Result<Option<i64>, RepoError> {
    use rand::Rng;
    for _ in 0..RANDOM_ID_TRIES {
        let id = rand::thread_rng().gen_range(range.clone());
        let found: Option<i64> = gifs::table.find(id).select(gifs::id).first(conn).optional().map_err(repo_error)?;
        if found.is_some() {
            return Ok(found);
        }
    }
    Ok(None)
}

/// The first of `RANDOM_SEARCH_DRAWS` ids drawn from `range` that names a GIF with every word.
fn drawn_search_match(
    conn: &mut AnyConnection,
    words: &[String],
    range: RangeInclusive<i64>,
) -> Result<Option<i64>, RepoError> {
    use rand::Rng;
    let drawn: Vec<i64> = (0..RANDOM_SEARCH_DRAWS).map(|_| rand::thread_rng().gen_range(range.clone())).collect();
    let mut query = gifs::table.filter(gifs::id.eq_any(&drawn)).select(gifs::id).into_boxed();
    for word in words {
        query = query.filter(gifs::search_text.like(search::like_pattern(word)).escape('\\'));
    }
    let matching: Vec<i64> = query.load(conn).map_err(repo_error)?;
    Ok(drawn.into_iter().find(|id| matching.contains(id)))
}

#[async_trait]
impl GifRepository for Database {
    async fn insert(&self, gif: NewGif) -> Result<Gif, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let text = search_text(&gif.title, &gif.description, &gif.tags);
                let (sha256, phash, b0, b1, b2, b3) = duplicates::columns(&gif.fingerprint);
                let original = gif
                    .renditions
                    .get(RenditionKind::Original)
                    .ok_or_else(|| RepoError::other("a GIF needs its original rendition"))?;
                let id: i64 = diesel::insert_into(gifs::table)
                    .values((
                        gifs::share_id.eq(&gif.share_id),
                        gifs::title.eq(gif.title.as_str()),
                        gifs::description.eq(gif.description.as_str()),
                        gifs::uploader_id.eq(gif.uploader_id.0),
                        gifs::uploaded_at.eq(gif.uploaded_at),
                        gifs::view_count.eq(0_i64),
                        gifs::frame_count.eq(gif.frame_count),
                        gifs::content_type.eq(&original.content_type),
                        gifs::content_size.eq(original.size),
                        gifs::search_text.eq(&text),
                        gifs::sha256.eq(sha256),
                        gifs::phash.eq(phash),
                        gifs::phash_b0.eq(b0),
                        gifs::phash_b1.eq(b1),
                        gifs::phash_b2.eq(b2),
                        gifs::phash_b3.eq(b3),
                    ))
                    .returning(gifs::id)
                    .get_result(conn)
                    .map_err(repo_error)?;
                for rendition in gif.renditions.iter() {
                    diesel::insert_into(gif_renditions::table)
                        .values(RenditionRow::of(id, rendition))
                        .execute(conn)
                        .map_err(repo_error)?;
                }
                link_tags(conn, id, &gif.tags, gif.uploaded_at)?;
                load_one(conn, id)
            })
        })
        .await
    }

    async fn find(&self, id: GifId) -> Result<Gif, RepoError> {
        self.run(move |conn| load_one(conn, id.0)).await
    }

    async fn find_by_share_id(&self, share_id: &str) -> Result<Gif, RepoError> {
        let share_id = share_id.to_owned();
        self.run(move |conn| {
            let id: i64 =
                gifs::table.filter(gifs::share_id.eq(&share_id)).select(gifs::id).first(conn).map_err(repo_error)?;
            load_one(conn, id)
        })
        .await
    }

    async fn list(&self, filter: &GifFilter, sort: GifSort, page: PageRequest) -> Result<Page<Gif>, RepoError> {
        let filter = filter.clone();
        self.run(move |conn| {
            let (ids, total) = page_of_ids(conn, &filter, sort, i64::from(page.size), page.offset())?;
            Ok(Page { items: load_many(conn, &ids)?, request: page, total })
        })
        .await
    }

    async fn random(&self, filter: &GifFilter) -> Result<Gif, RepoError> {
        let filter = filter.clone();
        self.run(move |conn| {
            let id = random_id(conn, &filter)?;
            load_one(conn, id)
        })
        .await
    }

    async fn update(&self, id: GifId, edit: GifEdit) -> Result<Gif, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let text = search_text(&edit.title, &edit.description, &edit.tags);
                let updated = diesel::update(gifs::table.find(id.0))
                    .set((
                        gifs::title.eq(edit.title.as_str()),
                        gifs::description.eq(edit.description.as_str()),
                        gifs::search_text.eq(&text),
                    ))
                    .execute(conn)
                    .map_err(repo_error)?;
                if updated == 0 {
                    return Err(RepoError::NotFound);
                }
                diesel::delete(gif_tags::table.filter(gif_tags::gif_id.eq(id.0))).execute(conn).map_err(repo_error)?;
                link_tags(conn, id.0, &edit.tags, edit.at)?;
                load_one(conn, id.0)
            })
        })
        .await
    }

    async fn delete(&self, id: GifId) -> Result<Gif, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let gif = load_one(conn, id.0)?;
                diesel::delete(gif_tags::table.filter(gif_tags::gif_id.eq(id.0))).execute(conn).map_err(repo_error)?;
                diesel::delete(gif_renditions::table.filter(gif_renditions::gif_id.eq(id.0)))
                    .execute(conn)
                    .map_err(repo_error)?;
                diesel::delete(gifs::table.find(id.0)).execute(conn).map_err(repo_error)?;
                Ok(gif)
            })
        })
        .await
    }

    async fn add_view(&self, id: GifId, day: NaiveDate) -> Result<(), RepoError> {
        let day = day.and_time(NaiveTime::MIN);
        self.run(move |conn| {
            write_tx(conn, |conn| {
                // A view is not worth waiting for the disk: on PostgreSQL its commit returns before
                // the WAL is flushed (a crash may forget the last fraction of a second of views, never
                // corrupt anything). Every other write still waits.
                if let AnyConnection::Postgresql(pg) = conn {
                    diesel::sql_query("SET LOCAL synchronous_commit = off").execute(pg).map_err(repo_error)?;
                }
                let updated = diesel::update(gifs::table.find(id.0))
                    .set(gifs::view_count.eq(gifs::view_count + 1_i64))
                    .execute(conn)
                    .map_err(repo_error)?;
                if updated == 0 {
                    return Err(RepoError::NotFound);
                }
                count_in_day(conn, id.0, day)
            })
        })
        .await
    }

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

    async fn top_tags_with_gif(&self, limit: i64) -> Result<Vec<(Tag, Gif)>, RepoError> {
        self.run(move |conn| {
            let rows = top_tags_with_gif_ids(conn, limit)?;
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

    async fn featured(&self, since: NaiveDate, page: PageRequest) -> Result<Page<Gif>, RepoError> {
        let since = since.and_time(NaiveTime::MIN);
        self.run(move |conn| {
            let ids = featured_ids(conn, since, i64::from(page.size), page.offset())?;
            let total = library_size(conn)?;
            Ok(Page { items: load_many(conn, &ids)?, request: page, total })
        })
        .await
    }

    async fn all_blob_keys(&self) -> Result<Vec<String>, RepoError> {
        self.run(|conn| gif_renditions::table.select(gif_renditions::blob_key).load(conn).map_err(repo_error)).await
    }

    async fn find_by_sha256(&self, sha256: &str) -> Result<Option<GifId>, RepoError> {
        let sha256 = sha256.to_owned();
        self.run(move |conn| duplicates::find_by_sha256(conn, &sha256)).await
    }

    async fn similar(
        &self,
        phash: PerceptualHash,
        except: Option<GifId>,
        limit: i64,
    ) -> Result<Vec<GifSummary>, RepoError> {
        self.run(move |conn| duplicates::similar(conn, phash, except, limit)).await
    }

    async fn phash_of(&self, id: GifId) -> Result<Option<PerceptualHash>, RepoError> {
        self.run(move |conn| duplicates::phash_of(conn, id)).await
    }

    async fn near_duplicate_groups(&self) -> Result<Vec<Vec<GifSummary>>, RepoError> {
        self.run(duplicates::groups).await
    }

    async fn without_fingerprint(&self, after: GifId, limit: i64) -> Result<Vec<(GifId, String)>, RepoError> {
        self.run(move |conn| duplicates::without_fingerprint(conn, after, limit)).await
    }

    async fn set_fingerprint(&self, id: GifId, fingerprint: &Fingerprint) -> Result<(), RepoError> {
        let fingerprint = fingerprint.clone();
        self.run(move |conn| match duplicates::set(conn, id.0, &fingerprint)? {
            0 => Err(RepoError::NotFound),
            _ => Ok(()),
        })
        .await
    }
}

#[async_trait]
impl FavouriteRepository for Database {
    async fn set_favourite(&self, user: UserId, gif: GifId, on: bool, at: NaiveDateTime) -> Result<i64, RepoError> {
        self.run(move |conn| {
            let result = write_tx(conn, |conn| {
                let count: i64 =
                    gifs::table.find(gif.0).select(gifs::favourite_count).first(conn).map_err(repo_error)?;
                let key = favourites::table.find((user.0, gif.0));
                // The rows actually added or removed decide the change, so two requests at once
                // never count twice (an insert that finds the row is a unique violation, below).
                let changed = if on {
                    diesel::insert_into(favourites::table)
                        .values((
                            favourites::user_id.eq(user.0),
                            favourites::gif_id.eq(gif.0),
                            favourites::created_at.eq(at),
                        ))
                        .execute(conn)
                        .map_err(repo_error)?
                } else {
                    diesel::delete(key).execute(conn).map_err(repo_error)?
                };
                if changed == 0 {
                    return Ok(count);
                }
                let change: i64 = if on { 1 } else { -1 };
                diesel::update(gifs::table.find(gif.0))
                    .set(gifs::favourite_count.eq(gifs::favourite_count + change))
                    .returning(gifs::favourite_count)
                    .get_result(conn)
                    .map_err(repo_error)
            });
            match result {
                // Already a favourite (or another request of the same person added it first):
                // nothing changed, the transaction was rolled back.
                Err(RepoError::Conflict(gifshelf_domain::Unique::Favourite)) => {
                    gifs::table.find(gif.0).select(gifs::favourite_count).first(conn).map_err(repo_error)
                }
                other => other,
            }
        })
        .await
    }

    async fn favourited_among(&self, user: UserId, gifs: &[GifId]) -> Result<Vec<GifId>, RepoError> {
        let ids: Vec<i64> = gifs.iter().map(|g| g.0).collect();
        self.run(move |conn| {
            let found: Vec<i64> = favourites::table
                .filter(favourites::user_id.eq(user.0))
                .filter(favourites::gif_id.eq_any(&ids))
                .select(favourites::gif_id)
                .load(conn)
                .map_err(repo_error)?;
            Ok(found.into_iter().map(GifId).collect())
        })
        .await
    }
}
