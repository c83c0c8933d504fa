//! Floods and forged headers against the real app: parallel guesses, registration floods, a spoofed
//! `X-Forwarded-For`, and an upload body that never sends its boundary.

use std::sync::atomic::Ordering::SeqCst;
use std::time::{Duration, Instant};

use futures_util::future::join_all;
use gifshelf_http::dto::HealthDto;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{error_of, probing_while, send, Backend};
use crate::{app, on_both_backends};

/// The resident memory of this process (the app runs inside it), in MiB. A test that reads it runs
/// alone in a process of its own (`gifshelf_testkit::alone`): no other test's memory counts.
fn rss_mib() -> u64 {
    gifshelf_testkit::Memory::of_this_process().resident_kib / 1024
}

async fn fifty_parallel_wrong_logins_pass_at_most_the_limit(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_LOGIN_MAX_FAILURES", "5"), ("GIFSHELF_LOGIN_IP_MAX_FAILURES", "1000")]);
    app.user("alice").await;
    let statuses = join_all((0..50).map(|_| async { app.login("alice", "wrong-password").await.status() })).await;
    let checked = statuses.iter().filter(|s| **s == StatusCode::UNAUTHORIZED).count();
    let throttled = statuses.iter().filter(|s| **s == StatusCode::TOO_MANY_REQUESTS).count();
    assert_eq!(checked + throttled, 50, "{statuses:?}");
    assert!(checked <= 5, "{checked} guesses were checked");
    // The account stays locked for the right password too, until the lockout ends.
    error_of(app.login("alice", "secret1").await, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
}

async fn a_registration_flood_from_one_address_is_throttled_and_others_still_sign_in(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_REGISTER_MAX_PER_ADDRESS", "5")]);
    app.user("alice").await;
    let flood = join_all((0..40).map(|i| {
        let app = &app;
        async move { app.register(&format!("bot{i}"), "secret1").await.status() }
    }));
    let login = || async { assert_eq!(app.login("alice", "secret1").await.status(), StatusCode::OK) };
    let (statuses, waited) = probing_while(flood, login).await;
    let created = statuses.iter().filter(|s| **s == StatusCode::CREATED).count();
    let refused = statuses.iter().filter(|s| **s == StatusCode::TOO_MANY_REQUESTS).count();
    assert_eq!((created, refused), (4, 36), "{statuses:?}");
    assert!(waited < Duration::from_secs(10), "a login waited {waited:?}");
    let refused = app.register("late", "secret1").await;
    assert!(refused.headers().get("retry-after").is_some());
    // It says what happened: no login failed.
    let message = error_of(refused, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
    assert_eq!(message, "Too many accounts were registered from this address. Try again in 10 minutes.");
}

async fn a_spoofed_leftmost_forwarded_for_does_not_change_the_throttled_address(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_TRUST_PROXY", "true"), ("GIFSHELF_LOGIN_IP_MAX_FAILURES", "3")]);
    app.user("carol").await;
    // The proxy appends the address it saw (203.0.113.7); the client made up the rest.
    let attempt = |user: String, password: &'static str, spoofed: String| {
        let body = json!({"username": user, "password": password});
        let forwarded = format!("{spoofed}, 203.0.113.7");
        send(app.anonymous().request(Method::POST, "/api/auth/login").header("x-forwarded-for", forwarded).json(&body))
    };
    for i in 0..3 {
        let response = attempt(format!("guess{i}"), "wrong-password", format!("10.9.9.{i}")).await;
        error_of(response, StatusCode::UNAUTHORIZED, "unauthorized").await;
    }
    // A new made-up address changes nothing: the proxy's entry is the one that counts.
    let blocked = attempt("carol".into(), "secret1", "198.51.100.200".into()).await;
    error_of(blocked, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
    // `Forwarded` is not read either.
    let body = json!({"username": "carol", "password": "secret1"});
    let forwarded = app
        .anonymous()
        .request(Method::POST, "/api/auth/login")
        .header("forwarded", "for=192.0.2.60")
        .header("x-forwarded-for", "203.0.113.7")
        .json(&body);
    let forwarded = send(forwarded).await;
    error_of(forwarded, StatusCode::TOO_MANY_REQUESTS, "too_many_requests").await;
}

async fn an_upload_body_without_a_boundary_is_cut_off_and_memory_stays_flat(backend: Backend) {
    // It measures the memory of its process: alone in one, no other test beside it.
    if !gifshelf_testkit::alone() {
        return;
    }
    let app = app!(backend);
    let alice = app.user("alice").await;
    let before = rss_mib();
    // 200 MB, chunked (no Content-Length), no newline and no boundary in sight.
    let body = futures_util::stream::iter((0..200).map(|_| Ok::<_, std::io::Error>(vec![b'a'; 1024 * 1024])));
    let response = alice
        .request(Method::POST, "/api/gifs")
        .header("content-type", "multipart/form-data; boundary=never-sent")
        .body(reqwest::Body::wrap_stream(body))
        .send()
        .await;
    // The server answers 413 (or closes the connection once it has refused the body).
    if let Ok(response) = response {
        error_of(response, StatusCode::PAYLOAD_TOO_LARGE, "too_large").await;
    }
    let grown = rss_mib().saturating_sub(before);
    assert!(grown < 150, "the process grew by {grown} MiB");
    assert!(app.stored_files().is_empty());
    let health: HealthDto = app.anonymous().read("/api/health").await;
    assert_eq!(health.database, "ok");
}

async fn orphan_blobs_are_swept_in_the_background_not_only_at_startup(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_SWEEP_INTERVAL_SECS", "1")]);
    let alice = app.user("alice").await;
    let kept = alice.upload_gif("kept", "", &[]).await;
    let dir = app.data_dir.join("media/gifs/0123456789abcdef0123456789abcdef");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    // A fresh file, which may belong to an upload in progress, stays through every sweep.
    let young = dir.join("thumbnail.gif");
    std::fs::write(&young, b"GIF89a").unwrap_or_else(|e| panic!("{e}"));
    // The leftovers of an upload that died an hour ago, twice: the second is left only once the
    // first is gone, so a sweep after it (not the one at startup) removes it.
    for leftover in ["original.gif", "original.mp4"] {
        let orphan = dir.join(leftover);
        std::fs::write(&orphan, b"GIF89a").unwrap_or_else(|e| panic!("{e}"));
        let an_hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
        std::fs::File::options()
            .write(true)
            .open(&orphan)
            .and_then(|f| f.set_modified(an_hour_ago))
            .unwrap_or_else(|e| panic!("{e}"));
        let deadline = Instant::now() + Duration::from_secs(10);
        while orphan.exists() {
            assert!(Instant::now() < deadline, "the old orphan {leftover} is still there");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    assert!(young.exists(), "a young blob was removed");
    assert_eq!(alice.get(&format!("/api/gifs/content/{}", kept.id)).await.status(), StatusCode::OK);
}

/// What the clients of the connection-drop test share: when to stop, and how many answers they had
/// before the drop and to requests asked from a second after it.
#[derive(Default)]
struct Traffic {
    stop: std::sync::atomic::AtomicBool,
    recover_from: std::sync::OnceLock<Instant>,
    before: std::sync::atomic::AtomicUsize,
    after: std::sync::atomic::AtomicUsize,
}

impl Traffic {
    fn answered(&self, asked: Instant) {
        match self.recover_from.get() {
            None => self.before.fetch_add(1, SeqCst),
            Some(from) if asked > *from => self.after.fetch_add(1, SeqCst),
            Some(_) => 0,
        };
    }

    async fn wait_for(&self, count: &std::sync::atomic::AtomicUsize, at_least: usize) {
        let deadline = Instant::now() + Duration::from_secs(30);
        while count.load(SeqCst) < at_least {
            assert!(Instant::now() < deadline, "the clients had {} answers, not {at_least}", count.load(SeqCst));
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// PostgreSQL only: SQLite files do not drop their connections.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn requests_recover_at_once_when_postgres_drops_every_connection() {
    {
        let app = app!(Backend::Postgres);
        let alice = app.user("alice").await;
        let url = app.database_url().to_owned();
        let traffic = std::sync::Arc::new(Traffic::default());
        // Eight clients page through the gallery while the database drops every connection.
        let clients = (0..8).map(|_| {
            let (alice, traffic) = (alice.clone(), traffic.clone());
            tokio::spawn(async move {
                let mut answers = Vec::new();
                while !traffic.stop.load(SeqCst) {
                    let asked = Instant::now();
                    let status = alice.request(Method::GET, "/api/gifs/dtos").send().await.map(|r| r.status());
                    answers.push((asked, asked.elapsed(), status.map(|s| s.as_u16()).unwrap_or(0)));
                    traffic.answered(asked);
                }
                answers
            })
        });
        let clients: Vec<_> = clients.collect();
        // Every client is under way before the drop.
        traffic.wait_for(&traffic.before, 16).await;
        let dropped_at = Instant::now();
        tokio::task::spawn_blocking(move || {
            use diesel::connection::SimpleConnection;
            use diesel::Connection;
            let name = url.rsplit('/').next().unwrap_or_default().split('?').next().unwrap_or_default().to_owned();
            let admin = gifshelf_db::testing::with_database(&url, "postgres");
            let mut admin = diesel::PgConnection::establish(&admin).unwrap_or_else(|e| panic!("{e}"));
            admin
                .batch_execute(&format!(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                     WHERE datname = '{name}' AND pid <> pg_backend_pid()"
                ))
                .unwrap_or_else(|e| panic!("{e}"));
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
        let _ = traffic.recover_from.set(dropped_at + Duration::from_secs(1));
        // Enough answers to requests asked a second after the drop to judge the recovery.
        traffic.wait_for(&traffic.after, 16).await;
        traffic.stop.store(true, SeqCst);
        let mut answers = Vec::new();
        for client in clients {
            answers.extend(client.await.unwrap_or_else(|e| panic!("{e}")));
        }
        let slowest = answers.iter().map(|(_, took, _)| *took).max().unwrap_or_default();
        assert!(slowest < Duration::from_secs(5), "a request hung for {slowest:?}");
        assert!(answers.iter().all(|(_, _, status)| *status == 200 || *status == 503), "only 200 or 503: {answers:?}");
        // A second after the drop, everything succeeds again.
        let later: Vec<u16> = answers
            .iter()
            .filter(|(asked, _, _)| *asked > dropped_at + Duration::from_secs(1))
            .map(|(_, _, status)| *status)
            .collect();
        assert!(!later.is_empty() && later.iter().all(|s| *s == 200), "{later:?}");
    }
}

on_both_backends!(
    fifty_parallel_wrong_logins_pass_at_most_the_limit,
    a_registration_flood_from_one_address_is_throttled_and_others_still_sign_in,
    a_spoofed_leftmost_forwarded_for_does_not_change_the_throttled_address,
    an_upload_body_without_a_boundary_is_cut_off_and_memory_stays_flat,
    orphan_blobs_are_swept_in_the_background_not_only_at_startup
);
