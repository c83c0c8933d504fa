//! `TagRepository` on diesel, and the tag upsert uploads and edits share.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{Text, Timestamp};
use gifshelf_domain::gif::{Tag, TagId, TagName};
use gifshelf_domain::ports::TagRepository;
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, AnyConnection, Database};
use crate::error::repo_error;
use crate::gifs::refresh_search_text;
use crate::schema::{gif_tags, gifs, tags};

/// The ids of these tags, creating the missing ones (concurrent creators do not clash).
pub(crate) fn ensure_tags(
    conn: &mut AnyConnection,
    names: &[TagName],
    now: NaiveDateTime,
) -> Result<Vec<i64>, RepoError> {
    let mut ids = Vec::with_capacity(names.len());
    for name in names {
        // One statement inserts the tag or returns the existing one's id. The no-op update locks the
        // row until the transaction ends, so an admin deleting the tag meanwhile waits (and then
        // takes this GIF's link with it) instead of leaving us an id that no longer exists.
        let id = match conn {
            AnyConnection::Sqlite(c) => diesel::sql_query(
                "INSERT INTO tags (name, created_at) VALUES (?, ?) \
                 ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id",
            )
            .bind::<Text, _>(name.as_str())
            .bind::<Timestamp, _>(now)
            .get_result::<TagIdRow>(c),
            AnyConnection::Postgresql(c) => diesel::sql_query(
                "INSERT INTO tags (name, created_at) VALUES ($1, $2) \
                 ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id",
            )
            .bind::<Text, _>(name.as_str())
            .bind::<Timestamp, _>(now)
            .get_result::<TagIdRow>(c),
        };
        ids.push(id.map_err(repo_error)?.id);
    }
    Ok(ids)
}

#[derive(QueryableByName)]
struct TagIdRow {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    id: i64,
}

type TagCountRow = (i64, String, i64);

/// Tags joined to the GIFs that count: a tag's count is of the GIFs no moderator hid (members see
/// these counts; the statistics count every GIF). A tag only hidden GIFs carry counts 0 and stays.
macro_rules! tags_with_visible_gifs {
    () => {
        tags::table
            .left_join(gif_tags::table)
            .left_join(gifs::table.on(gifs::id.eq(gif_tags::gif_id).and(gifs::hidden_at.is_null())))
    };
}

/// How many visible GIFs carry the tag (over [`tags_with_visible_gifs`]).
macro_rules! visible_count {
    () => {
        diesel::dsl::count(gifs::id.nullable())
    };
}

fn gifs_tagged(conn: &mut AnyConnection, id: i64) -> Result<Vec<i64>, RepoError> {
    gif_tags::table.filter(gif_tags::tag_id.eq(id)).select(gif_tags::gif_id).load(conn).map_err(repo_error)
}

fn load_tag(conn: &mut AnyConnection, id: i64) -> Result<Tag, RepoError> {
    let row: TagCountRow = tags_with_visible_gifs!()
        .filter(tags::id.eq(id))
        .group_by((tags::id, tags::name))
        .select((tags::id, tags::name, visible_count!()))
        .first(conn)
        .map_err(repo_error)?;
    Ok(to_tag(row))
}

fn to_tag((id, name, count): TagCountRow) -> Tag {
    Tag { id: TagId(id), name: TagName::from_trusted(name), count }
}

#[async_trait]
impl TagRepository for Database {
    async fn list_with_counts(&self) -> Result<Vec<Tag>, RepoError> {
        self.run(|conn| {
            let count = visible_count!();
            let rows: Vec<TagCountRow> = tags_with_visible_gifs!()
                .group_by((tags::id, tags::name))
                .select((tags::id, tags::name, count))
                .order((count.desc(), tags::name.asc()))
                .load(conn)
                .map_err(repo_error)?;
            Ok(rows.into_iter().map(to_tag).collect())
        })
        .await
    }

    async fn find_by_name(&self, name: &TagName) -> Result<Tag, RepoError> {
        let name = name.as_str().to_owned();
        self.run(move |conn| {
            let row: TagCountRow = tags_with_visible_gifs!()
                .filter(tags::name.eq(&name))
                .group_by((tags::id, tags::name))
                .select((tags::id, tags::name, visible_count!()))
                .first(conn)
                .map_err(repo_error)?;
            Ok(to_tag(row))
        })
        .await
    }

    async fn create(&self, name: &TagName, at: NaiveDateTime) -> Result<Tag, RepoError> {
        let name = name.clone();
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let id: i64 = diesel::insert_into(tags::table)
                    .values((tags::name.eq(name.as_str()), tags::created_at.eq(at)))
                    .returning(tags::id)
                    .get_result(conn)
                    .map_err(repo_error)?;
                Ok(Tag { id: TagId(id), name: name.clone(), count: 0 })
            })
        })
        .await
    }

    async fn find_tag(&self, id: TagId) -> Result<Tag, RepoError> {
        self.run(move |conn| load_tag(conn, id.0)).await
    }

    async fn rename(&self, id: TagId, name: &TagName) -> Result<Tag, RepoError> {
        let name = name.clone();
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let updated = diesel::update(tags::table.find(id.0))
                    .set(tags::name.eq(name.as_str()))
                    .execute(conn)
                    .map_err(repo_error)?;
                if updated == 0 {
                    return Err(RepoError::NotFound);
                }
                let tagged = gifs_tagged(conn, id.0)?;
                refresh_search_text(conn, &tagged)?;
                load_tag(conn, id.0)
            })
        })
        .await
    }

    async fn delete_tag(&self, id: TagId) -> Result<(), RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let tagged = gifs_tagged(conn, id.0)?;
                diesel::delete(gif_tags::table.filter(gif_tags::tag_id.eq(id.0))).execute(conn).map_err(repo_error)?;
                let deleted = diesel::delete(tags::table.find(id.0)).execute(conn).map_err(repo_error)?;
                if deleted == 0 {
                    return Err(RepoError::NotFound);
                }
                refresh_search_text(conn, &tagged)
            })
        })
        .await
    }

    async fn delete_empty(&self) -> Result<Vec<TagId>, RepoError> {
        self.run(|conn| {
            write_tx(conn, |conn| {
                let used = gif_tags::table.select(gif_tags::tag_id);
                let empty: Vec<i64> = tags::table
                    .filter(diesel::dsl::not(tags::id.eq_any(used)))
                    .select(tags::id)
                    .order(tags::id.asc())
                    .load(conn)
                    .map_err(repo_error)?;
                if !empty.is_empty() {
                    diesel::delete(tags::table.filter(tags::id.eq_any(&empty))).execute(conn).map_err(repo_error)?;
                }
                Ok(empty.into_iter().map(TagId).collect())
            })
        })
        .await
    }
}
