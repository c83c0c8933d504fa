//! Favourites: each person stars the GIFs they like; every GIF shown to someone says whether it is
//! one of theirs.

use gifshelf_domain::gif::{Gif, GifFilter, GifId, GifSort, Page, PageRequest};
use gifshelf_domain::user::UserId;

use super::{gif_not_found, GifService};
use crate::auth::Actor;
use crate::AppError;

/// A GIF's favourite state for the person who changed it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FavouriteState {
    pub favourite: bool,
    pub count: i64,
}

impl GifService {
    /// Adds the GIF to (`on`) or removes it from the actor's favourites; asking twice is the same
    /// as asking once.
    ///
    /// # Errors
    /// `NotFound` ("GIF not found"), also for a hidden GIF that is not the actor's.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0, gif_id = id.0, on))]
    pub async fn set_favourite(&self, actor: &Actor, id: GifId, on: bool) -> Result<FavouriteState, AppError> {
        self.get(actor, id).await?;
        let count = self.favourites.set_favourite(actor.id, id, on, self.clock.now()).await.map_err(gif_not_found)?;
        Ok(FavouriteState { favourite: on, count })
    }

    /// A page of the actor's favourites, newest favourited first unless `sort` says otherwise.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn favourites(&self, actor: &Actor, sort: GifSort, page: PageRequest) -> Result<Page<Gif>, AppError> {
        self.list(actor.id, &GifFilter::Favourites(actor.id), sort, page).await
    }

    /// Sets `favourite` on the GIFs `viewer` has among their favourites (one query for them all).
    pub(crate) async fn mark_favourites(&self, viewer: UserId, gifs: &mut [Gif]) -> Result<(), AppError> {
        if gifs.is_empty() {
            return Ok(());
        }
        let ids: Vec<GifId> = gifs.iter().map(|g| g.id).collect();
        let starred = self.favourites.favourited_among(viewer, &ids).await?;
        for gif in gifs {
            gif.favourite = starred.contains(&gif.id);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::gif::{GifFilter, GifId, GifSort, Page, PageRequest};
    use gifshelf_domain::user::{Role, UserId, Username};
    use gifshelf_domain::RepoError;

    use crate::auth::Actor;
    use crate::gifs::test_support::{gif, Mocks};
    use crate::AppError;

    fn actor(id: i64) -> Actor {
        Actor::session(UserId(id), Username::from_trusted(format!("user{id}")), Role::User)
    }

    #[tokio::test]
    async fn a_favourite_answers_the_new_count() {
        let mut m = Mocks::new();
        m.gifs.expect_find().returning(|id| Ok(gif(id.0, 2)));
        m.favourites
            .expect_set_favourite()
            .withf(|user, gif, on, _| *user == UserId(7) && *gif == GifId(3) && *on)
            .returning(|_, _, _, _| Ok(4));
        let state = m.service().set_favourite(&actor(7), GifId(3), true).await;
        assert_eq!(state.ok().map(|s| (s.favourite, s.count)), Some((true, 4)));
    }

    #[tokio::test]
    async fn an_unknown_gif_is_not_found() {
        let mut m = Mocks::new();
        m.gifs.expect_find().returning(|_| Err(RepoError::NotFound));
        m.favourites.expect_set_favourite().never();
        let result = m.service().set_favourite(&actor(7), GifId(3), false).await;
        assert!(matches!(result, Err(AppError::NotFound(m)) if m == "GIF not found"));
    }

    #[tokio::test]
    async fn someone_elses_hidden_gif_is_not_found_and_not_starred() {
        let mut m = Mocks::new();
        m.gifs.expect_find().returning(|id| {
            let mut g = gif(id.0, 2);
            g.hidden =
                Some(gifshelf_domain::gif::Hidden { at: chrono::NaiveDateTime::default(), reason: "Spam".into() });
            Ok(g)
        });
        m.favourites.expect_set_favourite().never();
        let result = m.service().set_favourite(&actor(7), GifId(3), true).await;
        assert!(matches!(result, Err(AppError::NotFound(_))), "{result:?}");
    }

    #[tokio::test]
    async fn lists_say_which_gifs_are_the_callers_favourites() {
        let mut m = Mocks::new();
        m.gifs
            .expect_list_with_own()
            .withf(|owner, filter, _, _| *owner == UserId(7) && *filter == GifFilter::Favourites(UserId(7)))
            .returning(|_, _, _, request| Ok(Page { items: vec![gif(1, 2), gif(2, 2), gif(3, 2)], request, total: 3 }));
        m.favourites = gifshelf_domain::ports::MockFavouriteRepository::new();
        m.favourites
            .expect_favourited_among()
            .withf(|user, ids| *user == UserId(7) && ids == [GifId(1), GifId(2), GifId(3)])
            .times(1)
            .returning(|_, _| Ok(vec![GifId(2)]));
        let page = m.service().favourites(&actor(7), GifSort::Newest, PageRequest { page: 0, size: 6 }).await;
        let marks: Vec<bool> = page.map(|p| p.items.iter().map(|g| g.favourite).collect()).unwrap_or_default();
        assert_eq!(marks, [false, true, false]);
    }
}
