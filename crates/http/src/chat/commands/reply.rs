//! What every platform's answer is made of: the public links of a found GIF, or a notice for the
//! person who asked; and Markdown escaping for the platforms that render it.

use gifshelf_app::commands::CommandAnswer;
use gifshelf_domain::gif::RenditionKind;

pub const USAGE: &str = "Usage: /gif <words> — posts the best-matching GIF from gifshelf.";

/// What to post: a GIF for the channel, or a sentence for the person who asked.
pub(super) enum Outcome {
    Found(Links),
    Notice(String),
}

/// The public links of a found GIF: its image (`/s/{shareId}.{ext}`, what chat apps animate) and
/// its share page (`/s/{shareId}`). Never the row id.
pub(super) struct Links {
    pub title: String,
    pub image: String,
    pub page: String,
    /// The image's file name (`{shareId}.{ext}`).
    pub file: String,
}

/// The answer as links or a notice; `usage` is the platform's help sentence.
pub(super) fn outcome(answer: &CommandAnswer, origin: &str, usage: &str) -> Outcome {
    match answer {
        CommandAnswer::Found(gif) => {
            let ext = gif.rendition(RenditionKind::Original).map_or("gif", |r| r.extension());
            Outcome::Found(Links {
                title: gif.title.as_str().to_owned(),
                image: format!("{origin}/s/{}.{ext}", gif.share_id),
                page: format!("{origin}/s/{}", gif.share_id),
                file: format!("{}.{ext}", gif.share_id),
            })
        }
        CommandAnswer::NoMatch(words) => Outcome::Notice(format!("No GIFs match “{words}”.")),
        CommandAnswer::Usage => Outcome::Notice(usage.to_owned()),
        CommandAnswer::Refused(reason) => Outcome::Notice(reason.clone()),
    }
}

/// Markdown punctuation escaped, so a title stays text (no links, emphasis or HTML); a zero-width
/// space after each `@`, so a title cannot mention `@channel`, `@all` or a person.
pub(super) fn markdown_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if "\\`*_{}[]()<>#!|~$".contains(c) {
            out.push('\\');
        }
        out.push(c);
        if c == '@' {
            out.push('\u{200B}');
        }
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use gifshelf_domain::gif::{Description, Gif, GifId, Renditions, Title};
    use gifshelf_domain::integration::Platform;
    use gifshelf_domain::user::{UserId, Username};

    use super::*;
    use crate::chat::commands::reply;

    /// A found GIF whose title tries to ping and format, with a row id the answers must not show.
    pub(in crate::chat::commands) fn found() -> CommandAnswer {
        CommandAnswer::Found(Box::new(Gif {
            id: GifId(41),
            share_id: "Ab3_x-9".into(),
            title: Title::from_trusted("Cat <!channel> *wow* @all".into()),
            description: Description::default(),
            tags: Vec::new(),
            view_count: 0,
            uploader_id: UserId(1),
            uploader: Username::from_trusted("alice".into()),
            uploaded_at: chrono::NaiveDateTime::default(),
            frame_count: 3,
            renditions: Renditions::default(),
            favourite_count: 0,
            favourite: false,
            share_count: 0,
            made_from: None,
            rating: gifshelf_domain::gif::Rating::G,
            hidden: None,
            caption_text: None,
            transparent: None,
        }))
    }

    #[test]
    fn answers_link_the_share_id_never_the_row_id() {
        for platform in Platform::ALL {
            let answer = reply(platform, &found(), "https://gifs.example.com");
            assert!(answer.to_string().contains("https://gifs.example.com/s/Ab3_x-9"), "{answer}");
            assert!(!answer.to_string().contains("41"), "the row id shows: {answer}");
        }
    }

    #[test]
    fn no_match_is_only_for_the_person_who_asked_where_possible() {
        let none = CommandAnswer::NoMatch("cats".into());
        for platform in [Platform::Slack, Platform::Mattermost] {
            let answer = reply(platform, &none, "http://x");
            assert_eq!(answer["response_type"], "ephemeral");
            assert_eq!(answer["text"], "No GIFs match “cats”.");
        }
        assert_eq!(reply(Platform::Zulip, &none, "http://x"), serde_json::json!({"content": "No GIFs match “cats”."}));
    }
}
