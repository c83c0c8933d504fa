//! Which GIFs a list shows and in what order.

use super::values::TagName;
use crate::user::UserId;
use crate::ValidationError;

/// Which GIFs a list shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GifFilter {
    All,
    Tag(TagName),
    /// By uploader, compared case-insensitively.
    User(String),
    /// Every word must be found in the title, the description, a tag name or the text in the GIF
    /// (case-insensitive). A word holding spaces is a quoted phrase: its words in that order.
    Search(Vec<String>),
    /// A person's favourites. Here `Newest` and `Oldest` order by when they were favourited.
    Favourites(UserId),
}

/// The order of a list (`sort=`). Every order breaks ties by id, so pages never overlap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GifSort {
    /// Newest upload first (the spec's order).
    #[default]
    Newest,
    Oldest,
    /// Most views first.
    Views,
    /// Most favourited first.
    Favourites,
    /// Title A to Z, case-insensitively.
    Title,
    /// A search's best matches first (the words in the title weigh most, then in tags, the
    /// description, the text in the GIF), ties newest first; a list without words: newest first.
    /// What a search is ordered by when no `sort` is given; not a name the API takes.
    Relevance,
    /// As [`GifSort::Relevance`], ties most viewed first (the chat APIs).
    RelevanceThenViews,
}

impl GifSort {
    pub const ALL: [Self; 5] = [Self::Newest, Self::Oldest, Self::Views, Self::Favourites, Self::Title];

    /// The name the API takes (`newest`, `oldest`, `views`, `favourites`, `title`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Newest => "newest",
            Self::Oldest => "oldest",
            Self::Views => "views",
            Self::Favourites => "favourites",
            Self::Title => "title",
            Self::Relevance | Self::RelevanceThenViews => "relevance",
        }
    }

    /// # Errors
    /// A name that is none of [`GifSort::ALL`].
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        Self::ALL.into_iter().find(|s| s.as_str() == raw).ok_or_else(|| {
            ValidationError::new("sort", "Sort must be one of newest, oldest, views, favourites, title.")
        })
    }
}

/// Longest search term accepted, in bytes.
pub const SEARCH_TERM_MAX_BYTES: usize = 200;
/// Words of a search term that count; the rest are ignored.
pub const SEARCH_WORDS_MAX: usize = 16;

impl GifFilter {
    /// The order of this list when no `sort` is asked: a search's best matches first, any other
    /// list newest first.
    pub fn default_sort(&self) -> GifSort {
        if matches!(self, Self::Search(_)) {
            GifSort::Relevance
        } else {
            GifSort::default()
        }
    }

    /// The chat APIs' order: a search's best matches then the most viewed, any other list the most
    /// viewed first.
    pub fn chat_sort(&self) -> GifSort {
        if matches!(self, Self::Search(_)) {
            GifSort::RelevanceThenViews
        } else {
            GifSort::Views
        }
    }

    /// The search of product.md §10: split on white space, lower-cased, at most 16 words; a
    /// "quoted phrase" is one word holding its words, in order, one space apart (an unclosed quote
    /// runs to the end). An empty term lists everything.
    ///
    /// # Errors
    /// A term longer than 200 bytes.
    pub fn search(term: &str) -> Result<Self, ValidationError> {
        if term.len() > SEARCH_TERM_MAX_BYTES {
            return Err(ValidationError::new(
                "q",
                format!("The search term is too long (at most {SEARCH_TERM_MAX_BYTES} characters)."),
            ));
        }
        let mut words: Vec<String> = Vec::new();
        for (i, part) in term.split('"').enumerate() {
            let quoted = i % 2 == 1;
            let split = part.split_whitespace().map(str::to_lowercase);
            if quoted {
                let phrase = split.collect::<Vec<_>>().join(" ");
                if !phrase.is_empty() {
                    words.push(phrase);
                }
            } else {
                words.extend(split);
            }
        }
        words.truncate(SEARCH_WORDS_MAX);
        Ok(if words.is_empty() { Self::All } else { Self::Search(words) })
    }
}
