use gifshelf_domain::gif::GifId;

use super::{gif_not_found, GifService};
use crate::auth::Actor;
use crate::AppError;

impl GifService {
    /// Deletes a GIF: its row, its tag links and its three blobs. Only the owner may (spec §6:
    /// admins edit any GIF but do not delete).
    ///
    /// # Errors
    /// `NotFound`, `Forbidden` for anyone but the owner.
    #[tracing::instrument(skip_all, fields(user_id = current.id.0, gif_id = id.0))]
    pub async fn delete(&self, current: &Actor, id: GifId) -> Result<(), AppError> {
        let existing = self.gifs.find(id).await.map_err(gif_not_found)?;
        if existing.uploader_id != current.id {
            return Err(AppError::Forbidden("Only the uploader can delete this GIF.".into()));
        }
        let removed = self.gifs.delete(id).await.map_err(gif_not_found)?;
        let keys: Vec<String> = removed.blob_keys().map(str::to_owned).collect();
        self.remove_blobs(&keys).await;
        tracing::info!("gif deleted");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::gif::GifId;
    use gifshelf_domain::user::{Role, UserId, Username};

    use crate::auth::Actor;
    use crate::gifs::test_support::{gif, Mocks};
    use crate::AppError;

    fn user(id: i64, role: Role) -> Actor {
        Actor::session(UserId(id), Username::from_trusted(format!("u{id}")), role)
    }

    #[tokio::test]
    async fn owner_deletes_row_and_all_three_blobs() {
        let mut m = Mocks::new();
        m.gifs.expect_find().returning(|id| Ok(gif(id.0, 1)));
        m.gifs.expect_delete().times(1).returning(|id| Ok(gif(id.0, 1)));
        m.blobs.expect_delete().times(3).returning(|_| Ok(()));
        assert!(m.service().delete(&user(1, Role::User), GifId(4)).await.is_ok());
    }

    #[tokio::test]
    async fn admins_and_others_may_not_delete() {
        for who in [user(2, Role::Admin), user(3, Role::User)] {
            let mut m = Mocks::new();
            m.gifs.expect_find().returning(|id| Ok(gif(id.0, 1)));
            m.gifs.expect_delete().never();
            m.blobs.expect_delete().never();
            let result = m.service().delete(&who, GifId(4)).await;
            assert!(matches!(result, Err(AppError::Forbidden(_))), "{who:?}");
        }
    }
}
