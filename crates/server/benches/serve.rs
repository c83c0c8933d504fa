//! `cargo xtask bench serve`: throughput of the release binary under `wrk`, against processes as
//! they run in production (`gifshelf serve`, and nginx for comparison).
//!
//! - media: bytes per second of one GIF, gifshelf (embedded defaults: SQLite and a media folder)
//!   against nginx serving the very same file from that folder (when installed), each with the
//!   same `wrk` (connections, duration, keep-alive), by turns, the median of three runs each: the
//!   signed-in content URL (a bearer token), the public share URL, and a 1 MiB byte range of it,
//!   each against the target of 0.9× nginx; then the server's peak resident memory. The runs
//!   start once the server's own workers have made the upload's renditions;
//! - gallery: requests per second of the first gallery page with a session, on PostgreSQL (when
//!   `GIFSHELF_TEST_POSTGRES_URL` is set), with one instance and with two sharing the database.
//!
//! It measures; it never fails on a figure. Client and servers share the machine's cores, so the
//! figures compare set-ups on this machine rather than predict a server's capacity.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gifshelf_db::testing::{seed, TestDb};
use gifshelf_media::testing::noisy_gif;
use gifshelf_testkit::{ServerEnv, ServerProcess};

#[path = "common/mod.rs"]
mod common;

const DURATION: &str = "5s";
/// Runs of each case (gifshelf and nginx by turns); the median counts.
const ROUNDS: usize = 3;
/// gifshelf's bytes per second against nginx's on the same file.
const TARGET: f64 = 0.9;
/// Connections in all, whatever the number of instances.
const CONNECTIONS: usize = 16;
const GALLERY: &str = "/api/gifs/dtos?page=0&size=12";

/// nginx, stopped (`nginx -s stop`) when dropped.
struct Nginx {
    child: Child,
    stop: Command,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        if !self.stop.status().is_ok_and(|s| s.success()) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// A `gifshelf serve` as it runs in production (its own HTTP and job workers, on the embedded
/// defaults unless given a database), started with testkit.
struct Server {
    base: String,
    data: PathBuf,
    process: ServerProcess,
    _dir: tempfile::TempDir,
}

impl Server {
    fn start(database_url: Option<&str>) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let web = gifshelf_testkit::bare_web_dir(dir.path()).unwrap();
        let data = dir.path().join("data");
        let database_url = database_url.map_or_else(|| gifshelf_testkit::sqlite_url(&data), str::to_owned);
        let process = ServerEnv::new(&data, &web, &database_url)
            .unset("GIFSHELF_HTTP_WORKERS")
            .unset("GIFSHELF_WORKERS")
            .set("GIFSHELF_LOG", "warn")
            .spawn(env!("CARGO_BIN_EXE_gifshelf"), &dir.path().join("gifshelf.log"))
            .unwrap_or_else(|e| panic!("{e}"));
        Self { base: process.url(), data, process, _dir: dir }
    }
}

fn on_path(program: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/sbin")])
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// Polls `url` (nginx's) until it answers 200, for at most 30 s.
async fn wait_for(url: &str, what: &str) {
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !client.get(url).send().await.is_ok_and(|r| r.status().is_success()) {
        assert!(Instant::now() < deadline, "{what} did not answer {url} within 30 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// What `wrk` reported for one run.
#[derive(Debug, Default, Clone, Copy)]
struct Load {
    requests_per_sec: f64,
    /// Responses other than 2xx/3xx, and socket errors.
    failures: u64,
}

fn wrk(url: &str, connections: usize, token: Option<&str>) -> Child {
    wrk_with(url, connections, token.map(|t| format!("Authorization: Bearer {t}")).as_deref())
}

/// `wrk` with one extra request header (`Name: value`).
fn wrk_with(url: &str, connections: usize, header: Option<&str>) -> Child {
    let mut cmd = Command::new("wrk");
    cmd.args(["-t", &connections.min(2).to_string(), "-c", &connections.to_string(), "-d", DURATION]);
    if let Some(header) = header {
        cmd.args(["-H", header]);
    }
    cmd.arg(url).stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().expect("wrk")
}

fn wrk_result(child: Child) -> Load {
    let output = child.wait_with_output().expect("wrk's output");
    let text = String::from_utf8_lossy(&output.stdout);
    let mut load = Load::default();
    for line in text.lines().map(str::trim) {
        if let Some(value) = line.strip_prefix("Requests/sec:") {
            load.requests_per_sec = value.trim().parse().unwrap_or(0.0);
        } else if let Some(value) = line.strip_prefix("Non-2xx or 3xx responses:") {
            load.failures += value.trim().parse::<u64>().unwrap_or(0);
        } else if let Some(errors) = line.strip_prefix("Socket errors:") {
            load.failures +=
                errors.split(',').filter_map(|e| e.split_whitespace().last()?.parse::<u64>().ok()).sum::<u64>();
        }
    }
    assert!(load.requests_per_sec > 0.0, "wrk reported nothing:\n{text}");
    load
}

/// The run with the median rate (failures of every run added up).
fn median(runs: &[Load]) -> Load {
    let mut sorted = runs.to_vec();
    sorted.sort_by(|a, b| a.requests_per_sec.total_cmp(&b.requests_per_sec));
    let failures = runs.iter().map(|r| r.failures).sum();
    Load { failures, ..sorted[sorted.len() / 2] }
}

fn note(load: Load) -> String {
    if load.failures == 0 {
        String::new()
    } else {
        format!("  ({} failed requests)", load.failures)
    }
}

fn find_original(dir: &Path) -> Option<PathBuf> {
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if let Some(found) = find_original(&path) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == "original.gif") {
            return Some(path);
        }
    }
    None
}

/// nginx on a free port with `root` as its document root, from a generated minimal config.
fn start_nginx(nginx: &Path, root: &Path, dir: &Path) -> (Nginx, String) {
    // nginx cannot say which port it took: one free a moment ago.
    let port = gifshelf_testkit::free_port();
    let conf = dir.join("nginx.conf");
    std::fs::write(
        &conf,
        format!(
            "daemon off;
user root;
worker_processes 2;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    sendfile on;
    tcp_nopush on;
    types {{ image/gif gif; }}
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    server {{
        listen 127.0.0.1:{port};
        root {root};
    }}
}}
",
            dir = dir.display(),
            root = root.display(),
        ),
    )
    .unwrap();
    let args = |cmd: &mut Command| {
        cmd.arg("-p").arg(dir).arg("-c").arg(&conf).arg("-e").arg(dir.join("error.log"));
    };
    let mut cmd = Command::new(nginx);
    args(&mut cmd);
    let child = cmd.stdin(Stdio::null()).spawn().expect("nginx");
    let mut stop = Command::new(nginx);
    args(&mut stop);
    stop.args(["-s", "stop"]).stderr(Stdio::null());
    (Nginx { child, stop }, format!("http://127.0.0.1:{port}"))
}

/// Waits (at most two minutes) until the server's job queue is empty. Its own workers make the
/// upload's renditions and read its text: a run measured meanwhile would share the cores with them.
async fn wait_for_jobs(client: &reqwest::Client, base: &str) {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let metrics = client.get(format!("{base}/metrics")).send().await.unwrap().text().await.unwrap();
        let busy: f64 = metrics
            .lines()
            .filter(|l| l.starts_with("gifshelf_jobs_by_kind{"))
            .filter(|l| l.contains("state=\"queued\"") || l.contains("state=\"running\""))
            .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
            .sum();
        if busy == 0.0 {
            return;
        }
        assert!(Instant::now() < deadline, "the server's jobs were not done within two minutes:\n{metrics}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The byte range of the ranged run: 1 MiB from an odd offset.
const RANGE: (u64, u64) = (12_345, 12_345 + (1 << 20) - 1);

/// One case of the media runs: gifshelf alone, or against nginx serving the same file (with the
/// same header: nginx ignores the bearer token), by turns so that neither gets the machine's better
/// moments, the median of each.
fn compare(name: &str, url: &str, header: Option<&str>, bytes: u64, nginx: Option<&str>) {
    let mb = |load: Load| load.requests_per_sec * bytes as f64 / 1e6;
    let Some(nginx) = nginx else {
        let ours = wrk_result(wrk_with(url, CONNECTIONS, header));
        println!(
            "serve: media  {name:<11}  gifshelf {:>5.0} MB/s{}  (nginx not installed: apt-get install nginx)",
            mb(ours),
            note(ours)
        );
        return;
    };
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..ROUNDS {
        ours.push(wrk_result(wrk_with(url, CONNECTIONS, header)));
        theirs.push(wrk_result(wrk_with(nginx, CONNECTIONS, header)));
    }
    let (ours, theirs) = (median(&ours), median(&theirs));
    let ratio = mb(ours) / mb(theirs);
    println!(
        "serve: media  {name:<11}  gifshelf {:>5.0} MB/s  nginx {:>5.0} MB/s  ratio {ratio:.2}  (target >= {TARGET:.2}: {}){}{}",
        mb(ours),
        mb(theirs),
        if ratio >= TARGET { "met" } else { "not met" },
        note(ours),
        note(theirs)
    );
}

async fn media() {
    let server = Server::start(None);
    let client = reqwest::Client::new();
    let token = common::sign_in(&client, &server.base, "benchuser").await;
    let gif = noisy_gif(400, 300, 10);
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(gif.clone()).file_name("noise.gif"))
        .part("gifData", reqwest::multipart::Part::text(r#"{"title":"noise"}"#));
    let response = client.post(format!("{}/api/gifs", server.base)).bearer_auth(&token).multipart(form).send().await;
    let uploaded: serde_json::Value = response.unwrap().json().await.unwrap();
    let id = uploaded["id"].as_i64().unwrap_or_else(|| panic!("upload failed: {uploaded}"));
    let share = uploaded["shareId"].as_str().unwrap().to_owned();
    wait_for_jobs(&client, &server.base).await;
    let size = gif.len() as u64;
    assert!(RANGE.1 < size, "the range lies inside the file");
    let range = format!("Range: bytes={}-{}", RANGE.0, RANGE.1);
    let bearer = format!("Authorization: Bearer {token}");
    let content = format!("{}/api/gifs/content/{id}", server.base);
    let shared = format!("{}/s/{share}.gif", server.base);
    // What gifshelf serves, with its header; the bytes each answer carries.
    let cases = [
        ("signed-in", content.as_str(), Some(bearer.as_str()), size),
        ("share URL", shared.as_str(), None, size),
        ("range 1 MiB", shared.as_str(), Some(range.as_str()), RANGE.1 + 1 - RANGE.0),
    ];
    println!(
        "serve: media  one {:.2} MB GIF, wrk {CONNECTIONS} connections, {DURATION} each, keep-alive, median of {ROUNDS}",
        size as f64 / 1e6
    );

    let nginx = on_path("nginx");
    let media = server.data.join("media");
    let original = find_original(&media).expect("the uploaded original in the media folder");
    let path = original.strip_prefix(&media).unwrap().display().to_string();
    assert_eq!(std::fs::read(&original).unwrap(), gif, "the stored original is the upload");
    let dir = tempfile::tempdir().unwrap();
    let nginx = match &nginx {
        Some(nginx) => {
            let (process, base) = start_nginx(nginx, &media, dir.path());
            wait_for(&format!("{base}/{path}"), "nginx").await;
            Some((process, base))
        }
        None => None,
    };
    let idle = server.process.memory().resident_kib;
    for (name, url, header, bytes) in cases {
        let nginx_url = nginx.as_ref().map(|(_, base)| format!("{base}/{path}"));
        compare(name, url, header, bytes, nginx_url.as_deref());
    }
    let peak = server.process.memory().peak_kib;
    println!(
        "serve: media  gifshelf resident memory {:.0} MB before the runs, peak {:.0} MB ({CONNECTIONS} connections)",
        (idle * 1024) as f64 / 1e6,
        (peak * 1024) as f64 / 1e6
    );
}

async fn gallery() {
    let Some(test_db) = TestDb::postgres("bench_serve") else {
        println!("serve: gallery  skipped: set GIFSHELF_TEST_POSTGRES_URL to a PostgreSQL server");
        return;
    };
    let (users, gifs, tags) = (500, 10_000, 100);
    seed(&test_db.db, users, gifs, tags).unwrap();
    let a = Server::start(Some(&test_db.url));
    let client = reqwest::Client::new();
    let token = common::sign_in(&client, &a.base, "benchuser").await;
    let page = client.get(format!("{}{GALLERY}", a.base)).bearer_auth(&token).send().await.unwrap();
    assert!(page.status().is_success(), "gallery: {}", page.status());
    println!("serve: gallery  PostgreSQL, {gifs} GIFs, GET {GALLERY} with a session, {CONNECTIONS} connections in all");

    let one = wrk_result(wrk(&format!("{}{GALLERY}", a.base), CONNECTIONS, Some(&token)));
    let b = Server::start(Some(&test_db.url));
    // One wrk per instance, half the connections each, run together; their rates add up.
    let runs: Vec<Child> =
        [&a, &b].iter().map(|s| wrk(&format!("{}{GALLERY}", s.base), CONNECTIONS / 2, Some(&token))).collect();
    let both: Vec<Load> = runs.into_iter().map(wrk_result).collect();
    let two = both.iter().map(|l| l.requests_per_sec).sum::<f64>();
    let failures = Load { requests_per_sec: two, failures: both.iter().map(|l| l.failures).sum() };
    println!(
        "serve: gallery  one instance {:.0} req/s{}  two instances {two:.0} req/s (A {:.0} + B {:.0}, one wrk each, concurrently){}",
        one.requests_per_sec,
        note(one),
        both[0].requests_per_sec,
        both[1].requests_per_sec,
        note(failures)
    );
}

/// `wrk` runs block this thread: nothing else is running on the runtime meanwhile.
#[tokio::main(flavor = "current_thread")]
async fn main() {
    if on_path("wrk").is_none() {
        println!("serve: skipped: wrk is not installed (apt-get install wrk)");
        return;
    }
    // `cargo xtask bench serve -- media` (or `gallery`) runs one part.
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let runs = |part: &str| only.is_empty() || only.iter().any(|o| o == part);
    if runs("media") {
        media().await;
    }
    if runs("gallery") {
        gallery().await;
    }
}
