use gifshelf_domain::gif::{Gif, GifFilter, GifId, Page, PageRequest};

use super::{gif_not_found, GifService};
use crate::AppError;

impl GifService {
    /// A page of GIFs, newest first.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn list(&self, filter: &GifFilter, page: PageRequest) -> Result<Page<Gif>, AppError> {
        Ok(self.gifs.list(filter, page).await?)
    }

    /// Opens a GIF: counts a view (product.md §10) and returns it with the new count.
    ///
    /// # Errors
    /// `NotFound` ("GIF not found").
    pub async fn view(&self, id: GifId) -> Result<Gif, AppError> {
        self.gifs.add_view(id).await.map_err(gif_not_found)?;
        self.gifs.find(id).await.map_err(gif_not_found)
    }

    /// Opens a GIF through its public share link, which counts as a view. Unknown and deleted
    /// share ids are the same "not found".
    ///
    /// # Errors
    /// `NotFound`.
    pub async fn view_shared(&self, share_id: &str) -> Result<Gif, AppError> {
        let gif = self.gifs.find_by_share_id(share_id).await.map_err(gif_not_found)?;
        self.gifs.add_view(gif.id).await.map_err(gif_not_found)?;
        Ok(Gif { view_count: gif.view_count + 1, ..gif })
    }

    /// A shared GIF without counting a view (its raw image is fetched by the page that already
    /// counted one).
    ///
    /// # Errors
    /// `NotFound`.
    pub async fn shared(&self, share_id: &str) -> Result<Gif, AppError> {
        self.gifs.find_by_share_id(share_id).await.map_err(gif_not_found)
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
            gifshelf_domain::ports::BlobError::Io(detail) => AppError::internal(detail),
        })
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::gif::GifId;
    use gifshelf_domain::RepoError;

    use crate::gifs::test_support::{gif, Mocks};
    use crate::AppError;

    #[tokio::test]
    async fn viewing_counts_first_then_reads() {
        let mut m = Mocks::new();
        let mut seq = mockall::Sequence::new();
        m.gifs.expect_add_view().times(1).in_sequence(&mut seq).returning(|_| Ok(()));
        m.gifs.expect_find().times(1).in_sequence(&mut seq).returning(|id| {
            let mut g = gif(id.0, 1);
            g.view_count = 8;
            Ok(g)
        });
        let viewed = m.service().view(GifId(3)).await;
        assert_eq!(viewed.map(|g| g.view_count).ok(), Some(8));
    }

    #[tokio::test]
    async fn missing_gifs_are_not_found() {
        let mut m = Mocks::new();
        m.gifs.expect_add_view().returning(|_| Err(RepoError::NotFound));
        m.gifs.expect_find_by_share_id().returning(|_| Err(RepoError::NotFound));
        let service = m.service();
        assert!(matches!(service.view(GifId(3)).await, Err(AppError::NotFound(m)) if m == "GIF not found"));
        assert!(matches!(service.view_shared("nope").await, Err(AppError::NotFound(_))));
    }
}
