//! API keys: what chat apps and other programs present to read a person's library through the
//! chat-compatible APIs. Keys are shown once; only their digest is stored.

use chrono::NaiveDateTime;

use crate::user::UserId;
use crate::ValidationError;

/// Keys one person may hold at once.
pub const API_KEYS_PER_USER: usize = 20;
pub const API_KEY_NAME_MAX: usize = 50;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ApiKeyId(pub i64);

/// What the owner calls a key ("Team chat", "Zulip"): 1 to 50 characters, trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKeyName(String);

impl ApiKeyName {
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(ValidationError::new("name", "Please give the key a name."));
        }
        if name.chars().count() > API_KEY_NAME_MAX {
            return Err(ValidationError::new(
                "name",
                format!("Key names must be at most {API_KEY_NAME_MAX} characters"),
            ));
        }
        if name.chars().any(char::is_control) {
            return Err(ValidationError::new("name", "Key names must not contain control characters"));
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

/// A stored key, without its secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiKey {
    pub id: ApiKeyId,
    pub owner: UserId,
    pub name: ApiKeyName,
    /// The first characters of the key, to tell keys apart in a list.
    pub prefix: String,
    pub created_at: NaiveDateTime,
    pub last_used_at: Option<NaiveDateTime>,
}

/// A key to store: its digest, never the key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewApiKey {
    pub owner: UserId,
    pub name: ApiKeyName,
    pub prefix: String,
    pub digest: String,
    pub created_at: NaiveDateTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_names_are_trimmed_required_and_bounded() {
        assert_eq!(ApiKeyName::parse("  Zulip ").map(|n| n.0), Ok("Zulip".to_owned()));
        assert!(ApiKeyName::parse(" ").is_err());
        assert!(ApiKeyName::parse(&"k".repeat(50)).is_ok());
        assert!(ApiKeyName::parse(&"k".repeat(51)).is_err());
        assert!(ApiKeyName::parse("a\u{7}b").is_err());
    }
}
