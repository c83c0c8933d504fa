//! The settings screen's use cases: read and change one's own profile and password.
//! They are methods of [`crate::auth::AuthService`], which owns the account ports.

mod password;
mod profile;

/// A user's own profile as the settings screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub username: String,
    pub email: String,
    /// False for an account made by a third-party sign-in that never set a password.
    pub has_password: bool,
}
