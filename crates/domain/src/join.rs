//! Who may join: the registration policy (open, by invitation, closed; allowed email domains) and
//! invitations (docs/security.md "Who may join").

use chrono::NaiveDateTime;

use crate::user::{Email, Role, UserId, Username};
use crate::ValidationError;

/// At most this many allowed email domains.
pub const ALLOWED_DOMAINS_MAX: usize = 50;
/// An invitation is used at most this many times …
pub const INVITE_MAX_USES: i64 = 1000;
/// … and lives at most this many hours (30 days).
pub const INVITE_MAX_HOURS: i64 = 720;
/// The defaults of a new invitation: one use, a week.
pub const INVITE_DEFAULT_USES: i64 = 1;
pub const INVITE_DEFAULT_HOURS: i64 = 168;

/// How new accounts are let in. The first account of an empty server is always let in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RegistrationMode {
    /// Anyone may register (the default).
    #[default]
    Open,
    /// Only with an invitation.
    Invite,
    /// Nobody registers on their own; admins add members through invitations.
    Closed,
}

impl RegistrationMode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Invite => "invite",
            Self::Closed => "closed",
        }
    }

    /// # Errors
    /// A sentence naming the three modes for anything else.
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "open" => Ok(Self::Open),
            "invite" => Ok(Self::Invite),
            "closed" => Ok(Self::Closed),
            _ => Err(ValidationError::new("mode", "The registration mode must be open, invite or closed")),
        }
    }
}

/// A lower-cased host name (labels of letters, digits and hyphens, at most 253 bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailDomain(String);

impl EmailDomain {
    /// # Errors
    /// A sentence naming the value when it is no host name.
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let domain = raw.trim().trim_start_matches('@').to_ascii_lowercase();
        let label_ok = |l: &str| {
            (1..=63).contains(&l.len())
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        };
        if domain.len() > 253 || !domain.contains('.') || !domain.split('.').all(label_ok) {
            let shown: String = raw.chars().take(60).collect();
            return Err(ValidationError::new("allowedDomains", format!("\"{shown}\" is not a valid domain name")));
        }
        Ok(Self(domain))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Who may join, as stored (or the default: open, any domain, only admins invite).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RegistrationPolicy {
    pub mode: RegistrationMode,
    /// Empty: any domain.
    pub allowed_domains: Vec<EmailDomain>,
    /// Whether members who are not admins may make invitations.
    pub members_may_invite: bool,
}

impl RegistrationPolicy {
    /// Parses the domains (lower-cased, duplicates dropped, at most `ALLOWED_DOMAINS_MAX`).
    ///
    /// # Errors
    /// An invalid domain, or too many.
    pub fn new<S: AsRef<str>>(
        mode: RegistrationMode,
        domains: &[S],
        members_may_invite: bool,
    ) -> Result<Self, ValidationError> {
        let mut allowed_domains: Vec<EmailDomain> = Vec::new();
        for raw in domains.iter().map(AsRef::as_ref).filter(|d| !d.trim().is_empty()) {
            let domain = EmailDomain::parse(raw)?;
            if !allowed_domains.contains(&domain) {
                allowed_domains.push(domain);
            }
            if allowed_domains.len() > ALLOWED_DOMAINS_MAX {
                return Err(ValidationError::new(
                    "allowedDomains",
                    format!("At most {ALLOWED_DOMAINS_MAX} domains can be allowed"),
                ));
            }
        }
        Ok(Self { mode, allowed_domains, members_may_invite })
    }

    /// Whether an address may have an account. With a provider's hosted domain (Google Workspace's
    /// `hd`), that domain decides; otherwise the email's.
    pub fn allows(&self, email: &Email, hosted_domain: Option<&str>) -> bool {
        if self.allowed_domains.is_empty() {
            return true;
        }
        let domain = match hosted_domain {
            Some(hd) => hd.trim().to_ascii_lowercase(),
            None => email.as_str().rsplit_once('@').map(|(_, d)| d.to_owned()).unwrap_or_default(),
        };
        self.allowed_domains.iter().any(|d| d.as_str() == domain)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct InviteId(pub i64);

/// An invitation as stored (its token is not: only the token's digest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invite {
    pub id: InviteId,
    pub max_uses: i64,
    pub uses: i64,
    /// The role of the accounts it makes.
    pub role: Role,
    pub created_by: UserId,
    pub created_by_name: Username,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
}

impl Invite {
    /// Whether it still lets someone in at `now`.
    pub fn usable_at(&self, now: NaiveDateTime) -> bool {
        self.uses < self.max_uses && now < self.expires_at
    }
}

/// An invitation to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewInvite {
    pub token_digest: String,
    pub max_uses: i64,
    pub role: Role,
    pub created_by: UserId,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
}

/// What lets a new account in besides open registration, decided in the transaction that stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// Only as the first account of an empty server.
    FirstOnly,
    /// One use of this invitation, if it has one left at `now` (or as the first account).
    Invitation { id: InviteId, now: NaiveDateTime },
}

/// Why an account was not stored under an `Admission`.
#[derive(Debug, thiserror::Error)]
pub enum AdmitError {
    /// The server has accounts and the admission did not hold (no use left, expired, revoked).
    #[error("not admitted")]
    NotAdmitted,
    #[error(transparent)]
    Repo(#[from] crate::RepoError),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy(domains: &[&str]) -> RegistrationPolicy {
        RegistrationPolicy::new(RegistrationMode::Open, domains, false).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn domains_are_lower_cased_host_names_and_bounded() {
        assert_eq!(policy(&["Example.COM", "@corp.example.org", " ", "example.com"]).allowed_domains.len(), 2);
        for bad in ["localhost", "-a.com", "a..com", "a_b.com", "exa mple.com", "ä.com"] {
            assert!(RegistrationPolicy::new(RegistrationMode::Open, &[bad], false).is_err(), "{bad}");
        }
        let many: Vec<String> = (0..51).map(|i| format!("d{i}.example")).collect();
        assert!(RegistrationPolicy::new(RegistrationMode::Open, &many, false).is_err());
        assert!(RegistrationPolicy::new(RegistrationMode::Open, &many[..50], false).is_ok());
    }

    #[test]
    fn the_hosted_domain_decides_when_there_is_one() {
        let p = policy(&["corp.example"]);
        let email = |e: &str| Email::parse(e).unwrap_or_else(|err| panic!("{err}"));
        assert!(p.allows(&email("a@corp.example"), None));
        assert!(!p.allows(&email("a@gmail.com"), None));
        assert!(!p.allows(&email("a@corp.example"), Some("other.example")));
        assert!(p.allows(&email("a@gmail.com"), Some("Corp.Example")));
        assert!(policy(&[]).allows(&email("a@any.example"), Some("x.example")));
    }

    #[test]
    fn modes_parse_and_print() {
        for mode in [RegistrationMode::Open, RegistrationMode::Invite, RegistrationMode::Closed] {
            assert_eq!(RegistrationMode::parse(mode.as_str()).ok(), Some(mode));
        }
        assert!(RegistrationMode::parse("public").is_err());
    }
}
