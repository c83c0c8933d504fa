use std::collections::{HashMap, HashSet};

use gifshelf_domain::collection::{CollectionId, GifBatch, BATCH_MAX};
use gifshelf_domain::gif::{Gif, GifId, TagName, TAGS_PER_GIF_MAX};
use gifshelf_domain::{RepoError, ValidationError};

use super::CollectionService;
use crate::auth::Actor;
use crate::{AppError, Conflict};

/// What the gallery's "Select" mode asks for: any of the actions, on up to 500 GIFs.
#[derive(Debug, Clone, Default)]
pub struct BatchRequest {
    pub ids: Vec<GifId>,
    pub add_tags: Vec<String>,
    pub remove_tags: Vec<String>,
    pub collection: Option<CollectionId>,
    pub delete: bool,
}

/// What happened to one GIF of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatchStatus {
    /// Every action asked for was applied.
    Ok,
    /// The caller may not do one of the actions to it; none was applied to it.
    Forbidden,
    NotFound,
}

/// One status per distinct id, in the order asked.
pub type BatchOutcome = Vec<(GifId, BatchStatus)>;

impl CollectionService {
    /// Applies the actions to every GIF the caller may change, in one transaction (all or
    /// nothing); the others are reported per id. Tags are added and removed by the uploader or an
    /// admin; only the uploader deletes; anyone may add a GIF to a collection they may edit.
    ///
    /// # Errors
    /// `Validation` for no GIF, more than 500, no action, a bad tag name, or a GIF that would carry
    /// more than 20 tags; `NotFound`/`Forbidden` for the collection; `Conflict` when a GIF vanished
    /// while the batch ran (nothing applied).
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0, count = request.ids.len()))]
    pub async fn apply_batch(&self, actor: &Actor, request: BatchRequest) -> Result<BatchOutcome, AppError> {
        if request.ids.is_empty() {
            return Err(ValidationError::new("ids", "Select at least one GIF.").into());
        }
        if request.ids.len() > BATCH_MAX {
            return Err(ValidationError::new("ids", format!("A batch may name at most {BATCH_MAX} GIFs.")).into());
        }
        let add_tags =
            TagName::parse_list(&request.add_tags).map_err(|e| ValidationError::new("addTags", e.message))?;
        let remove_tags =
            TagName::parse_list(&request.remove_tags).map_err(|e| ValidationError::new("removeTags", e.message))?;
        let retag = !add_tags.is_empty() || !remove_tags.is_empty();
        if !retag && request.collection.is_none() && !request.delete {
            return Err(ValidationError::new("ids", "Choose an action: tags, a collection or delete.").into());
        }
        if let Some(collection) = request.collection {
            self.editable(actor, collection).await?;
        }

        let mut seen = HashSet::new();
        let ids: Vec<GifId> = request.ids.into_iter().filter(|id| seen.insert(*id)).collect();
        let found: HashMap<GifId, Gif> =
            self.batches.find_many(ids.clone()).await?.into_iter().map(|g| (g.id, g)).collect();
        let (outcome, allowed) = statuses(actor, ids, &found, retag, request.delete);
        if retag {
            check_tag_counts(&allowed, &found, &add_tags, &remove_tags)?;
        }
        if allowed.is_empty() {
            return Ok(outcome);
        }
        let batch = GifBatch {
            retag: if retag { allowed.clone() } else { Vec::new() },
            add_tags,
            remove_tags,
            collect: request.collection.map(|c| (c, allowed.clone())),
            delete: if request.delete { allowed } else { Vec::new() },
            at: self.clock.now(),
        };
        let removed = self.batches.apply(batch).await.map_err(|err| match err {
            RepoError::NotFound => AppError::Conflict(Conflict::ChangedMeanwhile),
            other => AppError::from_repo(other),
        })?;
        for key in removed.iter().flat_map(Gif::blob_keys) {
            if let Err(err) = self.blobs.delete(key).await {
                tracing::warn!(%key, error = %err, "could not remove a blob; fsck will");
            }
        }
        tracing::info!(applied = outcome.iter().filter(|(_, s)| *s == BatchStatus::Ok).count(), "batch applied");
        Ok(outcome)
    }
}

/// Whether the caller may apply the batch to each GIF, in the order asked, and the GIFs they may.
fn statuses(
    actor: &Actor,
    ids: Vec<GifId>,
    found: &HashMap<GifId, Gif>,
    retag: bool,
    delete: bool,
) -> (BatchOutcome, Vec<GifId>) {
    let mut outcome = Vec::with_capacity(ids.len());
    let mut allowed = Vec::new();
    for id in ids {
        let status = match found.get(&id) {
            None => BatchStatus::NotFound,
            Some(gif) => {
                let owner = gif.uploader_id == actor.id;
                if (retag && !owner && !actor.is_admin()) || (delete && !owner) {
                    BatchStatus::Forbidden
                } else {
                    BatchStatus::Ok
                }
            }
        };
        if status == BatchStatus::Ok {
            allowed.push(id);
        }
        outcome.push((id, status));
    }
    (outcome, allowed)
}

/// Refuses the whole batch when a GIF would carry more than `TAGS_PER_GIF_MAX` tags after it.
fn check_tag_counts(
    allowed: &[GifId],
    found: &HashMap<GifId, Gif>,
    add_tags: &[TagName],
    remove_tags: &[TagName],
) -> Result<(), AppError> {
    for gif in allowed.iter().filter_map(|id| found.get(id)) {
        let mut names: HashSet<&str> = gif.tags.iter().map(|t| t.name.as_str()).collect();
        names.retain(|n| !remove_tags.iter().any(|r| r.as_str() == *n));
        names.extend(add_tags.iter().map(TagName::as_str));
        if names.len() > TAGS_PER_GIF_MAX {
            return Err(ValidationError::new(
                "addTags",
                format!(
                    "\"{}\" would carry more than {TAGS_PER_GIF_MAX} tags; nothing was changed.",
                    gif.title.as_str()
                ),
            )
            .into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;
    use gifshelf_domain::gif::{Description, Gif, GifId, Renditions, Title};
    use gifshelf_domain::user::{Role, UserId, Username};

    use super::{BatchRequest, BatchStatus};
    use crate::collections::test_support::{user, Mocks};
    use crate::AppError;

    fn gif(id: i64, uploader: i64) -> Gif {
        Gif {
            id: GifId(id),
            share_id: format!("s{id}"),
            title: Title::from_trusted(format!("gif {id}")),
            description: Description::default(),
            tags: vec![],
            view_count: 0,
            uploader_id: UserId(uploader),
            uploader: Username::from_trusted(format!("u{uploader}")),
            uploaded_at: NaiveDate::from_ymd_opt(2026, 1, 1).and_then(|d| d.and_hms_opt(0, 0, 0)).unwrap_or_default(),
            frame_count: 1,
            rating: gifshelf_domain::gif::Rating::G,
            hidden: None,
            caption_text: None,
            transparent: None,
            renditions: Renditions::default(),
            favourite_count: 0,
            share_count: 0,
            made_from: None,
            favourite: false,
        }
    }

    #[tokio::test]
    async fn mixed_ownership_is_reported_per_id() {
        let mut m = Mocks::new();
        m.batches.expect_find_many().returning(|_| Ok(vec![gif(1, 1), gif(2, 9)]));
        m.batches
            .expect_apply()
            .times(1)
            .withf(|b| b.delete == [GifId(1)] && b.retag.is_empty())
            .returning(|_| Ok(vec![]));
        let request =
            BatchRequest { ids: vec![GifId(1), GifId(2), GifId(3), GifId(1)], delete: true, ..Default::default() };
        let outcome = m.service().apply_batch(&user(1, Role::Admin), request).await.ok();
        assert_eq!(
            outcome,
            Some(vec![
                (GifId(1), BatchStatus::Ok),
                (GifId(2), BatchStatus::Forbidden),
                (GifId(3), BatchStatus::NotFound)
            ])
        );
    }

    #[tokio::test]
    async fn limits_and_empty_requests_are_refused_before_any_work() {
        let too_many = BatchRequest { ids: (0..501).map(GifId).collect(), delete: true, ..Default::default() };
        let no_action = BatchRequest { ids: vec![GifId(1)], ..Default::default() };
        for request in [too_many, no_action, BatchRequest::default()] {
            let mut m = Mocks::new();
            m.batches.expect_find_many().never();
            let result = m.service().apply_batch(&user(1, Role::User), request).await;
            assert!(matches!(result, Err(AppError::Validation(_))), "{result:?}");
        }
    }
}
