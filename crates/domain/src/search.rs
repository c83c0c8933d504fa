//! What the search box proposes as people type (product.md "Search"): tags, titles, words of the
//! text in GIFs and popular searches, for the web app and the chat APIs' autocomplete alike.

use crate::gif::Rating;
use crate::user::UserId;

/// Suggestions asked for with fewer characters than this get none.
pub const SUGGEST_MIN_CHARS: usize = 2;
/// The most suggestions one answer holds.
pub const SUGGESTIONS_MAX: usize = 8;

/// Where a suggestion comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SuggestionKind {
    Tag,
    Title,
    /// A word of the text in a GIF.
    Caption,
    /// What people searched for (first pages with results, web app and chat APIs).
    Search,
}

impl SuggestionKind {
    /// The order in which kinds take turns in an answer.
    pub const ALL: [Self; 4] = [Self::Tag, Self::Search, Self::Title, Self::Caption];

    /// The API's name: `tag`, `title`, `caption`, `search`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Tag => "tag",
            Self::Title => "title",
            Self::Caption => "caption",
            Self::Search => "search",
        }
    }
}

/// One suggestion: the text to search for (lower case) and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    pub text: String,
    pub kind: SuggestionKind,
}

/// Whose view of the library suggestions come from: a member sees what search shows them (GIFs no
/// moderator hid, and their own); a chat app sees GIFs up to a rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    Member(UserId),
    Chat(Rating),
}

/// The typed text as suggestions are looked up by: white space collapsed, lower case; `None` when
/// it is shorter than [`SUGGEST_MIN_CHARS`] characters or longer than a search may be.
pub fn suggestion_prefix(typed: &str) -> Option<String> {
    typed_prefix(typed).filter(|prefix| prefix.chars().count() >= SUGGEST_MIN_CHARS)
}

/// What was typed, its white space runs made one space, lower-cased: `None` when empty or longer
/// than a search term may be (the chat APIs' autocomplete asks from the first character).
pub fn typed_prefix(typed: &str) -> Option<String> {
    let prefix = typed.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    (!prefix.is_empty() && prefix.len() <= crate::gif::SEARCH_TERM_MAX_BYTES).then_some(prefix)
}

/// The candidates of each kind (each list best first) merged into one answer of at most `max`:
/// kinds take turns in [`SuggestionKind::ALL`]'s order, and a text already proposed (case aside)
/// is not proposed again.
pub fn merge_suggestions(mut by_kind: Vec<Vec<Suggestion>>, max: usize) -> Vec<Suggestion> {
    by_kind.sort_by_key(|list| {
        list.first().map_or(usize::MAX, |s| SuggestionKind::ALL.iter().position(|k| *k == s.kind).unwrap_or(0))
    });
    let mut lists: Vec<std::collections::VecDeque<Suggestion>> = by_kind.into_iter().map(Into::into).collect();
    let mut out: Vec<Suggestion> = Vec::new();
    while out.len() < max && lists.iter().any(|l| !l.is_empty()) {
        for list in &mut lists {
            while let Some(next) = list.pop_front() {
                if !out.iter().any(|s| s.text.to_lowercase() == next.text.to_lowercase()) {
                    out.push(next);
                    break;
                }
            }
            if out.len() >= max {
                break;
            }
        }
    }
    out
}

/// Suggestions split by kind, each list in the order given.
pub fn by_kind(found: Vec<Suggestion>) -> Vec<Vec<Suggestion>> {
    let mut lists: Vec<Vec<Suggestion>> = Vec::new();
    for suggestion in found {
        match lists.iter_mut().find(|l| l.first().is_some_and(|s| s.kind == suggestion.kind)) {
            Some(list) => list.push(suggestion),
            None => lists.push(vec![suggestion]),
        }
    }
    lists
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str, kind: SuggestionKind) -> Suggestion {
        Suggestion { text: text.into(), kind }
    }

    #[test]
    fn prefixes_need_two_characters_and_are_folded() {
        assert_eq!(suggestion_prefix("  Ha  PPy "), Some("ha ppy".into()));
        assert_eq!(suggestion_prefix("h"), None);
        assert_eq!(suggestion_prefix("  é "), None);
        assert_eq!(suggestion_prefix("éé"), Some("éé".into()));
        assert_eq!(suggestion_prefix(&"x".repeat(201)), None);
    }

    #[test]
    fn kinds_take_turns_without_repeating_a_text() {
        use SuggestionKind::*;
        let merged = merge_suggestions(
            vec![
                vec![s("happy dance", Title), s("hat trick", Title)],
                vec![s("happy", Tag), s("hat", Tag)],
                vec![s("happy", Caption), s("hallo", Caption)],
                vec![s("Happy", Search)],
            ],
            8,
        );
        let got: Vec<(&str, SuggestionKind)> = merged.iter().map(|s| (s.text.as_str(), s.kind)).collect();
        assert_eq!(
            got,
            [("happy", Tag), ("happy dance", Title), ("hallo", Caption), ("hat", Tag), ("hat trick", Title)]
        );
        assert_eq!(merge_suggestions(vec![vec![s("a1", Tag), s("a2", Tag), s("a3", Tag)]], 2).len(), 2);
        assert!(merge_suggestions(Vec::new(), 8).is_empty());
    }
}
