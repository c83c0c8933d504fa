//! `cargo xtask bench text`: the text in GIFs found by searching for it (issue 29). The bench makes
//! its own labelled set (`set.rs`: 60 captioned animations, every font, size and style in turn,
//! and 20 without text), then:
//!
//! 1. times `read_text` (the product's reader: the scenes' sheet and one Tesseract run) on each
//!    GIF, alone, and runs `tesseract` directly on each first frame (PNG, default page layout, one
//!    thread) as the anchor;
//! 2. uploads the 80 GIFs to the real application (SQLite, one job worker reading the text, over
//!    HTTP), waits until every text is read, then searches every caption word of three letters or
//!    more and 40 words in no caption, as a member does (`/api/gifs/dtos/search`).
//!
//! A word is found when its GIF is among the results; a GIF returned for a word its caption does
//! not hold (as a part of a word either, which is what the search matches) is a wrong return. The
//! anchor's figures apply the same rule to the text it read. It measures; it never fails on a figure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../common/mod.rs"]
mod common;
mod set;

use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use gifshelf_db::testing::TestDb;
use gifshelf_domain::job::Task;
use gifshelf_domain::ports::JobQueue;
use gifshelf_media::text::{read_text, Tesseract};
use gifshelf_server::{Application, Settings};
use set::{Labelled, ABSENT_WORDS};

/// What one GIF gave: the product's reading and time, the anchor's reading and time.
struct Read {
    text: String,
    ms: f64,
    anchor: String,
    anchor_ms: f64,
}

/// `read_text` on each GIF, then the anchor on its first frame.
fn read_all(set: &[Labelled], tesseract: &Tesseract) -> Vec<Read> {
    let limits = gifshelf_media::Limits::default();
    set.iter()
        .map(|gif| {
            let start = Instant::now();
            let lines = read_text(&gif.bytes, &limits, tesseract).unwrap();
            let ms = start.elapsed().as_secs_f64() * 1e3;
            let start = Instant::now();
            let anchor = tesseract_directly(tesseract, &gif.first_png);
            let anchor_ms = start.elapsed().as_secs_f64() * 1e3;
            Read { text: lines.join("\n"), ms, anchor, anchor_ms }
        })
        .collect()
}

/// `tesseract stdin stdout -l eng` on a PNG, one thread like the product's: its plain text.
fn tesseract_directly(tesseract: &Tesseract, png: &[u8]) -> String {
    let mut child = Command::new(tesseract.path())
        .args(["stdin", "stdout", "-l", "eng"])
        .env("OMP_THREAD_LIMIT", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(png).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The application on a fresh SQLite database with one job worker reading text: a client, the
/// base URL and a member's token.
async fn start(test_db: &TestDb, data: &std::path::Path, tesseract: &Tesseract) -> (reqwest::Client, String, String) {
    let mut vars: HashMap<String, String> = gifshelf_testkit::base_vars(data, data, &test_db.url).into_iter().collect();
    vars.insert("GIFSHELF_WORKERS".into(), "1".into());
    vars.insert("GIFSHELF_JOB_POLL_MS".into(), "50".into());
    vars.insert("GIFSHELF_TESSERACT".into(), tesseract.path().display().to_string());
    // Videos are not what this measures: the workers make the GIF renditions only.
    vars.insert("GIFSHELF_FFMPEG".into(), "off".into());
    let settings = Settings::from_sources(None, |k| vars.get(k).cloned()).unwrap();
    let app = Application::build(&settings).unwrap();
    let base = format!("http://127.0.0.1:{}", app.port());
    tokio::spawn(app.run_until_stopped());
    let client = reqwest::Client::new();
    let token = common::sign_in(&client, &base, "reader").await;
    (client, base, token)
}

/// Uploads each GIF (titled by its number only, so that no searched word is in a title) and
/// answers their ids in the set's order.
async fn upload_all(client: &reqwest::Client, base: &str, token: &str, set: &[Labelled]) -> Vec<i64> {
    let mut ids = Vec::with_capacity(set.len());
    for (i, gif) in set.iter().enumerate() {
        let data = serde_json::json!({"title": format!("t-{i:03}"), "description": "", "tags": []});
        let file = reqwest::multipart::Part::bytes(gif.bytes.clone()).file_name("x.gif").mime_str("image/gif").unwrap();
        let data = reqwest::multipart::Part::text(data.to_string()).mime_str("application/json").unwrap();
        let form = reqwest::multipart::Form::new().part("file", file).part("gifData", data);
        let answer = client.post(format!("{base}/api/gifs")).bearer_auth(token).multipart(form).send().await.unwrap();
        assert!(answer.status().is_success(), "{}: {}", gif.name, answer.status());
        let created: serde_json::Value = answer.json().await.unwrap();
        ids.push(created["id"].as_i64().unwrap());
    }
    ids
}

/// Until no text waits to be read (at most ten minutes).
async fn texts_read(test_db: &TestDb) {
    let deadline = Instant::now() + Duration::from_secs(600);
    while !test_db.db.pending(Task::READ_TEXT).await.unwrap().is_empty() {
        assert!(Instant::now() < deadline, "texts still unread after ten minutes");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The ids a member's search for `word` returns (the first 100: more than the set).
async fn search(client: &reqwest::Client, base: &str, token: &str, word: &str) -> Vec<i64> {
    let path = format!("{base}/api/gifs/dtos/search?q={word}&size=100");
    let page: serde_json::Value = client.get(path).bearer_auth(token).send().await.unwrap().json().await.unwrap();
    page["content"].as_array().unwrap().iter().filter_map(|g| g["id"].as_i64()).collect()
}

/// Found and wrongly returned, counted over (GIF, word) pairs.
#[derive(Default, Clone, Copy)]
struct Tally {
    found: usize,
    asked: usize,
    wrong: usize,
    absent: usize,
}

impl Tally {
    fn recall(self) -> f64 {
        100.0 * self.found as f64 / self.asked.max(1) as f64
    }

    fn wrong_rate(self) -> f64 {
        100.0 * self.wrong as f64 / self.absent.max(1) as f64
    }
}

/// Every searched word, and whether `returned(gif, word)` says each GIF is returned for it:
/// counted against what each caption holds.
fn tally(set: &[Labelled], words: &[String], returned: impl Fn(usize, &str) -> bool) -> Tally {
    let mut t = Tally::default();
    for word in words {
        for (i, gif) in set.iter().enumerate() {
            let holds = gif.caption.as_ref().is_some_and(|c| c.to_lowercase().contains(word.as_str()));
            let asked = gif.searched_words().contains(word);
            let back = returned(i, word);
            if asked {
                t.asked += 1;
                t.found += usize::from(back);
            } else if !holds {
                t.absent += 1;
                t.wrong += usize::from(back);
            }
        }
    }
    t
}

fn percentile(values: &[f64], p: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Recall through the search per font, size and style (the parts of each GIF's name).
fn by_look(set: &[Labelled], found: &HashMap<(usize, String), bool>) {
    let mut groups: Vec<(String, usize, usize)> = Vec::new();
    for (i, gif) in set.iter().enumerate().filter(|(_, g)| g.caption.is_some()) {
        for part in gif.name.split('/').skip(1) {
            let at = groups.iter().position(|(k, ..)| k == part).unwrap_or_else(|| {
                groups.push((part.to_owned(), 0, 0));
                groups.len() - 1
            });
            for word in gif.searched_words() {
                groups[at].1 += usize::from(found[&(i, word)]);
                groups[at].2 += 1;
            }
        }
    }
    let shown: Vec<String> = groups
        .iter()
        .map(|(k, f, n)| format!("{k} {:.0} % ({f}/{n})", 100.0 * *f as f64 / (*n).max(1) as f64))
        .collect();
    println!("found by searching, by look: {}", shown.join("; "));
}

/// Each GIF a search missed a word of, or was wrongly returned for: what it says and what was read.
fn misses(
    set: &[Labelled],
    reads: &[Read],
    wrong_for: impl Fn(usize) -> Vec<String>,
    found: &HashMap<(usize, String), bool>,
) {
    for (i, gif) in set.iter().enumerate() {
        let missed: Vec<String> = gif.searched_words().into_iter().filter(|w| !found[&(i, w.clone())]).collect();
        let wrong = wrong_for(i);
        if missed.is_empty() && wrong.is_empty() {
            continue;
        }
        println!(
            "  {:<40} says {:?}, read {:?}; missed {missed:?}, wrongly returned for {wrong:?}",
            gif.name,
            gif.caption.as_deref().unwrap_or(""),
            reads[i].text.replace('\n', " / "),
        );
    }
}

/// The five slowest readings, with their size: where the reading time goes.
fn print_slowest(set: &[Labelled], reads: &[Read]) {
    let mut order: Vec<usize> = (0..reads.len()).collect();
    order.sort_by(|a, b| reads[*b].ms.total_cmp(&reads[*a].ms));
    let slowest: Vec<String> = order
        .iter()
        .take(5)
        .map(|&i| format!("{} ({} KB) {:.0} ms", set[i].name, set[i].bytes.len() / 1024, reads[i].ms))
        .collect();
    println!("slowest readings: {}", slowest.join("; "));
}

fn verdict(met: bool) -> &'static str {
    if met {
        "met"
    } else {
        "NOT MET"
    }
}

fn print_table(search: Tally, direct: Tally, anchor: Tally, reads: &[Read]) {
    let ms: Vec<f64> = reads.iter().map(|r| r.ms).collect();
    let anchor_ms: Vec<f64> = reads.iter().map(|r| r.anchor_ms).collect();
    let (p50, p95) = (percentile(&ms, 0.5), percentile(&ms, 0.95));
    println!("\n{:<48} {:>26} {:>26}  verdict", "target", "measured (gifshelf)", "anchor (tesseract, 1st frame)");
    println!(
        "{:<48} {:>26} {:>26}  {}",
        "caption words found by searching ≥ 90 %",
        format!("{:.1} % ({}/{})", search.recall(), search.found, search.asked),
        format!("{:.1} % ({}/{})", anchor.recall(), anchor.found, anchor.asked),
        verdict(search.recall() >= 90.0)
    );
    println!(
        "{:<48} {:>26} {:>26}  {}",
        "searches for a word not in a GIF return it ≤ 2 %",
        format!("{:.2} % ({}/{})", search.wrong_rate(), search.wrong, search.absent),
        format!("{:.2} % ({}/{})", anchor.wrong_rate(), anchor.wrong, anchor.absent),
        verdict(search.wrong_rate() <= 2.0)
    );
    println!(
        "{:<48} {:>26} {:>26}  {}",
        "reading one GIF < 400 ms (p95; median)",
        format!("{p95:.0} ms; {p50:.0} ms"),
        format!("{:.0} ms; {:.0} ms", percentile(&anchor_ms, 0.95), percentile(&anchor_ms, 0.5)),
        verdict(p95 < 400.0)
    );
    println!(
        "(read_text's own words, before the search: {:.1} % found, {:.2} % wrong)",
        direct.recall(),
        direct.wrong_rate()
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let configured = std::env::var_os("GIFSHELF_TESSERACT").map(std::path::PathBuf::from);
    let tesseract = match Tesseract::detect(configured.as_deref()) {
        Ok(t) => t,
        Err(why) => {
            println!("text: nothing measured. {why}");
            return;
        }
    };
    println!("text: tesseract at {}", tesseract.path().display());
    let faces = set::fonts();
    let started = Instant::now();
    let set = set::make(&faces);
    let captioned = set.iter().filter(|g| g.caption.is_some()).count();
    println!(
        "made {} GIFs ({captioned} captioned, {} without text) in {:.1} s",
        set.len(),
        set.len() - captioned,
        started.elapsed().as_secs_f64()
    );

    let reads = read_all(&set, &tesseract);
    println!("read each GIF and each first frame ({:.1} s so far)", started.elapsed().as_secs_f64());
    print_slowest(&set, &reads);

    let test_db = TestDb::sqlite();
    let data = tempfile::tempdir().unwrap();
    let (client, base, token) = start(&test_db, data.path(), &tesseract).await;
    let ids = upload_all(&client, &base, &token, &set).await;
    texts_read(&test_db).await;
    println!("uploaded the set and read its text in the app ({:.1} s so far)", started.elapsed().as_secs_f64());

    let mut words: Vec<String> = set.iter().flat_map(Labelled::searched_words).collect();
    words.sort();
    words.dedup();
    words.extend(ABSENT_WORDS.iter().map(|w| (*w).to_owned()));
    let mut results: HashMap<String, Vec<i64>> = HashMap::new();
    for word in &words {
        results.insert(word.clone(), search(&client, &base, &token, word).await);
    }
    println!(
        "{} searches ({} caption words, {} in no caption)",
        words.len(),
        words.len() - ABSENT_WORDS.len(),
        ABSENT_WORDS.len()
    );

    let search_tally = tally(&set, &words, |i, w| results[w].contains(&ids[i]));
    let direct = tally(&set, &words, |i, w| reads[i].text.to_lowercase().contains(w));
    let anchor = tally(&set, &words, |i, w| reads[i].anchor.to_lowercase().contains(w));
    let found: HashMap<(usize, String), bool> = set
        .iter()
        .enumerate()
        .flat_map(|(i, g)| g.searched_words().into_iter().map(move |w| (i, w)))
        .map(|(i, w)| {
            let back = results[&w].contains(&ids[i]);
            ((i, w), back)
        })
        .collect();
    let wrong_for = |i: usize| -> Vec<String> {
        let caption = set[i].caption.as_deref().unwrap_or("").to_lowercase();
        words.iter().filter(|w| !caption.contains(w.as_str()) && results[*w].contains(&ids[i])).cloned().collect()
    };
    println!("GIFs with a word missed or returned wrongly:");
    misses(&set, &reads, wrong_for, &found);
    by_look(&set, &found);
    print_table(search_tally, direct, anchor, &reads);
    println!("total {:.0} s", started.elapsed().as_secs_f64());
}
