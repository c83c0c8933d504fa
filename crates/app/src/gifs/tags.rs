use gifshelf_domain::gif::{Tag, TagName};
use gifshelf_domain::RepoError;

use super::GifService;
use crate::AppError;

impl GifService {
    /// Every tag with its GIF count, by count descending then name.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn tags(&self) -> Result<Vec<Tag>, AppError> {
        Ok(self.tags.list_with_counts().await?)
    }

    /// # Errors
    /// `NotFound` ("Tag not found").
    pub async fn tag(&self, name: &str) -> Result<Tag, AppError> {
        let name = TagName::parse(name)?;
        self.tags
            .find_by_name(&name)
            .await
            .map_err(|err| match err {
                RepoError::NotFound => AppError::NotFound("Tag not found".into()),
                other => AppError::from_repo(other),
            })
    }

    /// Creates a tag (any signed-in user). Names are trimmed and lower-cased.
    ///
    /// # Errors
    /// `Validation` for a blank or long name, `Conflict` when it exists.
    pub async fn create_tag(&self, name: &str) -> Result<Tag, AppError> {
        let name = TagName::parse(name)?;
        self.tags.create(&name).await.map_err(|err| match err {
            RepoError::Conflict(_) => {
                AppError::Conflict(format!("The tag \"{}\" already exists", name.as_str()))
            }
            other => AppError::from_repo(other),
        })
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::gif::{Tag, TagId, TagName};
    use gifshelf_domain::RepoError;

    use crate::gifs::test_support::Mocks;
    use crate::AppError;

    #[tokio::test]
    async fn create_normalises_and_reports_duplicates() {
        let mut m = Mocks::new();
        m.tags
            .expect_create()
            .withf(|n| n.as_str() == "funny cats")
            .times(1)
            .returning(|n| {
                Ok(Tag {
                    id: TagId(1),
                    name: n.clone(),
                    count: 0,
                })
            });
        let service = m.service();
        let created = service.create_tag("  Funny Cats ").await;
        assert_eq!(
            created.map(|t| t.name).ok(),
            Some(TagName::from_trusted("funny cats".into()))
        );

        let mut m = Mocks::new();
        m.tags
            .expect_create()
            .returning(|_| Err(RepoError::Conflict("tag")));
        let err = m.service().create_tag("cats").await.err();
        assert!(
            matches!(&err, Some(AppError::Conflict(msg)) if msg == "The tag \"cats\" already exists"),
            "{err:?}"
        );

        let m = Mocks::new();
        assert!(matches!(
            m.service().create_tag("   ").await,
            Err(AppError::Validation(_))
        ));
    }
}
