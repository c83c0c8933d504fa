//! Collections (named, ordered lists of GIFs a team curates) and the gallery's batch edits.
//!
//! Who may do what: everyone signed in reads team collections; a private collection is its
//! owner's alone (anyone else gets "not found", as if it did not exist); the owner edits, and an
//! admin may edit or delete any team collection.

mod batch;

use std::sync::Arc;

use gifshelf_domain::collection::{
    Collection, CollectionEdit, CollectionId, CollectionName, NewCollection, Visibility,
};
use gifshelf_domain::gif::{Description, Gif, GifId, Page, PageRequest};
use gifshelf_domain::ports::{BlobStore, Clock, CollectionRepository, GifBatchRepository, IdGenerator};
use gifshelf_domain::RepoError;

pub use batch::{BatchOutcome, BatchRequest, BatchStatus};

use crate::auth::Actor;
use crate::AppError;

/// The collection use cases with their ports.
pub struct CollectionService {
    pub(crate) collections: Arc<dyn CollectionRepository>,
    pub(crate) batches: Arc<dyn GifBatchRepository>,
    pub(crate) blobs: Arc<dyn BlobStore>,
    pub(crate) ids: Arc<dyn IdGenerator>,
    pub(crate) clock: Arc<dyn Clock>,
}

/// The fields a form sends to create or edit a collection.
#[derive(Debug, Clone)]
pub struct CollectionInput {
    pub name: String,
    pub description: String,
    pub visibility: String,
}

fn not_found(err: RepoError) -> AppError {
    match err {
        RepoError::NotFound => AppError::NotFound("Collection not found".into()),
        other => AppError::from_repo(other),
    }
}

fn may_read(actor: &Actor, collection: &Collection) -> bool {
    collection.visibility == Visibility::Team || collection.owner_id == actor.id
}

/// Whether the actor may change the collection: its owner, or an admin for a team collection.
pub fn may_edit(actor: &Actor, collection: &Collection) -> bool {
    collection.owner_id == actor.id || (actor.is_admin() && collection.visibility == Visibility::Team)
}

impl CollectionService {
    pub fn new(
        collections: Arc<dyn CollectionRepository>,
        batches: Arc<dyn GifBatchRepository>,
        blobs: Arc<dyn BlobStore>,
        ids: Arc<dyn IdGenerator>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self { collections, batches, blobs, ids, clock }
    }

    /// A collection the actor may see.
    ///
    /// # Errors
    /// `NotFound` for an unknown collection and for someone else's private one.
    pub async fn get(&self, actor: &Actor, id: CollectionId) -> Result<Collection, AppError> {
        let collection = self.collections.find(id).await.map_err(not_found)?;
        if may_read(actor, &collection) {
            Ok(collection)
        } else {
            Err(AppError::NotFound("Collection not found".into()))
        }
    }

    /// A collection the actor may change.
    ///
    /// # Errors
    /// `NotFound` as for `get`; `Forbidden` for a team collection that is not theirs (unless admin).
    pub async fn editable(&self, actor: &Actor, id: CollectionId) -> Result<Collection, AppError> {
        let collection = self.get(actor, id).await?;
        if may_edit(actor, &collection) {
            Ok(collection)
        } else {
            Err(AppError::Forbidden("Only the owner of this collection (or an admin) can change it.".into()))
        }
    }

    /// Every collection the actor sees.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn list(&self, actor: &Actor) -> Result<Vec<Collection>, AppError> {
        Ok(self.collections.list_visible_to(actor.id).await?)
    }

    /// # Errors
    /// `Validation` for a bad name, description or visibility.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0))]
    pub async fn create(&self, actor: &Actor, input: &CollectionInput) -> Result<Collection, AppError> {
        let collection = NewCollection {
            name: CollectionName::parse(&input.name)?,
            description: Description::parse(&input.description)?,
            visibility: Visibility::parse(&input.visibility)?,
            owner_id: actor.id,
            at: self.clock.now(),
        };
        Ok(self.collections.create(collection).await?)
    }

    /// Changes name, description and visibility; `sharing` (when given) turns the public page on or
    /// off.
    ///
    /// # Errors
    /// `Validation`, `NotFound`, `Forbidden`.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0, collection_id = id.0))]
    pub async fn update(
        &self,
        actor: &Actor,
        id: CollectionId,
        input: &CollectionInput,
        sharing: Option<bool>,
    ) -> Result<Collection, AppError> {
        let edit = CollectionEdit {
            name: CollectionName::parse(&input.name)?,
            description: Description::parse(&input.description)?,
            visibility: Visibility::parse(&input.visibility)?,
            at: self.clock.now(),
        };
        let existing = self.editable(actor, id).await?;
        // An admin may edit a team collection but not hide it from its owner's team.
        if existing.owner_id != actor.id && edit.visibility != existing.visibility {
            return Err(AppError::Forbidden("Only the owner can change who sees this collection.".into()));
        }
        let updated = self.collections.update(id, edit).await.map_err(not_found)?;
        match sharing {
            Some(enabled) => self.apply_sharing(updated, enabled).await,
            None => Ok(updated),
        }
    }

    /// Turns the public page on (a new unguessable id, unless it is on already) or off.
    ///
    /// # Errors
    /// `NotFound`, `Forbidden`.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0, collection_id = id.0))]
    pub async fn share(&self, actor: &Actor, id: CollectionId, enabled: bool) -> Result<Collection, AppError> {
        let existing = self.editable(actor, id).await?;
        self.apply_sharing(existing, enabled).await
    }

    async fn apply_sharing(&self, collection: Collection, enabled: bool) -> Result<Collection, AppError> {
        if collection.share_id.is_some() == enabled {
            return Ok(collection);
        }
        let share_id = enabled.then(|| self.ids.share_id());
        self.collections.set_share_id(collection.id, share_id).await.map_err(not_found)
    }

    /// Deletes the collection (never its GIFs).
    ///
    /// # Errors
    /// `NotFound`, `Forbidden`.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0, collection_id = id.0))]
    pub async fn delete(&self, actor: &Actor, id: CollectionId) -> Result<(), AppError> {
        self.editable(actor, id).await?;
        self.collections.delete(id).await.map_err(not_found)
    }

    /// Appends a GIF (idempotent: one already there keeps its place).
    ///
    /// # Errors
    /// `NotFound` (the collection or the GIF), `Forbidden`.
    pub async fn add_gif(&self, actor: &Actor, id: CollectionId, gif: GifId) -> Result<(), AppError> {
        self.editable(actor, id).await?;
        self.collections.add_gif(id, gif, self.clock.now()).await.map_err(|err| match err {
            RepoError::NotFound => AppError::NotFound("GIF not found".into()),
            other => AppError::from_repo(other),
        })
    }

    /// # Errors
    /// `NotFound`, `Forbidden`.
    pub async fn remove_gif(&self, actor: &Actor, id: CollectionId, gif: GifId) -> Result<(), AppError> {
        self.editable(actor, id).await?;
        self.collections.remove_gif(id, gif, self.clock.now()).await.map_err(not_found)
    }

    /// Puts the GIFs in this order; `order` must name every GIF of the collection exactly once.
    ///
    /// # Errors
    /// `Validation` when it is not such a permutation; `NotFound`, `Forbidden`.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0, collection_id = id.0))]
    pub async fn reorder(&self, actor: &Actor, id: CollectionId, order: Vec<GifId>) -> Result<(), AppError> {
        self.editable(actor, id).await?;
        let mut current = self.collections.gif_ids(id).await.map_err(not_found)?;
        let mut wanted = order.clone();
        current.sort_unstable();
        wanted.sort_unstable();
        if current != wanted {
            return Err(gifshelf_domain::ValidationError::new(
                "gifIds",
                "The order must list every GIF of the collection exactly once.",
            )
            .into());
        }
        self.collections.reorder(id, order, self.clock.now()).await.map_err(not_found)
    }

    /// A page of its GIFs, in the collection's order.
    ///
    /// # Errors
    /// `NotFound` as for `get`.
    pub async fn gifs(&self, actor: &Actor, id: CollectionId, page: PageRequest) -> Result<Page<Gif>, AppError> {
        self.get(actor, id).await?;
        self.collections.gifs(id, page).await.map_err(not_found)
    }

    /// The public page of a shared collection: itself and its first GIFs (anyone, no sign-in).
    ///
    /// # Errors
    /// `NotFound` for an unknown share id, and once sharing is off.
    pub async fn shared(&self, share_id: &str, page: PageRequest) -> Result<(Collection, Page<Gif>), AppError> {
        let collection = self.collections.find_by_share_id(share_id).await.map_err(not_found)?;
        let gifs = self.collections.gifs(collection.id, page).await.map_err(not_found)?;
        Ok((collection, gifs))
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use std::sync::Arc;

    use chrono::{NaiveDate, NaiveDateTime};
    use gifshelf_domain::collection::{Collection, CollectionId, CollectionName, Visibility};
    use gifshelf_domain::gif::Description;
    use gifshelf_domain::ports::{
        MockBlobStore, MockClock, MockCollectionRepository, MockGifBatchRepository, MockIdGenerator,
    };
    use gifshelf_domain::user::{Role, UserId, Username};

    use crate::auth::Actor;

    pub fn now() -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 24).and_then(|d| d.and_hms_opt(12, 0, 0)).unwrap_or_default()
    }

    pub fn user(id: i64, role: Role) -> Actor {
        Actor::session(UserId(id), Username::from_trusted(format!("u{id}")), role)
    }

    pub fn collection(id: i64, owner: i64, visibility: Visibility) -> Collection {
        Collection {
            id: CollectionId(id),
            name: CollectionName::from_trusted("Reactions".into()),
            description: Description::default(),
            owner_id: UserId(owner),
            owner: Username::from_trusted(format!("u{owner}")),
            visibility,
            share_id: None,
            gif_count: 0,
            cover: vec![],
            created_at: now(),
            updated_at: now(),
        }
    }

    pub struct Mocks {
        pub collections: MockCollectionRepository,
        pub batches: MockGifBatchRepository,
        pub blobs: MockBlobStore,
    }

    impl Mocks {
        pub fn new() -> Self {
            Self {
                collections: MockCollectionRepository::new(),
                batches: MockGifBatchRepository::new(),
                blobs: MockBlobStore::new(),
            }
        }

        pub fn service(self) -> super::CollectionService {
            let mut clock = MockClock::new();
            clock.expect_now().return_const(now());
            let mut ids = MockIdGenerator::new();
            ids.expect_share_id().return_const("c0llecti0nShare".to_owned());
            super::CollectionService::new(
                Arc::new(self.collections),
                Arc::new(self.batches),
                Arc::new(self.blobs),
                Arc::new(ids),
                Arc::new(clock),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::collection::{CollectionId, Visibility};
    use gifshelf_domain::gif::GifId;
    use gifshelf_domain::user::Role;

    use super::test_support::{collection, user, Mocks};
    use crate::AppError;

    #[tokio::test]
    async fn who_may_edit_what() {
        // (actor, visibility, expected): owner 1; 2 is an admin; 3 a user.
        let cases = [
            (user(1, Role::User), Visibility::Team, "ok"),
            (user(1, Role::User), Visibility::Private, "ok"),
            (user(2, Role::Admin), Visibility::Team, "ok"),
            (user(2, Role::Admin), Visibility::Private, "not_found"),
            (user(3, Role::User), Visibility::Team, "forbidden"),
            (user(3, Role::User), Visibility::Private, "not_found"),
        ];
        for (who, visibility, expected) in cases {
            let mut m = Mocks::new();
            m.collections.expect_find().returning(move |id| Ok(collection(id.0, 1, visibility)));
            m.collections.expect_delete().times(usize::from(expected == "ok")).returning(|_| Ok(()));
            let got = match m.service().delete(&who, CollectionId(5)).await {
                Ok(()) => "ok",
                Err(AppError::Forbidden(_)) => "forbidden",
                Err(AppError::NotFound(_)) => "not_found",
                Err(other) => panic!("{other:?}"),
            };
            assert_eq!(got, expected, "{who:?} on a {visibility:?} collection");
        }
    }

    #[tokio::test]
    async fn an_order_must_be_a_permutation() {
        for (order, ok) in [(vec![3, 1, 2], true), (vec![1, 2], false), (vec![1, 2, 2], false), (vec![1, 2, 4], false)]
        {
            let mut m = Mocks::new();
            m.collections.expect_find().returning(|id| Ok(collection(id.0, 1, Visibility::Team)));
            m.collections.expect_gif_ids().returning(|_| Ok(vec![GifId(1), GifId(2), GifId(3)]));
            m.collections.expect_reorder().times(usize::from(ok)).returning(|_, _, _| Ok(()));
            let order: Vec<GifId> = order.into_iter().map(GifId).collect();
            let result = m.service().reorder(&user(1, Role::User), CollectionId(5), order.clone()).await;
            assert_eq!(result.is_ok(), ok, "{order:?}: {result:?}");
            if !ok {
                assert!(matches!(result, Err(AppError::Validation(_))));
            }
        }
    }

    #[tokio::test]
    async fn sharing_makes_one_id_and_takes_it_away() {
        let mut m = Mocks::new();
        m.collections.expect_find().returning(|id| Ok(collection(id.0, 1, Visibility::Private)));
        m.collections
            .expect_set_share_id()
            .times(1)
            .withf(|_, share| share.as_deref() == Some("c0llecti0nShare"))
            .returning(|id, share| {
                Ok(super::Collection { share_id: share, ..collection(id.0, 1, Visibility::Private) })
            });
        let shared = m.service().share(&user(1, Role::User), CollectionId(5), true).await;
        assert_eq!(shared.ok().and_then(|c| c.share_id).as_deref(), Some("c0llecti0nShare"));
    }
}
