use chrono::{NaiveDate, NaiveDateTime};
use gifshelf_db::Database;
use gifshelf_domain::audit::{AuditAction, AuditActor, NewAuditEvent};
use gifshelf_domain::gif::PageRequest;
use gifshelf_domain::ports::AuditLog;
use gifshelf_domain::user::UserId;

use crate::on_both_backends;

fn at(minute: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, 27).and_then(|d| d.and_hms_opt(9, minute, 0)).unwrap_or_default()
}

async fn events_are_kept_and_read_newest_first_in_pages(db: &Database) {
    for minute in 0..5 {
        let actor = if minute == 0 {
            AuditActor::System
        } else {
            AuditActor::Member { id: UserId(7), username: "root".into() }
        };
        let event = NewAuditEvent {
            at: at(minute),
            actor,
            action: AuditAction::ApiKeyMade,
            target: format!("key #{minute}"),
            detail: "“Team chat”".into(),
            address: (minute % 2 == 1).then(|| "2001:db8::7".to_owned()),
        };
        db.record(event).await.unwrap_or_else(|e| panic!("{e}"));
    }
    let first = db.events(PageRequest { page: 0, size: 2 }).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first.total, 5);
    assert_eq!(first.items.iter().map(|e| e.target.as_str()).collect::<Vec<_>>(), ["key #4", "key #3"]);
    let newest = &first.items[0];
    assert_eq!(newest.actor, AuditActor::Member { id: UserId(7), username: "root".into() });
    assert_eq!((newest.action_name.as_str(), newest.at, newest.address.as_deref()), ("api_key.made", at(4), None));
    assert_eq!(first.items[1].address.as_deref(), Some("2001:db8::7"));
    assert_eq!(newest.detail, "“Team chat”");
    let last = db.events(PageRequest { page: 2, size: 2 }).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(last.items.len(), 1);
    assert_eq!((last.items[0].actor.clone(), last.items[0].target.as_str()), (AuditActor::System, "key #0"));
}

on_both_backends!(events_are_kept_and_read_newest_first_in_pages);
