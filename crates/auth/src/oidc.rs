//! `IdentityVerifier` for any OpenID Connect provider (Google by default), on the openidconnect crate.
//!
//! The provider's discovery document and key set are fetched on first use and cached; a token that
//! names a key id the cache does not hold makes one refetch (keys rotate), at most once a minute so
//! that forged key ids cannot make us hammer the provider. Only RS256 and ES256 signatures are
//! accepted; `iss` must equal the configured issuer and `aud` must hold our client id and nothing
//! else; `exp` and `iat` are checked with a small leeway. The HTTP client follows no redirects.

use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_trait::async_trait;
use gifshelf_domain::auth::{ExternalIdentity, IdentityError};
use gifshelf_domain::ports::{Clock, IdentityVerifier};
use openidconnect::core::{
    CoreGenderClaim, CoreIdTokenVerifier, CoreJsonWebKeySet, CoreJweContentEncryptionAlgorithm,
    CoreJwsSigningAlgorithm, CoreProviderMetadata,
};
use openidconnect::{
    AdditionalClaims, ClaimsVerificationError, ClientId, IdToken, IssuerUrl, JsonWebKeySetUrl, Nonce,
    SignatureVerificationError,
};
use tokio::sync::Mutex;

/// Google's issuer, the default of `GIFSHELF_OIDC_ISSUER`.
pub const GOOGLE_ISSUER: &str = "https://accounts.google.com";

/// How long fetched keys are trusted before they are fetched again.
const KEYS_TTL: Duration = Duration::from_secs(60 * 60);
/// The shortest time between two refetches forced by an unknown key id.
const FORCED_REFETCH_GAP: Duration = Duration::from_secs(60);
/// Clock skew tolerated on `exp` and `iat`.
const LEEWAY: chrono::Duration = chrono::Duration::seconds(30);

/// The claims we read beyond the standard ones: Google Workspace's hosted domain.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct HostedDomain {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    hd: Option<String>,
}

impl AdditionalClaims for HostedDomain {}

type CoreIdToken = IdToken<HostedDomain, CoreGenderClaim, CoreJweContentEncryptionAlgorithm, CoreJwsSigningAlgorithm>;

struct Keys {
    jwks_uri: JsonWebKeySetUrl,
    set: CoreJsonWebKeySet,
    fetched_at: Instant,
}

/// Checks ID tokens of one provider for one client id.
pub struct OidcVerifier {
    issuer: IssuerUrl,
    client_id: ClientId,
    http: reqwest::Client,
    keys: Mutex<Option<Keys>>,
    last_forced_refetch: Mutex<Option<Instant>>,
    /// What `exp` and `iat` are checked against.
    clock: Arc<dyn Clock>,
}

impl OidcVerifier {
    /// # Errors
    /// A message when the issuer is not a URL or the HTTP client cannot be built.
    pub fn new(issuer: &str, client_id: &str, clock: Arc<dyn Clock>) -> Result<Self, String> {
        let issuer = IssuerUrl::new(issuer.trim().to_owned()).map_err(|e| format!("OIDC issuer {issuer:?}: {e}"))?;
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| format!("HTTP client: {e}"))?;
        Ok(Self {
            issuer,
            client_id: ClientId::new(client_id.trim().to_owned()),
            http,
            keys: Mutex::new(None),
            last_forced_refetch: Mutex::new(None),
            clock,
        })
    }

    /// The cached key set, fetching discovery and keys when there are none or they are old.
    async fn key_set(&self) -> Result<CoreJsonWebKeySet, IdentityError> {
        let mut keys = self.keys.lock().await;
        if let Some(k) = keys.as_ref().filter(|k| k.fetched_at.elapsed() < KEYS_TTL) {
            return Ok(k.set.clone());
        }
        let metadata = CoreProviderMetadata::discover_async(self.issuer.clone(), &self.http)
            .await
            .map_err(|e| IdentityError::Unavailable(format!("discovery of {}: {e}", self.issuer.as_str()).into()))?;
        let fresh =
            Keys { jwks_uri: metadata.jwks_uri().clone(), set: metadata.jwks().clone(), fetched_at: Instant::now() };
        tracing::info!(issuer = self.issuer.as_str(), keys = fresh.set.keys().len(), "fetched the provider's keys");
        let set = fresh.set.clone();
        *keys = Some(fresh);
        Ok(set)
    }

    /// Fetches the key set again after a token named a key we do not hold; `None` when a forced
    /// refetch happened too recently.
    async fn refetch_keys(&self) -> Result<Option<CoreJsonWebKeySet>, IdentityError> {
        {
            let mut last = self.last_forced_refetch.lock().await;
            if last.is_some_and(|at| at.elapsed() < FORCED_REFETCH_GAP) {
                return Ok(None);
            }
            *last = Some(Instant::now());
        }
        let mut keys = self.keys.lock().await;
        let Some(current) = keys.as_mut() else { return Ok(None) };
        let set = CoreJsonWebKeySet::fetch_async(&current.jwks_uri, &self.http)
            .await
            .map_err(|e| IdentityError::Unavailable(format!("keys of {}: {e}", self.issuer.as_str()).into()))?;
        tracing::info!(issuer = self.issuer.as_str(), keys = set.keys().len(), "refetched the provider's keys");
        current.set = set.clone();
        current.fetched_at = Instant::now();
        Ok(Some(set))
    }

    fn check(&self, token: &CoreIdToken, keys: CoreJsonWebKeySet) -> Result<ExternalIdentity, ClaimsVerificationError> {
        let now = self.clock.now().and_utc();
        let verifier = CoreIdTokenVerifier::new_public_client(self.client_id.clone(), self.issuer.clone(), keys)
            .set_allowed_algs([CoreJwsSigningAlgorithm::RsaSsaPkcs1V15Sha256, CoreJwsSigningAlgorithm::EcdsaP256Sha256])
            .set_time_fn(move || now - LEEWAY)
            .set_issue_time_verifier_fn(move |iat| {
                if iat > now + LEEWAY {
                    Err(format!("issued in the future ({iat})"))
                } else {
                    Ok(())
                }
            });
        // Sign-in with Google's button sends no nonce: replay is bounded by the token's short life.
        let claims = token.claims(&verifier, |_: Option<&Nonce>| Ok(()))?;
        Ok(ExternalIdentity {
            issuer: claims.issuer().as_str().to_owned(),
            subject: claims.subject().as_str().to_owned(),
            email: claims.email().map(|e| e.as_str().trim().to_lowercase()),
            email_verified: claims.email_verified().unwrap_or(false),
            name: claims.name().and_then(|n| n.get(None)).map(|n| n.as_str().to_owned()),
            hosted_domain: claims.additional_claims().hd.as_deref().map(|hd| hd.trim().to_ascii_lowercase()),
        })
    }
}

#[async_trait]
impl IdentityVerifier for OidcVerifier {
    async fn verify(&self, id_token: &str) -> Result<ExternalIdentity, IdentityError> {
        let token = CoreIdToken::from_str(id_token.trim())
            .map_err(|e| IdentityError::Rejected(format!("malformed: {e}").into()))?;
        let keys = self.key_set().await?;
        match self.check(&token, keys) {
            Err(ClaimsVerificationError::SignatureVerification(SignatureVerificationError::NoMatchingKey)) => {
                let Some(keys) = self.refetch_keys().await? else {
                    return Err(IdentityError::Rejected("no key matches the token's key id".into()));
                };
                self.check(&token, keys).map_err(|e| IdentityError::Rejected(Box::new(e)))
            }
            other => other.map_err(|e| IdentityError::Rejected(Box::new(e))),
        }
    }
}
