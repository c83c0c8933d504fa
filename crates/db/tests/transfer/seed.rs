//! The rows every transfer test moves: a few of every table, made through the repositories.

use chrono::{Duration, NaiveDate, NaiveDateTime};
use gifshelf_db::Database;
use gifshelf_domain::api_key::{ApiKeyName, NewApiKey};
use gifshelf_domain::audit::{AuditAction, AuditActor, NewAuditEvent};
use gifshelf_domain::auth::ExternalIdentity;
use gifshelf_domain::gif::{
    Description, Fingerprint, GifEdit, GifId, NewGif, Rendition, RenditionKind, Renditions, TagName, Title,
};
use gifshelf_domain::integration::{IntegrationName, NewIntegration, Platform, StoredSecret};
use gifshelf_domain::join::{Admission, NewInvite, RegistrationMode, RegistrationPolicy};
use gifshelf_domain::member::{MemberChange, MemberStatus};
use gifshelf_domain::ports::{
    AccountRepository, ApiKeyRepository, AuditLog, ChatFeedRepository, GifRepository, IntegrationRepository,
    JoinRepository, MemberRepository, TagRepository, UserRepository,
};
use gifshelf_domain::user::{Email, NewUser, PasswordHash, Role, UserId, Username};

pub(crate) fn t0() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, 1).and_then(|d| d.and_hms_micro_opt(8, 0, 0, 123_456)).unwrap_or_default()
}

pub(crate) fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| panic!("{e}"))
}

pub(crate) fn new_user(name: &str, email: &str, minutes: i64) -> NewUser {
    NewUser {
        username: ok(Username::parse(name)),
        email: ok(Email::parse(email)),
        password_hash: PasswordHash(format!("$2b$12$hash.of.{name}.with/slash+plus")),
        role: Role::User,
        created_at: t0() + Duration::minutes(minutes),
    }
}

pub(crate) fn google(subject: &str, email: Option<&str>) -> ExternalIdentity {
    ExternalIdentity {
        issuer: "https://accounts.google.com".into(),
        subject: subject.into(),
        email: email.map(Into::into),
        email_verified: true,
        name: None,
        hosted_domain: None,
    }
}

pub(crate) fn rendition(kind: RenditionKind, n: i64, what: &str, size: i64) -> Rendition {
    Rendition {
        kind,
        key: format!("gifs/p{n}/{what}"),
        content_type: "image/gif".into(),
        size,
        width: 320 + n as i32,
        height: 240,
        frames: 2 + n as i32,
        duration_ms: (n % 2 == 0).then_some(100 * n as i32),
        codec: (kind == RenditionKind::Mp4).then(|| "h264".to_owned()),
        preferred: kind != RenditionKind::Still,
    }
}

pub(crate) fn new_gif(uploader: UserId, n: i64, title: &str, description: &str, tags: &[&str]) -> NewGif {
    NewGif {
        share_id: format!("share-{n}-Xy_9"),
        title: ok(Title::parse(title)),
        description: ok(Description::parse(description)),
        tags: ok(TagName::parse_list(tags)),
        uploader_id: uploader,
        uploaded_at: t0() + Duration::minutes(n) + Duration::microseconds(n * 7),
        frame_count: 5 + n as i32,
        rating: gifshelf_domain::gif::Rating::G,
        renditions: Renditions::new([
            rendition(RenditionKind::Original, n, "original.gif", 1_000_000 + n),
            rendition(RenditionKind::Thumbnail, n, "thumbnail.gif", 500 + n),
            Rendition { content_type: "image/png".into(), ..rendition(RenditionKind::Still, n, "static.png", 100 + n) },
            Rendition { content_type: "video/mp4".into(), ..rendition(RenditionKind::Mp4, n, "mp4.mp4", 50 + n) },
        ]),
        fingerprint: Fingerprint::default(),
        jobs: Vec::new(),
        caption_text: None,
        // Both values travel: every other seeded GIF is transparent (a sticker).
        transparent: n % 2 == 0,
    }
}

/// What a realistic instance holds, and the ids to check after the move.
pub(crate) struct Seeded {
    pub(crate) users: Vec<UserId>,
    pub(crate) gifs: Vec<GifId>,
    /// The highest GIF id ever handed out: its row was deleted, so it is not in the file's rows.
    pub(crate) deleted_gif: GifId,
}

/// API keys of `owner` (one used, one never used) and two chat integrations with their secrets.
pub(crate) async fn seed_keys_and_integrations(db: &Database, owner: UserId) {
    // API keys, one used and one never used.
    for (name, digest) in [("Zulip", "d1"), ("Team chat", "d2")] {
        let key = NewApiKey {
            owner,
            name: ok(ApiKeyName::parse(name)),
            prefix: format!("gs_{digest}"),
            digest: digest.repeat(32),
            created_at: t0() + Duration::minutes(50),
        };
        let key = ok(db.create_key(key).await);
        if name == "Zulip" {
            ok(db.touch_key(key.id, t0() + Duration::hours(3)).await);
        }
    }
    // Chat integrations: a sealed Slack signing secret and a Zulip token's digest.
    for (platform, name, secret) in [
        (Platform::Slack, "Team Slack", StoredSecret::Sealed("v1.c2VhbGVkLXNsYWNrLXNlY3JldA".into())),
        (Platform::Zulip, "Zulip “bot”", StoredSecret::Digest("ab".repeat(32))),
    ] {
        let integration = NewIntegration {
            platform,
            name: ok(IntegrationName::parse(name)),
            secret,
            hint: "85a5".into(),
            created_at: t0() + Duration::minutes(55),
            max_rating: gifshelf_domain::gif::Rating::G,
        };
        ok(db.create_integration(integration).await);
    }
    // The audit log: a member's event and one of the server itself.
    for (actor, action) in [
        (AuditActor::Member { id: owner, username: "alice".into() }, AuditAction::IntegrationAdded),
        (AuditActor::System, AuditAction::IntegrationSecretRemoved),
    ] {
        let event = NewAuditEvent {
            at: t0() + Duration::minutes(56),
            actor,
            action,
            target: "Team Slack (slack, #1)".into(),
            detail: "secret …85a5".into(),
            address: Some("2001:db8::1".into()),
        };
        ok(AuditLog::record(db, event).await);
    }
    // A reset link, the quota for everyone and a member's own.
    let reset = gifshelf_domain::account::NewPasswordReset::new(owner, "ef".repeat(32), t0());
    ok(AccountRepository::store_reset(db, reset).await);
    let quota = gifshelf_domain::account::Quota { storage_bytes: Some(50 << 20), uploads_per_day: None };
    ok(db.set_default_quota(quota, t0() + Duration::minutes(57)).await);
    ok(db
        .set_member_quota(owner, gifshelf_domain::account::Quota { storage_bytes: None, uploads_per_day: Some(9) })
        .await);
}

/// A stored registration policy and an invitation of `owner` that was used once.
pub(crate) async fn seed_join_policy(db: &Database, owner: UserId) {
    let policy = ok(RegistrationPolicy::new(RegistrationMode::Invite, &["example.com", "corp.example"], true));
    ok(db.store_registration_policy(&policy, false, t0() + Duration::minutes(60)).await);
    let invite = NewInvite {
        token_digest: "ab".repeat(32),
        max_uses: 3,
        role: Role::User,
        created_by: owner,
        created_at: t0() + Duration::minutes(61),
        expires_at: t0() + Duration::days(7),
    };
    let invite = ok(db.create_invite(invite).await);
    let admission = Admission::Invitation { id: invite.id, now: t0() + Duration::minutes(62) };
    let joined = db.create_admitted(new_user("ivy", "ivy@example.com", 4), None, admission, true).await;
    assert!(joined.is_ok(), "{joined:?}");
}

/// Reports (migration 000022): one open, one dismissed, one whose GIF was hidden.
pub(crate) async fn seed_reports(db: &Database, [admin, bob, carol]: [UserId; 3], gifs: &[GifId]) {
    use gifshelf_domain::ports::ReportRepository;
    use gifshelf_domain::report::{NewReport, ReportNote, ReportReason, Resolution};
    let report = |gif: GifId, reporter: UserId, reason: ReportReason, minutes: i64| NewReport {
        gif,
        reporter,
        reason,
        note: ok(ReportNote::parse("a note with “quotes”")),
        at: t0() + Duration::minutes(minutes),
    };
    ok(db.file_report(report(gifs[0], bob, ReportReason::Spam, 10)).await);
    let dismissed = ok(db.file_report(report(gifs[1], carol, ReportReason::Other, 11)).await).0;
    ok(db.resolve_report(dismissed.id, Resolution::Dismissed, admin, t0() + Duration::hours(6)).await);
    let hidden = ok(db.file_report(report(gifs[2], bob, ReportReason::Offensive, 12)).await).0;
    ok(db.resolve_report(hidden.id, Resolution::Hidden, admin, t0() + Duration::hours(7)).await);
}

pub(crate) async fn seed(db: &Database) -> Seeded {
    let alice = ok(UserRepository::create(db, new_user("alice", "alice@example.com", 0), true).await);
    assert_eq!(alice.role, Role::Admin);
    let bob = ok(UserRepository::create(db, new_user("bob", "bob@example.com", 1), true).await);
    // credentials_changed_at moves away from created_at
    ok(db.update_password(bob.id, &PasswordHash("$2b$12$new.hash".into()), t0() + Duration::hours(3)).await);
    let carol = ok(db
        .create_with_identity(
            new_user("carol", "carol@example.com", 2),
            &google("1098-sub", Some("carol@example.com")),
            true,
        )
        .await);
    ok(db.link_identity(bob.id, &google("2222-sub", None), t0() + Duration::minutes(30)).await);
    let zoe = ok(UserRepository::create(db, new_user("Zoe_O-Neil", "zoe@example.com", 3), true).await);
    ok(db.set_role("Zoe_O-Neil", Role::Admin).await);
    // A disabled account and last-seen times (migration 000019).
    let disable = MemberChange { role: None, status: Some(MemberStatus::Disabled) };
    ok(db.update_member(carol.id, disable, t0() + Duration::hours(4)).await);
    ok(db.touch_last_seen(bob.id, t0() + Duration::hours(5)).await);

    let titles = [
        (
            "Dancing zebra",
            "A zebra that \"dances\"\nsecond line\twith a tab and a \\ backslash",
            &["animals", "funny"][..],
        ),
        ("Ünïcode “quotes” 猫 🐱", "Émoji: 🎉 — and 'single' quotes", &["ünï", "animals"][..]),
        ("No description", "", &[][..]),
        ("Reaction: facepalm", "when the build breaks", &["reaction"][..]),
        ("Deleted soon", "gone before the export", &["gone"][..]),
    ];
    let uploaders = [alice.id, bob.id, carol.id, zoe.id, alice.id];
    let mut gifs = Vec::new();
    for (n, ((title, description, tags), uploader)) in titles.iter().zip(uploaders).enumerate() {
        let gif = ok(db.insert(new_gif(uploader, n as i64 + 1, title, description, tags)).await);
        gifs.push(gif.id);
    }
    for day in 0..3 {
        ok(db.add_view(gifs[0], t0().date() + Duration::days(day % 2)).await);
    }
    ok(db.add_view(gifs[1], t0().date()).await);
    // Shared from a chat app, and searched for there.
    ok(db.add_share(gifs[1]).await);
    ok(gifshelf_domain::ports::TermRepository::record_search(db, "zebra", t0().date()).await);
    ok(gifshelf_domain::ports::TermRepository::record_search(db, "zebra", t0().date()).await);
    ok(gifshelf_domain::ports::TermRepository::record_search(db, "猫 dance", t0().date() + Duration::days(1)).await);
    // Edited: new tags and texts, so search_text changed after the insert.
    let edit = GifEdit {
        title: ok(Title::parse("Reaction: facepalm (edited)")),
        description: ok(Description::parse("when the build breaks\nagain")),
        tags: ok(TagName::parse_list(&["reaction", "work"])),
        // Not the column's default: the rating moves too.
        rating: Some(gifshelf_domain::gif::Rating::Pg13),
        caption_text: None,
        at: t0() + Duration::hours(2),
    };
    ok(db.update(gifs[3], edit).await);
    let deleted_gif = ok(db.delete(gifs[4]).await).id;
    gifs.pop();
    // A tag nobody uses any more.
    ok(TagRepository::create(db, &ok(TagName::parse("lonely")), t0()).await);
    seed_keys_and_integrations(db, alice.id).await;
    seed_join_policy(db, alice.id).await;
    seed_reports(db, [alice.id, bob.id, carol.id], &gifs).await;
    Seeded { users: vec![alice.id, bob.id, carol.id, zoe.id], gifs, deleted_gif }
}
