//! `gifshelf backup` while uploads run, then `gifshelf restore` into a fresh data folder: every
//! GIF row of the snapshot is the live one, each with its original file, every file byte-identical;
//! a second backup copies only new files; a corrupted file makes restore fail naming it and leave
//! nothing behind.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Output;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;

use gifshelf_media::testing::animated_gif;
use gifshelf_testkit::ServerEnv;
use serde_json::{json, Value};
use sha2::Digest;

/// `animated_gif(64, 48, 3)` with its last palette colour set from `n`: a different file each.
fn gif(n: u32) -> Vec<u8> {
    let mut bytes = animated_gif(64, 48, 3);
    let [a, b, ..] = n.to_le_bytes();
    bytes[13 + 765..13 + 768].copy_from_slice(&[a, b, 7]);
    bytes
}

fn run(env: &ServerEnv, args: &[&str]) -> Output {
    env.command(env!("CARGO_BIN_EXE_gifshelf")).args(args).output().unwrap()
}

fn ok(output: Output) -> String {
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{text}");
    text
}

/// The `gifs` rows of an export of the database at `url`.
fn gif_rows(env: &ServerEnv, url: &str, file: &Path) -> Vec<Value> {
    ok(run(env, &["export", "--to", file.to_str().unwrap(), "--database", url]));
    let rows = std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|line| line["table"] == "gifs")
        .map(|line| line["row"].clone())
        .collect();
    std::fs::remove_file(file).unwrap();
    rows
}

/// Every file below `dir`, relative, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            if entry.path().is_dir() {
                stack.push(entry.path());
            } else {
                let name = entry.path().strip_prefix(dir).unwrap().display().to_string();
                out.push((name, std::fs::read(entry.path()).unwrap()));
            }
        }
    }
    out.sort();
    out
}

async fn upload_until(base: String, token: String, stop: Arc<AtomicBool>, sent: Arc<AtomicU32>) {
    let client = reqwest::Client::new();
    while !stop.load(Ordering::Relaxed) {
        let n = sent.load(Ordering::Relaxed);
        let file = reqwest::multipart::Part::bytes(gif(n)).file_name("cat.gif").mime_str("image/gif").unwrap();
        let data = json!({"title": format!("gif {n}"), "description": "", "tags": ["load"]}).to_string();
        let data = reqwest::multipart::Part::text(data).mime_str("application/json").unwrap();
        let form = reqwest::multipart::Form::new().part("file", file).part("gifData", data);
        let answer = client.post(format!("{base}/api/gifs")).bearer_auth(&token).multipart(form).send().await.unwrap();
        assert_eq!(answer.status(), 201, "{}", answer.text().await.unwrap_or_default());
        sent.fetch_add(1, Ordering::Relaxed);
    }
}

async fn wait_for(sent: &AtomicU32, at_least: u32) {
    while sent.load(Ordering::Relaxed) < at_least {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_under_uploads_restores_whole_and_a_damaged_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (data, backup) = (dir.path().join("data"), dir.path().join("backup"));
    let web = gifshelf_testkit::bare_web_dir(dir.path()).unwrap();
    let live_url = gifshelf_testkit::sqlite_url(&data);
    // The generated secret, as a default install keeps it: the backup copies it.
    let env = ServerEnv::new(&data, &web, &live_url).unset("GIFSHELF_JWT_SECRET");
    let server = env.spawn(env!("CARGO_BIN_EXE_gifshelf"), &dir.path().join("gifshelf.log")).unwrap();
    let client = reqwest::Client::new();
    let base = server.url();
    let account = json!({"username": "alice", "email": "a@example.com", "password": "correct-horse-1", "confirmPassword": "correct-horse-1"});
    assert_eq!(client.post(format!("{base}/api/auth/register")).json(&account).send().await.unwrap().status(), 201);
    let login = json!({"username": "alice", "password": "correct-horse-1"});
    let session: Value =
        client.post(format!("{base}/api/auth/login")).json(&login).send().await.unwrap().json().await.unwrap();
    let token = session["token"].as_str().unwrap().to_owned();

    let (stop, sent) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicU32::new(0)));
    let load = tokio::spawn(upload_until(base.clone(), token, stop.clone(), sent.clone()));
    wait_for(&sent, 3).await;
    let (first_env, first_dir) = (env.clone(), backup.clone());
    let first = tokio::task::spawn_blocking(move || ok(run(&first_env, &["backup", first_dir.to_str().unwrap()])));
    let first = first.await.unwrap();
    wait_for(&sent, sent.load(Ordering::Relaxed) + 3).await;
    let (second_env, second_dir) = (env.clone(), backup.clone());
    let second = tokio::task::spawn_blocking(move || ok(run(&second_env, &["backup", second_dir.to_str().unwrap()])));
    let second = second.await.unwrap();
    stop.store(true, Ordering::Relaxed);
    load.await.unwrap();
    assert!(first.contains("already there") && !second.contains(" 0 already there"), "incremental: {first}\n{second}");

    let restored = dir.path().join("restored");
    let fresh = env.clone().set("GIFSHELF_DATA_DIR", restored.display().to_string());
    ok(run(&fresh, &["restore", backup.to_str().unwrap()]));
    let export = dir.path().join("export.jsonl");
    let restored_rows = gif_rows(&env, &gifshelf_testkit::sqlite_url(&restored), &export);
    let live_rows = gif_rows(&env, &live_url, &export);
    assert!(
        restored_rows.len() >= 6 && restored_rows.len() <= live_rows.len(),
        "{} of {}",
        restored_rows.len(),
        live_rows.len()
    );
    for row in &restored_rows {
        assert!(live_rows.contains(row), "the restored row is the live one: {row}");
    }
    let live_files = files(&data.join("media"));
    let restored_files = files(&restored.join("media"));
    for (name, bytes) in &restored_files {
        assert!(live_files.iter().any(|(n, b)| n == name && b == bytes), "{name} is byte-identical");
    }
    let originals: Vec<String> = restored_files
        .iter()
        .filter(|(name, _)| name.contains("original"))
        .map(|(_, bytes)| hex::encode(sha2::Sha256::digest(bytes)))
        .collect();
    for row in &restored_rows {
        assert!(originals.iter().any(|h| Some(h.as_str()) == row["sha256"].as_str()), "the original of {row}");
    }
    assert_eq!(std::fs::read(restored.join("jwt-secret")).unwrap(), std::fs::read(data.join("jwt-secret")).unwrap());

    let (damaged, _) = restored_files.iter().find(|(name, _)| name.contains("original")).unwrap();
    damage_is_refused(&env, dir.path(), &backup, damaged);
}

/// One flipped byte in the backup's `damaged`: restore names the file and writes nothing.
fn damage_is_refused(env: &ServerEnv, dir: &Path, backup: &Path, damaged: &str) {
    let path = backup.join("media").join(damaged);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&path, bytes).unwrap();
    let again = dir.join("again");
    let refused =
        run(&env.clone().set("GIFSHELF_DATA_DIR", again.display().to_string()), &["restore", backup.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && stderr.contains(damaged) && stderr.contains("checksum"), "{stderr}");
    assert!(!again.exists(), "nothing half-restored");
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".gifshelf-restore-"))
        .collect();
    assert!(leftovers.is_empty(), "the temporary folder is removed");
}
