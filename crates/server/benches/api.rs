//! `cargo xtask bench api [--gifs N] [--only PREFIX]`: p50/p95 of the gallery, a tag page, searches,
//! the search box's suggestions, details, the statistics, favourites, a collection of 5,000 GIFs,
//! random picks and every sort (first page and page 400) over real HTTP, each next to its target.
//! SQLite holds 100,000 GIFs; PostgreSQL (when `GIFSHELF_TEST_POSTGRES_URL` is set) holds N
//! (default 100,000; the targets are for 1,000,000), seeded by `COPY`, with one user per 50 GIFs,
//! one tag per 333 and text read in one GIF of four. `--only stats` measures only the requests
//! whose label starts with `stats`. `GIFSHELF_BENCH_KEEP_PG=name` keeps the PostgreSQL library in
//! the database `name`, seeded by the first run and measured again by later ones (drop it by hand
//! when done). It measures; it never fails on a figure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::time::{Duration, Instant};

use gifshelf_db::testing::{seed, TestDb};
use gifshelf_domain::ports::UserRepository;
use gifshelf_domain::user::Role;
use gifshelf_server::{Application, Settings};

#[path = "common/mod.rs"]
mod common;

/// The SQLite library's size (its targets are for 100,000 GIFs).
const SQLITE_GIFS: usize = 100_000;

/// p95 targets in milliseconds, per backend: (request, SQLite, PostgreSQL). SQLite's are the
/// library features' (sorts, favourites, collections, random), search and the statistics at
/// 100,000; PostgreSQL's are for 1,000,000 GIFs.
const TARGETS: &[(&str, Option<f64>, Option<f64>)] = &[
    ("collection, first page", Some(10.0), None),
    ("collection, page 400", Some(10.0), None),
    ("gallery, first page", Some(10.0), Some(20.0)),
    ("gallery, page 400", Some(10.0), Some(20.0)),
    ("tag page", None, Some(20.0)),
    ("user page", None, Some(20.0)),
    ("search, one word", Some(25.0), Some(50.0)),
    ("search, rare word", None, Some(10.0)),
    ("suggestions", Some(50.0), None),
    ("detail", None, Some(5.0)),
    ("stats overview", Some(20.0), Some(20.0)),
    ("stats detailed", Some(20.0), Some(20.0)),
    ("favourites page", Some(10.0), None),
    ("random", Some(10.0), None),
    ("random, tag", Some(10.0), None),
    ("random, search", Some(10.0), None),
];

fn target(label: &str, postgres: bool) -> Option<f64> {
    if label.starts_with("sort ") {
        // Every sort's first and 400th page, on SQLite.
        return (!postgres).then_some(10.0);
    }
    let (_, lite, pg) = TARGETS.iter().find(|(l, ..)| *l == label)?;
    if postgres {
        *pg
    } else {
        *lite
    }
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

async fn measure(client: &reqwest::Client, base: &str, token: &str, paths: &[String], rounds: usize) -> (f64, f64) {
    for path in paths.iter().take(5) {
        let _ = client.get(format!("{base}{path}")).bearer_auth(token).send().await.unwrap().bytes().await;
    }
    let mut times = Vec::with_capacity(rounds);
    for i in 0..rounds {
        let path = &paths[i % paths.len()];
        let start = Instant::now();
        let response = client.get(format!("{base}{path}")).bearer_auth(token).send().await.unwrap();
        assert!(response.status().is_success(), "{path}: {}", response.status());
        let _ = response.bytes().await.unwrap();
        times.push(start.elapsed());
    }
    times.sort();
    (percentile(&times, 0.5), percentile(&times, 0.95))
}

/// `kept`: the database was seeded by an earlier run (`GIFSHELF_BENCH_KEEP_PG`), and its admin
/// registered.
async fn run(name: &str, test_db: TestDb, kept: bool, gifs: usize, only: Option<&str>) {
    let postgres = name == "PostgreSQL";
    let (users, tags) = ((gifs / 50).max(1), (gifs / 333).max(1));
    let started = Instant::now();
    if kept {
        println!("\n== {name}: the kept library of an earlier run, asked for {gifs} GIFs");
    } else {
        // One GIF in four has text read in it, so that suggestions have caption words to propose.
        seed(&test_db.db, users, gifs, tags).unwrap();
        println!(
            "\n== {name}: seeded {gifs} GIFs, {users} users, {tags} tags in {:.1} s",
            started.elapsed().as_secs_f64()
        );
    }
    let data = tempfile::tempdir().unwrap();
    let (client, base, token) = start(&test_db, data.path(), !kept).await;
    let collection_id = fill(&client, &base, &token).await;
    let mut cases = cases(collection_id);
    cases.retain(|(label, ..)| only.is_none_or(|prefix| label.starts_with(prefix)));
    report(name, postgres, &client, &base, &token, cases).await;
}

/// Starts the server on the seeded database and signs an admin in: the client, the base URL and
/// the admin's token.
async fn start(test_db: &TestDb, data: &std::path::Path, register: bool) -> (reqwest::Client, String, String) {
    let vars: HashMap<String, String> = gifshelf_testkit::base_vars(data, data, &test_db.url).into_iter().collect();
    let settings = Settings::from_sources(None, |k| vars.get(k).cloned()).unwrap();
    let app = Application::build(&settings).unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    let client = reqwest::Client::new();
    if register {
        common::register(&client, &base, "benchadmin").await;
        test_db.db.set_role("benchadmin", Role::Admin).await.unwrap();
    }
    let token = common::log_in(&client, &base, "benchadmin").await;
    (client, base, token)
}

/// 500 favourites and a team collection of 5,000 GIFs; the collection's id.
async fn fill(client: &reqwest::Client, base: &str, token: &str) -> i64 {
    // 500 favourites for the favourites page, spread over the library.
    for i in 0..500 {
        let path = format!("{base}/api/gifs/{}/favourite", 1 + i * 199);
        client.put(path).bearer_auth(token).send().await.unwrap();
    }

    // A team collection of 5,000 GIFs, filled by bulk adds of 500.
    let collection: serde_json::Value = client
        .post(format!("{base}/api/collections"))
        .bearer_auth(token)
        .json(&serde_json::json!({"name": "Benchmark", "description": "", "visibility": "team"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let collection_id = collection["id"].as_i64().unwrap();
    for chunk in 0..10_i64 {
        let ids: Vec<i64> = (0..500).map(|i| 1 + (chunk * 500 + i) * 19).collect();
        let bulk = serde_json::json!({"ids": ids, "collectionId": collection_id});
        let answer = client.post(format!("{base}/api/gifs/bulk")).bearer_auth(token).json(&bulk).send().await.unwrap();
        assert!(answer.status().is_success(), "bulk add: {}", answer.status());
    }
    collection_id
}

/// The requests measured: a label, the paths taken in turn, and how many rounds.
fn cases(collection_id: i64) -> Vec<(&'static str, Vec<String>, usize)> {
    let mut cases: Vec<(&'static str, Vec<String>, usize)> = vec![
        ("collection, first page", vec![format!("/api/collections/{collection_id}/gifs?page=0&size=12")], 300),
        ("collection, page 400", vec![format!("/api/collections/{collection_id}/gifs?page=400&size=12")], 200),
        ("gallery, first page", vec!["/api/gifs/dtos?page=0&size=12".into()], 300),
        ("gallery, page 400", vec!["/api/gifs/dtos?page=400&size=12".into()], 200),
        (
            "tag page",
            (0..20)
                .map(|t| {
                    format!(
                        "/api/gifs/dtos/tag/{}-{t}?size=12",
                        [
                            "cat", "dog", "happy", "sad", "dance", "party", "reaction", "funny", "wow", "facepalm",
                            "cool", "hello", "thanks", "yes", "no", "coffee", "monday", "weekend", "rain", "sun"
                        ][t]
                    )
                })
                .collect(),
            300,
        ),
        ("user page", (1..=20).map(|u| format!("/api/gifs/dtos/user/seed{u}?size=12")).collect(), 300),
        (
            "search, one word",
            ["pizza", "robot", "coffee", "monday", "space"]
                .iter()
                .map(|w| format!("/api/gifs/dtos/search?q={w}&size=12"))
                .collect(),
            300,
        ),
        (
            "search, two words",
            ["cat%20dance", "happy%20monday", "robot%20wave", "sun%20pizza"]
                .iter()
                .map(|w| format!("/api/gifs/dtos/search?q={w}&size=12"))
                .collect(),
            300,
        ),
        ("search, rare word", vec!["/api/gifs/dtos/search?q=12345&size=12".into()], 200),
        (
            "suggestions",
            [
                "ca", "do", "ha", "pi", "ro", "co", "mo", "we", "sp", "th", "hap", "cof", "rob", "dan", "part", "mond",
                "a pi", "zq",
            ]
            .iter()
            .map(|p| format!("/api/search/suggestions?q={}", p.replace(' ', "%20")))
            .collect(),
            300,
        ),
        ("detail", (0..50).map(|i| format!("/api/gifs/dto/{}", 1 + i * 1999)).collect(), 300),
        ("stats overview", vec!["/api/stats".into()], 40),
        ("stats detailed", vec!["/api/stats/detailed".into()], 40),
        ("favourites page", vec!["/api/gifs/dtos/favourites?size=12".into()], 300),
        ("random", vec!["/api/gifs/random".into()], 300),
        ("random, tag", vec!["/api/gifs/random?tag=cat-0".into()], 200),
        ("random, search", vec!["/api/gifs/random?q=pizza".into()], 200),
    ];
    let sorts: [(&str, &str, &str); 5] = [
        ("newest", "sort newest, first", "sort newest, page 400"),
        ("oldest", "sort oldest, first", "sort oldest, page 400"),
        ("views", "sort views, first", "sort views, page 400"),
        ("favourites", "sort favourites, first", "sort favourites, page 400"),
        ("title", "sort title, first", "sort title, page 400"),
    ];
    for (sort, first, deep) in sorts {
        cases.push((first, vec![format!("/api/gifs/dtos?sort={sort}&page=0&size=12")], 200));
        cases.push((deep, vec![format!("/api/gifs/dtos?sort={sort}&page=400&size=12")], 100));
    }
    cases
}

/// Measures every case and prints it against its target.
async fn report(
    name: &str,
    postgres: bool,
    client: &reqwest::Client,
    base: &str,
    token: &str,
    cases: Vec<(&'static str, Vec<String>, usize)>,
) {
    println!("{:<26} {:>9} {:>9} {:>11}  met", "request", "p50 ms", "p95 ms", "target p95");
    let (mut met, mut missed) = (0, Vec::new());
    for (label, paths, rounds) in cases {
        let (p50, p95) = measure(client, base, token, &paths, rounds).await;
        let (goal, verdict) = match target(label, postgres) {
            Some(goal) if p95 < goal => (format!("< {goal:.0}"), "yes"),
            Some(goal) => (format!("< {goal:.0}"), "NO"),
            None => (String::new(), ""),
        };
        match verdict {
            "yes" => met += 1,
            "NO" => missed.push(label),
            _ => {}
        }
        println!("{label:<26} {p50:>9.2} {p95:>9.2} {goal:>11}  {verdict}");
    }
    println!(
        "{name}: {met} targets met; missed: {}",
        if missed.is_empty() { "none".to_owned() } else { missed.join(", ") }
    );
}

/// The value after `flag` in the bench's arguments (cargo adds `--bench`, which is ignored).
fn argument(flag: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned()
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let gifs =
        argument("--gifs").map_or(100_000, |n| n.replace(['_', ','], "").parse().expect("--gifs takes a number"));
    let only = argument("--only");
    run("SQLite", TestDb::sqlite(), false, SQLITE_GIFS, only.as_deref()).await;
    // A name in GIFSHELF_BENCH_KEEP_PG keeps the PostgreSQL library for the next run, which
    // measures it again without seeding (a million GIFs take minutes to seed).
    let kept = std::env::var("GIFSHELF_BENCH_KEEP_PG").ok().filter(|name| !name.is_empty());
    let postgres = match &kept {
        Some(name) => TestDb::postgres_kept(name).map(|(db, made)| (db, !made)),
        None => TestDb::postgres("bench").map(|db| (db, false)),
    };
    match postgres {
        Some((db, seeded)) => run("PostgreSQL", db, seeded, gifs, only.as_deref()).await,
        None => println!("\nPostgreSQL skipped: set GIFSHELF_TEST_POSTGRES_URL"),
    }
}
