//! `CaptionRepository` on diesel: the text read in GIFs (`gifs.caption_text`, migration 000026),
//! kept with the search text in one write, never over an edited text.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::gif::{CaptionText, GifId, TagName};
use gifshelf_domain::ports::CaptionRepository;
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, Database};
use crate::error::repo_error;
use crate::gifs::{load_one, search_text};
use crate::schema::gifs;

#[async_trait]
impl CaptionRepository for Database {
    async fn record_read_text(
        &self,
        id: GifId,
        text: Option<CaptionText>,
        at: NaiveDateTime,
    ) -> Result<bool, RepoError> {
        self.run(move |conn| {
            write_tx(conn, |conn| {
                let edited: bool =
                    gifs::table.find(id.0).select(gifs::caption_edited).first(conn).map_err(repo_error)?;
                if edited {
                    return Ok(false);
                }
                let gif = load_one(conn, id.0)?;
                let names: Vec<TagName> = gif.tags.iter().map(|t| t.name.clone()).collect();
                let search = search_text(&gif.title, &gif.description, &names, text.as_ref());
                diesel::update(gifs::table.find(id.0))
                    .set((
                        gifs::caption_text.eq(text.as_ref().map(CaptionText::as_str)),
                        gifs::caption_read_at.eq(Some(at)),
                        gifs::search_text.eq(search),
                    ))
                    .execute(conn)
                    .map_err(repo_error)?;
                Ok(true)
            })
        })
        .await
    }

    async fn unread_after(&self, after: GifId, limit: i64) -> Result<Vec<GifId>, RepoError> {
        self.run(move |conn| {
            let ids: Vec<i64> = unread()
                .filter(gifs::id.gt(after.0))
                .order(gifs::id.asc())
                .limit(limit)
                .select(gifs::id)
                .load(conn)
                .map_err(repo_error)?;
            Ok(ids.into_iter().map(GifId).collect())
        })
        .await
    }

    async fn unread_count(&self) -> Result<i64, RepoError> {
        self.run(|conn| unread().count().get_result(conn).map_err(repo_error)).await
    }
}

/// The GIFs whose text was neither read nor edited (the partial index `gifs_caption_unread_idx`).
fn unread() -> gifs::BoxedQuery<'static, crate::connection::MultiBackend> {
    gifs::table.filter(gifs::caption_read_at.is_null()).filter(gifs::caption_edited.eq(false)).into_boxed()
}
