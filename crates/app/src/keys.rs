//! API keys: a signed-in person makes (shown once), lists and revokes them; the chat APIs turn a
//! presented key into its owner.

use std::net::IpAddr;
use std::sync::Arc;

use gifshelf_domain::api_key::{ApiKey, ApiKeyId, ApiKeyName, NewApiKey, API_KEYS_PER_USER};
use gifshelf_domain::audit::AuditAction;
use gifshelf_domain::ports::{ApiKeyRepository, Clock, KeyMinter, SharedCounters, UserRepository};
use gifshelf_domain::user::User;
use gifshelf_domain::RepoError;

use crate::audit::Audit;
use crate::auth::Actor;
use crate::rate_limit::SharedRateLimiter;
use crate::{AppError, Conflict};

/// How often a key's "last used" is written at most (a chat picker calls many times a minute).
const TOUCH_EVERY: chrono::Duration = chrono::Duration::minutes(1);

/// The prefix shown in lists: `gs_` and the next six characters.
const PREFIX_LEN: usize = 9;

pub struct ApiKeyService {
    keys: Arc<dyn ApiKeyRepository>,
    users: Arc<dyn UserRepository>,
    minter: Arc<dyn KeyMinter>,
    clock: Arc<dyn Clock>,
    audit: Option<Audit>,
}

/// A new key with its secret, which is never shown again.
#[derive(Debug, Clone)]
pub struct MintedKey {
    pub key: ApiKey,
    pub secret: String,
}

fn key_not_found(err: RepoError) -> AppError {
    match err {
        RepoError::NotFound => AppError::NotFound("API key not found".into()),
        other => AppError::from_repo(other),
    }
}

impl ApiKeyService {
    pub fn new(
        keys: Arc<dyn ApiKeyRepository>,
        users: Arc<dyn UserRepository>,
        minter: Arc<dyn KeyMinter>,
        clock: Arc<dyn Clock>,
    ) -> Self {
        Self { keys, users, minter, clock, audit: None }
    }

    /// The same service, recording keys made and revoked in the audit log.
    #[must_use]
    pub fn with_audit(self, audit: Audit) -> Self {
        Self { audit: Some(audit), ..self }
    }

    async fn audit(&self, actor: &Actor, action: AuditAction, key: &str) {
        if let Some(audit) = &self.audit {
            audit.record(actor, action, format!("API key {key} of {}", actor.username.as_str()), "").await;
        }
    }

    /// # Errors
    /// `Validation` for the name, `Conflict` past [`API_KEYS_PER_USER`] keys.
    pub async fn create(&self, actor: &Actor, name: &str) -> Result<MintedKey, AppError> {
        let name = ApiKeyName::parse(name)?;
        if self.keys.keys_of(actor.id).await?.len() >= API_KEYS_PER_USER {
            return Err(AppError::Conflict(Conflict::ApiKeyLimit));
        }
        let secret = self.minter.mint();
        let new = NewApiKey {
            owner: actor.id,
            name,
            prefix: secret.chars().take(PREFIX_LEN).collect(),
            digest: self.minter.digest(&secret),
            created_at: self.clock.now(),
        };
        let key = self.keys.create_key(new).await?;
        tracing::info!(user_id = actor.id.0, key_id = key.id.0, "API key created");
        self.audit(actor, AuditAction::ApiKeyMade, &format!("#{} “{}” ({}…)", key.id.0, key.name.as_str(), key.prefix))
            .await;
        Ok(MintedKey { key, secret })
    }

    /// # Errors
    /// Storage errors.
    pub async fn list(&self, actor: &Actor) -> Result<Vec<ApiKey>, AppError> {
        Ok(self.keys.keys_of(actor.id).await?)
    }

    /// # Errors
    /// `NotFound` when the actor has no such key (another person's key included).
    pub async fn revoke(&self, actor: &Actor, id: ApiKeyId) -> Result<(), AppError> {
        self.keys.delete_key(actor.id, id).await.map_err(key_not_found)?;
        tracing::info!(user_id = actor.id.0, key_id = id.0, "API key revoked");
        self.audit(actor, AuditAction::ApiKeyRevoked, &format!("#{}", id.0)).await;
        Ok(())
    }

    /// The key's owner, for a presented key.
    ///
    /// # Errors
    /// `Unauthorized` for an unknown or revoked key, one whose owner is gone, and one made before its
    /// owner's credentials last changed (a password change or a rename, which also end sessions).
    pub async fn authenticate(&self, secret: &str) -> Result<(ApiKey, User), AppError> {
        let unauthorized = || AppError::Unauthorized("API key not valid. Please pass a valid API key.".into());
        if !secret.starts_with("gs_") || secret.len() > 100 {
            return Err(unauthorized());
        }
        let key = match self.keys.key_by_digest(&self.minter.digest(secret)).await {
            Ok(key) => key,
            Err(RepoError::NotFound) => return Err(unauthorized()),
            Err(other) => return Err(AppError::from_repo(other)),
        };
        let owner = match self.users.find_by_id(key.owner).await {
            Ok(user) => user,
            Err(RepoError::NotFound) => return Err(unauthorized()),
            Err(other) => return Err(AppError::from_repo(other)),
        };
        if owner.disabled_at.is_some() {
            tracing::info!(key_id = key.id.0, "refused an API key of a disabled account");
            return Err(AppError::AccountDisabled);
        }
        if key.created_at < owner.credentials_changed_at {
            tracing::info!(key_id = key.id.0, "refused an API key made before its owner's credentials changed");
            return Err(unauthorized());
        }
        let now = self.clock.now();
        if key.last_used_at.is_none_or(|at| now - at >= TOUCH_EVERY) {
            if let Err(err) = self.keys.touch_key(key.id, now).await {
                tracing::warn!(key_id = key.id.0, error = %err, "could not record an API key's use");
            }
        }
        Ok((key, owner))
    }
}

/// Failed key attempts an address (an IPv6 /64) may make a minute; past them its keys are not
/// even looked up (a guessing run costs it a 429, and the database nothing).
pub const FAILED_KEYS_PER_MINUTE: u32 = 20;

/// Who called a chat API.
#[derive(Debug, Clone)]
pub enum ChatCaller {
    /// With a key: its owner.
    Key { key: ApiKey, owner: User },
    /// Without one, where anonymous use is allowed: the client's address (what is rate limited).
    Anonymous { client: String },
}

/// Lets a chat API request in: a valid key (or none, when anonymous use is on), within its rate.
///
/// The rate is per owner, over all of their keys (more keys do not buy more requests), and,
/// anonymously, per address: IPv4 as is, IPv6 per /64 (one host holds a whole /64). Unknown or
/// revoked keys count against the presenting address; past [`FAILED_KEYS_PER_MINUTE`] its
/// requests are refused before any lookup.
pub struct ChatGate {
    keys: Arc<ApiKeyService>,
    limiter: SharedRateLimiter<String>,
    failures: SharedRateLimiter<String>,
    anonymous: bool,
    clock: Arc<dyn Clock>,
}

impl ChatGate {
    /// `per_minute` requests per key owner (or, anonymously, per client address).
    pub fn new(keys: Arc<ApiKeyService>, per_minute: u32, anonymous: bool, clock: Arc<dyn Clock>) -> Self {
        let minute = chrono::Duration::minutes(1);
        Self {
            keys,
            limiter: SharedRateLimiter::local(per_minute, minute),
            failures: SharedRateLimiter::local(FAILED_KEYS_PER_MINUTE, minute),
            anonymous,
            clock,
        }
    }

    /// Counts the rates in `counters`, shared by every instance (PostgreSQL).
    #[must_use]
    pub fn shared_in(self, counters: Arc<dyn SharedCounters>) -> Self {
        Self {
            limiter: self.limiter.shared_in(counters.clone(), "chat"),
            failures: self.failures.shared_in(counters, "chat-failed-key"),
            ..self
        }
    }

    /// # Errors
    /// `Unauthorized` for a missing (unless anonymous use is on), unknown or revoked key;
    /// `RateLimited` past the rate, or past the failed keys of the address.
    pub async fn admit(&self, key: Option<&str>, client: Option<IpAddr>) -> Result<ChatCaller, AppError> {
        let address = client.map(crate::auth::address_key).map_or_else(|| "unknown".to_owned(), |ip| ip.to_string());
        let limited = |retry_after_secs| AppError::RateLimited { retry_after_secs };
        let (caller, bucket) = match key.filter(|k| !k.is_empty()) {
            Some(secret) => {
                self.failures.check(&address, self.clock.now()).await.map_err(limited)?;
                let (key, owner) = match self.keys.authenticate(secret).await {
                    Ok(found) => found,
                    Err(err @ AppError::Unauthorized(_)) => {
                        tracing::info!(%address, "refused an API key");
                        let _ = self.failures.hit(&address, self.clock.now()).await;
                        return Err(err);
                    }
                    Err(other) => return Err(other),
                };
                let bucket = format!("owner:{}", owner.id.0);
                (ChatCaller::Key { key, owner }, bucket)
            }
            None if self.anonymous => {
                let bucket = format!("client:{address}");
                (ChatCaller::Anonymous { client: address }, bucket)
            }
            None => {
                return Err(AppError::Unauthorized(
                    "API key missing. Make one in gifshelf under Settings, API keys, and pass it as the key.".into(),
                ))
            }
        };
        self.limiter.hit(&bucket, self.clock.now()).await.map_err(limited)?;
        Ok(caller)
    }
}

#[cfg(test)]
mod tests {
    use gifshelf_domain::api_key::ApiKeyId;
    use gifshelf_domain::ports::{MockApiKeyRepository, MockClock, MockKeyMinter, MockUserRepository};
    use gifshelf_domain::user::{Role, UserId, Username};

    use super::*;
    use crate::gifs::test_support::now;

    fn key(owner: i64, last_used_at: Option<chrono::NaiveDateTime>) -> ApiKey {
        ApiKey {
            id: ApiKeyId(3),
            owner: UserId(owner),
            name: ApiKeyName::from_trusted("Zulip".into()),
            prefix: "gs_abcdef".into(),
            created_at: now(),
            last_used_at,
        }
    }

    fn service(keys: MockApiKeyRepository) -> ApiKeyService {
        let mut minter = MockKeyMinter::new();
        minter.expect_mint().return_const("gs_abcdefSECRET".to_owned());
        minter.expect_digest().returning(|k| format!("digest-of-{k}"));
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        let mut users = MockUserRepository::new();
        users.expect_find_by_id().returning(|_| Ok(crate::auth::test_support::user("alice", Role::User)));
        ApiKeyService::new(Arc::new(keys), Arc::new(users), Arc::new(minter), Arc::new(clock))
    }

    #[tokio::test]
    async fn a_new_key_is_stored_as_a_digest_with_a_short_prefix_and_shown_once() {
        let mut keys = MockApiKeyRepository::new();
        keys.expect_keys_of().returning(|_| Ok(Vec::new()));
        keys.expect_create_key()
            .withf(|k| k.digest == "digest-of-gs_abcdefSECRET" && k.prefix == "gs_abcdef" && k.name.as_str() == "Zulip")
            .returning(|_| Ok(key(1, None)));
        let minted = service(keys)
            .create(&Actor::session(UserId(1), Username::from_trusted("alice".into()), Role::User), " Zulip ")
            .await;
        let minted = minted.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(minted.secret, "gs_abcdefSECRET");
    }

    #[tokio::test]
    async fn unknown_keys_are_refused_and_use_is_recorded_at_most_once_a_minute() {
        let mut keys = MockApiKeyRepository::new();
        keys.expect_key_by_digest().withf(|d| d == "digest-of-gs_known").returning(|_| Ok(key(1, Some(now()))));
        keys.expect_key_by_digest().returning(|_| Err(RepoError::NotFound));
        keys.expect_touch_key().never();
        let service = service(keys);
        assert!(matches!(service.authenticate("gs_unknown").await, Err(AppError::Unauthorized(_))));
        assert!(matches!(service.authenticate("not-a-key").await, Err(AppError::Unauthorized(_))));
        let (found, owner) = service.authenticate("gs_known").await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((found.id, owner.username.as_str()), (ApiKeyId(3), "alice"));
    }

    #[tokio::test]
    async fn keys_made_before_the_owners_credentials_changed_are_refused() {
        let mut keys = MockApiKeyRepository::new();
        keys.expect_key_by_digest().returning(|_| Ok(key(1, Some(now()))));
        let mut minter = MockKeyMinter::new();
        minter.expect_digest().returning(|k| format!("digest-of-{k}"));
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        let mut users = MockUserRepository::new();
        users.expect_find_by_id().returning(|_| {
            let mut owner = crate::auth::test_support::user("alice", Role::User);
            owner.credentials_changed_at = now() + chrono::Duration::milliseconds(1);
            Ok(owner)
        });
        let service = ApiKeyService::new(Arc::new(keys), Arc::new(users), Arc::new(minter), Arc::new(clock));
        assert!(matches!(service.authenticate("gs_known").await, Err(AppError::Unauthorized(_))));
    }

    fn ip(text: &str) -> Option<IpAddr> {
        text.parse().ok()
    }

    fn fixed_clock() -> Arc<MockClock> {
        let mut clock = MockClock::new();
        clock.expect_now().return_const(now());
        Arc::new(clock)
    }

    #[tokio::test]
    async fn the_gate_wants_a_key_unless_anonymous_use_is_on_and_limits_each_owner() {
        let mut keys = MockApiKeyRepository::new();
        keys.expect_key_by_digest().withf(|d| d == "digest-of-gs_known").returning(|_| Ok(key(1, Some(now()))));
        keys.expect_key_by_digest()
            .withf(|d| d == "digest-of-gs_second")
            .returning(|_| Ok(ApiKey { id: ApiKeyId(4), ..key(1, Some(now())) }));
        keys.expect_key_by_digest().returning(|_| Err(RepoError::NotFound));
        let service = Arc::new(service(keys));
        let closed = ChatGate::new(service.clone(), 2, false, fixed_clock());
        assert!(matches!(closed.admit(None, ip("10.0.0.1")).await, Err(AppError::Unauthorized(_))));
        assert!(matches!(closed.admit(Some("gs_wrong"), ip("10.0.0.1")).await, Err(AppError::Unauthorized(_))));
        assert!(matches!(closed.admit(Some("gs_known"), ip("10.0.0.1")).await, Ok(ChatCaller::Key { .. })));
        assert!(closed.admit(Some("gs_known"), ip("10.0.0.2")).await.is_ok(), "a key's rate is not the address's");
        assert!(
            matches!(
                closed.admit(Some("gs_second"), ip("10.0.0.3")).await,
                Err(AppError::RateLimited { retry_after_secs: 60 })
            ),
            "another key of the same owner shares the owner's rate"
        );
        let open = ChatGate::new(service, 1, true, fixed_clock());
        assert!(matches!(open.admit(None, ip("10.0.0.1")).await, Ok(ChatCaller::Anonymous { .. })));
        assert!(
            matches!(open.admit(Some("gs_wrong"), ip("10.0.0.1")).await, Err(AppError::Unauthorized(_))),
            "a wrong key is still wrong"
        );
        assert!(matches!(open.admit(None, ip("10.0.0.1")).await, Err(AppError::RateLimited { .. })));
        assert!(open.admit(None, ip("10.0.0.2")).await.is_ok(), "anonymous callers are limited by address");
        assert!(open.admit(None, ip("2001:db8:1:2::1")).await.is_ok());
        assert!(
            matches!(open.admit(None, ip("2001:db8:1:2:ffff::9")).await, Err(AppError::RateLimited { .. })),
            "IPv6 callers are limited per /64"
        );
        assert!(open.admit(None, ip("2001:db8:1:3::1")).await.is_ok(), "the next /64 is another caller");
    }

    #[tokio::test]
    async fn failed_keys_are_counted_per_address_and_then_not_even_looked_up() {
        let mut keys = MockApiKeyRepository::new();
        keys.expect_key_by_digest().withf(|d| d == "digest-of-gs_known").returning(|_| Ok(key(1, Some(now()))));
        let limit = usize::try_from(FAILED_KEYS_PER_MINUTE).unwrap_or(usize::MAX);
        // Two addresses' failures are looked up (one /64, one IPv4); the attempts past them are not.
        keys.expect_key_by_digest().times(limit * 2).returning(|_| Err(RepoError::NotFound));
        let gate = ChatGate::new(Arc::new(service(keys)), 1000, false, fixed_clock());
        for n in 0..FAILED_KEYS_PER_MINUTE {
            let guess = format!("gs_guess{n}");
            let addr = ip(&format!("2001:db8::{n:x}")); // all in one /64
            assert!(matches!(gate.admit(Some(&guess), addr).await, Err(AppError::Unauthorized(_))));
        }
        for (key, addr) in [("gs_guess", "2001:db8::ffff"), ("gs_known", "2001:db8::1")] {
            let refused = gate.admit(Some(key), ip(addr)).await;
            assert!(matches!(refused, Err(AppError::RateLimited { retry_after_secs: 60 })), "{refused:?}");
        }
        assert!(gate.admit(Some("gs_known"), ip("10.0.0.1")).await.is_ok(), "other addresses go on");
        for _ in 0..FAILED_KEYS_PER_MINUTE {
            let _ = gate.admit(Some("gs_wrong"), ip("10.0.0.2")).await;
        }
        assert!(matches!(gate.admit(Some("gs_known"), ip("10.0.0.2")).await, Err(AppError::RateLimited { .. })));
    }
}
