use gifshelf_domain::auth::{ExternalIdentity, IdentityError};
use gifshelf_domain::user::{username_candidates, Email, NewUser, PasswordHash, Role, User};
use gifshelf_domain::{RepoError, Unique};

use super::{AuthService, StoreError};
use crate::join::Ticket;
use crate::{AppError, Conflict};

/// The spec's message for any refused third-party sign-in (§8).
pub const GOOGLE_LOGIN_FAILED: &str = "Google login failed";
pub const GOOGLE_NOT_CONFIGURED: &str = "Google sign-in is not enabled on this server";
/// A first sign-in whose email a local account already has. gifshelf never verified that email (anyone
/// can register any address), so the identity is not linked to it: the owner links it from Settings.
/// A first sign-in on a server that creates no accounts through a provider.
pub const NO_LINKED_ACCOUNT: &str =
    "No gifshelf account is connected to this Google account. Sign in with your username and password, then connect Google in Settings.";
pub const NO_EMAIL: &str = "Google login failed: the provider did not share an email address";

impl AuthService {
    /// Signs in with a third-party ID token and issues our own session token. The identity is
    /// looked up by (issuer, subject); a first sign-in creates a new account, never links one by
    /// its email (an attacker could have registered a victim's address first). Linking an identity
    /// to an existing account is for its signed-in owner, from Settings.
    ///
    /// # Errors
    /// `NotConfigured` without a verifier; `Unauthorized` for a refused token; `Conflict` when a
    /// local account has the email; `Refused` when the registration policy does not let a new
    /// account in (`invite`: an invitation token); `Unavailable` when the provider cannot be reached.
    #[tracing::instrument(skip_all)]
    pub async fn sign_in_with_id_token(&self, id_token: &str, invite: Option<&str>) -> Result<String, AppError> {
        let identity = self.verified_identity(id_token).await?;
        let user = self.account_for(&identity, invite).await?;
        if user.disabled_at.is_some() {
            tracing::info!(user_id = user.id.0, "refused the third-party sign-in of a disabled account");
            return Err(AppError::SignInDisabled);
        }
        tracing::info!(user_id = user.id.0, issuer = %identity.issuer, "signed in with a third-party identity");
        self.issue_token(&user.username, user.role)
    }

    /// Checks a third-party ID token: the identity it vouches for.
    ///
    /// # Errors
    /// `NotConfigured` without a verifier; `Unauthorized` for a refused token; `Unavailable` when
    /// the provider cannot be reached.
    pub(crate) async fn verified_identity(&self, id_token: &str) -> Result<ExternalIdentity, AppError> {
        let verifier = self.identities.as_ref().ok_or_else(|| AppError::NotConfigured(GOOGLE_NOT_CONFIGURED.into()))?;
        verifier.verify(id_token).await.map_err(|err| match err {
            IdentityError::Rejected(reason) => {
                tracing::info!(reason = %gifshelf_domain::error_chain(reason.as_ref()), "third-party sign-in refused");
                AppError::Unauthorized(GOOGLE_LOGIN_FAILED.into())
            }
            IdentityError::Unavailable(reason) => {
                tracing::warn!(reason = %gifshelf_domain::error_chain(reason.as_ref()), "identity provider unavailable");
                AppError::Unavailable("Google sign-in is unavailable right now. Please try again in a moment.".into())
            }
        })
    }

    async fn account_for(&self, identity: &ExternalIdentity, invite: Option<&str>) -> Result<User, AppError> {
        match self.users.find_by_identity(&identity.issuer, &identity.subject).await {
            Ok(user) => return Ok(user),
            Err(RepoError::NotFound) => {}
            Err(other) => return Err(other.into()),
        }
        let email = identity.email.as_deref().map(Email::parse).transpose().ok().flatten();
        let Some(email) = email else {
            return Err(AppError::Unauthorized(NO_EMAIL.into()));
        };
        match self.users.find_by_email(&email).await {
            Ok(_) => return Err(AppError::Conflict(Conflict::EmailHasAccount)),
            Err(RepoError::NotFound) => {}
            Err(other) => return Err(other.into()),
        }
        if !self.config.external_signup {
            return Err(AppError::Forbidden(NO_LINKED_ACCOUNT.into()));
        }
        let ticket = self.ticket(&email, identity.hosted_domain.as_deref(), invite).await?;
        self.create_for(identity, email, ticket).await
    }

    /// Creates the account of a first sign-in under the first free username candidate.
    async fn create_for(&self, identity: &ExternalIdentity, email: Email, ticket: Ticket) -> Result<User, AppError> {
        for username in username_candidates(Some(email.as_str()), identity.name.as_deref(), &identity.subject) {
            let new_user = NewUser {
                username,
                email: email.clone(),
                password_hash: PasswordHash::unusable(),
                role: Role::User,
                created_at: self.clock.now(),
            };
            match self.store_account(new_user, Some(identity), ticket).await {
                Ok(user) => {
                    tracing::info!(
                        user_id = user.id.0,
                        role = user.role.as_str(),
                        "account created by third-party sign-in"
                    );
                    return Ok(user);
                }
                Err(StoreError::Refused(refusal)) => return Err(AppError::Refused(refusal)),
                Err(StoreError::Repo(RepoError::Conflict(Unique::Username))) => continue,
                // The same person signing in twice at once: the other request created the account.
                Err(StoreError::Repo(RepoError::Conflict(Unique::Identity))) => {
                    return self.users.find_by_identity(&identity.issuer, &identity.subject).await.map_err(Into::into)
                }
                Err(StoreError::Repo(RepoError::Conflict(Unique::Email))) => {
                    return Err(AppError::Conflict(Conflict::EmailHasAccount))
                }
                Err(StoreError::Repo(other)) => return Err(other.into()),
            }
        }
        Err(AppError::Conflict(Conflict::NoFreeUsername))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use gifshelf_domain::auth::{ExternalIdentity, IdentityError};
    use gifshelf_domain::ports::MockIdentityVerifier;
    use gifshelf_domain::user::{PasswordHash, Role};
    use gifshelf_domain::{RepoError, Unique};

    use super::{GOOGLE_LOGIN_FAILED, GOOGLE_NOT_CONFIGURED, NO_EMAIL};
    use crate::auth::test_support::{at, user, Mocks};
    use crate::auth::{AuthConfig, AuthService};
    use crate::{AppError, Conflict};

    fn identity(email_verified: bool) -> ExternalIdentity {
        ExternalIdentity {
            issuer: "https://accounts.google.com".into(),
            subject: "1234567890".into(),
            email: Some("Alice@Example.com".into()),
            email_verified,
            name: Some("Alice".into()),
            hosted_domain: None,
        }
    }

    fn with_verifier(m: Mocks, result: Result<ExternalIdentity, IdentityError>) -> AuthService {
        let mut verifier = MockIdentityVerifier::new();
        verifier.expect_verify().times(1).return_once(move |_| result);
        m.service(AuthConfig::default()).with_identity_verifier(Arc::new(verifier))
    }

    fn tokens(m: &mut Mocks) {
        m.tokens.expect_issue().returning(|c| Ok(format!("token-for-{}", c.username)));
    }

    #[tokio::test]
    async fn without_a_verifier_the_server_says_it_is_not_configured() {
        let err = Mocks::new(at(10, 0, 0)).service(AuthConfig::default()).sign_in_with_id_token("x", None).await.err();
        assert!(matches!(&err, Some(AppError::NotConfigured(m)) if m == GOOGLE_NOT_CONFIGURED), "{err:?}");
    }

    #[tokio::test]
    async fn a_refused_token_is_the_spec_message_and_touches_no_account() {
        let m = Mocks::new(at(10, 0, 0));
        let service = with_verifier(m, Err(IdentityError::Rejected("bad signature".into())));
        let err = service.sign_in_with_id_token("forged", None).await.err();
        assert!(matches!(&err, Some(AppError::Unauthorized(m)) if m == GOOGLE_LOGIN_FAILED), "{err:?}");
    }

    #[tokio::test]
    async fn a_known_identity_signs_in_as_its_account() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.users
            .expect_find_by_identity()
            .withf(|iss, sub| iss == "https://accounts.google.com" && sub == "1234567890")
            .returning(|_, _| Ok(user("alice", Role::Admin)));
        m.tokens.expect_issue().withf(|c| c.username == "alice" && c.role == Role::Admin).returning(|_| Ok("t".into()));
        let token = with_verifier(m, Ok(identity(false))).sign_in_with_id_token("id", None).await;
        assert_eq!(token.ok().as_deref(), Some("t"));
    }

    #[tokio::test]
    async fn an_email_a_local_account_has_is_never_taken_over_verified_or_not() {
        for verified in [true, false] {
            let mut m = Mocks::new(at(10, 0, 0));
            m.users.expect_find_by_identity().returning(|_, _| Err(RepoError::NotFound));
            m.users.expect_find_by_email().returning(|_| Ok(user("alice", Role::User)));
            m.users.expect_link_identity().never();
            m.users.expect_create_with_identity().never();
            m.tokens.expect_issue().never();
            let err = with_verifier(m, Ok(identity(verified))).sign_in_with_id_token("id", None).await.err();
            assert!(matches!(&err, Some(AppError::Conflict(Conflict::EmailHasAccount))), "{verified}: {err:?}");
        }
    }

    #[tokio::test]
    async fn a_first_sign_in_creates_an_account_under_a_free_username() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_find_by_identity().returning(|_, _| Err(RepoError::NotFound));
        m.users.expect_find_by_email().returning(|_| Err(RepoError::NotFound));
        m.users
            .expect_create_with_identity()
            .withf(|u, _, first_admin| u.username.as_str() == "alice" && *first_admin)
            .returning(|_, _, _| Err(RepoError::Conflict(Unique::Username)));
        m.users
            .expect_create_with_identity()
            .withf(|u, i, _| {
                u.username.as_str() == "alice2"
                    && u.email.as_str() == "alice@example.com"
                    && u.password_hash == PasswordHash::unusable()
                    && i.subject == "1234567890"
            })
            .returning(|_, _, _| Ok(user("alice2", Role::User)));
        tokens(&mut m);
        let token = with_verifier(m, Ok(identity(false))).sign_in_with_id_token("id", None).await;
        assert_eq!(token.ok().as_deref(), Some("token-for-alice2"));
    }

    #[tokio::test]
    async fn a_concurrent_first_sign_in_finds_the_account_the_other_created() {
        let mut m = Mocks::new(at(10, 0, 0));
        let mut seq = mockall::Sequence::new();
        m.users.expect_find_by_identity().times(1).in_sequence(&mut seq).returning(|_, _| Err(RepoError::NotFound));
        m.users.expect_find_by_email().returning(|_| Err(RepoError::NotFound));
        m.users.expect_create_with_identity().returning(|_, _, _| Err(RepoError::Conflict(Unique::Identity)));
        m.users
            .expect_find_by_identity()
            .times(1)
            .in_sequence(&mut seq)
            .returning(|_, _| Ok(user("alice", Role::User)));
        tokens(&mut m);
        let token = with_verifier(m, Ok(identity(true))).sign_in_with_id_token("id", None).await;
        assert_eq!(token.ok().as_deref(), Some("token-for-alice"));
    }

    #[tokio::test]
    async fn no_email_no_account() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_find_by_identity().returning(|_, _| Err(RepoError::NotFound));
        m.users.expect_create_with_identity().never();
        let err = with_verifier(m, Ok(ExternalIdentity { email: None, ..identity(true) }))
            .sign_in_with_id_token("id", None)
            .await;
        assert!(matches!(&err.err(), Some(AppError::Unauthorized(m)) if m == NO_EMAIL));
    }

    #[tokio::test]
    async fn an_unreachable_provider_is_a_retryable_unavailable() {
        let m = Mocks::new(at(10, 0, 0));
        let err =
            with_verifier(m, Err(IdentityError::Unavailable("timeout".into()))).sign_in_with_id_token("id", None).await;
        assert!(matches!(err, Err(AppError::Unavailable(_))));
    }
}
