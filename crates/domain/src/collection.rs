//! Collections: named, ordered lists of GIFs that a team curates, and the batch edits of the
//! gallery's "Select" mode.

use chrono::NaiveDateTime;

use crate::gif::{Description, GifId, TagName};
use crate::user::{UserId, Username};
use crate::ValidationError;

pub const COLLECTION_NAME_MAX: usize = 80;
/// Most GIFs one batch edit may name.
pub const BATCH_MAX: usize = 500;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CollectionId(pub i64);

/// A collection's name: trimmed, 1 to 80 characters, no control characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionName(String);

impl CollectionName {
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(ValidationError::new("name", "Please enter a name for the collection."));
        }
        if name.chars().count() > COLLECTION_NAME_MAX {
            return Err(ValidationError::new(
                "name",
                format!("Collection names must be at most {COLLECTION_NAME_MAX} characters"),
            ));
        }
        if name.chars().any(char::is_control) {
            return Err(ValidationError::new("name", "Collection names must not contain control characters"));
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

/// Who sees a collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Visibility {
    /// Every signed-in user.
    Team,
    /// Its owner only.
    Private,
}

impl Visibility {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Team => "team",
            Self::Private => "private",
        }
    }

    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        match raw {
            "team" => Ok(Self::Team),
            "private" => Ok(Self::Private),
            _ => Err(ValidationError::new("visibility", "Visibility must be \"team\" or \"private\"")),
        }
    }
}

/// A stored collection with what its card shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collection {
    pub id: CollectionId,
    pub name: CollectionName,
    pub description: Description,
    pub owner_id: UserId,
    pub owner: Username,
    pub visibility: Visibility,
    /// The id of its public page, while sharing is on.
    pub share_id: Option<String>,
    pub gif_count: i64,
    /// The first GIFs in its order (at most four), for the card's cover.
    pub cover: Vec<GifId>,
    /// UTC.
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

/// What it takes to store a collection.
#[derive(Debug, Clone)]
pub struct NewCollection {
    pub name: CollectionName,
    pub description: Description,
    pub owner_id: UserId,
    pub visibility: Visibility,
    pub at: NaiveDateTime,
}

/// The editable fields; sharing is changed on its own (`share_id`).
#[derive(Debug, Clone)]
pub struct CollectionEdit {
    pub name: CollectionName,
    pub description: Description,
    pub visibility: Visibility,
    pub at: NaiveDateTime,
}

/// One batch of the gallery's "Select" mode, already narrowed to the GIFs the caller may change:
/// every part is applied in one transaction, or none is.
#[derive(Debug, Clone, Default)]
pub struct GifBatch {
    /// GIFs that get `add_tags` and lose `remove_tags`.
    pub retag: Vec<GifId>,
    pub add_tags: Vec<TagName>,
    pub remove_tags: Vec<TagName>,
    /// GIFs appended (in this order, those not yet there) to a collection.
    pub collect: Option<(CollectionId, Vec<GifId>)>,
    /// GIFs removed (rows and links; the caller removes their blobs after the commit).
    pub delete: Vec<GifId>,
    /// When (UTC): the creation time of new tags.
    pub at: NaiveDateTime,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        let long = "n".repeat(81);
        let cases: &[(&str, Result<&str, &str>)] = &[
            ("  Reactions ", Ok("Reactions")),
            ("", Err("Please enter a name for the collection.")),
            ("   ", Err("Please enter a name for the collection.")),
            (&long, Err("Collection names must be at most 80 characters")),
            ("tab\u{7}", Err("Collection names must not contain control characters")),
        ];
        for (input, expected) in cases {
            let got = CollectionName::parse(input).map(|n| n.0).map_err(|e| e.message);
            assert_eq!(got.as_deref().map_err(String::as_str), *expected, "{input:?}");
        }
        assert!(CollectionName::parse(&"é".repeat(80)).is_ok());
    }

    #[test]
    fn visibilities() {
        for v in [Visibility::Team, Visibility::Private] {
            assert_eq!(Visibility::parse(v.as_str()), Ok(v));
        }
        assert_eq!(Visibility::parse("public").err().map(|e| e.field), Some("visibility"));
    }
}
