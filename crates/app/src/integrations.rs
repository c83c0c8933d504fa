//! Chat integrations (Settings, "Integrations"): admins add, list and remove the Slack signing
//! secrets and the Mattermost and Zulip tokens with which slash commands prove where they come from.
//!
//! A secret is never stored as typed ([`SecretKeeping`]): a token becomes its digest; a signing
//! secret is sealed with the server's secrets key, and without one it is refused (it can still come
//! from the configuration). Rows stored in clear by an earlier version are converted at start
//! ([`IntegrationService::protect_stored`]).

use std::sync::Arc;

use gifshelf_domain::audit::AuditAction;
use gifshelf_domain::gif::Rating;
use gifshelf_domain::integration::{
    Integration, IntegrationId, IntegrationName, IntegrationSecret, NewIntegration, Platform, SecretCheck,
    StoredSecret, INTEGRATIONS_MAX,
};
use gifshelf_domain::ports::{Clock, IntegrationRepository, KeyMinter, SecretSealer};
use gifshelf_domain::{RepoError, ValidationError};

use crate::audit::Audit;
use crate::auth::Actor;
use crate::{AppError, Conflict};

/// Why a Slack signing secret cannot be stored on a server without a secrets key.
pub const NO_SECRETS_KEY: &str =
    "This server keeps Slack signing secrets only when GIFSHELF_SECRETS_KEY is set: set it, or \
                                  give the secret in GIFSHELF_SLACK_SIGNING_SECRET.";
/// Why a Discord public key cannot be stored on a server without a secrets key.
pub const NO_SECRETS_KEY_DISCORD: &str = "This server keeps Discord public keys only when GIFSHELF_SECRETS_KEY is \
                                          set: set it, or give the key in GIFSHELF_DISCORD_PUBLIC_KEY.";
/// Why a Teams security token cannot be stored on a server without a secrets key.
pub const NO_SECRETS_KEY_TEAMS: &str = "This server keeps Teams security tokens only when GIFSHELF_SECRETS_KEY is \
                                        set: set it, or give the token in GIFSHELF_TEAMS_TOKENS.";

/// Why `platform`'s secret, which checks signatures, cannot be stored without a secrets key.
fn no_secrets_key(platform: Platform) -> &'static str {
    match platform {
        Platform::Discord => NO_SECRETS_KEY_DISCORD,
        Platform::Teams => NO_SECRETS_KEY_TEAMS,
        _ => NO_SECRETS_KEY,
    }
}

/// How secrets are kept and read back: the digest of a token, the seal of a signing secret.
#[derive(Clone)]
pub struct SecretKeeping {
    minter: Arc<dyn KeyMinter>,
    sealer: Option<Arc<dyn SecretSealer>>,
}

impl SecretKeeping {
    /// `sealer` is `None` on a server without `GIFSHELF_SECRETS_KEY`.
    pub fn new(minter: Arc<dyn KeyMinter>, sealer: Option<Arc<dyn SecretSealer>>) -> Self {
        Self { minter, sealer }
    }

    /// The form in which `platform`'s `secret` is stored; `None` when it needs a seal and there is
    /// no key.
    pub fn keep(&self, platform: Platform, secret: &IntegrationSecret) -> Option<StoredSecret> {
        if platform.signs_requests() {
            self.sealer.as_ref().map(|sealer| StoredSecret::Sealed(sealer.seal(secret)))
        } else {
            Some(StoredSecret::Digest(self.minter.digest(secret.expose())))
        }
    }

    /// What a request is checked against for a stored secret; `None` for a seal this server
    /// cannot open (logged).
    pub fn check(&self, integration: &Integration) -> Option<SecretCheck> {
        match &integration.secret {
            StoredSecret::Clear(secret) => Some(SecretCheck::Clear(secret.clone())),
            StoredSecret::Digest(digest) => Some(SecretCheck::Digest(digest.clone())),
            StoredSecret::Sealed(sealed) => {
                let opened = self.sealer.as_ref().ok_or(None).and_then(|sealer| sealer.open(sealed).map_err(Some));
                match opened {
                    Ok(secret) => Some(SecretCheck::Clear(secret)),
                    Err(err) => {
                        tracing::warn!(
                            integration_id = integration.id.0,
                            error = err.map_or_else(|| "no GIFSHELF_SECRETS_KEY".to_owned(), |e| e.to_string()),
                            "a stored signing secret cannot be opened: its requests are refused"
                        );
                        None
                    }
                }
            }
        }
    }
}

pub struct IntegrationService {
    integrations: Arc<dyn IntegrationRepository>,
    clock: Arc<dyn Clock>,
    keeping: SecretKeeping,
    audit: Audit,
    default_rating: Rating,
}

/// What an admin typed into the form, unchecked (no `Debug`: it holds the secret).
#[derive(Clone, Copy)]
pub struct IntegrationForm<'a> {
    pub platform: &'a str,
    pub name: &'a str,
    pub secret: &'a str,
    /// The highest rating its commands answer; `None`: the server's default rating.
    pub max_rating: Option<&'a str>,
}

impl IntegrationService {
    pub fn new(
        integrations: Arc<dyn IntegrationRepository>,
        clock: Arc<dyn Clock>,
        keeping: SecretKeeping,
        audit: Audit,
    ) -> Self {
        Self { integrations, clock, keeping, audit, default_rating: Rating::G }
    }

    /// The maximum rating of an integration added without one (the server's default rating, which
    /// the configuration's integrations use too); `g` unless set.
    #[must_use]
    pub fn with_default_rating(mut self, rating: Rating) -> Self {
        self.default_rating = rating;
        self
    }

    /// # Errors
    /// `Forbidden` unless the actor is an admin; `Validation` for the platform, name or secret (a
    /// signing secret on a server without a secrets key too); `Conflict` past
    /// [`INTEGRATIONS_MAX`] integrations.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0, platform = form.platform))]
    pub async fn create(&self, actor: &Actor, form: IntegrationForm<'_>) -> Result<Integration, AppError> {
        actor.require_admin()?;
        let platform = Platform::parse(form.platform)?;
        let name = IntegrationName::parse(form.name)?;
        let secret = IntegrationSecret::parse(form.secret)?;
        let max_rating = form.max_rating.map(parse_max_rating).transpose()?.unwrap_or(self.default_rating);
        let stored = self
            .keeping
            .keep(platform, &secret)
            .ok_or_else(|| ValidationError::new("secret", no_secrets_key(platform)))?;
        let new = NewIntegration {
            platform,
            name,
            secret: stored,
            hint: secret.hint(),
            created_at: self.clock.now(),
            max_rating,
        };
        if self.integrations.integrations().await?.len() >= INTEGRATIONS_MAX {
            return Err(AppError::Conflict(Conflict::IntegrationLimit));
        }
        let integration = self.integrations.create_integration(new).await?;
        tracing::info!(integration_id = integration.id.0, "chat integration added");
        let target = format!("{} ({}, #{})", integration.name.as_str(), platform.as_str(), integration.id.0);
        let detail = format!("secret …{}, maximum rating {}", integration.hint, integration.max_rating.as_str());
        self.audit.record(actor, AuditAction::IntegrationAdded, target, detail).await;
        Ok(integration)
    }

    /// Sets the highest rating the integration's slash commands answer (audited when it changes).
    ///
    /// # Errors
    /// `Forbidden` unless the actor is an admin; `Validation` for a rating other than `g`, `pg`,
    /// `pg-13`, `r`; `NotFound` for an unknown id.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0, integration_id = id.0))]
    pub async fn set_max_rating(&self, actor: &Actor, id: IntegrationId, raw: &str) -> Result<Integration, AppError> {
        actor.require_admin()?;
        let max_rating = parse_max_rating(raw)?;
        let known = self.integrations.integrations().await?.into_iter().find(|i| i.id == id);
        let Some(known) = known else {
            return Err(AppError::NotFound("Integration not found".into()));
        };
        if known.max_rating == max_rating {
            return Ok(known);
        }
        self.integrations.set_integration_rating(id, max_rating).await.map_err(|err| match err {
            RepoError::NotFound => AppError::NotFound("Integration not found".into()),
            other => AppError::from_repo(other),
        })?;
        tracing::info!(max_rating = max_rating.as_str(), "integration maximum rating changed");
        let target = format!("{} ({}, #{})", known.name.as_str(), known.platform.as_str(), id.0);
        let detail = format!("maximum rating: {} → {}", known.max_rating.as_str(), max_rating.as_str());
        self.audit.record(actor, AuditAction::IntegrationRatingChanged, target, detail).await;
        Ok(Integration { max_rating, ..known })
    }

    /// Every integration, oldest first.
    ///
    /// # Errors
    /// `Forbidden` unless the actor is an admin.
    pub async fn list(&self, actor: &Actor) -> Result<Vec<Integration>, AppError> {
        actor.require_admin()?;
        Ok(self.integrations.integrations().await?)
    }

    /// # Errors
    /// `Forbidden` unless the actor is an admin; `NotFound` for an unknown id.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0, integration_id = id.0))]
    pub async fn remove(&self, actor: &Actor, id: IntegrationId) -> Result<(), AppError> {
        actor.require_admin()?;
        let known = self.integrations.integrations().await?.into_iter().find(|i| i.id == id);
        self.integrations.delete_integration(id).await.map_err(|err| match err {
            RepoError::NotFound => AppError::NotFound("Integration not found".into()),
            other => AppError::from_repo(other),
        })?;
        tracing::info!("chat integration removed");
        let target = known.map_or_else(
            || format!("#{}", id.0),
            |i| format!("{} ({}, #{})", i.name.as_str(), i.platform.as_str(), id.0),
        );
        self.audit.record(actor, AuditAction::IntegrationRemoved, target, "").await;
        Ok(())
    }

    /// Converts the secrets an earlier version stored in clear: tokens to their digests, signing
    /// secrets to seals, or, on a server without a secrets key, removes them (each logged and
    /// audited). Returns how many rows changed.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn protect_stored(&self) -> Result<usize, AppError> {
        let mut changed = 0;
        for integration in self.integrations.integrations().await? {
            let StoredSecret::Clear(secret) = &integration.secret else { continue };
            let target =
                format!("{} ({}, #{})", integration.name.as_str(), integration.platform.as_str(), integration.id.0);
            match self.keeping.keep(integration.platform, secret) {
                Some(stored) => {
                    self.integrations.replace_integration_secret(integration.id, stored, secret.hint()).await?;
                    tracing::info!(
                        integration_id = integration.id.0,
                        "an integration secret stored in clear is now protected"
                    );
                }
                None => {
                    self.integrations.delete_integration(integration.id).await?;
                    tracing::warn!(
                        integration_id = integration.id.0,
                        name = integration.name.as_str(),
                        "a Slack signing secret was stored in clear and this server has no GIFSHELF_SECRETS_KEY to seal it: \
                         the integration was removed; set the key and add it again, or set GIFSHELF_SLACK_SIGNING_SECRET"
                    );
                    self.audit
                        .record_system(
                            AuditAction::IntegrationSecretRemoved,
                            target,
                            "stored in clear; no GIFSHELF_SECRETS_KEY to seal it",
                        )
                        .await;
                }
            }
            changed += 1;
        }
        Ok(changed)
    }
}

/// An integration's maximum rating, under its own field name.
fn parse_max_rating(raw: &str) -> Result<Rating, ValidationError> {
    Rating::parse(raw)
        .map_err(|_| ValidationError::new("maxRating", "The maximum rating must be one of g, pg, pg-13 or r"))
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::integration::SealError;
    use gifshelf_domain::ports::{MockAuditLog, MockClock, MockIntegrationRepository, MockKeyMinter, MockSecretSealer};
    use gifshelf_domain::user::{Role, UserId, Username};

    use super::*;
    use crate::gifs::test_support::now;

    fn actor(role: Role) -> Actor {
        Actor::session(UserId(1), Username::from_trusted("alice".into()), role)
    }

    fn stored(id: i64) -> Integration {
        Integration {
            id: IntegrationId(id),
            platform: Platform::Slack,
            name: IntegrationName::from_trusted("Team Slack".into()),
            secret: StoredSecret::Sealed("sealed:8f74".into()),
            hint: "85a5".into(),
            created_at: now(),
            max_rating: Rating::G,
        }
    }

    fn sealer() -> MockSecretSealer {
        let mut sealer = MockSecretSealer::new();
        sealer.expect_seal().returning(|s| format!("sealed:{}", s.expose()));
        sealer.expect_open().returning(|s| {
            s.strip_prefix("sealed:").map(|v| IntegrationSecret::from_trusted(v.into())).ok_or(SealError)
        });
        sealer
    }

    fn keeping(sealer: Option<MockSecretSealer>) -> SecretKeeping {
        let mut minter = MockKeyMinter::new();
        minter.expect_digest().returning(|k| format!("digest:{k}"));
        SecretKeeping::new(Arc::new(minter), sealer.map(|s| Arc::new(s) as Arc<dyn SecretSealer>))
    }

    fn audit(expected_events: usize) -> Audit {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        let mut log = MockAuditLog::new();
        log.expect_record().times(expected_events).returning(|_| Ok(()));
        Audit::new(Arc::new(log), Arc::new(clock))
    }

    fn service_with(
        integrations: MockIntegrationRepository,
        sealer: Option<MockSecretSealer>,
        events: usize,
    ) -> IntegrationService {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        IntegrationService::new(Arc::new(integrations), Arc::new(clock), keeping(sealer), audit(events))
    }

    fn service(integrations: MockIntegrationRepository) -> IntegrationService {
        service_with(integrations, Some(sealer()), 0)
    }

    const FORM: IntegrationForm<'static> = IntegrationForm {
        platform: "slack",
        name: " Team Slack ",
        secret: "8f742231b10e8888abcd99yyyzzz85a5",
        max_rating: None,
    };

    #[tokio::test]
    async fn an_admin_adds_a_signing_secret_sealed_and_the_event_is_audited() {
        let mut integrations = MockIntegrationRepository::new();
        integrations.expect_integrations().returning(|| Ok(Vec::new()));
        integrations
            .expect_create_integration()
            .withf(|i| {
                i.platform == Platform::Slack
                    && i.name.as_str() == "Team Slack"
                    && i.secret == StoredSecret::Sealed("sealed:8f742231b10e8888abcd99yyyzzz85a5".into())
                    && i.hint == "85a5"
                    && i.created_at == now()
                    && i.max_rating == Rating::Pg
            })
            .returning(|_| Ok(stored(1)));
        let service = service_with(integrations, Some(sealer()), 1).with_default_rating(Rating::Pg);
        let created = service.create(&actor(Role::Admin), FORM).await;
        assert_eq!(created.map(|i| i.id).ok(), Some(IntegrationId(1)), "no maximum named: the default rating");
    }

    #[tokio::test]
    async fn a_named_maximum_rating_is_stored() {
        let mut integrations = MockIntegrationRepository::new();
        integrations.expect_integrations().returning(|| Ok(Vec::new()));
        integrations
            .expect_create_integration()
            .withf(|i| i.max_rating == Rating::R)
            .times(1)
            .returning(|_| Ok(stored(1)));
        let form = IntegrationForm { max_rating: Some("r"), ..FORM };
        assert!(service_with(integrations, Some(sealer()), 1).create(&actor(Role::Admin), form).await.is_ok());
    }

    #[tokio::test]
    async fn an_admin_changes_the_maximum_rating_audited_once_per_change() {
        let mut integrations = MockIntegrationRepository::new();
        integrations.expect_integrations().returning(|| Ok(vec![stored(1)]));
        integrations
            .expect_set_integration_rating()
            .withf(|id, max| *id == IntegrationId(1) && *max == Rating::Pg13)
            .times(1)
            .returning(|_, _| Ok(()));
        let service = service_with(integrations, Some(sealer()), 1);
        let admin = actor(Role::Admin);
        let changed = service.set_max_rating(&admin, IntegrationId(1), "pg-13").await;
        assert_eq!(changed.map(|i| i.max_rating).ok(), Some(Rating::Pg13));
        let same = service.set_max_rating(&admin, IntegrationId(1), "g").await;
        assert_eq!(same.map(|i| i.max_rating).ok(), Some(Rating::G), "the same maximum changes and audits nothing");
        assert!(matches!(service.set_max_rating(&admin, IntegrationId(9), "g").await, Err(AppError::NotFound(_))));
        match service.set_max_rating(&admin, IntegrationId(1), "PG").await {
            Err(AppError::Validation(v)) => assert_eq!(v.field, "maxRating"),
            other => panic!("{other:?}"),
        }
        let user = actor(Role::User);
        assert!(matches!(service.set_max_rating(&user, IntegrationId(1), "r").await, Err(AppError::Forbidden(_))));
    }

    #[tokio::test]
    async fn tokens_are_stored_as_their_digest_with_or_without_a_key() {
        for sealer in [None, Some(sealer())] {
            let mut integrations = MockIntegrationRepository::new();
            integrations.expect_integrations().returning(|| Ok(Vec::new()));
            integrations
                .expect_create_integration()
                .withf(|i| i.secret == StoredSecret::Digest("digest:xvOzfurIutdRRVLz".into()) && i.hint == "RVLz")
                .returning(|_| Ok(stored(2)));
            let form =
                IntegrationForm { platform: "zulip", name: "Zulip", secret: "xvOzfurIutdRRVLz", max_rating: None };
            assert!(service_with(integrations, sealer, 1).create(&actor(Role::Admin), form).await.is_ok());
        }
    }

    #[tokio::test]
    async fn without_a_secrets_key_a_signing_secret_is_refused_not_stored() {
        let mut integrations = MockIntegrationRepository::new();
        integrations.expect_integrations().returning(|| Ok(Vec::new()));
        integrations.expect_create_integration().never();
        match service_with(integrations, None, 0).create(&actor(Role::Admin), FORM).await {
            Err(AppError::Validation(v)) => assert_eq!((v.field, v.message.as_str()), ("secret", NO_SECRETS_KEY)),
            other => panic!("{other:?}"),
        }
    }

    #[tokio::test]
    async fn clear_rows_are_converted_at_start_or_removed_without_a_key() {
        let clear = |id, platform, secret: &str| Integration {
            platform,
            secret: StoredSecret::Clear(IntegrationSecret::from_trusted(secret.into())),
            hint: String::new(),
            ..stored(id)
        };
        let rows = vec![
            clear(1, Platform::Slack, "slack-secret-1234"),
            clear(2, Platform::Mattermost, "mm-token-5678"),
            stored(3),
        ];
        for with_key in [true, false] {
            let mut integrations = MockIntegrationRepository::new();
            let listed = rows.clone();
            integrations.expect_integrations().returning(move || Ok(listed.clone()));
            integrations
                .expect_replace_integration_secret()
                .withf(|id, secret, hint| {
                    *id == IntegrationId(2)
                        && *secret == StoredSecret::Digest("digest:mm-token-5678".into())
                        && hint == "5678"
                })
                .times(1)
                .returning(|_, _, _| Ok(()));
            if with_key {
                integrations
                    .expect_replace_integration_secret()
                    .withf(|id, secret, _| {
                        *id == IntegrationId(1) && *secret == StoredSecret::Sealed("sealed:slack-secret-1234".into())
                    })
                    .times(1)
                    .returning(|_, _, _| Ok(()));
                integrations.expect_delete_integration().never();
            } else {
                integrations
                    .expect_delete_integration()
                    .withf(|id| *id == IntegrationId(1))
                    .times(1)
                    .returning(|_| Ok(()));
            }
            let service = service_with(integrations, with_key.then(sealer), usize::from(!with_key));
            assert_eq!(service.protect_stored().await.ok(), Some(2), "with key: {with_key}");
        }
    }

    #[test]
    fn a_seal_is_opened_for_checking_and_a_foreign_one_checks_nothing() {
        let keeping = keeping(Some(sealer()));
        let sealed = Integration { secret: StoredSecret::Sealed("sealed:abc12345".into()), ..stored(1) };
        assert_eq!(
            keeping.check(&sealed),
            Some(SecretCheck::Clear(IntegrationSecret::from_trusted("abc12345".into())))
        );
        let foreign = Integration { secret: StoredSecret::Sealed("other-key".into()), ..stored(1) };
        assert_eq!(keeping.check(&foreign), None);
        assert_eq!(self::keeping(None).check(&sealed), None);
        let digest = Integration { secret: StoredSecret::Digest("d".into()), ..stored(1) };
        assert_eq!(keeping.check(&digest), Some(SecretCheck::Digest("d".into())));
    }

    #[tokio::test]
    async fn bad_forms_are_refused_field_by_field_before_anything_is_stored() {
        let mut integrations = MockIntegrationRepository::new();
        integrations.expect_create_integration().never();
        integrations.expect_integrations().returning(|| Ok(Vec::new()));
        let service = service(integrations);
        let cases = [
            (IntegrationForm { platform: "msteams", ..FORM }, "platform"),
            (IntegrationForm { name: " ", ..FORM }, "name"),
            (IntegrationForm { name: &"n".repeat(51), ..FORM }, "name"),
            (IntegrationForm { secret: "short", ..FORM }, "secret"),
            (IntegrationForm { secret: &"s".repeat(201), ..FORM }, "secret"),
            (IntegrationForm { max_rating: Some("PG"), ..FORM }, "maxRating"),
            (IntegrationForm { max_rating: Some("nc-17"), ..FORM }, "maxRating"),
        ];
        for (form, field) in cases {
            match service.create(&actor(Role::Admin), form).await {
                Err(AppError::Validation(v)) => assert_eq!(v.field, field),
                other => panic!("{field}: {other:?}"),
            }
        }
    }

    #[tokio::test]
    async fn only_admins_manage_integrations() {
        let mut integrations = MockIntegrationRepository::new();
        integrations.expect_create_integration().never();
        integrations.expect_integrations().never();
        integrations.expect_delete_integration().never();
        let service = service(integrations);
        let user = actor(Role::User);
        assert!(matches!(service.create(&user, FORM).await, Err(AppError::Forbidden(_))));
        assert!(matches!(service.list(&user).await, Err(AppError::Forbidden(_))));
        assert!(matches!(service.remove(&user, IntegrationId(1)).await, Err(AppError::Forbidden(_))));
    }

    #[tokio::test]
    async fn the_number_of_integrations_is_capped_and_unknown_ids_are_not_found() {
        let mut integrations = MockIntegrationRepository::new();
        integrations.expect_integrations().returning(|| Ok((0..50).map(stored).collect()));
        integrations.expect_create_integration().never();
        integrations.expect_delete_integration().returning(|_| Err(RepoError::NotFound));
        let service = service(integrations);
        assert!(matches!(service.create(&actor(Role::Admin), FORM).await, Err(AppError::Conflict(_))));
        assert!(matches!(service.remove(&actor(Role::Admin), IntegrationId(9)).await, Err(AppError::NotFound(_))));
    }
}
