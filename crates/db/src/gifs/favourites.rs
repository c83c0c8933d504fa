//! `FavouriteRepository` on diesel.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::gif::GifId;
use gifshelf_domain::ports::FavouriteRepository;
use gifshelf_domain::user::UserId;
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, Database};
use crate::error::repo_error;
use crate::schema::{favourites, gifs};

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
