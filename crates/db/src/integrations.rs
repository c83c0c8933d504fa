//! `IntegrationRepository` on diesel: the chat integrations admins keep, by platform.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::gif::Rating;
use gifshelf_domain::integration::{
    Integration, IntegrationId, IntegrationName, NewIntegration, Platform, StoredSecret,
};
use gifshelf_domain::ports::IntegrationRepository;
use gifshelf_domain::RepoError;

use crate::connection::Database;
use crate::error::repo_error;
use crate::schema::integrations;

#[derive(Queryable, Selectable)]
#[diesel(table_name = integrations)]
struct IntegrationRow {
    id: i64,
    platform: String,
    name: String,
    secret: String,
    created_at: NaiveDateTime,
    secret_form: String,
    secret_hint: String,
    max_rating: String,
}

impl IntegrationRow {
    fn into_integration(self) -> Result<Integration, RepoError> {
        let platform = Platform::parse(&self.platform)
            .map_err(|_| RepoError::other(format!("unknown integration platform {:?}", self.platform)))?;
        let secret = StoredSecret::from_stored(&self.secret_form, self.secret)
            .ok_or_else(|| RepoError::other(format!("unknown integration secret form {:?}", self.secret_form)))?;
        Ok(Integration {
            id: IntegrationId(self.id),
            platform,
            name: IntegrationName::from_trusted(self.name),
            secret,
            hint: self.secret_hint,
            created_at: self.created_at,
            max_rating: Rating::parse(&self.max_rating)
                .map_err(|_| RepoError::other(format!("unknown integration rating {:?}", self.max_rating)))?,
        })
    }
}

fn load(rows: QueryResult<Vec<IntegrationRow>>) -> Result<Vec<Integration>, RepoError> {
    rows.map_err(repo_error)?.into_iter().map(IntegrationRow::into_integration).collect()
}

#[async_trait]
impl IntegrationRepository for Database {
    async fn create_integration(&self, integration: NewIntegration) -> Result<Integration, RepoError> {
        self.run(move |conn| {
            diesel::insert_into(integrations::table)
                .values((
                    integrations::platform.eq(integration.platform.as_str()),
                    integrations::name.eq(integration.name.as_str()),
                    integrations::secret.eq(integration.secret.value()),
                    integrations::secret_form.eq(integration.secret.form()),
                    integrations::secret_hint.eq(&integration.hint),
                    integrations::created_at.eq(integration.created_at),
                ))
                .returning(integrations::id)
                .get_result::<i64>(conn)
                .and_then(|id| integrations::table.find(id).select(IntegrationRow::as_select()).first(conn))
                .map_err(repo_error)?
                .into_integration()
        })
        .await
    }

    async fn integrations(&self) -> Result<Vec<Integration>, RepoError> {
        self.run(move |conn| {
            load(integrations::table.order(integrations::id.asc()).select(IntegrationRow::as_select()).load(conn))
        })
        .await
    }

    async fn integrations_of(&self, platform: Platform) -> Result<Vec<Integration>, RepoError> {
        self.run(move |conn| {
            load(
                integrations::table
                    .filter(integrations::platform.eq(platform.as_str()))
                    .order(integrations::id.asc())
                    .select(IntegrationRow::as_select())
                    .load(conn),
            )
        })
        .await
    }

    async fn delete_integration(&self, id: IntegrationId) -> Result<(), RepoError> {
        self.run(move |conn| {
            let removed = diesel::delete(integrations::table.find(id.0)).execute(conn).map_err(repo_error)?;
            if removed == 0 {
                Err(RepoError::NotFound)
            } else {
                Ok(())
            }
        })
        .await
    }

    async fn replace_integration_secret(
        &self,
        id: IntegrationId,
        secret: StoredSecret,
        hint: String,
    ) -> Result<(), RepoError> {
        self.run(move |conn| {
            let changed = diesel::update(integrations::table.find(id.0))
                .set((
                    integrations::secret.eq(secret.value()),
                    integrations::secret_form.eq(secret.form()),
                    integrations::secret_hint.eq(hint),
                ))
                .execute(conn)
                .map_err(repo_error)?;
            if changed == 0 {
                Err(RepoError::NotFound)
            } else {
                Ok(())
            }
        })
        .await
    }
}
