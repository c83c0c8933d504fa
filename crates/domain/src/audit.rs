//! The audit log: admin and security events (who did what to whom, when and from where), kept
//! apart from the rows they are about so that a deleted account or GIF leaves its history behind.

use chrono::NaiveDateTime;

use crate::user::UserId;

/// The longest target or detail text kept; longer texts are cut (they are descriptions, not data).
pub const AUDIT_TEXT_MAX: usize = 300;

/// What happened. The names (`as_str`) are what the API and the database carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AuditAction {
    RoleChanged,
    AccountDisabled,
    AccountEnabled,
    AccountDeleted,
    PasswordChanged,
    PasswordResetLinkMade,
    PasswordReset,
    QuotaChanged,
    InvitationMade,
    InvitationRevoked,
    RegistrationPolicyChanged,
    IntegrationAdded,
    IntegrationRemoved,
    IntegrationSecretRemoved,
    ApiKeyMade,
    ApiKeyRevoked,
    GifHidden,
    GifRestored,
    ReportDismissed,
    ReportHidden,
    IntegrationRatingChanged,
}

impl AuditAction {
    pub const ALL: [Self; 21] = [
        Self::RoleChanged,
        Self::AccountDisabled,
        Self::AccountEnabled,
        Self::AccountDeleted,
        Self::PasswordChanged,
        Self::PasswordResetLinkMade,
        Self::PasswordReset,
        Self::QuotaChanged,
        Self::InvitationMade,
        Self::InvitationRevoked,
        Self::RegistrationPolicyChanged,
        Self::IntegrationAdded,
        Self::IntegrationRemoved,
        Self::IntegrationSecretRemoved,
        Self::ApiKeyMade,
        Self::ApiKeyRevoked,
        Self::GifHidden,
        Self::GifRestored,
        Self::ReportDismissed,
        Self::ReportHidden,
        Self::IntegrationRatingChanged,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::RoleChanged => "user.role_changed",
            Self::AccountDisabled => "user.disabled",
            Self::AccountEnabled => "user.enabled",
            Self::AccountDeleted => "user.deleted",
            Self::PasswordChanged => "user.password_changed",
            Self::PasswordResetLinkMade => "user.password_reset_link",
            Self::PasswordReset => "user.password_reset",
            Self::QuotaChanged => "user.quota_changed",
            Self::InvitationMade => "invitation.made",
            Self::InvitationRevoked => "invitation.revoked",
            Self::RegistrationPolicyChanged => "registration.changed",
            Self::IntegrationAdded => "integration.added",
            Self::IntegrationRemoved => "integration.removed",
            Self::IntegrationSecretRemoved => "integration.secret_removed",
            Self::ApiKeyMade => "api_key.made",
            Self::ApiKeyRevoked => "api_key.revoked",
            Self::GifHidden => "gif.hidden",
            Self::GifRestored => "gif.restored",
            Self::ReportDismissed => "report.dismissed",
            Self::ReportHidden => "report.hidden",
            Self::IntegrationRatingChanged => "integration.max_rating_changed",
        }
    }

    /// The action of a stored name; `None` for a name this version does not know.
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.as_str() == raw)
    }
}

/// Who acted: an account (kept by id and by the name it had then), or the server itself (the
/// command line, a start-up conversion).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuditActor {
    Member { id: UserId, username: String },
    System,
}

/// An event to record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAuditEvent {
    pub at: NaiveDateTime,
    pub actor: AuditActor,
    pub action: AuditAction,
    /// What it was done to, in words ("alice (#12)", "GIF #40 \"Cat\"").
    pub target: String,
    /// Anything else worth knowing ("role: admin", "reason: Spam").
    pub detail: String,
    /// The client's address, when the event came through a request.
    pub address: Option<String>,
}

impl NewAuditEvent {
    /// Cuts `target` and `detail` to [`AUDIT_TEXT_MAX`] characters.
    pub fn bounded(mut self) -> Self {
        for text in [&mut self.target, &mut self.detail] {
            if let Some((cut, _)) = text.char_indices().nth(AUDIT_TEXT_MAX) {
                text.truncate(cut);
            }
        }
        self
    }
}

/// A recorded event. `action` is `None` for a name a newer version wrote; `action_name` keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEvent {
    pub id: i64,
    pub at: NaiveDateTime,
    pub actor: AuditActor,
    pub action_name: String,
    pub target: String,
    pub detail: String,
    pub address: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_has_a_distinct_name_that_parses_back() {
        let mut names: Vec<&str> = AuditAction::ALL.iter().map(|a| a.as_str()).collect();
        for action in AuditAction::ALL {
            assert_eq!(AuditAction::parse(action.as_str()), Some(action));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), AuditAction::ALL.len());
        assert_eq!(AuditAction::parse("user.exploded"), None);
    }

    #[test]
    fn long_texts_are_cut_on_a_character_boundary() {
        let event = NewAuditEvent {
            at: NaiveDateTime::default(),
            actor: AuditActor::System,
            action: AuditAction::GifHidden,
            target: "é".repeat(AUDIT_TEXT_MAX + 5),
            detail: "short".into(),
            address: None,
        }
        .bounded();
        assert_eq!(event.target.chars().count(), AUDIT_TEXT_MAX);
        assert_eq!(event.detail, "short");
    }
}
