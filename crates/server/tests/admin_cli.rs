//! `gifshelf admin grant|revoke NAME` while the server runs, as an operator runs it: another process
//! changes the role in the database, and the server, which reuses a session check for a few seconds
//! while no account changes, hears of it within moments (SQLite: the `account_changes` counter it
//! reads every 100 ms; PostgreSQL: the `users` trigger's NOTIFY) and not when its reuse runs out.

use std::time::{Duration, Instant};

use gifshelf_db::testing::TestDb;
use gifshelf_testkit::ServerEnv;
use reqwest::StatusCode;
use serde_json::{json, Value};

fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| panic!("{e}"))
}

async fn signed_in(client: &reqwest::Client, base: &str, username: &str) -> String {
    let body = json!({"username": username, "email": format!("{username}@example.com"), "password": "secret1", "confirmPassword": "secret1"});
    let registered = ok(client.post(format!("{base}/api/auth/register")).json(&body).send().await);
    assert_eq!(registered.status(), StatusCode::CREATED);
    let login = json!({"username": username, "password": "secret1"});
    let session: Value = ok(ok(client.post(format!("{base}/api/auth/login")).json(&login).send().await).json().await);
    session["token"].as_str().unwrap_or_default().to_owned()
}

/// Polls bob's admin call until it answers `want`, for at most 2 s.
async fn answers_within_moments(client: &reqwest::Client, base: &str, token: &str, want: StatusCode) {
    let since = Instant::now();
    loop {
        let status = ok(client.get(format!("{base}/api/admin/users")).bearer_auth(token).send().await).status();
        if status == want {
            return;
        }
        assert!(since.elapsed() < Duration::from_secs(2), "still {status} 2 s after the command, not {want}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn roles_changed_by_the_command_count_at_once(test_db: &TestDb) {
    let dir = ok(tempfile::tempdir());
    let web = ok(gifshelf_testkit::bare_web_dir(dir.path()));
    let env = ServerEnv::new(&dir.path().join("data"), &web, &test_db.url);
    let server = ok(env.spawn(env!("CARGO_BIN_EXE_gifshelf"), &dir.path().join("gifshelf.log")));
    let (client, base) = (reqwest::Client::new(), server.url());
    signed_in(&client, &base, "alice").await; // the first account: an administrator
    let bob = signed_in(&client, &base, "bob").await;
    for _ in 0..3 {
        let refused = ok(client.get(format!("{base}/api/admin/users")).bearer_auth(&bob).send().await);
        assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    }
    let command = |action: &str| {
        let output = ok(env.command(env!("CARGO_BIN_EXE_gifshelf")).args(["admin", action, "bob"]).output());
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert_eq!(command("grant").trim(), "bob is now an administrator.");
    answers_within_moments(&client, &base, &bob, StatusCode::OK).await;
    assert_eq!(command("revoke").trim(), "bob is now a regular user.");
    answers_within_moments(&client, &base, &bob, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn sqlite_roles_changed_by_the_command_count_at_once() {
    roles_changed_by_the_command_count_at_once(&TestDb::sqlite()).await;
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn postgres_roles_changed_by_the_command_count_at_once() {
    let Some(test_db) = TestDb::postgres("admin_cli") else { return };
    roles_changed_by_the_command_count_at_once(&test_db).await;
}
