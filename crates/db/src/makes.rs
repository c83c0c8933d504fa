//! `MakeRepository` on diesel: the `makes` table (one row per GIF asked of the maker, kept after
//! its job ends so its maker can read the outcome), queued with its `make_gif` job in one
//! transaction. The recipe and the form are stored as JSON.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::gif::GifId;
use gifshelf_domain::job::Task;
use gifshelf_domain::make::{Make, MakeError, MakeId, MakeState, NewMake};
use gifshelf_domain::ports::MakeRepository;
use gifshelf_domain::user::UserId;
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, Database};
use crate::error::repo_error;
use crate::schema::{gifs, makes};

#[derive(Queryable, Selectable)]
#[diesel(table_name = makes)]
struct MakeRow {
    id: i64,
    owner_id: i64,
    state: String,
    progress: f32,
    source_key: String,
    source_gif_id: Option<i64>,
    recipe: String,
    gif_data: String,
    gif_id: Option<i64>,
    error_code: Option<String>,
    error: Option<String>,
}

impl MakeRow {
    fn into_make(self) -> Result<Make, RepoError> {
        let unreadable =
            |what: &str, e: &dyn std::fmt::Display| RepoError::other(format!("make {}: {what}: {e}", self.id));
        let recipe = serde_json::from_str(&self.recipe).map_err(|e| unreadable("recipe", &e))?;
        let gif_data = serde_json::from_str(&self.gif_data).map_err(|e| unreadable("gif data", &e))?;
        let state = MakeState::parse(&self.state).ok_or_else(|| unreadable("state", &self.state))?;
        Ok(Make {
            id: MakeId(self.id),
            owner: UserId(self.owner_id),
            state,
            progress: self.progress,
            source_key: self.source_key,
            source_gif: self.source_gif_id.map(GifId),
            recipe,
            gif_data,
            gif: self.gif_id.map(GifId),
            error: self.error_code.map(|code| MakeError { code, message: self.error.unwrap_or_default() }),
        })
    }
}

fn json(value: &impl serde::Serialize) -> Result<String, RepoError> {
    serde_json::to_string(value).map_err(|e| RepoError::other(format!("make: {e}")))
}

#[async_trait]
impl MakeRepository for Database {
    async fn create(&self, make: NewMake) -> Result<MakeId, RepoError> {
        let (recipe, gif_data) = (json(&make.recipe)?, json(&make.gif_data)?);
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let id: i64 = diesel::insert_into(makes::table)
                    .values((
                        makes::owner_id.eq(make.owner.0),
                        makes::state.eq(MakeState::Queued.as_str()),
                        makes::progress.eq(0.0_f32),
                        makes::source_key.eq(&make.source_key),
                        makes::source_gif_id.eq(make.source_gif.map(|g| g.0)),
                        makes::recipe.eq(&recipe),
                        makes::gif_data.eq(&gif_data),
                        makes::created_at.eq(make.at),
                        makes::updated_at.eq(make.at),
                    ))
                    .returning(makes::id)
                    .get_result(conn)
                    .map_err(repo_error)?;
                crate::jobs::enqueue_in(conn, &Task::MakeGif(MakeId(id)), make.at)?;
                Ok(MakeId(id))
            })
        })
        .await
    }

    async fn find(&self, id: MakeId) -> Result<Make, RepoError> {
        self.run(move |conn| {
            makes::table
                .find(id.0)
                .select(MakeRow::as_select())
                .first(conn)
                .optional()
                .map_err(repo_error)?
                .ok_or(RepoError::NotFound)?
                .into_make()
        })
        .await
    }

    async fn progress(&self, id: MakeId, progress: f32, at: NaiveDateTime) -> Result<(), RepoError> {
        let open = [MakeState::Queued.as_str(), MakeState::Running.as_str()];
        self.run(move |conn| {
            diesel::update(makes::table.find(id.0).filter(makes::state.eq_any(open)))
                .set((
                    makes::state.eq(MakeState::Running.as_str()),
                    makes::progress.eq(progress.clamp(0.0, 1.0)),
                    makes::updated_at.eq(at),
                ))
                .execute(conn)
                .map(|_| ())
                .map_err(repo_error)
        })
        .await
    }

    async fn finish(&self, id: MakeId, gif: GifId, at: NaiveDateTime) -> Result<(), RepoError> {
        self.run(move |conn| {
            diesel::update(makes::table.find(id.0))
                .set((
                    makes::state.eq(MakeState::Done.as_str()),
                    makes::progress.eq(1.0_f32),
                    makes::gif_id.eq(Some(gif.0)),
                    makes::error_code.eq(None::<String>),
                    makes::error.eq(None::<String>),
                    makes::updated_at.eq(at),
                ))
                .execute(conn)
                .map(|_| ())
                .map_err(repo_error)
        })
        .await
    }

    async fn fail(&self, id: MakeId, error: MakeError, at: NaiveDateTime) -> Result<(), RepoError> {
        self.run(move |conn| {
            diesel::update(makes::table.find(id.0).filter(makes::state.ne(MakeState::Done.as_str())))
                .set((
                    makes::state.eq(MakeState::Failed.as_str()),
                    makes::error_code.eq(Some(&error.code)),
                    makes::error.eq(Some(&error.message)),
                    makes::updated_at.eq(at),
                ))
                .execute(conn)
                .map(|_| ())
                .map_err(repo_error)
        })
        .await
    }

    async fn set_made_from(&self, gif: GifId, source: GifId) -> Result<(), RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let exists: Option<i64> =
                    gifs::table.find(source.0).select(gifs::id).first(conn).optional().map_err(repo_error)?;
                if exists.is_none() {
                    return Ok(());
                }
                diesel::update(gifs::table.find(gif.0).filter(gifs::made_from_id.is_null()))
                    .set(gifs::made_from_id.eq(Some(source.0)))
                    .execute(conn)
                    .map(|_| ())
                    .map_err(repo_error)
            })
        })
        .await
    }
}
