//! Users and the value objects their rules live in (spec §5).

use chrono::NaiveDateTime;

use crate::ValidationError;

/// Database identity of a user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct UserId(pub i64);

/// Username lengths differ between registration (3 to 20) and the settings screen (3 to 50).
pub const REGISTER_USERNAME_MAX: usize = 20;
pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 50;
pub const PASSWORD_MIN_CHARS: usize = 6;
/// bcrypt reads at most 72 bytes; longer passwords are refused rather than silently truncated.
pub const PASSWORD_MAX_BYTES: usize = 72;
pub const EMAIL_MAX: usize = 254;

/// A valid username: trimmed, 3 to 50 characters of letters, digits, `.`, `_` or `-`.
/// Usernames appear in URLs (`/user/{username}`), so nothing else is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Username(String);

impl Username {
    /// The settings rule: 3 to 50 characters.
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        Self::parse_with_max(raw, USERNAME_MAX)
    }

    /// The registration rule: 3 to 20 characters.
    pub fn parse_for_registration(raw: &str) -> Result<Self, ValidationError> {
        Self::parse_with_max(raw, REGISTER_USERNAME_MAX)
    }

    fn parse_with_max(raw: &str, max: usize) -> Result<Self, ValidationError> {
        let name = raw.trim();
        if name.is_empty() {
            return Err(ValidationError::new("username", "Username is required"));
        }
        let len = name.chars().count();
        if !(USERNAME_MIN..=max).contains(&len) {
            return Err(ValidationError::new(
                "username",
                format!("Username must be between {USERNAME_MIN} and {max} characters"),
            ));
        }
        if !name.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-')) {
            return Err(ValidationError::new(
                "username",
                "Username may contain only letters, digits, '.', '_' and '-'",
            ));
        }
        Ok(Self(name.to_owned()))
    }

    /// Trusts a value read back from storage, where it was validated on the way in.
    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The case-insensitive key that makes `Alice` and `alice` the same account.
    pub fn key(&self) -> String {
        self.0.to_lowercase()
    }

    pub fn into_inner(self) -> String {
        self.0
    }
}

impl std::fmt::Display for Username {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Usernames to try, in order, for an account a third-party sign-in creates: the email's local part
/// (or the display name, or "user") reduced to the allowed characters and the registration length,
/// then the same with 2 to 9 appended, then with a suffix derived from the provider's subject.
pub fn username_candidates(email: Option<&str>, name: Option<&str>, subject: &str) -> Vec<Username> {
    let clean = |raw: &str| -> String {
        raw.chars().filter(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-')).collect::<String>()
    };
    let from_email = email.and_then(|e| e.split('@').next()).map(clean).unwrap_or_default();
    let mut base = if from_email.is_empty() { name.map(clean).unwrap_or_default() } else { from_email };
    if base.is_empty() {
        base = "user".into();
    }
    let fit = |base: &str, suffix: &str| -> String {
        let room = REGISTER_USERNAME_MAX - suffix.chars().count();
        let mut name: String = base.chars().take(room).collect();
        name.push_str(suffix);
        while name.chars().count() < USERNAME_MIN {
            name.push('_');
        }
        name
    };
    let digest: String = subject.chars().filter(char::is_ascii_alphanumeric).rev().take(6).collect();
    let mut suffixes: Vec<String> = std::iter::once(String::new()).chain((2..=9).map(|n| n.to_string())).collect();
    if !digest.is_empty() {
        suffixes.push(format!("-{digest}"));
    }
    let mut candidates: Vec<Username> = Vec::new();
    for suffix in suffixes {
        if let Ok(name) = Username::parse_for_registration(&fit(&base, &suffix)) {
            if !candidates.contains(&name) {
                candidates.push(name);
            }
        }
    }
    candidates
}

/// A well-formed email address, trimmed and lower-cased.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Email(String);

impl Email {
    pub fn parse(raw: &str) -> Result<Self, ValidationError> {
        let email = raw.trim().to_lowercase();
        let invalid = || ValidationError::new("email", "Please enter a valid email address");
        if email.is_empty() {
            return Err(ValidationError::new("email", "Email is required"));
        }
        if email.len() > EMAIL_MAX || email.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(invalid());
        }
        let (local, domain) = email.split_once('@').ok_or_else(invalid)?;
        let domain_ok = !domain.contains('@')
            && domain.contains('.')
            && domain.split('.').all(|label| !label.is_empty() && !label.starts_with('-') && !label.ends_with('-'));
        if local.is_empty() || local.len() > 64 || !domain_ok {
            return Err(invalid());
        }
        Ok(Self(email))
    }

    pub fn from_trusted(value: String) -> Self {
        Self(value)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A plain password that satisfies the length rules. Never logged: `Debug` hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    pub fn parse(raw: &str, field: &'static str) -> Result<Self, ValidationError> {
        if raw.is_empty() {
            return Err(ValidationError::new(field, "Password is required"));
        }
        if raw.chars().count() < PASSWORD_MIN_CHARS {
            return Err(ValidationError::new(
                field,
                format!("Password must be at least {PASSWORD_MIN_CHARS} characters"),
            ));
        }
        if raw.len() > PASSWORD_MAX_BYTES {
            return Err(ValidationError::new(field, format!("Password must be at most {PASSWORD_MAX_BYTES} bytes")));
        }
        Ok(Self(raw.to_owned()))
    }

    /// A password and its confirmation: both valid and equal, or `mismatch` as the message.
    pub fn parse_confirmed(
        password: &str,
        confirm: &str,
        field: &'static str,
        mismatch: &str,
    ) -> Result<Self, ValidationError> {
        let parsed = Self::parse(password, field)?;
        if password != confirm {
            return Err(ValidationError::new("confirmPassword", mismatch));
        }
        Ok(parsed)
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(***)")
    }
}

/// The message of spec §5 for a registration whose passwords differ.
pub const REGISTER_PASSWORD_MISMATCH: &str = "Passwords do not match";
/// The message of spec §8 for a settings password change whose passwords differ.
pub const SETTINGS_PASSWORD_MISMATCH: &str = "New passwords do not match";

/// A bcrypt (or other) hash as stored; opaque to the domain.
#[derive(Clone, PartialEq, Eq)]
pub struct PasswordHash(pub String);

impl PasswordHash {
    /// The hash of an account created by a third-party sign-in: no password matches it, so the
    /// account signs in only through its provider.
    pub fn unusable() -> Self {
        Self("!external".into())
    }
}

impl std::fmt::Debug for PasswordHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PasswordHash(***)")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    User,
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "USER",
            Role::Admin => "ADMIN",
        }
    }

    pub fn parse(value: &str) -> Option<Self> {
        match value {
            "USER" => Some(Role::User),
            "ADMIN" => Some(Role::Admin),
            _ => None,
        }
    }
}

/// A stored account.
#[derive(Debug, Clone, PartialEq)]
pub struct User {
    pub id: UserId,
    pub username: Username,
    pub email: Email,
    pub password_hash: PasswordHash,
    pub role: Role,
    /// UTC.
    pub created_at: NaiveDateTime,
    /// UTC; tokens issued before this instant are refused.
    pub credentials_changed_at: NaiveDateTime,
    /// UTC; set while an administrator has disabled the account (nothing it holds lets it in).
    pub disabled_at: Option<NaiveDateTime>,
    /// UTC; when a session of it was last used, recorded at most once an hour.
    pub last_seen_at: Option<NaiveDateTime>,
}

/// What it takes to create an account.
#[derive(Debug, Clone)]
pub struct NewUser {
    pub username: Username,
    pub email: Email,
    pub password_hash: PasswordHash,
    pub role: Role,
    pub created_at: NaiveDateTime,
}

/// A validated registration (spec §5: username 3 to 20, email, password at least 6, confirmation equal).
#[derive(Debug, Clone)]
pub struct Registration {
    pub username: Username,
    pub email: Email,
    pub password: Password,
}

impl Registration {
    pub fn parse(username: &str, email: &str, password: &str, confirm_password: &str) -> Result<Self, ValidationError> {
        Ok(Self {
            username: Username::parse_for_registration(username)?,
            email: Email::parse(email)?,
            password: Password::parse_confirmed(password, confirm_password, "password", REGISTER_PASSWORD_MISMATCH)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registration_usernames() {
        let cases: &[(&str, Option<&str>)] = &[
            ("ab", Some("Username must be between 3 and 20 characters")),
            ("abc", None),
            ("  abc  ", None),
            ("a_b-c.d", None),
            ("ünïcode", None),
            ("abcdefghijklmnopqrst", None),
            ("abcdefghijklmnopqrstu", Some("Username must be between 3 and 20 characters")),
            ("", Some("Username is required")),
            ("   ", Some("Username is required")),
            ("a b c", Some("Username may contain only letters, digits, '.', '_' and '-'")),
            ("../x", Some("Username may contain only letters, digits, '.', '_' and '-'")),
            ("a<script>", Some("Username may contain only letters, digits, '.', '_' and '-'")),
        ];
        for (input, expected) in cases {
            let got = Username::parse_for_registration(input).err().map(|e| e.message);
            assert_eq!(got.as_deref(), *expected, "input {input:?}");
        }
        assert_eq!(Username::parse_for_registration("  abc ").map(|u| u.into_inner()), Ok("abc".to_owned()));
    }

    #[test]
    fn usernames_for_third_party_accounts_are_valid_and_ordered() {
        let names = |email: Option<&str>, name: Option<&str>, sub: &str| -> Vec<String> {
            username_candidates(email, name, sub).into_iter().map(Username::into_inner).collect()
        };
        let alice = names(Some("alice.smith+gifs@example.com"), None, "1234567890");
        assert_eq!(&alice[..3], ["alice.smithgifs", "alice.smithgifs2", "alice.smithgifs3"]);
        assert_eq!(alice.last().map(String::as_str), Some("alice.smithgi-098765"));
        assert_eq!(alice.len(), 10);
        // Too short, too long, nothing usable: padded, cut, or taken from the name.
        assert_eq!(names(Some("al@example.com"), None, "s")[0], "al_");
        assert_eq!(names(Some("a@example.com"), None, "s")[1], "a2_");
        assert_eq!(names(Some(&format!("{}@example.com", "x".repeat(40))), None, "s")[0].len(), 20);
        assert_eq!(
            names(Some(&format!("{}@example.com", "x".repeat(40))), None, "s")[1],
            format!("{}2", "x".repeat(19))
        );
        assert_eq!(names(Some("李雷@example.com"), None, "s")[0], "李雷_");
        assert_eq!(names(Some("+++@example.com"), Some("Bob Jones"), "s")[0], "BobJones");
        assert_eq!(names(None, None, "s")[0], "user");
        for name in names(Some("<script>@x.io"), Some("../../etc"), "../../../") {
            assert!(Username::parse_for_registration(&name).is_ok(), "{name}");
        }
    }

    #[test]
    fn settings_usernames_allow_up_to_fifty() {
        let fifty = "a".repeat(50);
        let fifty_one = "a".repeat(51);
        let cases: &[(&str, bool)] = &[("ab", false), ("abc", true), (&fifty, true), (&fifty_one, false)];
        for (input, ok) in cases {
            assert_eq!(Username::parse(input).is_ok(), *ok, "input {input:?}");
        }
        assert!(Username::parse_for_registration(&"a".repeat(21)).is_err());
    }

    #[test]
    fn username_key_is_case_insensitive() {
        let a = Username::parse("Alice").map(|u| u.key());
        let b = Username::parse("alice").map(|u| u.key());
        assert_eq!(a, b);
    }

    #[test]
    fn emails() {
        let cases: &[(&str, Option<&str>)] = &[
            ("a@b.co", Some("a@b.co")),
            ("  Alice@Example.COM ", Some("alice@example.com")),
            ("", None),
            ("plain", None),
            ("a@b", None),
            ("@b.co", None),
            ("a@@b.co", None),
            ("a b@c.de", None),
            ("a@b..co", None),
            ("a@-b.co", None),
        ];
        for (input, expected) in cases {
            let got = Email::parse(input).ok().map(|e| e.as_str().to_owned());
            assert_eq!(got.as_deref(), *expected, "input {input:?}");
        }
        let long = format!("{}@example.com", "a".repeat(250));
        assert!(Email::parse(&long).is_err());
    }

    #[test]
    fn passwords() {
        let cases: &[(String, Option<&str>)] = &[
            (String::new(), Some("Password is required")),
            ("12345".into(), Some("Password must be at least 6 characters")),
            ("123456".into(), None),
            ("x".repeat(72), None),
            ("x".repeat(73), Some("Password must be at most 72 bytes")),
            // 24 three-byte characters are 72 bytes: allowed; 25 are 75 bytes: refused.
            ("€".repeat(24), None),
            ("€".repeat(25), Some("Password must be at most 72 bytes")),
        ];
        for (input, expected) in cases {
            let got = Password::parse(input, "password").err().map(|e| e.message);
            assert_eq!(got.as_deref(), *expected, "input {input:?}");
        }
    }

    #[test]
    fn password_confirmation() {
        let mismatch = Password::parse_confirmed("secret1", "secret2", "newPassword", SETTINGS_PASSWORD_MISMATCH).err();
        assert_eq!(mismatch, Some(ValidationError::new("confirmPassword", "New passwords do not match")));
        assert!(Password::parse_confirmed("secret1", "secret1", "newPassword", SETTINGS_PASSWORD_MISMATCH).is_ok());
        // Length rules are reported before the mismatch.
        let short = Password::parse_confirmed("abc", "abd", "password", REGISTER_PASSWORD_MISMATCH).err();
        assert_eq!(short.map(|e| e.field), Some("password"));
    }

    #[test]
    fn registration_rules_in_order() {
        type Case<'a> = ([&'a str; 4], Option<(&'a str, &'a str)>);
        let cases: &[Case] = &[
            (["alice", "a@b.co", "secret", "secret"], None),
            (["al", "a@b.co", "secret", "secret"], Some(("username", "Username must be between 3 and 20 characters"))),
            (["alice", "nope", "secret", "secret"], Some(("email", "Please enter a valid email address"))),
            (["alice", "a@b.co", "short", "short"], Some(("password", "Password must be at least 6 characters"))),
            (["alice", "a@b.co", "secret", "secreT"], Some(("confirmPassword", "Passwords do not match"))),
        ];
        for ([u, e, p, c], expected) in cases {
            let got = Registration::parse(u, e, p, c).err().map(|e| (e.field, e.message));
            assert_eq!(got.as_ref().map(|(f, m)| (*f, m.as_str())), *expected, "case {u} {e} {p} {c}");
        }
    }

    #[test]
    fn password_debug_hides_the_secret() {
        let p = Password::parse("hunter22", "password").map(|p| format!("{p:?}"));
        assert_eq!(p.as_deref(), Ok("Password(***)"));
    }

    #[test]
    fn roles_parse_from_their_stored_names() {
        assert_eq!(Role::parse(Role::Admin.as_str()), Some(Role::Admin));
        assert_eq!(Role::parse("ROOT"), None);
    }
}
