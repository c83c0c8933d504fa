use gifshelf_domain::gif::{CaptionText, Description, Gif, GifEdit, GifId, Rating, TagName, Title};

use super::{gif_not_found, GifService};
use crate::auth::Actor;
use crate::AppError;

/// An edit as the HTTP layer received it (spec §3 "Update payload").
#[derive(Debug, Clone, Copy)]
pub struct EditInput<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub tags: &'a [String],
    /// `None` keeps the rating.
    pub rating: Option<&'a str>,
    /// `None` keeps the text in the GIF; `""` clears it.
    pub caption_text: Option<&'a str>,
}

impl GifService {
    /// Changes title, description, tags and (when given) the rating and the text in the GIF (blank
    /// clears it; either way it is then kept over later reads). The owner or an admin may edit
    /// (spec §6).
    ///
    /// # Errors
    /// `Validation`, `NotFound`, `Forbidden` for anyone else.
    #[tracing::instrument(skip_all, fields(user_id = current.id.0, gif_id = id.0))]
    pub async fn update(&self, current: &Actor, id: GifId, input: EditInput<'_>) -> Result<Gif, AppError> {
        let edit = GifEdit {
            title: Title::parse(input.title)?,
            description: Description::parse(input.description)?,
            tags: TagName::parse_list(input.tags)?,
            rating: input.rating.map(Rating::parse).transpose()?,
            caption_text: input.caption_text.map(CaptionText::parse).transpose()?,
            at: self.clock.now(),
        };
        let existing = super::seen_by(self.gifs.find(id).await.map_err(gif_not_found)?, current)?;
        if existing.uploader_id != current.id && !current.is_admin() {
            return Err(AppError::Forbidden("You can only edit your own GIFs.".into()));
        }
        let mut gif = self.gifs.update(id, edit).await.map_err(gif_not_found)?;
        self.mark_favourites(current.id, std::slice::from_mut(&mut gif)).await?;
        Ok(gif)
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::gif::GifId;
    use gifshelf_domain::user::{Role, UserId, Username};

    use super::EditInput;
    use crate::auth::Actor;
    use crate::gifs::test_support::{gif, Mocks};
    use crate::AppError;

    fn user(id: i64, role: Role) -> Actor {
        Actor::session(UserId(id), Username::from_trusted(format!("u{id}")), role)
    }

    #[tokio::test]
    async fn owner_and_admin_may_edit_others_may_not() {
        for (who, allowed) in [(user(1, Role::User), true), (user(2, Role::Admin), true), (user(3, Role::User), false)]
        {
            let mut m = Mocks::new();
            m.gifs.expect_find().returning(|id| Ok(gif(id.0, 1)));
            m.gifs
                .expect_update()
                .times(usize::from(allowed))
                .withf(|_, e| {
                    e.title.as_str() == "New"
                        && e.rating == Some(gifshelf_domain::gif::Rating::Pg)
                        && e.tags.iter().map(|t| t.as_str()).eq(["x"])
                })
                .returning(|id, _| Ok(gif(id.0, 1)));
            let tags = ["X".to_owned(), "x".to_owned()];
            let input =
                EditInput { title: " New ", description: "", tags: &tags, rating: Some("pg"), caption_text: None };
            let result = m.service().update(&who, GifId(9), input).await;
            assert_eq!(result.is_ok(), allowed, "{who:?}: {result:?}");
            if !allowed {
                assert!(matches!(result, Err(AppError::Forbidden(_))));
            }
        }
    }

    #[tokio::test]
    async fn blank_title_is_refused_before_loading() {
        let mut m = Mocks::new();
        m.gifs.expect_find().never();
        let input = EditInput { title: " ", description: "", tags: &[], rating: None, caption_text: None };
        let err = m.service().update(&user(1, Role::User), GifId(9), input).await.err();
        assert!(matches!(err, Some(AppError::Validation(_))));
    }
}
