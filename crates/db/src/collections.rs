//! `CollectionRepository` and `GifBatchRepository` on diesel. A collection's GIFs are rows of
//! `collection_gifs` with a position; a deleted GIF leaves every collection through the foreign
//! key's cascade.

use std::collections::{HashMap, HashSet};

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::collection::{
    Collection, CollectionEdit, CollectionId, CollectionName, GifBatch, NewCollection, Visibility,
};
use gifshelf_domain::gif::{Description, Gif, GifId, Page, PageRequest};
use gifshelf_domain::ports::{CollectionRepository, GifBatchRepository};
use gifshelf_domain::user::{UserId, Username};
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, AnyConnection, Database};
use crate::error::repo_error;
use crate::gifs::{load_many, refresh_search_text};
use crate::schema::{collection_gifs, collections, gif_renditions, gif_tags, gifs, tags, users};
use crate::tags::ensure_tags;

/// GIFs a card shows as the cover.
const COVER: usize = 4;

#[derive(Queryable, Selectable)]
#[diesel(table_name = collections)]
struct CollectionRow {
    id: i64,
    name: String,
    description: String,
    owner_id: i64,
    visibility: String,
    share_id: Option<String>,
    created_at: NaiveDateTime,
    updated_at: NaiveDateTime,
}

/// The collections with these ids, in this order, with owners, counts and covers (three queries).
/// The ids of the GIFs a moderator hid: a collection, its count and its cover leave these out
/// (a hidden GIF stays in it, and comes back when restored). Asked as "not hidden" through the
/// partial index of the few hidden GIFs: "in the unhidden ones" would list the whole library
/// for every page.
fn hidden() -> diesel::dsl::Select<diesel::dsl::Filter<gifs::table, diesel::dsl::IsNotNull<gifs::hidden_at>>, gifs::id>
{
    gifs::table.filter(gifs::hidden_at.is_not_null()).select(gifs::id)
}

fn load_collections(conn: &mut AnyConnection, ids: &[i64]) -> Result<Vec<Collection>, RepoError> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let rows: Vec<(CollectionRow, String)> = collections::table
        .inner_join(users::table)
        .filter(collections::id.eq_any(ids))
        .select((CollectionRow::as_select(), users::username))
        .load(conn)
        .map_err(repo_error)?;
    let counts: Vec<(i64, i64)> = collection_gifs::table
        .filter(collection_gifs::collection_id.eq_any(ids))
        .filter(diesel::dsl::not(collection_gifs::gif_id.eq_any(hidden())))
        .group_by(collection_gifs::collection_id)
        .select((collection_gifs::collection_id, diesel::dsl::count_star()))
        .load(conn)
        .map_err(repo_error)?;
    let counts: HashMap<i64, i64> = counts.into_iter().collect();
    let mut covers: HashMap<i64, Vec<GifId>> = HashMap::new();
    for id in ids {
        let cover: Vec<i64> = collection_gifs::table
            .filter(collection_gifs::collection_id.eq(id))
            .filter(diesel::dsl::not(collection_gifs::gif_id.eq_any(hidden())))
            .order((collection_gifs::position.asc(), collection_gifs::gif_id.asc()))
            .select(collection_gifs::gif_id)
            .limit(COVER as i64)
            .load(conn)
            .map_err(repo_error)?;
        covers.insert(*id, cover.into_iter().map(GifId).collect());
    }
    let mut by_id: HashMap<i64, Collection> = rows
        .into_iter()
        .map(|(row, owner)| {
            let id = row.id;
            let collection = Collection {
                id: CollectionId(id),
                name: CollectionName::from_trusted(row.name),
                description: Description::from_trusted(row.description),
                owner_id: UserId(row.owner_id),
                owner: Username::from_trusted(owner),
                visibility: if row.visibility == "private" { Visibility::Private } else { Visibility::Team },
                share_id: row.share_id,
                gif_count: counts.get(&id).copied().unwrap_or(0),
                cover: covers.remove(&id).unwrap_or_default(),
                created_at: row.created_at,
                updated_at: row.updated_at,
            };
            (id, collection)
        })
        .collect();
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}

fn load_one(conn: &mut AnyConnection, id: i64) -> Result<Collection, RepoError> {
    load_collections(conn, &[id])?.pop().ok_or(RepoError::NotFound)
}

fn require_collection(conn: &mut AnyConnection, id: i64) -> Result<(), RepoError> {
    collections::table.find(id).select(collections::id).first::<i64>(conn).map(|_| ()).map_err(repo_error)
}

fn touch(conn: &mut AnyConnection, id: i64, at: NaiveDateTime) -> Result<(), RepoError> {
    let updated = diesel::update(collections::table.find(id))
        .set(collections::updated_at.eq(at))
        .execute(conn)
        .map_err(repo_error)?;
    if updated == 0 {
        return Err(RepoError::NotFound);
    }
    Ok(())
}

/// Appends the GIFs not yet in the collection, in the order given, after its last one.
fn append(conn: &mut AnyConnection, id: i64, gif_ids: &[i64], at: NaiveDateTime) -> Result<(), RepoError> {
    touch(conn, id, at)?;
    let present: HashSet<i64> = collection_gifs::table
        .filter(collection_gifs::collection_id.eq(id))
        .filter(collection_gifs::gif_id.eq_any(gif_ids))
        .select(collection_gifs::gif_id)
        .load::<i64>(conn)
        .map_err(repo_error)?
        .into_iter()
        .collect();
    let last: Option<i64> = collection_gifs::table
        .filter(collection_gifs::collection_id.eq(id))
        .select(diesel::dsl::max(collection_gifs::position))
        .first(conn)
        .map_err(repo_error)?;
    let mut next = last.map_or(0, |p| p + 1);
    let mut added = HashSet::new();
    for gif_id in gif_ids.iter().filter(|g| !present.contains(g)) {
        if !added.insert(*gif_id) {
            continue;
        }
        diesel::insert_into(collection_gifs::table)
            .values((
                collection_gifs::collection_id.eq(id),
                collection_gifs::gif_id.eq(gif_id),
                collection_gifs::position.eq(next),
                collection_gifs::added_at.eq(at),
            ))
            .execute(conn)
            .map_err(repo_error)?;
        next += 1;
    }
    Ok(())
}

/// How many of these GIFs exist.
fn existing_gifs(conn: &mut AnyConnection, ids: &[i64]) -> Result<usize, RepoError> {
    let found: Vec<i64> = gifs::table.filter(gifs::id.eq_any(ids)).select(gifs::id).load(conn).map_err(repo_error)?;
    Ok(found.len())
}

fn distinct(ids: &[GifId]) -> Vec<i64> {
    let mut seen = HashSet::new();
    ids.iter().map(|g| g.0).filter(|id| seen.insert(*id)).collect()
}

#[async_trait]
impl CollectionRepository for Database {
    async fn create(&self, c: NewCollection) -> Result<Collection, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let id: i64 = diesel::insert_into(collections::table)
                    .values((
                        collections::name.eq(c.name.as_str()),
                        collections::description.eq(c.description.as_str()),
                        collections::owner_id.eq(c.owner_id.0),
                        collections::visibility.eq(c.visibility.as_str()),
                        collections::created_at.eq(c.at),
                        collections::updated_at.eq(c.at),
                    ))
                    .returning(collections::id)
                    .get_result(conn)
                    .map_err(repo_error)?;
                load_one(conn, id)
            })
        })
        .await
    }

    async fn find(&self, id: CollectionId) -> Result<Collection, RepoError> {
        self.run(move |conn| load_one(conn, id.0)).await
    }

    async fn find_by_share_id(&self, share_id: &str) -> Result<Collection, RepoError> {
        let share_id = share_id.to_owned();
        self.run(move |conn| {
            let id: i64 = collections::table
                .filter(collections::share_id.eq(&share_id))
                .select(collections::id)
                .first(conn)
                .map_err(repo_error)?;
            load_one(conn, id)
        })
        .await
    }

    async fn list_visible_to(&self, viewer: UserId) -> Result<Vec<Collection>, RepoError> {
        self.run(move |conn| {
            let ids: Vec<i64> = collections::table
                .filter(collections::visibility.eq("team").or(collections::owner_id.eq(viewer.0)))
                .order((collections::updated_at.desc(), collections::id.desc()))
                .select(collections::id)
                .load(conn)
                .map_err(repo_error)?;
            load_collections(conn, &ids)
        })
        .await
    }

    async fn update(&self, id: CollectionId, edit: CollectionEdit) -> Result<Collection, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let updated = diesel::update(collections::table.find(id.0))
                    .set((
                        collections::name.eq(edit.name.as_str()),
                        collections::description.eq(edit.description.as_str()),
                        collections::visibility.eq(edit.visibility.as_str()),
                        collections::updated_at.eq(edit.at),
                    ))
                    .execute(conn)
                    .map_err(repo_error)?;
                if updated == 0 {
                    return Err(RepoError::NotFound);
                }
                load_one(conn, id.0)
            })
        })
        .await
    }

    async fn set_share_id(&self, id: CollectionId, share_id: Option<String>) -> Result<Collection, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let updated = diesel::update(collections::table.find(id.0))
                    .set(collections::share_id.eq(share_id.as_deref()))
                    .execute(conn)
                    .map_err(repo_error)?;
                if updated == 0 {
                    return Err(RepoError::NotFound);
                }
                load_one(conn, id.0)
            })
        })
        .await
    }

    async fn delete(&self, id: CollectionId) -> Result<(), RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                diesel::delete(collection_gifs::table.filter(collection_gifs::collection_id.eq(id.0)))
                    .execute(conn)
                    .map_err(repo_error)?;
                let deleted = diesel::delete(collections::table.find(id.0)).execute(conn).map_err(repo_error)?;
                if deleted == 0 {
                    Err(RepoError::NotFound)
                } else {
                    Ok(())
                }
            })
        })
        .await
    }

    async fn add_gif(&self, id: CollectionId, gif: GifId, at: NaiveDateTime) -> Result<(), RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                require_collection(conn, id.0)?;
                if existing_gifs(conn, &[gif.0])? == 0 {
                    return Err(RepoError::NotFound);
                }
                append(conn, id.0, &[gif.0], at)
            })
        })
        .await
    }

    async fn remove_gif(&self, id: CollectionId, gif: GifId, at: NaiveDateTime) -> Result<(), RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                touch(conn, id.0, at)?;
                diesel::delete(
                    collection_gifs::table
                        .filter(collection_gifs::collection_id.eq(id.0))
                        .filter(collection_gifs::gif_id.eq(gif.0)),
                )
                .execute(conn)
                .map_err(repo_error)?;
                Ok(())
            })
        })
        .await
    }

    async fn gif_ids(&self, id: CollectionId) -> Result<Vec<GifId>, RepoError> {
        self.run(move |conn| {
            require_collection(conn, id.0)?;
            let ids: Vec<i64> = collection_gifs::table
                .filter(collection_gifs::collection_id.eq(id.0))
                .filter(diesel::dsl::not(collection_gifs::gif_id.eq_any(hidden())))
                .order((collection_gifs::position.asc(), collection_gifs::gif_id.asc()))
                .select(collection_gifs::gif_id)
                .load(conn)
                .map_err(repo_error)?;
            Ok(ids.into_iter().map(GifId).collect())
        })
        .await
    }

    async fn reorder(&self, id: CollectionId, order: Vec<GifId>, at: NaiveDateTime) -> Result<(), RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                touch(conn, id.0, at)?;
                for (position, gif) in (0_i64..).zip(order.iter()) {
                    diesel::update(
                        collection_gifs::table
                            .filter(collection_gifs::collection_id.eq(id.0))
                            .filter(collection_gifs::gif_id.eq(gif.0)),
                    )
                    .set(collection_gifs::position.eq(position))
                    .execute(conn)
                    .map_err(repo_error)?;
                }
                Ok(())
            })
        })
        .await
    }

    async fn gifs(&self, id: CollectionId, page: PageRequest) -> Result<Page<Gif>, RepoError> {
        self.run(move |conn| {
            require_collection(conn, id.0)?;
            let ids: Vec<i64> = collection_gifs::table
                .filter(collection_gifs::collection_id.eq(id.0))
                .filter(diesel::dsl::not(collection_gifs::gif_id.eq_any(hidden())))
                .order((collection_gifs::position.asc(), collection_gifs::gif_id.asc()))
                .select(collection_gifs::gif_id)
                .limit(i64::from(page.size))
                .offset(page.offset())
                .load(conn)
                .map_err(repo_error)?;
            let total: i64 = collection_gifs::table
                .filter(collection_gifs::collection_id.eq(id.0))
                .filter(diesel::dsl::not(collection_gifs::gif_id.eq_any(hidden())))
                .count()
                .get_result(conn)
                .map_err(repo_error)?;
            Ok(Page { items: load_many(conn, &ids)?, request: page, total })
        })
        .await
    }
}

#[async_trait]
impl GifBatchRepository for Database {
    async fn find_many(&self, ids: Vec<GifId>) -> Result<Vec<Gif>, RepoError> {
        self.run(move |conn| {
            let ids = distinct(&ids);
            let mut found = Vec::with_capacity(ids.len());
            for chunk in ids.chunks(500) {
                found.extend(load_many(conn, chunk)?);
            }
            Ok(found)
        })
        .await
    }

    async fn apply(&self, batch: GifBatch) -> Result<Vec<Gif>, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let retag = distinct(&batch.retag);
                if !retag.is_empty() {
                    if existing_gifs(conn, &retag)? != retag.len() {
                        return Err(RepoError::NotFound);
                    }
                    if !batch.remove_tags.is_empty() {
                        let names: Vec<&str> = batch.remove_tags.iter().map(|t| t.as_str()).collect();
                        diesel::delete(gif_tags::table.filter(gif_tags::gif_id.eq_any(&retag)).filter(
                            gif_tags::tag_id.eq_any(tags::table.filter(tags::name.eq_any(names)).select(tags::id)),
                        ))
                        .execute(conn)
                        .map_err(repo_error)?;
                    }
                    let tag_ids = ensure_tags(conn, &batch.add_tags, batch.at)?;
                    if !tag_ids.is_empty() {
                        let linked: HashSet<(i64, i64)> = gif_tags::table
                            .filter(gif_tags::gif_id.eq_any(&retag))
                            .filter(gif_tags::tag_id.eq_any(&tag_ids))
                            .select((gif_tags::gif_id, gif_tags::tag_id))
                            .load::<(i64, i64)>(conn)
                            .map_err(repo_error)?
                            .into_iter()
                            .collect();
                        for gif_id in &retag {
                            for tag_id in &tag_ids {
                                if linked.contains(&(*gif_id, *tag_id)) {
                                    continue;
                                }
                                diesel::insert_into(gif_tags::table)
                                    .values((gif_tags::gif_id.eq(gif_id), gif_tags::tag_id.eq(tag_id)))
                                    .execute(conn)
                                    .map_err(repo_error)?;
                            }
                        }
                    }
                    refresh_search_text(conn, &retag)?;
                }
                if let Some((collection, gif_ids)) = &batch.collect {
                    let gif_ids = distinct(gif_ids);
                    if existing_gifs(conn, &gif_ids)? != gif_ids.len() {
                        return Err(RepoError::NotFound);
                    }
                    append(conn, collection.0, &gif_ids, batch.at)?;
                }
                let doomed = distinct(&batch.delete);
                if doomed.is_empty() {
                    return Ok(Vec::new());
                }
                let removed = load_many(conn, &doomed)?;
                if removed.len() != doomed.len() {
                    return Err(RepoError::NotFound);
                }
                diesel::delete(gif_tags::table.filter(gif_tags::gif_id.eq_any(&doomed)))
                    .execute(conn)
                    .map_err(repo_error)?;
                diesel::delete(gif_renditions::table.filter(gif_renditions::gif_id.eq_any(&doomed)))
                    .execute(conn)
                    .map_err(repo_error)?;
                diesel::delete(gifs::table.filter(gifs::id.eq_any(&doomed))).execute(conn).map_err(repo_error)?;
                Ok(removed)
            })
        })
        .await
    }
}
