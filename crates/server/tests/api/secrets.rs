//! Integration secrets are never kept in clear: a token as its digest, a Slack signing secret
//! sealed with `GIFSHELF_SECRETS_KEY` (refused without it), and rows an earlier version stored in
//! clear converted, or removed, when the server starts.

use gifshelf_domain::audit::AuditActor;
use gifshelf_domain::gif::PageRequest;
use gifshelf_domain::integration::{IntegrationName, IntegrationSecret, NewIntegration, Platform, StoredSecret};
use gifshelf_domain::ports::{AuditLog, IntegrationRepository};
use gifshelf_http::dto::{IntegrationDto, SlashCommandReply};
use reqwest::StatusCode;
use serde_json::json;

use crate::commands::{mattermost, now, slack, two_cats, zulip, SECRETS_KEY};
use crate::helpers::{dto_of, error_of, json_of, Backend, TestApp};
use crate::{app, on_both_backends};

const SLACK_SECRET: &str = "e1a2b3c4d5e6f708192a3b4c5d6e7f80";
const ZULIP_TOKEN: &str = "xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0";

/// What the database keeps of each integration: `(platform, form, stored value)`.
async fn stored(app: &TestApp) -> Vec<(Platform, &'static str, String)> {
    let all = app.database().integrations().await.unwrap_or_else(|e| panic!("{e}"));
    all.into_iter().map(|i| (i.platform, i.secret.form(), i.secret.value().to_owned())).collect()
}

async fn stored_secrets_are_a_digest_and_a_seal_and_still_check_requests(backend: Backend) {
    let app = app!(backend, &[SECRETS_KEY]);
    let (admin, _, _) = two_cats(&app).await;
    for (platform, secret) in [("slack", SLACK_SECRET), ("zulip", ZULIP_TOKEN)] {
        let body = json!({"platform": platform, "name": format!("Team {platform}"), "secret": secret});
        let added: IntegrationDto =
            dto_of(admin.post_json("/api/integrations", &body).await, StatusCode::CREATED).await;
        assert_eq!(added.secret_hint, secret[secret.len() - 4..], "the list still tells them apart");
    }
    let kept = stored(&app).await;
    assert_eq!(
        kept.iter().map(|(p, form, _)| (*p, *form)).collect::<Vec<_>>(),
        [(Platform::Slack, "sealed"), (Platform::Zulip, "digest")]
    );
    for (_, _, value) in &kept {
        assert!(!value.contains(SLACK_SECRET) && !value.contains(ZULIP_TOKEN), "a secret is stored in clear: {value}");
    }
    // Both still prove requests: the seal is opened with the key, the token checked by its digest.
    let _: SlashCommandReply = dto_of(slack(&app, SLACK_SECRET, now(), "cat").await, StatusCode::OK).await;
    let reply = json_of(zulip(&app, ZULIP_TOKEN, "@**gifshelf** cat").await, StatusCode::OK).await;
    assert!(reply["content"].as_str().is_some_and(|c| c.contains("/s/")), "{reply}");
    error_of(zulip(&app, &ZULIP_TOKEN.to_lowercase(), "cat").await, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

async fn without_a_secrets_key_a_slack_secret_is_refused_and_tokens_still_stored(backend: Backend) {
    let app = app!(backend);
    let admin = app.admin().await;
    let body = json!({"platform": "slack", "name": "Team Slack", "secret": SLACK_SECRET});
    let message =
        error_of(admin.post_json("/api/integrations", &body).await, StatusCode::BAD_REQUEST, "validation").await;
    assert!(message.contains("GIFSHELF_SECRETS_KEY") && message.contains("GIFSHELF_SLACK_SIGNING_SECRET"), "{message}");
    let body = json!({"platform": "mattermost", "name": "Mattermost", "secret": "pbte7m9wbbfbmjk1f4mhsibbzc"});
    let _: IntegrationDto = dto_of(admin.post_json("/api/integrations", &body).await, StatusCode::CREATED).await;
    assert_eq!(
        stored(&app).await.iter().map(|(p, form, _)| (*p, *form)).collect::<Vec<_>>(),
        [(Platform::Mattermost, "digest")]
    );
    admin.upload_gif("Sleepy cat", "", &["cats"]).await;
    let _: SlashCommandReply =
        dto_of(mattermost(&app, "pbte7m9wbbfbmjk1f4mhsibbzc", "cat").await, StatusCode::OK).await;
}

/// Rows an earlier version stored in clear, as they are in its database.
async fn clear_rows(db: &gifshelf_db::Database) {
    for (platform, name, secret) in
        [(Platform::Slack, "Old Slack", SLACK_SECRET), (Platform::Zulip, "Old Zulip", ZULIP_TOKEN)]
    {
        let row = NewIntegration {
            platform,
            name: IntegrationName::from_trusted(name.into()),
            secret: StoredSecret::Clear(IntegrationSecret::from_trusted(secret.into())),
            hint: String::new(),
            created_at: chrono::Utc::now().naive_utc(),
            max_rating: gifshelf_domain::gif::Rating::G,
        };
        db.create_integration(row).await.unwrap_or_else(|e| panic!("{e}"));
    }
}

/// Waits (at most 10 s) until the start-up conversion has left no clear row.
async fn converted(app: &TestApp) -> Vec<(Platform, &'static str, String)> {
    for _ in 0..200 {
        let kept = stored(app).await;
        if kept.iter().all(|(_, form, _)| *form != "clear") {
            return kept;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("clear rows are left: {:?}", stored(app).await);
}

async fn clear_rows_of_an_earlier_version_are_protected_when_the_server_starts(backend: Backend) {
    for with_key in [true, false] {
        let Some(db) = TestApp::database_for(backend) else { return };
        clear_rows(&db.db).await;
        let app = TestApp::spawn_on(db, if with_key { &[SECRETS_KEY] } else { &[] }).await;
        let kept = converted(&app).await;
        let forms: Vec<_> = kept.iter().map(|(p, form, _)| (*p, *form)).collect();
        if with_key {
            assert_eq!(forms, [(Platform::Slack, "sealed"), (Platform::Zulip, "digest")]);
            let _: SlashCommandReply = dto_of(slack(&app, SLACK_SECRET, now(), "cat").await, StatusCode::OK).await;
        } else {
            // Without a key the signing secret cannot be kept: removed, and the log says so.
            assert_eq!(forms, [(Platform::Zulip, "digest")]);
            let events =
                app.database().events(PageRequest { page: 0, size: 10 }).await.unwrap_or_else(|e| panic!("{e}"));
            let event = events.items.first().unwrap_or_else(|| panic!("no audit event"));
            assert_eq!(
                (event.actor.clone(), event.action_name.as_str()),
                (AuditActor::System, "integration.secret_removed")
            );
            assert!(event.target.contains("Old Slack"), "{event:?}");
        }
        let reply = json_of(zulip(&app, ZULIP_TOKEN, "cat").await, StatusCode::OK).await;
        assert!(reply["content"].is_string(), "{reply}");
    }
}

on_both_backends!(
    stored_secrets_are_a_digest_and_a_seal_and_still_check_requests,
    without_a_secrets_key_a_slack_secret_is_refused_and_tokens_still_stored,
    clear_rows_of_an_earlier_version_are_protected_when_the_server_starts
);
