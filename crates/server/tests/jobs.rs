//! The renditions job queue across real processes: a queued job survives `kill -9` and runs after
//! a restart; two `gifshelf worker` processes on one PostgreSQL never run the same job; the
//! backfill command gives GIFs stored without their jobs every kind they miss; on PostgreSQL an
//! idle worker wakes when a job is queued, long before its next poll.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use gifshelf_db::testing::TestDb;
use gifshelf_db::Database;
use gifshelf_domain::gif::{GifId, RenditionKind};
use gifshelf_domain::ports::{GifRepository, JobQueue};
use gifshelf_http::dto::GifDto;
use gifshelf_media::testing::animated_gif;
use gifshelf_testkit::{Process, ServerEnv, ServerProcess};
use serde_json::json;

mod common;

use common::{sign_in_alice, GIFSHELF};

/// The settings of every process of a test: its database, `data` for its files, `workers` job
/// workers looking for work every 100 ms, and logs at `info` (each claimed job is logged).
fn env(db_url: &str, data: &Path, workers: usize) -> ServerEnv {
    ServerEnv::new(data, data, db_url)
        .set("GIFSHELF_WORKERS", workers.to_string())
        .set("GIFSHELF_JOB_POLL_MS", "100")
        .set("GIFSHELF_LOG", "info")
        // The renditions' jobs are the subject: no text reading job beside each.
        .set("GIFSHELF_TESSERACT", "off")
}

/// `gifshelf serve` with `workers` job workers, ready to be asked; killed (SIGKILL) on drop. Its
/// log is `serve.log` in `data`.
fn serve(db_url: &str, data: &Path, workers: usize) -> ServerProcess {
    env(db_url, data, workers).spawn(GIFSHELF, &data.join("serve.log")).unwrap_or_else(|e| panic!("{e}"))
}

/// Uploads `n` different animated GIFs; their ids.
async fn upload(url: &str, n: u8) -> Vec<GifId> {
    let client = reqwest::Client::new();
    let token = sign_in_alice(&client, url).await;
    let mut ids = Vec::new();
    for i in 0..n {
        let part = reqwest::multipart::Part::bytes(animated_gif(48 + u16::from(i) * 2, 36, 3))
            .file_name("cat.gif")
            .mime_str("image/gif")
            .unwrap_or_else(|e| panic!("{e}"));
        let form = reqwest::multipart::Form::new()
            .part("file", part)
            .text("gifData", json!({"title": format!("Cat {i}"), "tags": ["cats"]}).to_string());
        let response = client
            .post(format!("{url}/api/gifs"))
            .bearer_auth(&token)
            .multipart(form)
            .send()
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(response.status(), 201);
        let body: GifDto = response.json().await.unwrap_or_else(|e| panic!("{e}"));
        ids.push(GifId(body.id));
    }
    ids
}

/// The kinds every animated GIF ends with (videos only when the tests were built with ffmpeg: the
/// server runs with `GIFSHELF_FFMPEG` set to it, or `off`).
fn expected_kinds() -> Vec<RenditionKind> {
    let video = cfg!(ffmpeg_tests);
    RenditionKind::ALL.into_iter().filter(|k| k.expected_for(3) && (video || !k.needs_ffmpeg())).collect()
}

/// Waits until every GIF has every expected kind and no job is left.
async fn wait_for_renditions(db: &Database, ids: &[GifId], within: Duration) {
    let expected = expected_kinds();
    let deadline = Instant::now() + within;
    loop {
        let mut missing = Vec::new();
        for id in ids {
            let gif = db.find(*id).await.unwrap_or_else(|e| panic!("{e}"));
            missing.extend(expected.iter().filter(|k| gif.rendition(**k).is_none()).map(|k| (id.0, k.as_str())));
        }
        let pending = db.pending(gifshelf_domain::job::Task::MAKE_RENDITIONS).await.unwrap_or_else(|e| panic!("{e}"));
        if missing.is_empty() && pending.is_empty() {
            return;
        }
        assert!(Instant::now() < deadline, "still missing {missing:?}, pending {pending:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn a_queued_job_survives_kill_9_and_runs_after_restart(test: TestDb) {
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = serve(&test.url, data.path(), 0);
    let ids = upload(&server.url(), 3).await;
    assert_eq!(
        test.db.pending(gifshelf_domain::job::Task::MAKE_RENDITIONS).await.unwrap_or_else(|e| panic!("{e}")).len(),
        3
    );
    drop(server); // SIGKILL: nothing graceful.
    let _server = serve(&test.url, data.path(), 1);
    wait_for_renditions(&test.db, &ids, Duration::from_secs(120)).await;
}

#[tokio::test]
async fn a_queued_job_survives_kill_9_and_runs_after_restart_sqlite() {
    a_queued_job_survives_kill_9_and_runs_after_restart(TestDb::sqlite()).await;
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn a_queued_job_survives_kill_9_and_runs_after_restart_postgres() {
    if let Some(test) = TestDb::postgres("jobs_kill") {
        a_queued_job_survives_kill_9_and_runs_after_restart(test).await;
    }
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn two_worker_processes_never_run_the_same_job() {
    let Some(test) = TestDb::postgres("jobs_two") else { return };
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = serve(&test.url, data.path(), 0);
    let ids = upload(&server.url(), 12).await;
    drop(server);
    let workers: Vec<Process> = (0..2)
        .map(|n| {
            let log = data.path().join(format!("worker{n}.log"));
            Process::start(env(&test.url, data.path(), 2).command(GIFSHELF).arg("worker"), &log)
                .unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    wait_for_renditions(&test.db, &ids, Duration::from_secs(180)).await;
    // Every claim is logged with its job id: each job was claimed exactly once in all.
    let mut claims: HashMap<String, usize> = HashMap::new();
    for worker in &workers {
        for line in worker.log().lines().filter(|l| l.contains("job claimed")) {
            let id = line.split("job_id=").nth(1).and_then(|rest| rest.split_whitespace().next()).unwrap_or("?");
            *claims.entry(id.to_owned()).or_default() += 1;
        }
    }
    assert_eq!(claims.len(), 12, "{claims:?}");
    assert!(claims.values().all(|&n| n == 1), "a job ran twice: {claims:?}");
}

#[tokio::test]
async fn the_backfill_command_gives_gifs_without_jobs_every_kind_they_miss() {
    let test = TestDb::sqlite();
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let server = serve(&test.url, data.path(), 0);
    let ids = upload(&server.url(), 2).await;
    drop(server);
    // As if stored before renditions were made by jobs: no job for them.
    let now = chrono::Utc::now().naive_utc();
    while let Some(job) =
        test.db.claim("test", now, now + chrono::Duration::minutes(1)).await.unwrap_or_else(|e| panic!("{e}"))
    {
        assert!(test.db.complete(job.id, "test").await.unwrap_or_else(|e| panic!("{e}")));
    }
    let output = env(&test.url, data.path(), 1)
        .command(GIFSHELF)
        .args(["renditions", "backfill", "--wait"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("2 GIFs looked at: 2 queued for renditions"), "{stdout}");
    assert!(String::from_utf8_lossy(&output.stderr).contains("2/2 GIFs with their renditions made"));
    wait_for_renditions(&test.db, &ids, Duration::from_secs(5)).await;
    // A second run finds nothing to do.
    let again = env(&test.url, data.path(), 1)
        .command(GIFSHELF)
        .args(["renditions", "backfill"])
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("2 GIFs looked at: 0 queued"),
        "{}",
        String::from_utf8_lossy(&again.stdout)
    );
}

/// Waits (at most `within`) until no job is queued: the worker claimed it (it runs or is done).
/// How long that took.
async fn wait_until_claimed(db: &Database, within: Duration) -> Duration {
    let started = Instant::now();
    loop {
        let counts = db.counts().await.unwrap_or_else(|e| panic!("{e}"));
        if counts.queued == 0 {
            return started.elapsed();
        }
        assert!(started.elapsed() < within, "no worker claimed the job within {within:?}: {counts:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn an_idle_worker_wakes_when_a_job_is_queued_not_at_its_next_poll() {
    let Some(test) = TestDb::postgres("jobs_wake") else { return };
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    // Idle workers poll once a minute: only a wake-up brings them back sooner.
    let server = env(&test.url, data.path(), 1)
        .set("GIFSHELF_JOB_POLL_MS", "60000")
        .spawn(GIFSHELF, &data.path().join("serve.log"))
        .unwrap_or_else(|e| panic!("{e}"));
    let url = server.url();
    // The renditions job inserted in the upload's own transaction.
    let ids = upload(&url, 1).await;
    let upload_claimed = wait_until_claimed(&test.db, Duration::from_secs(10)).await;
    wait_for_renditions(&test.db, &ids, Duration::from_secs(60)).await;
    // A job queued through the port once the worker is idle again (it finds nothing to make).
    let now = chrono::Utc::now().naive_utc();
    test.db.enqueue(gifshelf_domain::job::Task::MakeRenditions(ids[0]), now).await.unwrap_or_else(|e| panic!("{e}"));
    let enqueued_claimed = wait_until_claimed(&test.db, Duration::from_secs(10)).await;
    eprintln!("claimed {upload_claimed:?} after the upload, {enqueued_claimed:?} after the enqueue (poll: 60 s)");
}
