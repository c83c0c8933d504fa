//! `JoinRepository` on diesel: the one-row registration policy, invitations by token digest, and
//! accounts stored under an admission.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::auth::ExternalIdentity;
use gifshelf_domain::join::{Admission, AdmitError, Invite, InviteId, NewInvite, RegistrationMode, RegistrationPolicy};
use gifshelf_domain::ports::JoinRepository;
use gifshelf_domain::user::{NewUser, Role, User, UserId, Username};
use gifshelf_domain::RepoError;

use crate::connection::{write_tx, AnyConnection, Database};
use crate::error::repo_error;
use crate::schema::{invites, registration_policy, users};
use crate::users::{insert_identity, insert_user};

/// The policy's one row.
const POLICY_ROW: i64 = 1;

#[derive(Queryable, Selectable)]
#[diesel(table_name = registration_policy)]
struct PolicyRow {
    mode: String,
    allowed_domains: String,
    members_may_invite: bool,
}

impl TryFrom<PolicyRow> for RegistrationPolicy {
    type Error = RepoError;

    fn try_from(row: PolicyRow) -> Result<Self, RepoError> {
        let mode = RegistrationMode::parse(&row.mode).map_err(RepoError::other)?;
        let domains: Vec<&str> = row.allowed_domains.split(',').collect();
        RegistrationPolicy::new(mode, &domains, row.members_may_invite).map_err(RepoError::other)
    }
}

#[derive(Queryable)]
struct InviteRow {
    id: i64,
    max_uses: i32,
    uses: i32,
    role: String,
    created_by: i64,
    created_at: NaiveDateTime,
    expires_at: NaiveDateTime,
    username: String,
}

type InviteColumns = (
    invites::id,
    invites::max_uses,
    invites::uses,
    invites::role,
    invites::created_by,
    invites::created_at,
    invites::expires_at,
    users::username,
);

const INVITE_COLUMNS: InviteColumns = (
    invites::id,
    invites::max_uses,
    invites::uses,
    invites::role,
    invites::created_by,
    invites::created_at,
    invites::expires_at,
    users::username,
);

impl TryFrom<InviteRow> for Invite {
    type Error = RepoError;

    fn try_from(row: InviteRow) -> Result<Self, RepoError> {
        Ok(Invite {
            id: InviteId(row.id),
            max_uses: i64::from(row.max_uses),
            uses: i64::from(row.uses),
            role: Role::parse(&row.role).ok_or_else(|| RepoError::other(format!("unknown role {:?}", row.role)))?,
            created_by: UserId(row.created_by),
            created_by_name: Username::from_trusted(row.username),
            created_at: row.created_at,
            expires_at: row.expires_at,
        })
    }
}

fn load_policy(conn: &mut AnyConnection) -> Result<Option<RegistrationPolicy>, RepoError> {
    registration_policy::table
        .find(POLICY_ROW)
        .select(PolicyRow::as_select())
        .first(conn)
        .optional()
        .map_err(repo_error)?
        .map(TryInto::try_into)
        .transpose()
}

fn save_policy(conn: &mut AnyConnection, policy: &RegistrationPolicy, at: NaiveDateTime) -> Result<(), RepoError> {
    let domains: Vec<&str> = policy.allowed_domains.iter().map(|d| d.as_str()).collect();
    let values = (
        registration_policy::mode.eq(policy.mode.as_str()),
        registration_policy::allowed_domains.eq(domains.join(",")),
        registration_policy::members_may_invite.eq(policy.members_may_invite),
        registration_policy::updated_at.eq(at),
    );
    let updated = diesel::update(registration_policy::table.find(POLICY_ROW))
        .set(values.clone())
        .execute(conn)
        .map_err(repo_error)?;
    if updated == 0 {
        diesel::insert_into(registration_policy::table)
            .values((registration_policy::id.eq(POLICY_ROW), values))
            .execute(conn)
            .map_err(repo_error)?;
    }
    Ok(())
}

fn load_invite(conn: &mut AnyConnection, id: i64) -> Result<Invite, RepoError> {
    invites::table
        .inner_join(users::table)
        .filter(invites::id.eq(id))
        .select(INVITE_COLUMNS)
        .first::<InviteRow>(conn)
        .map_err(repo_error)?
        .try_into()
}

/// Takes one use of the invitation if it has one left at `now`: a conditional update, so that of
/// two transactions racing for the last use only one changes the row.
fn take_use(conn: &mut AnyConnection, id: InviteId, now: NaiveDateTime) -> Result<bool, RepoError> {
    let changed = diesel::update(
        invites::table
            .filter(invites::id.eq(id.0))
            .filter(invites::uses.lt(invites::max_uses))
            .filter(invites::expires_at.gt(now)),
    )
    .set(invites::uses.eq(invites::uses + 1))
    .execute(conn)
    .map_err(repo_error)?;
    Ok(changed == 1)
}

fn no_accounts(conn: &mut AnyConnection) -> Result<bool, RepoError> {
    if let AnyConnection::Postgresql(pg) = conn {
        // As in `insert_user`: two first registrations at once must not both pass.
        diesel::sql_query("LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE").execute(pg).map_err(repo_error)?;
    }
    let existing: i64 = users::table.count().get_result(conn).map_err(repo_error)?;
    Ok(existing == 0)
}

#[async_trait]
impl JoinRepository for Database {
    async fn registration_policy(&self) -> Result<Option<RegistrationPolicy>, RepoError> {
        self.run(load_policy).await
    }

    async fn store_registration_policy(
        &self,
        policy: &RegistrationPolicy,
        seed_only: bool,
        at: NaiveDateTime,
    ) -> Result<RegistrationPolicy, RepoError> {
        let policy = policy.clone();
        self.run(move |conn| {
            write_tx(conn, |conn| {
                if seed_only {
                    if let Some(stored) = load_policy(conn)? {
                        return Ok(stored);
                    }
                }
                save_policy(conn, &policy, at)?;
                Ok(policy.clone())
            })
        })
        .await
    }

    async fn create_invite(&self, invite: NewInvite) -> Result<Invite, RepoError> {
        let max_uses = i32::try_from(invite.max_uses).map_err(RepoError::other)?;
        self.run(move |conn| {
            let id: i64 = diesel::insert_into(invites::table)
                .values((
                    invites::token_digest.eq(&invite.token_digest),
                    invites::max_uses.eq(max_uses),
                    invites::uses.eq(0),
                    invites::role.eq(invite.role.as_str()),
                    invites::created_by.eq(invite.created_by.0),
                    invites::created_at.eq(invite.created_at),
                    invites::expires_at.eq(invite.expires_at),
                ))
                .returning(invites::id)
                .get_result(conn)
                .map_err(repo_error)?;
            load_invite(conn, id)
        })
        .await
    }

    async fn invites(&self, created_by: Option<UserId>, limit: i64) -> Result<Vec<Invite>, RepoError> {
        self.run(move |conn| {
            let mut query = invites::table.inner_join(users::table).select(INVITE_COLUMNS).into_boxed();
            if let Some(owner) = created_by {
                query = query.filter(invites::created_by.eq(owner.0));
            }
            let rows: Vec<InviteRow> = query.order(invites::id.desc()).limit(limit).load(conn).map_err(repo_error)?;
            rows.into_iter().map(TryInto::try_into).collect()
        })
        .await
    }

    async fn invite_by_digest(&self, digest: &str) -> Result<Invite, RepoError> {
        let digest = digest.to_owned();
        self.run(move |conn| {
            invites::table
                .inner_join(users::table)
                .filter(invites::token_digest.eq(&digest))
                .select(INVITE_COLUMNS)
                .first::<InviteRow>(conn)
                .map_err(repo_error)?
                .try_into()
        })
        .await
    }

    async fn delete_invite(&self, id: InviteId, created_by: Option<UserId>) -> Result<(), RepoError> {
        self.run(move |conn| {
            let target = invites::table.filter(invites::id.eq(id.0));
            let deleted = match created_by {
                Some(owner) => diesel::delete(target.filter(invites::created_by.eq(owner.0))).execute(conn),
                None => diesel::delete(target).execute(conn),
            }
            .map_err(repo_error)?;
            if deleted == 0 {
                return Err(RepoError::NotFound);
            }
            Ok(())
        })
        .await
    }

    async fn create_admitted(
        &self,
        user: NewUser,
        identity: Option<ExternalIdentity>,
        admission: Admission,
        first_becomes_admin: bool,
    ) -> Result<User, AdmitError> {
        let stored = self
            .run(move |conn| {
                write_tx(conn, |conn| {
                    let admitted = match admission {
                        Admission::FirstOnly => no_accounts(conn)?,
                        Admission::Invitation { id, now } => take_use(conn, id, now)? || no_accounts(conn)?,
                    };
                    if !admitted {
                        return Ok(None);
                    }
                    let created = insert_user(conn, &user, first_becomes_admin)?;
                    if let Some(identity) = &identity {
                        insert_identity(conn, created.id.0, identity, user.created_at)?;
                    }
                    Ok(Some(created))
                })
            })
            .await?;
        stored.ok_or(AdmitError::NotAdmitted)
    }
}
