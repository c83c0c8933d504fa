//! `RenditionRepository` on diesel: the files made after an upload become rows of
//! `gif_renditions` beside the ones the upload stored.

use std::collections::HashMap;

use async_trait::async_trait;
use diesel::prelude::*;
use gifshelf_domain::gif::{Gif, GifId, Rendition, RenditionKind};
use gifshelf_domain::ports::{RenditionRepository, StoredFiles};
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, Database};
use crate::error::repo_error;
use crate::gifs::{load_many, RenditionRow};
use crate::schema::{gif_renditions, gifs};

#[async_trait]
impl RenditionRepository for Database {
    async fn save_renditions(
        &self,
        id: GifId,
        renditions: Vec<Rendition>,
        transparent: bool,
    ) -> Result<Gif, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let updated = diesel::update(gifs::table.find(id.0))
                    .set(gifs::transparent.eq(Some(transparent)))
                    .execute(conn)
                    .map_err(repo_error)?;
                if updated == 0 {
                    return Err(RepoError::NotFound);
                }
                for rendition in &renditions {
                    diesel::delete(
                        gif_renditions::table
                            .filter(gif_renditions::gif_id.eq(id.0))
                            .filter(gif_renditions::kind.eq(rendition.kind.as_str())),
                    )
                    .execute(conn)
                    .map_err(repo_error)?;
                    diesel::insert_into(gif_renditions::table)
                        .values(RenditionRow::of(id.0, rendition))
                        .execute(conn)
                        .map_err(repo_error)?;
                }
                load_many(conn, &[id.0])?.pop().ok_or(RepoError::NotFound)
            })
        })
        .await
    }

    async fn rendition_kinds_after(&self, after: GifId, limit: i64) -> Result<Vec<StoredFiles>, RepoError> {
        self.run(move |conn| {
            let rows: Vec<(i64, i32, Option<bool>)> = gifs::table
                .filter(gifs::id.gt(after.0))
                .order(gifs::id.asc())
                .limit(limit)
                .select((gifs::id, gifs::frame_count, gifs::transparent))
                .load(conn)
                .map_err(repo_error)?;
            let ids: Vec<i64> = rows.iter().map(|(id, _, _)| *id).collect();
            let kinds: Vec<(i64, String)> = gif_renditions::table
                .filter(gif_renditions::gif_id.eq_any(&ids))
                .select((gif_renditions::gif_id, gif_renditions::kind))
                .load(conn)
                .map_err(repo_error)?;
            let mut kinds_of: HashMap<i64, Vec<RenditionKind>> = HashMap::new();
            for (gif, kind) in kinds {
                if let Some(kind) = RenditionKind::parse(&kind) {
                    kinds_of.entry(gif).or_default().push(kind);
                }
            }
            Ok(rows
                .into_iter()
                .map(|(id, frames, transparent)| StoredFiles {
                    id: GifId(id),
                    frames,
                    kinds: kinds_of.remove(&id).unwrap_or_default(),
                    transparent,
                })
                .collect())
        })
        .await
    }

    async fn gif_count(&self) -> Result<i64, RepoError> {
        self.run(|conn| gifs::table.count().get_result(conn).map_err(repo_error)).await
    }
}
