//! The maker's job killed half way: `gifshelf serve` dies by SIGKILL (a fail point of the job)
//! after the GIF was made but before it was stored, and after it was stored but before the job
//! was marked done. Restarted, the job runs again once its lease has passed and ends `done` with
//! exactly one GIF: never a half one, never two. On SQLite and on PostgreSQL.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::time::{Duration, Instant};

use gifshelf_db::testing::TestDb;
use gifshelf_domain::failpoint::{MAKE_AFTER_ENGINE, MAKE_AFTER_UPLOAD};
use gifshelf_http::dto::{MakeStartedDto, MakeStatusDto, PagedGifs};
use gifshelf_media::testing::animated_gif;
use gifshelf_testkit::{ServerEnv, ServerProcess};
use serde_json::json;

mod common;

use common::{sign_in_alice, GIFSHELF};

/// `gifshelf serve` with one job worker on a short lease, killed at `fail_at` if given.
fn start(db_url: &str, data: &Path, fail_at: Option<&str>) -> ServerProcess {
    let env = ServerEnv::new(data, data, db_url)
        .set("GIFSHELF_LOG", "info")
        .set("GIFSHELF_WORKERS", "1")
        .set("GIFSHELF_JOB_POLL_MS", "100")
        .set("GIFSHELF_JOB_LEASE_SECS", "2");
    let env = match fail_at {
        Some(point) => env.set("GIFSHELF_FAIL_AT", point),
        None => env,
    };
    env.spawn(GIFSHELF, &data.join("server.log")).unwrap_or_else(|e| panic!("{e}"))
}

async fn status(client: &reqwest::Client, url: &str, token: &str, job: i64) -> MakeStatusDto {
    let response = client.get(format!("{url}/api/make/{job}")).bearer_auth(token).send().await;
    response.unwrap_or_else(|e| panic!("{e}")).json().await.unwrap_or_else(|e| panic!("{e}"))
}

async fn killed_at(db: &TestDb, point: &str) {
    let data = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let client = reqwest::Client::new();
    let mut server = start(&db.url, data.path(), Some(point));
    let url = server.url();
    let token = sign_in_alice(&client, &url).await;
    let recipe = json!({"start": 0.0, "end": 0.4, "width": 240, "fps": 10, "speed": 1.0, "direction": "boomerang"});
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(animated_gif(80, 60, 4)).file_name("cat.gif"))
        .text("gifData", json!({"title": "Made", "tags": []}).to_string())
        .text("recipe", recipe.to_string());
    let response = client.post(format!("{url}/api/make")).bearer_auth(&token).multipart(form).send().await;
    let response = response.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(response.status(), 202);
    let started: MakeStartedDto = response.json().await.unwrap_or_else(|e| panic!("{e}"));
    let died = server.wait().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(died.signal(), Some(9), "{point}: killed by SIGKILL at the fail point");

    let server = start(&db.url, data.path(), None);
    let url = server.url();
    let deadline = Instant::now() + Duration::from_secs(60);
    let done = loop {
        let now = status(&client, &url, &token, started.job_id).await;
        if now.state == "done" || now.state == "failed" {
            break now;
        }
        assert!(Instant::now() < deadline, "{point}: still {now:?}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(done.state, "done", "{point}: {done:?}");
    let page: PagedGifs = client
        .get(format!("{url}/api/gifs/dtos?page=0&size=10"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .json()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let ids: Vec<i64> = page.content.iter().map(|g| g.id).collect();
    assert_eq!(ids, done.gif_id.into_iter().collect::<Vec<_>>(), "{point}: exactly the made GIF");
    // 4 frames forward and 2 back.
    assert_eq!(page.content[0].frame_count, 6, "{point}");
    let sources: Vec<_> = walk(&data.path().join("media")).into_iter().filter(|f| f.contains("/make/")).collect();
    assert!(sources.is_empty(), "{point}: the source was kept: {sources:?}");
}

fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path.display().to_string());
        }
    }
    out
}

async fn every_point(db: impl Fn(&str) -> Option<TestDb>) {
    for point in [MAKE_AFTER_ENGINE, MAKE_AFTER_UPLOAD] {
        let Some(db) = db(point) else { return };
        killed_at(&db, point).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_make_killed_half_way_runs_again_and_stores_one_gif_on_sqlite() {
    every_point(|_| Some(TestDb::sqlite())).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(postgres_tests), ignore = "GIFSHELF_TEST_POSTGRES_URL is not set: the PostgreSQL half did not run")]
async fn a_make_killed_half_way_runs_again_and_stores_one_gif_on_postgres() {
    every_point(|point| TestDb::postgres(&format!("make_crash_{}", point.replace('.', "_")))).await;
}
