//! `AuditLog` on diesel: the `audit_events` table, appended to and read newest first by id.

use async_trait::async_trait;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use gifshelf_domain::audit::{AuditActor, AuditEvent, NewAuditEvent};
use gifshelf_domain::gif::{Page, PageRequest};
use gifshelf_domain::ports::AuditLog;
use gifshelf_domain::user::UserId;
use gifshelf_domain::RepoError;

use crate::connection::Database;
use crate::error::repo_error;
use crate::schema::audit_events;

#[derive(Queryable, Selectable)]
#[diesel(table_name = audit_events)]
struct EventRow {
    id: i64,
    at: NaiveDateTime,
    actor_id: Option<i64>,
    actor_name: String,
    action: String,
    target: String,
    detail: String,
    address: Option<String>,
}

impl From<EventRow> for AuditEvent {
    fn from(row: EventRow) -> Self {
        let actor = match row.actor_id {
            Some(id) => AuditActor::Member { id: UserId(id), username: row.actor_name },
            None => AuditActor::System,
        };
        Self {
            id: row.id,
            at: row.at,
            actor,
            action_name: row.action,
            target: row.target,
            detail: row.detail,
            address: row.address,
        }
    }
}

#[async_trait]
impl AuditLog for Database {
    async fn record(&self, event: NewAuditEvent) -> Result<(), RepoError> {
        let (actor_id, actor_name) = match event.actor {
            AuditActor::Member { id, username } => (Some(id.0), username),
            AuditActor::System => (None, String::new()),
        };
        self.run(move |conn| {
            diesel::insert_into(audit_events::table)
                .values((
                    audit_events::at.eq(event.at),
                    audit_events::actor_id.eq(actor_id),
                    audit_events::actor_name.eq(actor_name),
                    audit_events::action.eq(event.action.as_str()),
                    audit_events::target.eq(event.target),
                    audit_events::detail.eq(event.detail),
                    audit_events::address.eq(event.address),
                ))
                .execute(conn)
                .map(|_| ())
                .map_err(repo_error)
        })
        .await
    }

    async fn events(&self, request: PageRequest) -> Result<Page<AuditEvent>, RepoError> {
        self.run(move |conn| {
            let total = audit_events::table.count().get_result::<i64>(conn).map_err(repo_error)?;
            let rows = audit_events::table
                .order(audit_events::id.desc())
                .offset(request.offset())
                .limit(i64::from(request.size))
                .select(EventRow::as_select())
                .load(conn)
                .map_err(repo_error)?;
            Ok(Page { items: rows.into_iter().map(AuditEvent::from).collect(), request, total })
        })
        .await
    }
}
