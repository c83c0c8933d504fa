//! Connected sign-in: a signed-in person links a provider identity to their own account, lists and
//! unlinks them. This is the only way an identity joins an existing account (never through an
//! email), and the last way in is never removed.

use gifshelf_domain::auth::LinkedIdentity;
use gifshelf_domain::user::PasswordHash;
use gifshelf_domain::{RepoError, Unique};

use super::{Actor, AuthService};
use crate::{AppError, Conflict};

impl AuthService {
    /// The identities linked to the actor's account.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn identities(&self, actor: &Actor) -> Result<Vec<LinkedIdentity>, AppError> {
        Ok(self.users.identities_of(actor.id).await?)
    }

    /// Links the identity an ID token vouches for to the actor's account.
    ///
    /// # Errors
    /// `NotConfigured`, `Unauthorized` or `Unavailable` as for a sign-in; `Conflict` when the
    /// identity belongs to another account or the account has one of this provider.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0))]
    pub async fn link_identity(&self, actor: &Actor, id_token: &str) -> Result<Vec<LinkedIdentity>, AppError> {
        let identity = self.verified_identity(id_token).await?;
        match self.users.link_identity(actor.id, &identity, self.clock.now()).await {
            Ok(()) => {}
            Err(RepoError::Conflict(Unique::Identity)) => {
                // Linking it again to the account it is linked to changes nothing.
                match self.users.find_by_identity(&identity.issuer, &identity.subject).await {
                    Ok(owner) if owner.id == actor.id => {}
                    _ => return Err(AppError::Conflict(Conflict::IdentityLinkedElsewhere)),
                }
            }
            Err(RepoError::Conflict(Unique::IdentityPerProvider)) => {
                return Err(AppError::Conflict(Conflict::ProviderAlreadyLinked))
            }
            Err(other) => return Err(other.into()),
        }
        tracing::info!(issuer = %identity.issuer, "identity linked from settings");
        self.identities(actor).await
    }

    /// Unlinks the actor's identity at `issuer`, unless it is the account's only way in (no
    /// password and no other identity).
    ///
    /// # Errors
    /// `NotFound` when none is linked there; `Conflict` when it is the only way in.
    #[tracing::instrument(skip_all, fields(user_id = actor.id.0))]
    pub async fn unlink_identity(&self, actor: &Actor, issuer: &str) -> Result<(), AppError> {
        let linked = self.users.identities_of(actor.id).await?;
        if !linked.iter().any(|i| i.issuer == issuer) {
            return Err(AppError::NotFound("No such connected sign-in.".into()));
        }
        let account = self.users.find_by_id(actor.id).await?;
        if account.password_hash == PasswordHash::unusable() && linked.len() == 1 {
            return Err(AppError::Conflict(Conflict::LastSignInMethod));
        }
        match self.users.unlink_identity(actor.id, issuer).await {
            Ok(()) | Err(RepoError::NotFound) => Ok(()),
            Err(other) => Err(other.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use gifshelf_domain::auth::{ExternalIdentity, LinkedIdentity};
    use gifshelf_domain::ports::MockIdentityVerifier;
    use gifshelf_domain::user::{PasswordHash, Role, UserId, Username};
    use gifshelf_domain::{RepoError, Unique};

    use crate::auth::test_support::{at, user, Mocks};
    use crate::auth::{Actor, AuthConfig, AuthService};
    use crate::{AppError, Conflict};

    fn alice() -> Actor {
        Actor::session(UserId(7), Username::from_trusted("alice".into()), Role::User)
    }

    fn google(subject: &str) -> ExternalIdentity {
        ExternalIdentity {
            issuer: "https://accounts.google.com".into(),
            subject: subject.into(),
            email: Some("alice@gmail.example".into()),
            email_verified: true,
            name: None,
            hosted_domain: None,
        }
    }

    fn linked() -> LinkedIdentity {
        LinkedIdentity { issuer: "https://accounts.google.com".into(), email: None, linked_at: at(9, 0, 0) }
    }

    fn with_verifier(m: Mocks, subject: &'static str) -> AuthService {
        let mut verifier = MockIdentityVerifier::new();
        verifier.expect_verify().returning(move |_| Ok(google(subject)));
        m.service(AuthConfig::default()).with_identity_verifier(Arc::new(verifier))
    }

    #[tokio::test]
    async fn a_signed_in_person_links_an_identity_to_their_own_account() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.users
            .expect_link_identity()
            .withf(|id, identity, when| id.0 == 7 && identity.subject == "sub-1" && *when == at(10, 0, 0))
            .times(1)
            .returning(|_, _, _| Ok(()));
        m.users.expect_identities_of().returning(|_| Ok(vec![linked()]));
        let result = with_verifier(m, "sub-1").link_identity(&alice(), "id-token").await;
        assert_eq!(result.ok(), Some(vec![linked()]));
    }

    #[tokio::test]
    async fn an_identity_of_another_account_or_a_second_one_of_a_provider_is_refused() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_link_identity().returning(|_, _, _| Err(RepoError::Conflict(Unique::Identity)));
        m.users.expect_find_by_identity().returning(|_, _| {
            let mut mallory = user("mallory", Role::User);
            mallory.id = UserId(99);
            Ok(mallory)
        });
        let err = with_verifier(m, "sub-1").link_identity(&alice(), "t").await.err();
        assert!(matches!(&err, Some(AppError::Conflict(Conflict::IdentityLinkedElsewhere))), "{err:?}");

        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_link_identity().returning(|_, _, _| Err(RepoError::Conflict(Unique::IdentityPerProvider)));
        let err = with_verifier(m, "sub-2").link_identity(&alice(), "t").await.err();
        assert!(matches!(&err, Some(AppError::Conflict(Conflict::ProviderAlreadyLinked))), "{err:?}");
    }

    #[tokio::test]
    async fn the_only_way_in_is_never_unlinked() {
        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_identities_of().returning(|_| Ok(vec![linked()]));
        m.users.expect_find_by_id().returning(|_| {
            let mut u = user("alice", Role::User);
            u.password_hash = PasswordHash::unusable();
            Ok(u)
        });
        m.users.expect_unlink_identity().never();
        let err = m.service(AuthConfig::default()).unlink_identity(&alice(), "https://accounts.google.com").await.err();
        assert!(matches!(&err, Some(AppError::Conflict(Conflict::LastSignInMethod))), "{err:?}");

        // With a password, it goes.
        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_identities_of().returning(|_| Ok(vec![linked()]));
        m.users.expect_find_by_id().returning(|_| Ok(user("alice", Role::User)));
        m.users.expect_unlink_identity().times(1).returning(|_, _| Ok(()));
        let done = m.service(AuthConfig::default()).unlink_identity(&alice(), "https://accounts.google.com").await;
        assert!(done.is_ok(), "{done:?}");

        // Nothing linked there: not found.
        let mut m = Mocks::new(at(10, 0, 0));
        m.users.expect_identities_of().returning(|_| Ok(vec![]));
        let err = m.service(AuthConfig::default()).unlink_identity(&alice(), "https://elsewhere").await.err();
        assert!(matches!(err, Some(AppError::NotFound(_))), "{err:?}");
    }
}
