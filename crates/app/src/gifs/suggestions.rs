use gifshelf_domain::search::{by_kind, merge_suggestions, suggestion_prefix, Audience, Suggestion, SUGGESTIONS_MAX};

use super::GifService;
use crate::auth::Actor;
use crate::AppError;

impl GifService {
    /// What the search box proposes for what `viewer` typed (product.md "Search"): tags, popular
    /// searches, titles and words of the text in GIFs starting with it, taking turns, each text
    /// once, at most [`SUGGESTIONS_MAX`]; none for fewer than two characters. Only GIFs the viewer's
    /// search would show lend theirs.
    ///
    /// # Errors
    /// Storage errors.
    #[tracing::instrument(skip_all, fields(user_id = viewer.id.0))]
    pub async fn suggestions(&self, viewer: &Actor, typed: &str) -> Result<Vec<Suggestion>, AppError> {
        let Some(prefix) = suggestion_prefix(typed) else {
            return Ok(Vec::new());
        };
        let per_kind = i64::try_from(SUGGESTIONS_MAX).unwrap_or(8);
        let found = self.terms.suggestions(&prefix, Audience::Member(viewer.id), per_kind).await?;
        Ok(merge_suggestions(by_kind(found), SUGGESTIONS_MAX))
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::search::{Audience, Suggestion, SuggestionKind};
    use gifshelf_domain::user::{Role, UserId, Username};

    use crate::auth::Actor;
    use crate::gifs::test_support::Mocks;

    fn alice() -> Actor {
        Actor::session(UserId(1), Username::from_trusted("alice".into()), Role::User)
    }

    #[tokio::test]
    async fn two_characters_ask_for_the_viewers_suggestions_and_one_asks_nothing() {
        let mut m = Mocks::new();
        m.terms
            .expect_suggestions()
            .times(1)
            .withf(|prefix, audience, per_kind| {
                prefix == "ha" && *audience == Audience::Member(UserId(1)) && *per_kind == 8
            })
            .returning(|_, _, _| {
                Ok(vec![
                    Suggestion { text: "hat".into(), kind: SuggestionKind::Tag },
                    Suggestion { text: "hat".into(), kind: SuggestionKind::Caption },
                    Suggestion { text: "happy dance".into(), kind: SuggestionKind::Title },
                ])
            });
        let service = m.service();
        let got = service.suggestions(&alice(), " HA ").await.unwrap_or_else(|e| panic!("{e}"));
        let texts: Vec<&str> = got.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(texts, ["hat", "happy dance"]);
        assert!(service.suggestions(&alice(), "h").await.is_ok_and(|s| s.is_empty()));
    }
}
