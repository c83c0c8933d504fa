//! `/api/health/live` and `/api/health/ready`: public, no data, `{status}` or
//! `{status: "unavailable", failing: [names]}` with 503, each failing check named.

use gifshelf_domain::ports::JobQueue;
use reqwest::StatusCode;

use crate::helpers::{json_of, Backend};
use crate::{app, on_both_backends};

async fn live_and_ready_answer_ok_and_leave_no_probe_behind(backend: Backend) {
    let app = app!(backend);
    let live = json_of(app.anonymous().get("/api/health/live").await, StatusCode::OK).await;
    assert_eq!(live, serde_json::json!({"status": "ok"}));
    for _ in 0..3 {
        let ready = json_of(app.anonymous().get("/api/health/ready").await, StatusCode::OK).await;
        assert_eq!(ready, serde_json::json!({"status": "ok"}));
    }
    let probes = std::fs::read_dir(app.data_dir.join("media/health")).map(Iterator::count).unwrap_or(0);
    assert_eq!(probes, 0, "the store probe deletes its blob");
    let old = json_of(app.anonymous().get("/api/health").await, StatusCode::OK).await;
    assert_eq!(old, serde_json::json!({"status": "ok", "database": "ok"}), "/api/health stays as it was");
}

async fn ready_names_a_job_backlog_over_its_limit(backend: Backend) {
    // Without tesseract each upload queues one job (its renditions), not a text reading too.
    let app = app!(backend, &[("GIFSHELF_READY_MAX_BACKLOG", "1"), ("GIFSHELF_TESSERACT", "off")]);
    let user = app.user("alice").await;
    user.upload_gif("one", "", &[]).await;
    json_of(app.anonymous().get("/api/health/ready").await, StatusCode::OK).await;
    user.upload_gif("two", "", &[]).await;
    let counts = app.database().counts().await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(counts.queued, 2, "each upload queued its renditions (no job workers in tests)");
    let ready = json_of(app.anonymous().get("/api/health/ready").await, StatusCode::SERVICE_UNAVAILABLE).await;
    assert_eq!(ready, serde_json::json!({"status": "unavailable", "failing": ["job_backlog"]}));
    let live = json_of(app.anonymous().get("/api/health/live").await, StatusCode::OK).await;
    assert_eq!(live, serde_json::json!({"status": "ok"}), "alive all the same");
}

async fn ready_names_missing_migrations_and_an_unwritable_store(backend: Backend) {
    let app = app!(backend);
    gifshelf_db::testing::execute(
        app.database(),
        "DELETE FROM __diesel_schema_migrations WHERE version = (SELECT MAX(version) FROM __diesel_schema_migrations)",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let media = app.data_dir.join("media");
    std::fs::remove_dir_all(&media).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(&media, "not a folder").unwrap_or_else(|e| panic!("{e}"));
    let ready = json_of(app.anonymous().get("/api/health/ready").await, StatusCode::SERVICE_UNAVAILABLE).await;
    assert_eq!(ready, serde_json::json!({"status": "unavailable", "failing": ["migrations", "store"]}));
}

on_both_backends!(
    live_and_ready_answer_ok_and_leave_no_probe_behind,
    ready_names_a_job_backlog_over_its_limit,
    ready_names_missing_migrations_and_an_unwritable_store
);
