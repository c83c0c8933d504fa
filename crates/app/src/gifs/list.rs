use gifshelf_domain::gif::{Gif, GifFilter, GifId, GifSort, Page, PageRequest, Rating, Shelf};
use gifshelf_domain::user::UserId;
use gifshelf_domain::RepoError;

use super::{gif_not_found, seen_by, GifService};
use crate::auth::Actor;
use crate::AppError;

impl GifService {
    /// A page of GIFs in `sort` order, each saying whether it is one of `viewer`'s favourites;
    /// hidden GIFs only when they are the viewer's own (marked as hidden). The first page of a
    /// search with results counts the search (popular searches, trending terms).
    ///
    /// # Errors
    /// Storage errors.
    pub async fn list(
        &self,
        viewer: UserId,
        filter: &GifFilter,
        sort: GifSort,
        page: PageRequest,
    ) -> Result<Page<Gif>, AppError> {
        let mut page = self.gifs.list_with_own(viewer, filter, sort, page).await?;
        self.mark_favourites(viewer, &mut page.items).await?;
        if let GifFilter::Search(words) = filter {
            if page.request.page == 0 && !page.items.is_empty() {
                if let Err(err) = self.terms.record_search(&words.join(" "), self.clock.now().date()).await {
                    tracing::warn!(error = %err, "could not count a search");
                }
            }
        }
        Ok(page)
    }

    /// Opens a GIF: reads it, counts a view (product.md §10) and returns it with its count
    /// including that view. A hidden
    /// GIF opens only for its owner and admins, and their views count too.
    ///
    /// # Errors
    /// `NotFound` ("GIF not found").
    pub async fn view(&self, viewer: &Actor, id: GifId) -> Result<Gif, AppError> {
        let mut gif = seen_by(self.gifs.find(id).await.map_err(gif_not_found)?, viewer)?;
        self.gifs.add_view(id, self.clock.now().date()).await.map_err(gif_not_found)?;
        gif.view_count += 1;
        self.mark_favourites(viewer.id, std::slice::from_mut(&mut gif)).await?;
        Ok(gif)
    }

    /// A GIF picked uniformly at random among those the filter keeps (without counting a view:
    /// opening it does).
    ///
    /// # Errors
    /// `NotFound` ("No GIF to pick from") when the filter keeps none.
    pub async fn random(&self, viewer: UserId, filter: &GifFilter) -> Result<Gif, AppError> {
        let mut gif = self.gifs.random(filter, Rating::R, Shelf::Gifs).await.map_err(|err| match err {
            RepoError::NotFound => AppError::NotFound("No GIF to pick from".into()),
            other => AppError::from_repo(other),
        })?;
        self.mark_favourites(viewer, std::slice::from_mut(&mut gif)).await?;
        Ok(gif)
    }

    /// Opens a GIF through its public share link, which counts as a view once a day per client:
    /// `viewer` is a digest naming the client (a signed-in user, else an address), so that
    /// reloading a public page cannot inflate the views every "featured" list ranks by. Unknown
    /// and deleted share ids are the same "not found".
    ///
    /// # Errors
    /// `NotFound`.
    pub async fn view_shared(&self, share_id: &str, viewer: &str) -> Result<Gif, AppError> {
        let gif = self.gifs.find_by_share_id(share_id).await.map_err(gif_not_found)?;
        let counted = self.gifs.add_view_once(gif.id, viewer, self.clock.now().date()).await.map_err(gif_not_found)?;
        Ok(Gif { view_count: gif.view_count + i64::from(counted), ..gif })
    }

    /// A shared GIF without counting a view (its raw image is fetched by the page that already
    /// counted one).
    ///
    /// # Errors
    /// `NotFound`.
    pub async fn shared(&self, share_id: &str) -> Result<Gif, AppError> {
        self.gifs.find_by_share_id(share_id).await.map_err(gif_not_found)
    }

    /// A URL from which the client may fetch a stored rendition itself for `expires` (the object
    /// store's presigned GET), or `None` when the store cannot make one.
    ///
    /// # Errors
    /// `Internal` when signing fails.
    pub async fn blob_url(&self, key: &str, expires: std::time::Duration) -> Result<Option<String>, AppError> {
        self.blobs.presigned_get(key, expires).await.map_err(|err| match err {
            gifshelf_domain::ports::BlobError::NotFound => AppError::NotFound("GIF not found".into()),
            gifshelf_domain::ports::BlobError::Io(cause) => AppError::Internal(cause),
        })
    }

    /// The bytes of one stored rendition (or of `range` of it), as a stream of chunks: a large
    /// file is never held in memory whole.
    ///
    /// # Errors
    /// `NotFound` when the blob is missing.
    pub async fn open_blob(
        &self,
        key: &str,
        range: Option<std::ops::Range<u64>>,
    ) -> Result<Box<dyn gifshelf_domain::ports::BlobReader>, AppError> {
        self.blobs.read(key, range).await.map_err(|err| match err {
            gifshelf_domain::ports::BlobError::NotFound => AppError::NotFound("GIF not found".into()),
            gifshelf_domain::ports::BlobError::Io(cause) => AppError::Internal(cause),
        })
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::gif::{GifFile, GifFilter, GifId, Hidden, RenditionKind};
    use gifshelf_domain::user::{Role, UserId, Username};
    use gifshelf_domain::RepoError;

    use crate::auth::Actor;
    use crate::gifs::test_support::{gif, Mocks};
    use crate::AppError;

    fn member(id: i64, role: Role) -> Actor {
        Actor::session(UserId(id), Username::from_trusted(format!("u{id}")), role)
    }

    #[tokio::test]
    async fn viewing_reads_then_counts_the_view_it_answers() {
        let mut m = Mocks::new();
        let mut seq = mockall::Sequence::new();
        m.gifs.expect_find().times(1).in_sequence(&mut seq).returning(|id| {
            let mut g = gif(id.0, 1);
            g.view_count = 7;
            Ok(g)
        });
        m.gifs.expect_add_view().times(1).in_sequence(&mut seq).returning(|_, _| Ok(()));
        let viewed = m.service().view(&member(1, Role::User), GifId(3)).await;
        assert_eq!(viewed.map(|g| g.view_count).ok(), Some(8));
    }

    #[tokio::test]
    async fn a_hidden_gif_opens_for_its_owner_and_admins_only_and_others_count_no_view() {
        let mut m = Mocks::new();
        m.gifs.expect_find().returning(|id| {
            let mut g = gif(id.0, 1);
            g.hidden = Some(Hidden { at: chrono::NaiveDateTime::default(), reason: "Spam".into() });
            Ok(g)
        });
        m.gifs.expect_add_view().times(2).returning(|_, _| Ok(()));
        let service = m.service();
        let other = service.view(&member(2, Role::User), GifId(3)).await;
        assert!(matches!(other, Err(AppError::NotFound(m)) if m == "GIF not found"));
        assert!(service.view(&member(1, Role::User), GifId(3)).await.is_ok());
        assert!(service.view(&member(9, Role::Admin), GifId(3)).await.is_ok());
    }

    #[tokio::test]
    async fn a_hidden_gifs_files_open_for_its_owner_and_admins_only() {
        let mut m = Mocks::new();
        m.gifs.expect_find_file().returning(|id, kind| {
            let mut file = GifFile::of(&gif(id.0, 1), kind);
            file.hidden = true;
            Ok(file)
        });
        let service = m.service();
        let other = service.file(&member(2, Role::User), GifId(3), RenditionKind::Thumbnail).await;
        assert!(matches!(other, Err(AppError::NotFound(m)) if m == "GIF not found"));
        let own = service.file(&member(1, Role::User), GifId(3), RenditionKind::Thumbnail).await;
        assert_eq!(own.ok().and_then(|f| f.rendition).map(|r| r.key), Some("gifs/p/thumbnail.gif".to_owned()));
        assert!(service
            .file(&member(9, Role::Admin), GifId(3), RenditionKind::Mp4)
            .await
            .is_ok_and(|f| f.rendition.is_none()));
    }

    #[tokio::test]
    async fn missing_gifs_are_not_found() {
        let mut m = Mocks::new();
        m.gifs.expect_find().returning(|_| Err(RepoError::NotFound));
        m.gifs.expect_find_by_share_id().returning(|_| Err(RepoError::NotFound));
        m.gifs.expect_find_file().returning(|_, _| Err(RepoError::NotFound));
        let service = m.service();
        let file = service.file(&member(1, Role::User), GifId(3), RenditionKind::Original).await;
        assert!(matches!(file, Err(AppError::NotFound(m)) if m == "GIF not found"));
        let viewed = service.view(&member(1, Role::User), GifId(3)).await;
        assert!(matches!(viewed, Err(AppError::NotFound(m)) if m == "GIF not found"));
        assert!(matches!(service.view_shared("nope", "viewer").await, Err(AppError::NotFound(_))));
    }

    #[tokio::test]
    async fn an_empty_pick_is_not_found() {
        let mut m = Mocks::new();
        m.gifs.expect_random().returning(|_, _, _| Err(RepoError::NotFound));
        let picked = m.service().random(UserId(1), &GifFilter::All).await;
        assert!(matches!(picked, Err(AppError::NotFound(m)) if m == "No GIF to pick from"));
    }
}
