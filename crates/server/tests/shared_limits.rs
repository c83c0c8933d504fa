//! Limits shared by instances: two `gifshelf serve` processes on one PostgreSQL database hold the
//! registration allowance, the chat API rate and login throttling (per account and per address)
//! exactly as one instance would, however the requests are spread over them.
//!
//! Runs when `GIFSHELF_TEST_POSTGRES_URL` is set (always in CI).
#![allow(clippy::unwrap_used)]

use futures_util::FutureExt;
use gifshelf_db::testing::TestDb;
use gifshelf_testkit::{ServerEnv, ServerProcess};
use serde_json::{json, Value};

fn launch(db_url: &str, dir: &std::path::Path, name: &str) -> ServerProcess {
    let dir = dir.join(name);
    let web = gifshelf_testkit::bare_web_dir(&dir).unwrap();
    ServerEnv::new(&dir.join("data"), &web, db_url)
        .set("GIFSHELF_REGISTER_MAX_PER_ADDRESS", "3")
        .set("GIFSHELF_CHAT_API_RATE_LIMIT", "10")
        .set("GIFSHELF_LOGIN_MAX_FAILURES", "5")
        .set("GIFSHELF_LOGIN_IP_MAX_FAILURES", "20")
        .set("GIFSHELF_DB_MAX_CONNECTIONS", "3")
        .spawn(env!("CARGO_BIN_EXE_gifshelf"), &dir.join("gifshelf.log"))
        .unwrap()
}

/// The statuses of `n` requests, sent alternately to the two instances.
async fn statuses<F, Fut>(n: usize, servers: &[&ServerProcess; 2], send: F) -> Vec<u16>
where
    F: Fn(String, usize) -> Fut,
    Fut: std::future::Future<Output = reqwest::Response>,
{
    let mut out = Vec::new();
    for i in 0..n {
        out.push(send(servers[i % 2].url(), i).await.status().as_u16());
    }
    out
}

fn count(statuses: &[u16], status: u16) -> usize {
    statuses.iter().filter(|s| **s == status).count()
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL was not set when the tests were built")]
async fn two_instances_limit_as_one() {
    let Some(test_db) = TestDb::postgres("shared_limits") else { return };
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (launch(&test_db.url, dir.path(), "a"), launch(&test_db.url, dir.path(), "b"));
    let servers = [&a, &b];
    let http = reqwest::Client::new();

    // Three registrations from one address, wherever they arrive; the fourth is refused.
    let names = ["alice", "bob", "carol", "dave"];
    let registered = statuses(4, &servers, |base, i| {
        let body = json!({"username": names[i], "email": format!("{}@example.com", names[i]), "password": "correct-horse-1", "confirmPassword": "correct-horse-1"});
        http.post(format!("{base}/api/auth/register")).json(&body).send().map(Result::unwrap)
    })
    .await;
    assert_eq!(registered, [201, 201, 201, 429], "the allowance is one for both instances");

    // Ten chat API calls a minute per owner, over both instances.
    let login = json!({"username": "alice", "password": "correct-horse-1"});
    let session: Value =
        http.post(format!("{}/api/auth/login", a.url())).json(&login).send().await.unwrap().json().await.unwrap();
    let token = session["token"].as_str().unwrap().to_owned();
    let made: Value = http
        .post(format!("{}/api/keys", b.url()))
        .bearer_auth(&token)
        .json(&json!({"name": "chat"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let key = made["key"].as_str().unwrap().to_owned();
    let calls = statuses(16, &servers, |base, _| {
        http.get(format!("{base}/api/giphy/v1/gifs/trending?api_key={key}")).send().map(Result::unwrap)
    })
    .await;
    assert_eq!((count(&calls, 200), count(&calls, 429)), (10, 6), "{calls:?}");

    // Five wrong passwords lock the account on both instances (its later attempts are not counted
    // against the address).
    let wrong = |user: String| json!({"username": user, "password": "wrong-password-1"});
    let alice = statuses(12, &servers, |base, _| {
        http.post(format!("{base}/api/auth/login")).json(&wrong("alice".into())).send().map(Result::unwrap)
    })
    .await;
    assert_eq!(alice, [[401; 5].as_slice(), [429; 7].as_slice()].concat(), "locked after five, on both");

    // Twenty failures per address in all: fifteen more, then the address waits, on both.
    let spread = statuses(38, &servers, |base, i| {
        http.post(format!("{base}/api/auth/login")).json(&wrong(format!("ghost{i}"))).send().map(Result::unwrap)
    })
    .await;
    assert_eq!(spread, [[401; 15].as_slice(), [429; 23].as_slice()].concat(), "one address limit for both");
}
