use std::sync::Arc;

use chrono::{NaiveDate, NaiveDateTime};
use gifshelf_domain::audit::AuditAction;
use gifshelf_domain::gif::{GifId, Hidden, Title};
use gifshelf_domain::ports::{MockAuditLog, MockClock, MockGifRepository, MockReportRepository};
use gifshelf_domain::report::{Report, ReportId, ReportNote, ReportReason, ReportedGif, Resolution, VisibilityChange};
use gifshelf_domain::user::{Role, UserId, Username};

use super::*;
use crate::gifs::test_support::gif;

fn now() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, 27).and_then(|d| d.and_hms_opt(9, 0, 0)).unwrap_or_default()
}

fn clock() -> Arc<MockClock> {
    let mut clock = MockClock::new();
    clock.expect_now().returning(now);
    Arc::new(clock)
}

fn actor(id: i64, role: Role) -> Actor {
    Actor::session(UserId(id), Username::from_trusted(format!("u{id}")), role)
}

fn report(resolution: Option<Resolution>) -> Report {
    Report {
        id: ReportId(5),
        gif: ReportedGif {
            id: GifId(3),
            title: Title::from_trusted("Cat".into()),
            owner: Username::from_trusted("u1".into()),
            hidden: false,
        },
        reason: ReportReason::Spam,
        note: ReportNote::default(),
        reporter: Username::from_trusted("u2".into()),
        created_at: now(),
        resolution,
        resolved_by: None,
        resolved_at: None,
    }
}

fn service(reports: MockReportRepository, gifs: MockGifRepository, log: MockAuditLog) -> ModerationService {
    let audit = crate::audit::Audit::new(Arc::new(log), clock());
    ModerationService::new(Arc::new(reports), Arc::new(gifs), clock()).with_audit(audit)
}

#[tokio::test]
async fn bad_reasons_and_long_notes_are_refused_before_anything_is_read() {
    let moderation = service(MockReportRepository::new(), MockGifRepository::new(), MockAuditLog::new());
    let member = actor(2, Role::User);
    let unknown = moderation.report(&member, GifId(3), "boring", "").await;
    assert!(matches!(unknown, Err(AppError::Validation(e)) if e.field == "reason"));
    let long = moderation.report(&member, GifId(3), "spam", &"x".repeat(501)).await;
    assert!(matches!(long, Err(AppError::Validation(e)) if e.field == "note"));
}

#[tokio::test]
async fn a_gif_is_reported_by_others_only_and_a_hidden_one_is_not_found() {
    let mut gifs = MockGifRepository::new();
    gifs.expect_find().withf(|id| *id == GifId(3)).returning(|id| Ok(gif(id.0, 1)));
    gifs.expect_find().withf(|id| *id == GifId(4)).returning(|id| {
        let mut g = gif(id.0, 1);
        g.hidden = Some(Hidden { at: now(), reason: "Spam".into() });
        Ok(g)
    });
    let mut reports = MockReportRepository::new();
    reports
        .expect_file_report()
        .withf(|r| r.gif == GifId(3) && r.reporter == UserId(2) && r.note.as_str() == "why" && r.at == now())
        .times(1)
        .returning(|_| Ok((report(None), true)));
    let moderation = service(reports, gifs, MockAuditLog::new());
    let filed = moderation.report(&actor(2, Role::User), GifId(3), "spam", " why ").await;
    assert!(matches!(filed, Ok((_, true))), "{filed:?}");
    let own = moderation.report(&actor(1, Role::User), GifId(3), "spam", "").await;
    assert!(matches!(own, Err(AppError::Conflict(Conflict::OwnGif))), "{own:?}");
    let hidden = moderation.report(&actor(2, Role::User), GifId(4), "spam", "").await;
    assert!(matches!(hidden, Err(AppError::NotFound(_))), "{hidden:?}");
}

#[tokio::test]
async fn members_cannot_act_as_moderators() {
    let moderation = service(MockReportRepository::new(), MockGifRepository::new(), MockAuditLog::new());
    let member = actor(2, Role::User);
    let page = PageRequest { page: 0, size: 10 };
    assert!(matches!(moderation.reports(&member, ReportStatus::Open, page).await, Err(AppError::Forbidden(_))));
    assert!(matches!(moderation.resolve(&member, ReportId(5), Resolution::Hidden).await, Err(AppError::Forbidden(_))));
    assert!(matches!(moderation.set_hidden(&member, GifId(3), true, None).await, Err(AppError::Forbidden(_))));
    assert!(matches!(moderation.hidden(&member, page).await, Err(AppError::Forbidden(_))));
}

#[tokio::test]
async fn hiding_through_a_report_is_recorded_and_a_closed_report_is_a_conflict() {
    let mut reports = MockReportRepository::new();
    reports.expect_report().withf(|id| *id == ReportId(5)).returning(|_| Ok(report(None)));
    reports.expect_report().withf(|id| *id == ReportId(6)).returning(|_| Ok(report(Some(Resolution::Dismissed))));
    reports
        .expect_resolve_report()
        .withf(|id, resolution, by, _| *id == ReportId(5) && *resolution == Resolution::Hidden && *by == UserId(9))
        .times(1)
        .returning(|_, _, _, _| Ok((report(Some(Resolution::Hidden)), true)));
    let mut log = MockAuditLog::new();
    log.expect_record()
        .withf(|e| e.action == AuditAction::ReportHidden && e.target == "GIF #3 \"Cat\"" && e.detail.contains("Spam"))
        .times(1)
        .returning(|_| Ok(()));
    let moderation = service(reports, MockGifRepository::new(), log);
    let admin = actor(9, Role::Admin);
    assert!(moderation.resolve(&admin, ReportId(5), Resolution::Hidden).await.is_ok());
    let again = moderation.resolve(&admin, ReportId(6), Resolution::Hidden).await;
    assert!(matches!(again, Err(AppError::Conflict(Conflict::ReportClosed))), "{again:?}");
}

#[tokio::test]
async fn hiding_directly_takes_the_reason_or_other_and_restoring_is_recorded() {
    let mut reports = MockReportRepository::new();
    reports
        .expect_set_visibility()
        .withf(|_, change, _, _| *change == VisibilityChange::Hide { reason: DEFAULT_HIDDEN_REASON.into() })
        .times(1)
        .returning(|id, _, _, _| {
            let mut g = gif(id.0, 1);
            g.hidden = Some(Hidden { at: now(), reason: DEFAULT_HIDDEN_REASON.into() });
            Ok(g)
        });
    reports
        .expect_set_visibility()
        .withf(|_, change, _, _| *change == VisibilityChange::Restore)
        .times(1)
        .returning(|id, _, _, _| Ok(gif(id.0, 1)));
    let mut log = MockAuditLog::new();
    log.expect_record().withf(|e| e.action == AuditAction::GifHidden).times(1).returning(|_| Ok(()));
    log.expect_record().withf(|e| e.action == AuditAction::GifRestored).times(1).returning(|_| Ok(()));
    let moderation = service(reports, MockGifRepository::new(), log);
    let admin = actor(9, Role::Admin);
    assert!(moderation.set_hidden(&admin, GifId(3), true, Some("  ")).await.is_ok());
    let long = moderation.set_hidden(&admin, GifId(3), true, Some(&"x".repeat(201))).await;
    assert!(matches!(long, Err(AppError::Validation(_))), "{long:?}");
    assert!(moderation.set_hidden(&admin, GifId(3), false, None).await.is_ok());
}
