//! The chat integrations' secrets as the server's configuration gives them, and how the secrets
//! admins add are kept.

use std::sync::Arc;

use gifshelf_app::commands::ConfiguredSecrets;
use gifshelf_app::integrations::SecretKeeping;
use gifshelf_auth::RandomIds;

use crate::Settings;

/// The slash command secrets of the configuration, as the use case takes them.
pub(crate) fn configured_commands(settings: &Settings) -> ConfiguredSecrets {
    use gifshelf_domain::integration::IntegrationSecret;
    use secrecy::ExposeSecret;

    let secrets = |list: &[secrecy::SecretString]| {
        list.iter().map(|s| IntegrationSecret::from_trusted(s.expose_secret().to_owned())).collect::<Vec<_>>()
    };
    let commands = &settings.chat_commands;
    ConfiguredSecrets {
        slack: secrets(commands.slack_signing_secret.as_slice()),
        mattermost: secrets(&commands.mattermost_tokens),
        zulip: secrets(&commands.zulip_tokens),
        max_rating: settings.default_rating,
        discord: secrets(commands.discord_public_key.as_slice()),
        telegram: secrets(commands.telegram_webhook_secret.as_slice()),
        teams: secrets(&commands.teams_tokens),
        rocketchat: secrets(&commands.rocketchat_tokens),
    }
}

/// How integration secrets are kept: tokens as digests always; signing secrets sealed with
/// `GIFSHELF_SECRETS_KEY`, or not stored at all without it (one log line says so).
pub(crate) fn secret_keeping(settings: &Settings) -> SecretKeeping {
    use secrecy::ExposeSecret;

    let key = settings.secrets_key.as_ref().and_then(|key| gifshelf_auth::SecretsKey::parse(key.expose_secret()).ok());
    if key.is_none() {
        tracing::info!(
            "GIFSHELF_SECRETS_KEY is not set: Slack signing secrets are taken from GIFSHELF_SLACK_SIGNING_SECRET only, \
             never stored"
        );
    }
    SecretKeeping::new(Arc::new(RandomIds), key.map(|k| Arc::new(k) as Arc<dyn gifshelf_domain::ports::SecretSealer>))
}
