use chrono::{NaiveDate, NaiveDateTime};
use gifshelf_db::Database;
use gifshelf_domain::gif::Rating;
use gifshelf_domain::integration::{IntegrationId, IntegrationName, NewIntegration, Platform, StoredSecret};
use gifshelf_domain::ports::IntegrationRepository;
use gifshelf_domain::RepoError;

use crate::on_both_backends;

fn at(h: u32) -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, 25).and_then(|d| d.and_hms_opt(h, 0, 0)).unwrap_or_default()
}

fn new(platform: Platform, name: &str, secret: &str) -> NewIntegration {
    NewIntegration {
        platform,
        name: IntegrationName::parse(name).unwrap_or_else(|e| panic!("{e}")),
        secret: StoredSecret::Digest(secret.into()),
        hint: secret[secret.len() - 4..].into(),
        created_at: at(9),
        max_rating: Rating::G,
    }
}

async fn integrations_are_kept_by_platform_and_removed_by_id(db: &Database) {
    let slack = db
        .create_integration(new(Platform::Slack, "Team Slack", "8f742231b10e8888abcd99yyyzzz85a5"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((slack.platform, slack.name.as_str(), slack.created_at), (Platform::Slack, "Team Slack", at(9)));
    assert_eq!(
        (slack.secret.form(), slack.secret.value(), slack.hint.as_str()),
        ("digest", "8f742231b10e8888abcd99yyyzzz85a5", "85a5")
    );
    let zulip = db
        .create_integration(new(Platform::Zulip, "Zulip", "xvOzfurIutdRRVLz"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mattermost = db
        .create_integration(new(Platform::Mattermost, "Mattermost", "pbte7m9wbbfbmjk1f4mhsibbzc"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));

    let all = db.integrations().await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(all.iter().map(|i| i.id).collect::<Vec<_>>(), [slack.id, zulip.id, mattermost.id], "oldest first");
    let of_zulip = db.integrations_of(Platform::Zulip).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(of_zulip, std::slice::from_ref(&zulip));

    db.delete_integration(zulip.id).await.unwrap_or_else(|e| panic!("{e}"));
    assert!(db.integrations_of(Platform::Zulip).await.unwrap_or_else(|e| panic!("{e}")).is_empty());
    assert!(matches!(db.delete_integration(zulip.id).await, Err(RepoError::NotFound)));
    assert!(matches!(db.delete_integration(IntegrationId(9999)).await, Err(RepoError::NotFound)));
    assert_eq!(db.integrations().await.unwrap_or_else(|e| panic!("{e}")).len(), 2);
}

on_both_backends!(integrations_are_kept_by_platform_and_removed_by_id);

async fn a_secret_changes_form_and_clear_rows_of_an_earlier_version_read_as_clear(db: &Database) {
    let zulip = db
        .create_integration(new(Platform::Zulip, "Zulip", "xvOzfurIutdRRVLz"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let sealed = StoredSecret::Sealed("v1.abc".into());
    db.replace_integration_secret(zulip.id, sealed.clone(), "RVLz".into()).await.unwrap_or_else(|e| panic!("{e}"));
    let stored = db.integrations().await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((&stored[0].secret, stored[0].hint.as_str()), (&sealed, "RVLz"));
    let missing = db.replace_integration_secret(IntegrationId(9999), sealed, String::new()).await;
    assert!(matches!(missing, Err(RepoError::NotFound)), "{missing:?}");

    let clear =
        StoredSecret::Clear(gifshelf_domain::integration::IntegrationSecret::from_trusted("old-clear-secret".into()));
    let old =
        NewIntegration { secret: clear.clone(), hint: String::new(), ..new(Platform::Slack, "Old Slack", "xxxx") };
    let old = db.create_integration(old).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(old.secret, clear);
}

on_both_backends!(a_secret_changes_form_and_clear_rows_of_an_earlier_version_read_as_clear);

async fn an_integrations_maximum_rating_is_stored_and_changed(db: &Database) {
    let pg =
        NewIntegration { max_rating: Rating::Pg, ..new(Platform::Mattermost, "Team", "pbte7m9wbbfbmjk1f4mhsibbzc") };
    let team = db.create_integration(pg).await.unwrap_or_else(|e| panic!("{e}"));
    let other = db
        .create_integration(new(Platform::Mattermost, "Other", "xvOzfurIutdRRVLz"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((team.max_rating, other.max_rating), (Rating::Pg, Rating::G));
    db.set_integration_rating(team.id, Rating::R).await.unwrap_or_else(|e| panic!("{e}"));
    let stored = db.integrations_of(Platform::Mattermost).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stored.iter().map(|i| i.max_rating).collect::<Vec<_>>(), [Rating::R, Rating::G], "only that one");
    let missing = db.set_integration_rating(IntegrationId(9999), Rating::G).await;
    assert!(matches!(missing, Err(RepoError::NotFound)), "{missing:?}");
}

on_both_backends!(an_integrations_maximum_rating_is_stored_and_changed);
