//! Chat integrations: the secrets with which Slack, Mattermost, Zulip, Discord, Telegram,
//! Microsoft Teams and Rocket.Chat prove that a slash command (or an outgoing webhook, or a bot's
//! update) comes from them. A Slack app signs each request with its signing secret, a Discord
//! application with its Ed25519 key (checked with its public key), a Teams outgoing webhook with
//! an HMAC of its security token; the others send a token. Admins keep them in the database; the
//! server's configuration may add more.
//!
//! None is stored in clear ([`StoredSecret`]): a token is kept as its digest, which is enough to
//! check one; a signing secret or key, whose clear value checks a signature, is sealed with the
//! server's secrets key, and without that key it can come only from the configuration.

use std::fmt;

use chrono::NaiveDateTime;

use crate::gif::Rating;
use crate::ValidationError;

pub const INTEGRATION_NAME_MAX: usize = 50;
pub const INTEGRATION_SECRET_MIN: usize = 8;
pub const INTEGRATION_SECRET_MAX: usize = 200;
/// Integrations stored at once: every Slack request is checked against each Slack secret.
pub const INTEGRATIONS_MAX: usize = 50;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IntegrationId(pub i64);

/// The chat platform an integration belongs to, which decides how its requests are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Platform {
    /// A Slack app's signing secret: each request carries an HMAC-SHA256 of its body.
    Slack,
    /// The token of a Mattermost custom slash command.
    Mattermost,
    /// The token of a Zulip outgoing webhook bot.
    Zulip,
    /// A Discord application's public key (hex): each interaction carries an Ed25519 signature.
    Discord,
    /// The secret token a Telegram bot's webhook sends in `X-Telegram-Bot-Api-Secret-Token`.
    Telegram,
    /// The security token of a Microsoft Teams outgoing webhook (base64): each request carries
    /// an HMAC-SHA256 of its body.
    Teams,
    /// The token of a Rocket.Chat outgoing webhook integration.
    RocketChat,
}

impl Platform {
    pub const ALL: [Self; 7] =
        [Self::Slack, Self::Mattermost, Self::Zulip, Self::Discord, Self::Telegram, Self::Teams, Self::RocketChat];

    /// Whether a request is checked with the secret's clear value (a signature over the body), so
    /// that a digest is not enough to keep it.
    pub fn signs_requests(self) -> bool {
        matches!(self, Self::Slack | Self::Discord | Self::Teams)
    }

    /// The name the API and the database use: `slack`, `mattermost`, `zulip`, `discord`,
    /// `telegram`, `teams`, `rocketchat`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Slack => "slack",
            Self::Mattermost => "mattermost",
            Self::Zulip => "zulip",
            Self::Discord => "discord",
            Self::Telegram => "telegram",
            Self::Teams => "teams",
            Self::RocketChat => "rocketchat",
        }
    }

    /// # Errors
    /// Any other name.
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        Self::ALL.into_iter().find(|p| p.as_str() == raw).ok_or_else(|| {
            ValidationError::new(
                "platform",
                "Platform must be one of slack, mattermost, zulip, discord, telegram, teams, rocketchat.",
            )
        })
    }
}

/// What an admin calls an integration ("Team Slack"): 1 to 50 characters, trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IntegrationName(String);

impl IntegrationName {
    /// # Errors
    /// Blank, longer than 50 characters, or with control characters.
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(ValidationError::new("name", "Please give the integration a name."));
        }
        if name.chars().count() > INTEGRATION_NAME_MAX {
            return Err(ValidationError::new(
                "name",
                format!("Integration names must be at most {INTEGRATION_NAME_MAX} characters."),
            ));
        }
        if name.chars().any(char::is_control) {
            return Err(ValidationError::new("name", "Integration names must not contain control characters."));
        }
        Ok(Self(name.to_owned()))
    }

    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A signing secret or token as the platform shows it: 8 to 200 visible characters, no spaces.
/// Its `Debug` never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct IntegrationSecret(String);

impl IntegrationSecret {
    /// # Errors
    /// Shorter than 8 or longer than 200 characters (after trimming), or with spaces or control
    /// characters inside.
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let secret = raw.trim();
        let length = secret.chars().count();
        if !(INTEGRATION_SECRET_MIN..=INTEGRATION_SECRET_MAX).contains(&length) {
            return Err(ValidationError::new(
                "secret",
                format!(
                    "The secret must be {INTEGRATION_SECRET_MIN} to {INTEGRATION_SECRET_MAX} characters: paste it \
                     as the platform shows it."
                ),
            ));
        }
        if secret.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(ValidationError::new("secret", "The secret must not contain spaces."));
        }
        Ok(Self(secret.to_owned()))
    }

    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    /// The secret itself, to check a request or to store it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Its last four characters, to tell secrets apart in a list.
    pub fn hint(&self) -> String {
        let chars: Vec<char> = self.0.chars().collect();
        chars[chars.len().saturating_sub(4)..].iter().collect()
    }
}

impl fmt::Debug for IntegrationSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("IntegrationSecret(…)")
    }
}

/// How an integration's secret is kept.
#[derive(Clone, PartialEq, Eq)]
pub enum StoredSecret {
    /// As the platform shows it: only rows written before secrets were protected, until the
    /// server's next start converts them.
    Clear(IntegrationSecret),
    /// The hex SHA-256 of a token: enough to check a request's token.
    Digest(String),
    /// A signing secret sealed with the server's secrets key.
    Sealed(String),
}

impl StoredSecret {
    /// The name of the form the database keeps beside the value: `clear`, `digest`, `sealed`.
    pub fn form(&self) -> &'static str {
        match self {
            Self::Clear(_) => "clear",
            Self::Digest(_) => "digest",
            Self::Sealed(_) => "sealed",
        }
    }

    /// The stored text.
    pub fn value(&self) -> &str {
        match self {
            Self::Clear(secret) => secret.expose(),
            Self::Digest(value) | Self::Sealed(value) => value,
        }
    }

    /// The secret as stored in `form`; `None` for an unknown form.
    pub fn from_stored(form: &str, value: String) -> Option<Self> {
        match form {
            "clear" => Some(Self::Clear(IntegrationSecret::from_trusted(value))),
            "digest" => Some(Self::Digest(value)),
            "sealed" => Some(Self::Sealed(value)),
            _ => None,
        }
    }
}

impl fmt::Debug for StoredSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "StoredSecret::{}(…)", self.form())
    }
}

/// A sealed secret that this server's key cannot open (another key sealed it, or it was altered).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the sealed secret cannot be opened with this server's GIFSHELF_SECRETS_KEY")]
pub struct SealError;

/// What a request's proof is checked against: a secret's clear value (a configured one, or an
/// opened seal), or a token's digest.
#[derive(Clone, PartialEq, Eq)]
pub enum SecretCheck {
    Clear(IntegrationSecret),
    Digest(String),
}

impl fmt::Debug for SecretCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Clear(_) => "SecretCheck::Clear(…)",
            Self::Digest(_) => "SecretCheck::Digest(…)",
        })
    }
}

/// A stored integration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Integration {
    pub id: IntegrationId,
    pub platform: Platform,
    pub name: IntegrationName,
    pub secret: StoredSecret,
    /// The secret's last four characters, to tell integrations apart in a list.
    pub hint: String,
    pub created_at: NaiveDateTime,
    /// The highest rating its slash commands answer.
    pub max_rating: Rating,
}

/// An integration to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewIntegration {
    pub platform: Platform,
    pub name: IntegrationName,
    pub secret: StoredSecret,
    pub hint: String,
    pub created_at: NaiveDateTime,
    pub max_rating: Rating,
}

/// A secret a slash command may prove itself with, and what the integration it belongs to lets
/// its commands answer: the verifier names the one that vouched, so the search uses its maximum.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSecret {
    pub check: SecretCheck,
    /// The highest rating answered to the requests this secret proves.
    pub max_rating: Rating,
    /// The stored integration it belongs to; `None` for one of the configuration's.
    pub integration: Option<IntegrationId>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn platforms_are_the_seven_known_names() {
        for platform in Platform::ALL {
            assert_eq!(Platform::parse(platform.as_str()), Ok(platform));
        }
        for bad in ["", "Slack", "Discord", " slack", "rocket.chat", "msteams"] {
            assert!(Platform::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn names_are_trimmed_required_and_bounded() {
        let cases: [(&str, Option<&str>); 5] = [
            ("  Team Slack ", Some("Team Slack")),
            (" ", None),
            (&"n".repeat(50), Some(&"n".repeat(50))),
            (&"n".repeat(51), None),
            ("a\u{7}b", None),
        ];
        for (raw, expected) in cases {
            assert_eq!(IntegrationName::parse(raw).ok().map(|n| n.0), expected.map(str::to_owned), "{raw:?}");
        }
    }

    #[test]
    fn secrets_are_8_to_200_visible_characters_and_never_debug_printed() {
        let cases: [(&str, bool); 7] = [
            ("8f742231b10e8888abcd99yyyzzz85a5", true),
            (" 12345678 ", true),
            ("1234567", false),
            (&"s".repeat(200), true),
            (&"s".repeat(201), false),
            ("1234 5678", false),
            ("1234\u{0}5678", false),
        ];
        for (raw, ok) in cases {
            assert_eq!(IntegrationSecret::parse(raw).is_ok(), ok, "{raw:?}");
        }
        let secret = IntegrationSecret::from_trusted("8f742231b10e8888abcd99yyyzzz85a5".into());
        assert_eq!(secret.hint(), "85a5");
        assert!(!format!("{secret:?}").contains("8f74"));
    }
}
