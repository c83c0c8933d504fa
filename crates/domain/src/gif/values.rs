//! Titles, descriptions and tags: what a GIF is described by, and the rules of spec §5 for them.

use crate::ValidationError;

pub const TITLE_MAX: usize = 100;
pub const DESCRIPTION_MAX: usize = 500;
pub const TAG_NAME_MAX: usize = 50;
pub const CAPTION_TEXT_MAX: usize = 500;
/// Most tags one GIF may carry (the editor shows ten suggestions; twenty is plenty).
pub const TAGS_PER_GIF_MAX: usize = 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GifId(pub i64);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TagId(pub i64);

/// A required title of at most 100 characters, trimmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Title(String);

impl Title {
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let title = raw.trim();
        if title.is_empty() {
            return Err(ValidationError::new("title", "Please enter a title for your GIF."));
        }
        if title.chars().count() > TITLE_MAX {
            return Err(ValidationError::new("title", format!("Title must be at most {TITLE_MAX} characters")));
        }
        if title.chars().any(char::is_control) {
            return Err(ValidationError::new("title", "Title must not contain control characters"));
        }
        Ok(Self(title.to_owned()))
    }

    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An optional description of at most 500 characters, trimmed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Description(String);

impl Description {
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let text = raw.trim();
        if text.chars().count() > DESCRIPTION_MAX {
            return Err(ValidationError::new(
                "description",
                format!("Description must be at most {DESCRIPTION_MAX} characters"),
            ));
        }
        if text.chars().any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r') {
            return Err(ValidationError::new("description", "Description must not contain control characters"));
        }
        Ok(Self(text.to_owned()))
    }

    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The text in a GIF ("Text in this GIF"): read from its frames, typed by its owner or an admin,
/// or drawn by the maker. Trimmed, at most 500 characters, never empty (no text is `None`), line
/// breaks kept, no other control characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptionText(String);

impl CaptionText {
    /// `None` for blank text.
    ///
    /// # Errors
    /// Longer than 500 characters, or control characters other than line breaks and tabs.
    pub fn parse(raw: &str) -> Result<Option<Self>, ValidationError> {
        let text = raw.trim();
        if text.chars().count() > CAPTION_TEXT_MAX {
            return Err(ValidationError::new(
                "captionText",
                format!("Text in this GIF must be at most {CAPTION_TEXT_MAX} characters"),
            ));
        }
        if text.chars().any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r') {
            return Err(ValidationError::new("captionText", "Text in this GIF must not contain control characters"));
        }
        Ok((!text.is_empty()).then(|| Self(text.to_owned())))
    }

    /// The lines read in a GIF joined one per line, cut at a line (or, for one long line, at a
    /// character) so the whole stays within 500 characters; `None` when nothing was read.
    pub fn from_lines<S: AsRef<str>>(lines: &[S]) -> Option<Self> {
        let mut text = String::new();
        for line in lines {
            let line: String = line.as_ref().chars().filter(|c| !c.is_control()).collect();
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let room = CAPTION_TEXT_MAX - text.chars().count() - usize::from(!text.is_empty());
            if line.chars().count() > room {
                if text.is_empty() {
                    text = line.chars().take(CAPTION_TEXT_MAX).collect::<String>().trim_end().to_owned();
                }
                break;
            }
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(line);
        }
        (!text.is_empty()).then_some(Self(text))
    }

    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A tag name: trimmed, lower-cased, 1 to 50 characters, no control characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TagName(String);

impl TagName {
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let name = raw.trim().to_lowercase();
        if name.is_empty() {
            return Err(ValidationError::new("name", "Tag name must not be blank"));
        }
        if name.chars().count() > TAG_NAME_MAX {
            return Err(ValidationError::new("name", format!("Tag names must be at most {TAG_NAME_MAX} characters")));
        }
        if name.chars().any(char::is_control) {
            return Err(ValidationError::new("name", "Tag names must not contain control characters"));
        }
        Ok(Self(name))
    }

    /// Every name parsed, duplicates dropped (first occurrence kept), at most 20.
    pub fn parse_list<S: AsRef<str>>(raw: &[S]) -> Result<Vec<Self>, ValidationError> {
        let mut names: Vec<Self> = Vec::with_capacity(raw.len());
        for item in raw {
            let name = Self::parse(item.as_ref()).map_err(|e| ValidationError::new("tags", e.message))?;
            if !names.contains(&name) {
                names.push(name);
            }
        }
        if names.len() > TAGS_PER_GIF_MAX {
            return Err(ValidationError::new("tags", format!("A GIF can have at most {TAGS_PER_GIF_MAX} tags")));
        }
        Ok(names)
    }

    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A tag with how many GIFs carry it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    pub id: TagId,
    pub name: TagName,
    pub count: i64,
}

/// A tag as a GIF lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TagRef {
    pub id: TagId,
    pub name: TagName,
}

/// What a chat API lists: every GIF, or only the transparent ones (GIPHY's stickers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Shelf {
    #[default]
    Gifs,
    Stickers,
}

/// How suitable a GIF is, on the GIPHY/Tenor scale: `g` < `pg` < `pg-13` < `r`. The chat APIs and
/// slash commands answer only GIFs up to a maximum (the order of the variants).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Rating {
    #[default]
    G,
    Pg,
    Pg13,
    R,
}

impl Rating {
    pub const ALL: [Self; 4] = [Self::G, Self::Pg, Self::Pg13, Self::R];

    /// One of `g`, `pg`, `pg-13`, `r`, exactly as written (lower case: the one spelling the API
    /// documents and answers).
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        Self::ALL
            .into_iter()
            .find(|r| r.as_str() == raw)
            .ok_or_else(|| ValidationError::new("rating", "Rating must be one of g, pg, pg-13 or r"))
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::G => "g",
            Self::Pg => "pg",
            Self::Pg13 => "pg-13",
            Self::R => "r",
        }
    }

    /// Every rating up to and including this one (what a maximum lets through).
    pub fn up_to(self) -> Vec<Self> {
        Self::ALL.into_iter().filter(|r| *r <= self).collect()
    }
}

impl std::str::FromStr for Rating {
    type Err = ValidationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod caption_tests {
    use super::{CaptionText, CAPTION_TEXT_MAX};

    #[test]
    fn caption_text_is_trimmed_bounded_and_blank_is_none() {
        let table: [(&str, Result<Option<&str>, ()>); 6] = [
            ("  this is fine ", Ok(Some("this is fine"))),
            ("", Ok(None)),
            ("  \n ", Ok(None)),
            ("top\nbottom", Ok(Some("top\nbottom"))),
            ("bell\u{7}", Err(())),
            ("x", Ok(Some("x"))),
        ];
        for (raw, expected) in table {
            let got = CaptionText::parse(raw).map(|t| t.map(|t| t.as_str().to_owned())).map_err(|_| ());
            assert_eq!(got, expected.map(|t| t.map(str::to_owned)), "{raw:?}");
        }
        assert!(CaptionText::parse(&"é".repeat(CAPTION_TEXT_MAX)).is_ok());
        let long = CaptionText::parse(&"é".repeat(CAPTION_TEXT_MAX + 1)).unwrap_err();
        assert_eq!(long.field, "captionText");
    }

    #[test]
    fn read_lines_are_joined_within_the_limit() {
        assert_eq!(CaptionText::from_lines::<&str>(&[]), None);
        assert_eq!(CaptionText::from_lines(&[" ", ""]), None);
        let text = CaptionText::from_lines(&["THIS IS FINE", " ship it "]).map(|t| t.0);
        assert_eq!(text.as_deref(), Some("THIS IS FINE\nship it"));
        let long = "w".repeat(400);
        let text = CaptionText::from_lines(&[long.as_str(), long.as_str()]).map(|t| t.0);
        assert_eq!(text, Some(long.clone()));
        let text = CaptionText::from_lines(&["w".repeat(600)]).map(|t| t.0.chars().count());
        assert_eq!(text, Some(CAPTION_TEXT_MAX));
    }
}

#[cfg(test)]
mod rating_tests {
    use super::Rating;

    #[test]
    fn ratings_parse_in_lower_case_only_and_order_by_strictness() {
        for rating in Rating::ALL {
            assert_eq!(Rating::parse(rating.as_str()).ok(), Some(rating));
        }
        for bad in ["x", "PG", "", " g", "pg13", "nc-17"] {
            assert!(Rating::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Rating::Pg.up_to(), vec![Rating::G, Rating::Pg]);
        assert!(Rating::G < Rating::Pg13 && Rating::Pg13 < Rating::R);
    }
}
