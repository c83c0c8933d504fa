use gifshelf_domain::gif::{Tag, TagId, TagName};
use gifshelf_domain::{RepoError, ValidationError};

use super::GifService;
use crate::{AppError, Conflict};

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
        self.tags.find_by_name(&name).await.map_err(|err| match err {
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
        self.tags.create(&name, self.clock.now()).await.map_err(|err| match err {
            RepoError::Conflict(_) => AppError::Conflict(Conflict::TagNameTaken(name.clone())),
            other => AppError::from_repo(other),
        })
    }
}

impl GifService {
    /// Renames a tag (admins only; the caller checks the role). Applies only when the new name is
    /// non-blank and differs from the current one.
    ///
    /// # Errors
    /// `Validation` for a blank or unchanged name, `NotFound`, `Conflict` when the name is taken.
    #[tracing::instrument(skip(self))]
    pub async fn rename_tag(&self, id: TagId, name: &str) -> Result<Tag, AppError> {
        let name = TagName::parse(name)?;
        let existing = self.tags.find_tag(id).await.map_err(tag_not_found)?;
        if existing.name == name {
            return Err(ValidationError::new("name", "The new name is the same as the current one").into());
        }
        self.tags.rename(id, &name).await.map_err(|err| match err {
            RepoError::Conflict(_) => AppError::Conflict(Conflict::TagNameTaken(name.clone())),
            other => tag_not_found(other),
        })
    }

    /// Deletes a tag (admins only); the GIFs stay and lose it.
    ///
    /// # Errors
    /// `NotFound`.
    #[tracing::instrument(skip(self))]
    pub async fn delete_tag(&self, id: TagId) -> Result<(), AppError> {
        self.tags.delete_tag(id).await.map_err(tag_not_found)
    }

    /// Deletes every tag with no GIFs (admins only); returns their ids.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn delete_empty_tags(&self) -> Result<Vec<TagId>, AppError> {
        let deleted = self.tags.delete_empty().await?;
        tracing::info!(count = deleted.len(), "empty tags deleted");
        Ok(deleted)
    }
}

fn tag_not_found(err: RepoError) -> AppError {
    match err {
        RepoError::NotFound => AppError::NotFound("Tag not found".into()),
        other => AppError::from_repo(other),
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::gif::{Tag, TagId, TagName};
    use gifshelf_domain::{RepoError, Unique};

    use crate::gifs::test_support::{now, Mocks};
    use crate::{AppError, Conflict};

    #[tokio::test]
    async fn create_normalises_and_reports_duplicates() {
        let mut m = Mocks::new();
        m.tags
            .expect_create()
            .withf(|n, at| n.as_str() == "funny cats" && *at == now())
            .times(1)
            .returning(|n, _| Ok(Tag { id: TagId(1), name: n.clone(), count: 0 }));
        let service = m.service();
        let created = service.create_tag("  Funny Cats ").await;
        assert_eq!(created.map(|t| t.name).ok(), Some(TagName::from_trusted("funny cats".into())));

        let mut m = Mocks::new();
        m.tags.expect_create().returning(|_, _| Err(RepoError::Conflict(Unique::TagName)));
        let err = m.service().create_tag("cats").await.err();
        assert!(matches!(&err, Some(AppError::Conflict(Conflict::TagNameTaken(_)))), "{err:?}");
        assert_eq!(err.map(|e| e.to_string()).as_deref(), Some("The tag \"cats\" already exists"));

        let m = Mocks::new();
        assert!(matches!(m.service().create_tag("   ").await, Err(AppError::Validation(_))));
    }

    fn tag(id: i64, name: &str, count: i64) -> Tag {
        Tag { id: TagId(id), name: TagName::from_trusted(name.into()), count }
    }

    #[tokio::test]
    async fn rename_applies_only_when_non_blank_and_changed() {
        let mut m = Mocks::new();
        m.tags.expect_find_tag().returning(|id| Ok(tag(id.0, "cats", 3)));
        m.tags.expect_rename().never();
        let service = m.service();
        let unchanged = service.rename_tag(TagId(1), " CATS ").await.err();
        assert!(
            matches!(&unchanged, Some(AppError::Validation(v)) if v.message == "The new name is the same as the current one"),
            "{unchanged:?}"
        );
        assert!(matches!(service.rename_tag(TagId(1), "  ").await, Err(AppError::Validation(_))));

        let mut m = Mocks::new();
        m.tags.expect_find_tag().returning(|id| Ok(tag(id.0, "cats", 3)));
        m.tags
            .expect_rename()
            .withf(|_, n| n.as_str() == "kittens")
            .times(1)
            .returning(|id, n| Ok(tag(id.0, n.as_str(), 3)));
        assert_eq!(m.service().rename_tag(TagId(1), "Kittens").await.map(|t| t.count).ok(), Some(3));
    }

    #[tokio::test]
    async fn rename_conflicts_and_missing_tags() {
        let mut m = Mocks::new();
        m.tags.expect_find_tag().returning(|id| Ok(tag(id.0, "cats", 3)));
        m.tags.expect_rename().returning(|_, _| Err(RepoError::Conflict(Unique::TagName)));
        assert!(matches!(m.service().rename_tag(TagId(1), "dogs").await, Err(AppError::Conflict(_))));

        let mut m = Mocks::new();
        m.tags.expect_find_tag().returning(|_| Err(RepoError::NotFound));
        m.tags.expect_delete_tag().returning(|_| Err(RepoError::NotFound));
        let service = m.service();
        assert!(
            matches!(service.rename_tag(TagId(9), "dogs").await, Err(AppError::NotFound(m)) if m == "Tag not found")
        );
        assert!(matches!(service.delete_tag(TagId(9)).await, Err(AppError::NotFound(_))));
    }

    #[tokio::test]
    async fn delete_empty_returns_the_ids() {
        let mut m = Mocks::new();
        m.tags.expect_delete_empty().returning(|| Ok(vec![TagId(2), TagId(5)]));
        assert_eq!(m.service().delete_empty_tags().await.ok(), Some(vec![TagId(2), TagId(5)]));
    }
}
