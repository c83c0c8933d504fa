//! Chat integrations (Settings, "Integrations"): admins add, list and remove the Slack signing
//! secrets and the Mattermost and Zulip tokens with which slash commands prove where they come from.

use std::sync::Arc;

use gifshelf_domain::integration::{
    Integration, IntegrationId, IntegrationName, IntegrationSecret, NewIntegration, Platform, INTEGRATIONS_MAX,
};
use gifshelf_domain::ports::{Clock, IntegrationRepository};
use gifshelf_domain::RepoError;

use crate::auth::Actor;
use crate::{AppError, Conflict};

pub struct IntegrationService {
    integrations: Arc<dyn IntegrationRepository>,
    clock: Arc<dyn Clock>,
}

/// What an admin typed into the form, unchecked (no `Debug`: it holds the secret).
#[derive(Clone, Copy)]
pub struct IntegrationForm<'a> {
    pub platform: &'a str,
    pub name: &'a str,
    pub secret: &'a str,
}

impl IntegrationService {
    pub fn new(integrations: Arc<dyn IntegrationRepository>, clock: Arc<dyn Clock>) -> Self {
        Self { integrations, clock }
    }

    /// # Errors
    /// `Forbidden` unless the actor is an admin; `Validation` for the platform, name or secret;
    /// `Conflict` past [`INTEGRATIONS_MAX`] integrations.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0, platform = form.platform))]
    pub async fn create(&self, actor: &Actor, form: IntegrationForm<'_>) -> Result<Integration, AppError> {
        actor.require_admin()?;
        let new = NewIntegration {
            platform: Platform::parse(form.platform)?,
            name: IntegrationName::parse(form.name)?,
            secret: IntegrationSecret::parse(form.secret)?,
            created_at: self.clock.now(),
        };
        if self.integrations.integrations().await?.len() >= INTEGRATIONS_MAX {
            return Err(AppError::Conflict(Conflict::IntegrationLimit));
        }
        let integration = self.integrations.create_integration(new).await?;
        tracing::info!(integration_id = integration.id.0, "chat integration added");
        Ok(integration)
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
        self.integrations.delete_integration(id).await.map_err(|err| match err {
            RepoError::NotFound => AppError::NotFound("Integration not found".into()),
            other => AppError::from_repo(other),
        })?;
        tracing::info!("chat integration removed");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::ports::{MockClock, MockIntegrationRepository};
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
            secret: IntegrationSecret::from_trusted("8f742231b10e8888abcd99yyyzzz85a5".into()),
            created_at: now(),
        }
    }

    fn service(integrations: MockIntegrationRepository) -> IntegrationService {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        IntegrationService::new(Arc::new(integrations), Arc::new(clock))
    }

    const FORM: IntegrationForm<'static> =
        IntegrationForm { platform: "slack", name: " Team Slack ", secret: "8f742231b10e8888abcd99yyyzzz85a5" };

    #[tokio::test]
    async fn an_admin_adds_a_checked_integration() {
        let mut integrations = MockIntegrationRepository::new();
        integrations.expect_integrations().returning(|| Ok(Vec::new()));
        integrations
            .expect_create_integration()
            .withf(|i| {
                i.platform == Platform::Slack
                    && i.name.as_str() == "Team Slack"
                    && i.secret.expose() == "8f742231b10e8888abcd99yyyzzz85a5"
                    && i.created_at == now()
            })
            .returning(|_| Ok(stored(1)));
        let created = service(integrations).create(&actor(Role::Admin), FORM).await;
        assert_eq!(created.map(|i| i.id).ok(), Some(IntegrationId(1)));
    }

    #[tokio::test]
    async fn bad_forms_are_refused_field_by_field_before_anything_is_stored() {
        let mut integrations = MockIntegrationRepository::new();
        integrations.expect_create_integration().never();
        integrations.expect_integrations().returning(|| Ok(Vec::new()));
        let service = service(integrations);
        let cases = [
            (IntegrationForm { platform: "discord", ..FORM }, "platform"),
            (IntegrationForm { name: " ", ..FORM }, "name"),
            (IntegrationForm { name: &"n".repeat(51), ..FORM }, "name"),
            (IntegrationForm { secret: "short", ..FORM }, "secret"),
            (IntegrationForm { secret: &"s".repeat(201), ..FORM }, "secret"),
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
