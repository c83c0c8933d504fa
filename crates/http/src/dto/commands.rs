//! Slash commands: what Slack, Mattermost and Zulip send and get back (for the OpenAPI document).

use serde::{Deserialize, Serialize};

/// `POST /api/chat/command`: the fields of Slack's and Mattermost's form that gifshelf reads (the
/// platforms send more; Zulip sends JSON with `data` and `token` instead). For the document only:
/// the handler reads the raw body, which a signature covers.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SlashCommandForm {
    /// The command as typed (`/gif`).
    pub command: Option<String>,
    /// The words after it (`happy cat`).
    pub text: Option<String>,
    /// Mattermost's command token (Slack signs the body instead).
    pub token: Option<String>,
}

/// `POST /api/chat/command` as JSON: Zulip's outgoing webhook (`data`, `token`, `trigger`), or
/// Mattermost's command (`command`, `text`, `token`). For the document only, like the form.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ChatCommandJson {
    /// Mattermost: the command as typed (`/gif`).
    pub command: Option<String>,
    /// Mattermost: the words after it.
    pub text: Option<String>,
    /// Zulip: the message that mentioned the bot (`@**gifshelf** happy cat`).
    pub data: Option<String>,
    /// Zulip: `mention`, `direct_message` or `private_message`.
    pub trigger: Option<String>,
    /// The command's (Mattermost) or the bot's (Zulip) token.
    pub token: Option<String>,
}

/// `POST /api/chat/command`'s answer: Slack's or Mattermost's message, or Zulip's reply. For the
/// document only: the handler writes the platform's own.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum ChatCommandAnswer {
    SlashCommand(SlashCommandReply),
    Zulip(ZulipReply),
}

/// `POST /api/chat/command`, answering Slack or Mattermost: the message to post.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SlashCommandReply {
    pub response_type: ResponseType,
    /// Slack: mrkdwn (the notification text beside the blocks); Mattermost: Markdown.
    pub text: String,
    /// Slack only: the image and a link to its share page.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<SlackBlock>,
}

/// Who sees a slash command's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResponseType {
    /// Everyone in the channel.
    InChannel,
    /// Only the person who typed the command.
    Ephemeral,
}

/// The Slack Block Kit blocks an answer uses.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum SlackBlock {
    Image { image_url: String, alt_text: String, title: SlackText },
    Context { elements: Vec<SlackText> },
}

/// A Slack text object.
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct SlackText {
    /// `plain_text` or `mrkdwn`.
    #[serde(rename = "type")]
    pub kind: String,
    pub text: String,
}

/// `POST /api/chat/command`, answering a Zulip outgoing webhook: the bot's reply (Markdown).
#[derive(Debug, Clone, Serialize, Deserialize, utoipa::ToSchema)]
pub struct ZulipReply {
    pub content: String,
}
