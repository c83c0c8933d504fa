//! Chat integrations: the platforms' secrets for slash commands.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::iso;

/// `POST /api/integrations` (admins): a chat platform's secret for slash commands.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateIntegrationRequest {
    /// `slack` (the app's signing secret), `mattermost` (the slash command's token), `zulip`
    /// (the outgoing webhook bot's token), `discord` (the application's public key), `telegram`
    /// (the webhook's secret token), `teams` (the outgoing webhook's security token) or
    /// `rocketchat` (the outgoing webhook's token).
    #[ts(type = "\"slack\" | \"mattermost\" | \"zulip\" | \"discord\" | \"telegram\" | \"teams\" | \"rocketchat\"")]
    pub platform: String,
    /// What the integration is for ("Team Slack"): 1 to 50 characters.
    pub name: String,
    /// The signing secret, key or token as the platform shows it: 8 to 200 characters.
    pub secret: String,
    /// The highest rating its slash commands answer (`g`, `pg`, `pg-13` or `r`); absent, the
    /// server's default rating (`GIFSHELF_DEFAULT_RATING`, `g` out of the box).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "\"g\" | \"pg\" | \"pg-13\" | \"r\"")]
    pub max_rating: Option<String>,
}

/// `PUT /api/integrations/{id}` (admins): what an integration's slash commands may answer.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateIntegrationRequest {
    /// The highest rating its slash commands answer: `g`, `pg`, `pg-13` or `r`.
    #[ts(type = "\"g\" | \"pg\" | \"pg-13\" | \"r\"")]
    pub max_rating: String,
}

/// A chat integration as listed: never its secret.
#[derive(Debug, Clone, Serialize, Deserialize, TS, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntegrationDto {
    #[ts(type = "number")]
    pub id: i64,
    #[ts(type = "\"slack\" | \"mattermost\" | \"zulip\" | \"discord\" | \"telegram\" | \"teams\" | \"rocketchat\"")]
    pub platform: String,
    pub name: String,
    /// The secret's last four characters.
    pub secret_hint: String,
    /// ISO-8601, UTC.
    pub created_at: String,
    /// The highest rating its slash commands answer.
    pub max_rating: super::Rating,
}

impl From<&gifshelf_domain::integration::Integration> for IntegrationDto {
    fn from(integration: &gifshelf_domain::integration::Integration) -> Self {
        Self {
            id: integration.id.0,
            platform: integration.platform.as_str().to_owned(),
            name: integration.name.as_str().to_owned(),
            secret_hint: integration.hint.clone(),
            created_at: iso(integration.created_at),
            max_rating: integration.max_rating.into(),
        }
    }
}
