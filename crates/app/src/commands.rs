//! Slash commands from chat platforms (`/gif cats` in Slack, Mattermost, Discord or Telegram, a
//! mention of a Zulip or Teams bot, Rocket.Chat's trigger word): the words become a search, and the
//! best match is the answer. Which request is genuine is decided by the HTTP adapter with the
//! secrets [`CommandService::secrets`] (or [`CommandService::vouchers`], which says whose each is)
//! lists; how the answer looks on each platform is the adapter's too.

use std::sync::Arc;

use chrono::{Duration, NaiveDateTime};
use gifshelf_domain::gif::{Gif, GifFilter, Page, PageRequest, Rating, Shelf};
use gifshelf_domain::integration::{CommandSecret, IntegrationSecret, Platform, SecretCheck};
use gifshelf_domain::ports::{ChatFeedRepository, GifRepository, IntegrationRepository, SharedCounters};

use crate::integrations::SecretKeeping;
use crate::rate_limit::SharedRateLimiter;
use crate::AppError;

/// Requests a minute each integration may make of the bots' endpoints, unless configured.
pub const DEFAULT_COMMANDS_PER_MINUTE: u32 = 100;

/// The secrets the server's configuration gives each platform (beside those admins store), and
/// the highest rating their commands answer (the server's default rating: what an upload that
/// names none gets).
#[derive(Debug, Clone, Default)]
pub struct ConfiguredSecrets {
    pub slack: Vec<IntegrationSecret>,
    pub mattermost: Vec<IntegrationSecret>,
    pub zulip: Vec<IntegrationSecret>,
    pub max_rating: Rating,
    pub discord: Vec<IntegrationSecret>,
    pub telegram: Vec<IntegrationSecret>,
    pub teams: Vec<IntegrationSecret>,
    pub rocketchat: Vec<IntegrationSecret>,
}

impl ConfiguredSecrets {
    fn of(&self, platform: Platform) -> &[IntegrationSecret] {
        match platform {
            Platform::Slack => &self.slack,
            Platform::Mattermost => &self.mattermost,
            Platform::Zulip => &self.zulip,
            Platform::Discord => &self.discord,
            Platform::Telegram => &self.telegram,
            Platform::Teams => &self.teams,
            Platform::RocketChat => &self.rocketchat,
        }
    }
}

/// What a command gets back.
#[derive(Debug, Clone, PartialEq)]
pub enum CommandAnswer {
    /// The best match for the words: to be posted into the channel.
    Found(Box<Gif>),
    /// Nothing matches these words.
    NoMatch(String),
    /// No words at all: how to use the command.
    Usage,
    /// Words the search refuses (too long), with the reason.
    Refused(String),
}

pub struct CommandService {
    gifs: Arc<dyn GifRepository>,
    feed: Arc<dyn ChatFeedRepository>,
    integrations: Arc<dyn IntegrationRepository>,
    configured: ConfiguredSecrets,
    keeping: SecretKeeping,
    /// Requests per integration and minute (keyed by [`rate_key`]).
    limiter: SharedRateLimiter<String>,
}

impl CommandService {
    pub fn new(
        gifs: Arc<dyn GifRepository>,
        feed: Arc<dyn ChatFeedRepository>,
        integrations: Arc<dyn IntegrationRepository>,
        configured: ConfiguredSecrets,
        keeping: SecretKeeping,
    ) -> Self {
        let limiter = SharedRateLimiter::local(DEFAULT_COMMANDS_PER_MINUTE, Duration::minutes(1));
        Self { gifs, feed, integrations, configured, keeping, limiter }
    }

    /// At most `per_minute` requests a minute per integration, counted in `counters` when given
    /// (shared by every instance).
    #[must_use]
    pub fn with_rate_limit(self, per_minute: u32, counters: Option<Arc<dyn SharedCounters>>) -> Self {
        let limiter = SharedRateLimiter::local(per_minute.max(1), Duration::minutes(1));
        let limiter = match counters {
            Some(counters) => limiter.shared_in(counters, "commands"),
            None => limiter,
        };
        Self { limiter, ..self }
    }

    /// Counts one request of the integration `vouched` names (the configured secrets of a
    /// platform count together).
    ///
    /// # Errors
    /// `RateLimited` past the integration's requests of the minute.
    pub async fn admit(&self, platform: Platform, vouched: &CommandSecret, now: NaiveDateTime) -> Result<(), AppError> {
        let key = rate_key(platform, vouched);
        self.limiter.hit(&key, now).await.map_err(|retry_after_secs| AppError::RateLimited { retry_after_secs })
    }

    /// The match of the command's text at `position` (0: the best), rated at most `max`: the best
    /// matches first, then the most viewed, as [`Self::run`] orders them. A share is counted when `post` (the GIF goes
    /// into a channel), not for a preview.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn pick(&self, text: &str, position: u32, max: Rating, post: bool) -> Result<CommandAnswer, AppError> {
        let words = command_words(text);
        if words.is_empty() {
            return Ok(CommandAnswer::Usage);
        }
        let filter = match GifFilter::search(&words) {
            Ok(filter) => filter,
            Err(refused) => return Ok(CommandAnswer::Refused(refused.message)),
        };
        let page = self
            .gifs
            .list_rated(&filter, filter.chat_sort(), PageRequest { page: position, size: 1 }, max, Shelf::Gifs)
            .await?;
        Ok(match page.items.into_iter().next() {
            Some(gif) if post => CommandAnswer::Found(Box::new(self.shared(gif).await)),
            Some(gif) => CommandAnswer::Found(Box::new(gif)),
            None => CommandAnswer::NoMatch(words),
        })
    }

    /// One page of the GIFs matching `words` (every GIF for none), rated at most `max`, the best
    /// matches then the most viewed first (the chat APIs' order): what an inline bot offers.
    ///
    /// # Errors
    /// `Validation` for words the search refuses; storage errors.
    pub async fn matches(&self, words: &str, page: PageRequest, max: Rating) -> Result<Page<Gif>, AppError> {
        let filter = GifFilter::search(words)?;
        Ok(self.gifs.list_rated(&filter, filter.chat_sort(), page, max, Shelf::Gifs).await?)
    }

    /// Counts a share of `gif` (posted into a chat), logging a failure; the GIF with its new count.
    pub async fn shared(&self, gif: Gif) -> Gif {
        if let Err(err) = self.feed.add_share(gif.id).await {
            tracing::warn!(gif_id = gif.id.0, error = %err, "could not count a share");
            return gif;
        }
        Gif { share_count: gif.share_count + 1, ..gif }
    }

    /// Every secret a request of `platform` may prove itself with, each with its integration's
    /// maximum rating: the configured ones, then those admins added (a token's digest, a signing
    /// secret's opened seal).
    ///
    /// # Errors
    /// Storage errors.
    pub async fn secrets(&self, platform: Platform) -> Result<Vec<CommandSecret>, AppError> {
        let stored = self.integrations.integrations_of(platform).await?;
        let configured = self.configured.of(platform).iter().map(|secret| CommandSecret {
            check: SecretCheck::Clear(secret.clone()),
            max_rating: self.configured.max_rating,
            integration: None,
        });
        let kept = stored.iter().filter_map(|i| {
            self.keeping.check(i).map(|check| CommandSecret {
                check,
                max_rating: i.max_rating,
                integration: Some(i.id),
            })
        });
        Ok(configured.chain(kept).collect())
    }

    /// Answers the text of a command (`cats`, `@**gifshelf** /gif cats`): the best match (by
    /// relevance, then views) rated at most `max` (the maximum of the integration the request proved itself with) that
    /// matches every word, found with one search.
    ///
    /// # Errors
    /// Storage errors.
    #[tracing::instrument(skip_all, fields(words = tracing::field::Empty))]
    pub async fn run(&self, text: &str, max: Rating) -> Result<CommandAnswer, AppError> {
        let words = command_words(text);
        if words.is_empty() {
            return Ok(CommandAnswer::Usage);
        }
        tracing::Span::current().record("words", words.len());
        let filter = match GifFilter::search(&words) {
            Ok(filter) => filter,
            Err(refused) => return Ok(CommandAnswer::Refused(refused.message)),
        };
        let page = self
            .gifs
            .list_rated(&filter, filter.chat_sort(), PageRequest { page: 0, size: 1 }, max, Shelf::Gifs)
            .await?;
        Ok(match page.items.into_iter().next() {
            Some(gif) => {
                // Posted into a channel: a share, as Tenor's registershare counts one.
                if let Err(err) = self.feed.add_share(gif.id).await {
                    tracing::warn!(gif_id = gif.id.0, error = %err, "could not count a share");
                }
                CommandAnswer::Found(Box::new(Gif { share_count: gif.share_count + 1, ..gif }))
            }
            None => CommandAnswer::NoMatch(words),
        })
    }
}

/// Whose requests count together: a stored integration's own, or a platform's configured ones.
fn rate_key(platform: Platform, vouched: &CommandSecret) -> String {
    match vouched.integration {
        Some(id) => format!("integration-{}", id.0),
        None => format!("configured-{}", platform.as_str()),
    }
}

/// The search words of a command's text: without a leading mention of the bot (`@**gifshelf**`,
/// `@_**gifshelf|12**`, as Zulip writes them) or a leading `/gif`, white space collapsed.
pub fn command_words(text: &str) -> String {
    let mut rest = text.trim_start();
    for mention in ["@**", "@_**"] {
        if let Some(after) = rest.strip_prefix(mention) {
            rest = after.split_once("**").map_or("", |(_, tail)| tail).trim_start();
            break;
        }
    }
    let mut words = rest.split_whitespace().peekable();
    if words.peek().is_some_and(|first| first.eq_ignore_ascii_case("/gif")) {
        words.next();
    }
    words.collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::gif::{GifSort, Page};
    use gifshelf_domain::integration::{Integration, IntegrationId, IntegrationName, SealError, StoredSecret};
    use gifshelf_domain::ports::{
        MockChatFeedRepository, MockGifRepository, MockIntegrationRepository, MockKeyMinter, MockSecretSealer,
    };

    use super::*;
    use crate::gifs::test_support::{gif, now};

    fn secret(value: &str) -> IntegrationSecret {
        IntegrationSecret::from_trusted(value.into())
    }

    fn service(
        gifs: MockGifRepository,
        feed: MockChatFeedRepository,
        integrations: MockIntegrationRepository,
    ) -> CommandService {
        let configured = ConfiguredSecrets {
            slack: vec![secret("from-the-environment")],
            max_rating: Rating::Pg,
            ..Default::default()
        };
        let mut sealer = MockSecretSealer::new();
        sealer.expect_open().returning(|s| s.strip_prefix("sealed:").map(secret).ok_or(SealError));
        let keeping = SecretKeeping::new(Arc::new(MockKeyMinter::new()), Some(Arc::new(sealer)));
        CommandService::new(Arc::new(gifs), Arc::new(feed), Arc::new(integrations), configured, keeping)
    }

    fn page(items: Vec<Gif>) -> Page<Gif> {
        let total = items.len() as i64;
        Page { items, request: PageRequest { page: 0, size: 1 }, total }
    }

    #[test]
    fn the_words_are_what_follows_the_mention_and_the_command() {
        let cases = [
            ("cats", "cats"),
            ("  happy   cat ", "happy cat"),
            ("/gif happy cat", "happy cat"),
            ("/GIF cats", "cats"),
            ("@**gifshelf** cats", "cats"),
            ("@**Gif bot|25** /gif dancing zebra", "dancing zebra"),
            ("@_**gifshelf** cats", "cats"),
            ("@**gifshelf**", ""),
            ("@**unclosed cats", ""),
            ("/gif", ""),
            ("", ""),
            ("cats /gif", "cats /gif"),
        ];
        for (text, words) in cases {
            assert_eq!(command_words(text), words, "{text:?}");
        }
    }

    #[tokio::test]
    async fn the_best_match_is_the_answer_found_with_one_search() {
        let mut gifs = MockGifRepository::new();
        gifs.expect_list_rated()
            .withf(|filter, sort, request, max, shelf| {
                *filter == GifFilter::Search(vec!["happy".into(), "cat".into()])
                    && *sort == GifSort::RelevanceThenViews
                    && *request == PageRequest { page: 0, size: 1 }
                    && *max == Rating::Pg13
                    && *shelf == Shelf::Gifs
            })
            .times(1)
            .returning(|_, _, _, _, _| Ok(page(vec![gif(4, 1)])));
        let mut feed = MockChatFeedRepository::new();
        feed.expect_add_share().withf(|id| id.0 == 4).times(1).returning(|_| Ok(()));
        let answer = service(gifs, feed, MockIntegrationRepository::new()).run("/gif Happy  cat", Rating::Pg13).await;
        let shared = Gif { share_count: 1, ..gif(4, 1) };
        assert_eq!(answer.ok(), Some(CommandAnswer::Found(Box::new(shared))), "posting it counts a share");
    }

    #[tokio::test]
    async fn no_match_empty_text_and_overlong_words_are_answered_without_an_error() {
        let mut gifs = MockGifRepository::new();
        gifs.expect_list_rated().times(1).returning(|_, _, _, _, _| Ok(page(Vec::new())));
        let service = service(gifs, MockChatFeedRepository::new(), MockIntegrationRepository::new());
        assert_eq!(service.run("cats", Rating::G).await.ok(), Some(CommandAnswer::NoMatch("cats".into())));
        assert_eq!(service.run("  ", Rating::G).await.ok(), Some(CommandAnswer::Usage));
        assert_eq!(service.run("@**gifshelf** /gif", Rating::G).await.ok(), Some(CommandAnswer::Usage));
        let long = "w".repeat(201);
        assert!(matches!(service.run(&long, Rating::G).await, Ok(CommandAnswer::Refused(_))));
    }

    #[tokio::test]
    async fn the_secrets_of_a_platform_are_the_configured_ones_then_the_stored_ones() {
        let mut integrations = MockIntegrationRepository::new();
        let stored = |id, platform, secret| Integration {
            id: IntegrationId(id),
            platform,
            name: IntegrationName::from_trusted("Team".into()),
            secret,
            hint: String::new(),
            created_at: now(),
            max_rating: Rating::R,
        };
        integrations.expect_integrations_of().withf(|p| *p == Platform::Slack).returning(move |platform| {
            Ok(vec![
                stored(1, platform, StoredSecret::Sealed("sealed:stored-by-an-admin".into())),
                stored(2, platform, StoredSecret::Sealed("sealed-with-another-key".into())),
            ])
        });
        integrations
            .expect_integrations_of()
            .withf(|p| *p == Platform::Zulip)
            .returning(move |platform| Ok(vec![stored(3, platform, StoredSecret::Digest("ab12".into()))]));
        integrations.expect_integrations_of().returning(|_| Ok(Vec::new()));
        let service = service(MockGifRepository::new(), MockChatFeedRepository::new(), integrations);
        let slack = service.secrets(Platform::Slack).await.unwrap_or_default();
        assert_eq!(
            slack,
            [
                CommandSecret {
                    check: SecretCheck::Clear(secret("from-the-environment")),
                    max_rating: Rating::Pg,
                    integration: None
                },
                CommandSecret {
                    check: SecretCheck::Clear(secret("stored-by-an-admin")),
                    max_rating: Rating::R,
                    integration: Some(IntegrationId(1))
                }
            ],
            "a seal this key cannot open checks nothing; each secret carries its integration's maximum"
        );
        let zulip = service.secrets(Platform::Zulip).await.unwrap_or_default();
        assert_eq!(
            zulip,
            [CommandSecret {
                check: SecretCheck::Digest("ab12".into()),
                max_rating: Rating::R,
                integration: Some(IntegrationId(3))
            }]
        );
        assert!(service.secrets(Platform::Mattermost).await.unwrap_or_default().is_empty());
    }

    #[tokio::test]
    async fn each_voucher_names_its_integration_and_rating_and_each_integration_has_its_own_rate() {
        let mut integrations = MockIntegrationRepository::new();
        integrations.expect_integrations_of().withf(|p| *p == Platform::Slack).returning(|platform| {
            Ok(vec![Integration {
                id: IntegrationId(7),
                platform,
                name: IntegrationName::from_trusted("Team".into()),
                secret: StoredSecret::Sealed("sealed:stored".into()),
                hint: String::new(),
                created_at: now(),
                max_rating: Rating::Pg13,
            }])
        });
        let service =
            service(MockGifRepository::new(), MockChatFeedRepository::new(), integrations).with_rate_limit(2, None);
        let vouchers = service.secrets(Platform::Slack).await.unwrap_or_default();
        let named: Vec<_> = vouchers.iter().map(|v| (v.integration, v.max_rating)).collect();
        assert_eq!(named, [(None, service.configured.max_rating), (Some(IntegrationId(7)), Rating::Pg13)]);

        let at = now();
        for _ in 0..2 {
            assert!(service.admit(Platform::Slack, &vouchers[1], at).await.is_ok());
        }
        let limited = service.admit(Platform::Slack, &vouchers[1], at).await;
        assert!(matches!(limited, Err(AppError::RateLimited { retry_after_secs: 60 })), "{limited:?}");
        assert!(service.admit(Platform::Slack, &vouchers[0], at).await.is_ok(), "another integration's own rate");
        let later = at + chrono::Duration::minutes(1);
        assert!(service.admit(Platform::Slack, &vouchers[1], later).await.is_ok());
    }
}
