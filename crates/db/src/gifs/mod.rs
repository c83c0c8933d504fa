//! `GifRepository` and `BlobKeyIndex` on diesel (`ChatFeedRepository` in `chat_feed.rs`,
//! `FavouriteRepository` in `favourites.rs`, lists and random picks in `listing.rs`). Lists load a
//! page of ids first, then the rows and their tags in two queries (never one query per GIF).

mod chat_feed;
mod favourites;
pub(crate) mod listing;

use std::collections::HashMap;

use async_trait::async_trait;
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamp};
use gifshelf_domain::gif::{
    CaptionText, Description, Gif, GifEdit, GifFile, GifFilter, GifId, GifSort, GifSummary, Hidden, NewGif, Page,
    PageRequest, Rating, Rendition, RenditionKind, Renditions, Shelf, TagId, TagName, TagRef, Title,
};
use gifshelf_domain::ports::{BlobKeyIndex, GifRepository};
use gifshelf_domain::user::{UserId, Username};
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, AnyConnection, Database};
use crate::duplicates;
use crate::error::repo_error;
use crate::schema::{gif_renditions, gif_tags, gifs, tags, users};
use crate::tags::ensure_tags;

use listing::{page_of_ids, random_id, Shown};

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
    rating: String,
    made_from_id: Option<i64>,
    hidden_at: Option<NaiveDateTime>,
    hidden_reason: Option<String>,
    caption_text: Option<String>,
    transparent: Option<bool>,
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
    fn into_gif(
        self,
        uploader: String,
        tags: Vec<TagRef>,
        renditions: Vec<Rendition>,
        made_from: Option<GifSummary>,
    ) -> Gif {
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
            // A value this version does not know (a newer version wrote it) reads as the strictest.
            rating: Rating::parse(&self.rating).unwrap_or(Rating::R),
            made_from,
            hidden: self.hidden_at.map(|at| Hidden { at, reason: self.hidden_reason.unwrap_or_default() }),
            caption_text: self.caption_text.map(CaptionText::from_trusted),
            transparent: self.transparent,
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
    let sources = made_from_titles(conn, &rows)?;
    let mut by_id: HashMap<i64, Gif> = rows
        .into_iter()
        .map(|(row, uploader)| {
            let id = row.id;
            let tags = tags_of.remove(&id).unwrap_or_default();
            let made_from = row.made_from_id.and_then(|source| sources.get(&source).cloned());
            (id, row.into_gif(uploader, tags, renditions_of.remove(&id).unwrap_or_default(), made_from))
        })
        .collect();
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}

/// The ids and titles of the GIFs these rows were made from (one query, none when no row was).
fn made_from_titles(
    conn: &mut AnyConnection,
    rows: &[(GifRow, String)],
) -> Result<HashMap<i64, GifSummary>, RepoError> {
    let sources: Vec<i64> = rows.iter().filter_map(|(row, _)| row.made_from_id).collect();
    if sources.is_empty() {
        return Ok(HashMap::new());
    }
    let found: Vec<(i64, String)> =
        gifs::table.filter(gifs::id.eq_any(&sources)).select((gifs::id, gifs::title)).load(conn).map_err(repo_error)?;
    Ok(found
        .into_iter()
        .map(|(id, title)| (id, GifSummary { id: GifId(id), title: Title::from_trusted(title) }))
        .collect())
}

/// One statement the connection keeps prepared: the GIF's row with its file of `kind`, if any.
fn find_file(conn: &mut AnyConnection, id: i64, kind: RenditionKind) -> Result<GifFile, RepoError> {
    let (share_id, uploader_id, hidden_at, file): (String, i64, Option<NaiveDateTime>, Option<RenditionRow>) =
        gifs::table
            .left_join(
                gif_renditions::table
                    .on(gif_renditions::gif_id.eq(gifs::id).and(gif_renditions::kind.eq(kind.as_str()))),
            )
            .filter(gifs::id.eq(id))
            .select((gifs::share_id, gifs::uploader_id, gifs::hidden_at, gif_renditions::all_columns.nullable()))
            .first(conn)
            .map_err(repo_error)?;
    Ok(GifFile {
        gif_id: GifId(id),
        share_id,
        uploader_id: UserId(uploader_id),
        hidden: hidden_at.is_some(),
        rendition: file.and_then(RenditionRow::into_rendition),
    })
}

pub(crate) fn load_one(conn: &mut AnyConnection, id: i64) -> Result<Gif, RepoError> {
    load_many(conn, &[id])?.pop().ok_or(RepoError::NotFound)
}

/// The lower-cased text the search matches against: title, description, tag names and the text
/// in the GIF (its lines joined by spaces, so that a quoted phrase runs across them).
pub(crate) fn search_text(
    title: &Title,
    description: &Description,
    tags: &[TagName],
    caption: Option<&CaptionText>,
) -> String {
    let mut text = format!("{}\n{}", title.as_str(), description.as_str());
    for tag in tags {
        text.push('\n');
        text.push_str(tag.as_str());
    }
    if let Some(caption) = caption {
        text.push('\n');
        text.push_str(&caption.as_str().split_whitespace().collect::<Vec<_>>().join(" "));
    }
    text.to_lowercase()
}

/// Recomputes the search text of these GIFs from their current title, description and tags.
pub(crate) fn refresh_search_text(conn: &mut AnyConnection, gif_ids: &[i64]) -> Result<(), RepoError> {
    for chunk in gif_ids.chunks(500) {
        for gif in load_many(conn, chunk)? {
            let names: Vec<TagName> = gif.tags.iter().map(|t| t.name.clone()).collect();
            diesel::update(gifs::table.find(gif.id.0))
                .set(gifs::search_text.eq(search_text(&gif.title, &gif.description, &names, gif.caption_text.as_ref())))
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

/// One more view of the GIF, all-time and on `day`.
fn count_view(conn: &mut AnyConnection, gif_id: i64, day: NaiveDateTime) -> Result<(), RepoError> {
    // A view is not worth waiting for the disk: on PostgreSQL its commit returns before the WAL is
    // flushed (a crash may forget the last fraction of a second of views, never corrupt anything).
    // Every other write still waits.
    if let AnyConnection::Postgresql(pg) = conn {
        diesel::sql_query("SET LOCAL synchronous_commit = off").execute(pg).map_err(repo_error)?;
    }
    let updated = diesel::update(gifs::table.find(gif_id))
        .set(gifs::view_count.eq(gifs::view_count + 1_i64))
        .execute(conn)
        .map_err(repo_error)?;
    if updated == 0 {
        return Err(RepoError::NotFound);
    }
    count_in_day(conn, gif_id, day)
}

/// Records that `viewer` viewed the GIF on `day` (forgetting its viewers of days before
/// yesterday); whether this is the first such view. A GIF deleted meanwhile records nothing.
fn first_view_of_day(
    conn: &mut AnyConnection,
    gif_id: i64,
    viewer: &str,
    day: NaiveDateTime,
) -> Result<bool, RepoError> {
    const FORGET: &str = "DELETE FROM gif_viewers WHERE gif_id = {1} AND day < {2}";
    const RECORD: &str = "INSERT INTO gif_viewers (gif_id, day, viewer) SELECT {1}, {2}, {3} \
                          WHERE EXISTS (SELECT 1 FROM gifs WHERE id = {1}) ON CONFLICT DO NOTHING";
    let sql = |text: &str, mark: &str| {
        text.replace("{1}", &format!("{mark}1")).replace("{2}", &format!("{mark}2")).replace("{3}", &format!("{mark}3"))
    };
    let yesterday = day - chrono::Duration::days(1);
    let recorded = match conn {
        AnyConnection::Sqlite(c) => {
            diesel::sql_query(sql(FORGET, "?"))
                .bind::<BigInt, _>(gif_id)
                .bind::<Timestamp, _>(yesterday)
                .execute(c)
                .map_err(repo_error)?;
            diesel::sql_query(sql(RECORD, "?"))
                .bind::<BigInt, _>(gif_id)
                .bind::<Timestamp, _>(day)
                .bind::<Text, _>(viewer)
                .execute(c)
        }
        AnyConnection::Postgresql(c) => {
            diesel::sql_query(sql(FORGET, "$"))
                .bind::<BigInt, _>(gif_id)
                .bind::<Timestamp, _>(yesterday)
                .execute(c)
                .map_err(repo_error)?;
            diesel::sql_query(sql(RECORD, "$"))
                .bind::<BigInt, _>(gif_id)
                .bind::<Timestamp, _>(day)
                .bind::<Text, _>(viewer)
                .execute(c)
        }
    }
    .map_err(repo_error)?;
    Ok(recorded == 1)
}

impl Database {
    async fn list_shown(
        &self,
        filter: &GifFilter,
        sort: GifSort,
        page: PageRequest,
        shown: Shown,
    ) -> Result<Page<Gif>, RepoError> {
        let filter = filter.clone();
        self.run(move |conn| {
            let (ids, total) = page_of_ids(conn, &filter, sort, i64::from(page.size), page.offset(), shown)?;
            Ok(Page { items: load_many(conn, &ids)?, request: page, total })
        })
        .await
    }

    async fn random_shown(&self, filter: &GifFilter, shown: Shown) -> Result<Gif, RepoError> {
        let filter = filter.clone();
        self.run(move |conn| {
            let id = random_id(conn, &filter, shown)?;
            load_one(conn, id)
        })
        .await
    }
}

#[async_trait]
impl GifRepository for Database {
    async fn insert(&self, gif: NewGif) -> Result<Gif, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let text = search_text(&gif.title, &gif.description, &gif.tags, gif.caption_text.as_ref());
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
                        gifs::rating.eq(gif.rating.as_str()),
                        gifs::content_type.eq(&original.content_type),
                        gifs::content_size.eq(original.size),
                        gifs::search_text.eq(&text),
                        gifs::sha256.eq(sha256),
                        gifs::phash.eq(phash),
                        gifs::phash_b0.eq(b0),
                        gifs::phash_b1.eq(b1),
                        gifs::phash_b2.eq(b2),
                        gifs::phash_b3.eq(b3),
                        gifs::caption_text.eq(gif.caption_text.as_ref().map(CaptionText::as_str)),
                        gifs::caption_edited.eq(gif.caption_text.is_some()),
                        gifs::transparent.eq(Some(gif.transparent)),
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
                for job in &gif.jobs {
                    crate::jobs::enqueue_in(conn, &job(GifId(id)), gif.uploaded_at)?;
                }
                load_one(conn, id)
            })
        })
        .await
    }

    async fn find(&self, id: GifId) -> Result<Gif, RepoError> {
        self.run(move |conn| load_one(conn, id.0)).await
    }

    async fn find_file(&self, id: GifId, kind: RenditionKind) -> Result<GifFile, RepoError> {
        self.run(move |conn| find_file(conn, id.0, kind)).await
    }

    async fn find_by_share_id(&self, share_id: &str) -> Result<Gif, RepoError> {
        let share_id = share_id.to_owned();
        self.run(move |conn| {
            // A hidden GIF's share link is gone, as a deleted GIF's is.
            let id: i64 = gifs::table
                .filter(gifs::share_id.eq(&share_id))
                .filter(gifs::hidden_at.is_null())
                .select(gifs::id)
                .first(conn)
                .map_err(repo_error)?;
            load_one(conn, id)
        })
        .await
    }

    async fn list(&self, filter: &GifFilter, sort: GifSort, page: PageRequest) -> Result<Page<Gif>, RepoError> {
        self.list_shown(filter, sort, page, Shown::VISIBLE).await
    }

    async fn list_with_own(
        &self,
        owner: UserId,
        filter: &GifFilter,
        sort: GifSort,
        page: PageRequest,
    ) -> Result<Page<Gif>, RepoError> {
        self.list_shown(filter, sort, page, Shown::with_own(owner.0)).await
    }

    async fn list_rated(
        &self,
        filter: &GifFilter,
        sort: GifSort,
        page: PageRequest,
        max: Rating,
        shelf: Shelf,
    ) -> Result<Page<Gif>, RepoError> {
        self.list_shown(filter, sort, page, Shown::on_shelf(max, shelf)).await
    }

    async fn random(&self, filter: &GifFilter, max: Rating, shelf: Shelf) -> Result<Gif, RepoError> {
        self.random_shown(filter, Shown::on_shelf(max, shelf)).await
    }

    async fn update(&self, id: GifId, edit: GifEdit) -> Result<Gif, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let caption = match &edit.caption_text {
                    Some(edited) => {
                        diesel::update(gifs::table.find(id.0))
                            .set((
                                gifs::caption_text.eq(edited.as_ref().map(CaptionText::as_str)),
                                gifs::caption_edited.eq(true),
                            ))
                            .execute(conn)
                            .map_err(repo_error)?;
                        edited.clone()
                    }
                    None => gifs::table
                        .find(id.0)
                        .select(gifs::caption_text)
                        .first::<Option<String>>(conn)
                        .optional()
                        .map_err(repo_error)?
                        .flatten()
                        .map(CaptionText::from_trusted),
                };
                let text = search_text(&edit.title, &edit.description, &edit.tags, caption.as_ref());
                let updated = diesel::update(gifs::table.find(id.0))
                    .set((
                        gifs::title.eq(edit.title.as_str()),
                        gifs::description.eq(edit.description.as_str()),
                        gifs::search_text.eq(&text),
                    ))
                    .execute(conn)
                    .map_err(repo_error)?;
                if let (Some(rating), true) = (edit.rating, updated > 0) {
                    diesel::update(gifs::table.find(id.0))
                        .set(gifs::rating.eq(rating.as_str()))
                        .execute(conn)
                        .map_err(repo_error)?;
                }
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
        self.run(move |conn| write_tx(conn, |conn| count_view(conn, id.0, day))).await
    }

    async fn add_view_once(&self, id: GifId, viewer: &str, day: NaiveDate) -> Result<bool, RepoError> {
        let viewer = viewer.to_owned();
        let day = day.and_time(NaiveTime::MIN);
        self.run(move |conn| {
            write_tx(conn, |conn| {
                if !first_view_of_day(conn, id.0, &viewer, day)? {
                    return Ok(false);
                }
                count_view(conn, id.0, day).map(|()| true)
            })
        })
        .await
    }

    async fn find_by_sha256(&self, sha256: &str) -> Result<Option<GifId>, RepoError> {
        let sha256 = sha256.to_owned();
        self.run(move |conn| duplicates::find_by_sha256(conn, &sha256)).await
    }
}

#[async_trait]
impl BlobKeyIndex for Database {
    async fn all_blob_keys(&self) -> Result<Vec<String>, RepoError> {
        self.run(|conn| {
            let mut keys: Vec<String> =
                gif_renditions::table.select(gif_renditions::blob_key).load(conn).map_err(repo_error)?;
            // The maker's sources, kept until their makes end.
            let open = ["queued", "running"];
            let sources: Vec<String> = crate::schema::makes::table
                .filter(crate::schema::makes::state.eq_any(open))
                .select(crate::schema::makes::source_key)
                .load(conn)
                .map_err(repo_error)?;
            keys.extend(sources);
            Ok(keys)
        })
        .await
    }
}
