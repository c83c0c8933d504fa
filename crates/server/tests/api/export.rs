//! "Download my GIFs": a ZIP streamed from the server with every original the user uploaded and
//! a manifest; memory stays flat however large the library is.

use std::collections::HashMap;

use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::Value;

use gifshelf_media::testing::crc32;

use gifshelf_http::dto::GifDto;

use crate::helpers::{dto_of, error_of, png, Backend};
use crate::{app, on_both_backends};

/// The entries of a ZIP file (stored entries), read through its central directory; each entry's
/// CRC-32 is checked.
fn unzip(archive: &[u8]) -> HashMap<String, Vec<u8>> {
    let u16_at = |at: usize| u16::from_le_bytes([archive[at], archive[at + 1]]) as usize;
    let u32_at =
        |at: usize| u32::from_le_bytes([archive[at], archive[at + 1], archive[at + 2], archive[at + 3]]) as usize;
    let end = archive.len() - 22;
    assert_eq!(u32_at(end), 0x0605_4b50, "end of central directory");
    let (count, mut at) = (u16_at(end + 10), u32_at(end + 16));
    let mut files = HashMap::new();
    for _ in 0..count {
        assert_eq!(u32_at(at), 0x0201_4b50, "central header");
        let (crc, size, name_len, extra_len, comment_len) =
            (u32_at(at + 16) as u32, u32_at(at + 24), u16_at(at + 28), u16_at(at + 30), u16_at(at + 32));
        let local = u32_at(at + 42);
        let name = String::from_utf8(archive[at + 46..at + 46 + name_len].to_vec()).unwrap_or_default();
        assert_eq!(u32_at(local), 0x0403_4b50, "local header of {name}");
        let data_at = local + 30 + u16_at(local + 26) + u16_at(local + 28);
        let data = archive[data_at..data_at + size].to_vec();
        assert_eq!(crc32(&data), crc, "CRC of {name}");
        files.insert(name, data);
        at += 46 + name_len + extra_len + comment_len;
    }
    files
}

async fn the_archive_holds_every_original_of_the_user_and_a_manifest(backend: Backend) {
    let app = app!(backend);
    let alice = app.signed_in("alice").await;
    let bob = app.signed_in("bob").await;
    let mut sent = HashMap::new();
    for (n, title) in ["Dancing cat", "Dancing cat", "../../etc/passwd"].iter().enumerate() {
        let gif = app.upload_gif(&alice, title, &format!("number {n}"), &["cats", "fun"]).await;
        sent.insert(gif.id, gif);
    }
    let still = png(40, 30);
    let photo: GifDto =
        dto_of(app.upload(&alice, "p.png", still.clone(), "A still", "", &[]).await, StatusCode::CREATED).await;
    let _: GifDto = dto_of(app.upload(&bob, "b.png", png(41, 30), "Bob's", "", &[]).await, StatusCode::CREATED).await;

    let response = app.get("/api/settings/export.zip", Some(&alice)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    assert_eq!(header("content-type"), "application/zip");
    assert!(
        header("content-disposition").starts_with("attachment; filename=\"gifshelf-"),
        "{}",
        header("content-disposition")
    );
    let archive = response.bytes().await.unwrap_or_default();
    let files = unzip(&archive);
    assert_eq!(files.len(), 5, "four originals and the manifest: {:?}", files.keys().collect::<Vec<_>>());

    // Untyped on purpose: manifest.json is a file for other tools, so its keys are what is checked.
    let manifest: Value = serde_json::from_slice(&files["manifest.json"]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(manifest["count"], 4);
    let listed = manifest["gifs"].as_array().cloned().unwrap_or_default();
    assert_eq!(listed.len(), 4);
    for entry in &listed {
        let id = entry["id"].as_i64().unwrap_or_default();
        let file = entry["file"].as_str().unwrap_or_default();
        assert!(!file.contains('/') && !file.contains(".."), "{file}");
        let original =
            app.get(&format!("/api/gifs/content/{id}"), Some(&alice)).await.bytes().await.unwrap_or_default();
        assert_eq!(files[file], original.as_ref(), "{file} is the stored original byte for byte");
        assert_eq!(entry["size"].as_u64(), Some(original.len() as u64));
        if let Some(gif) = sent.get(&id) {
            assert_eq!(entry["title"], gif.title.as_str());
            assert_eq!(entry["description"], gif.description.as_str());
            assert_eq!(entry["tags"], serde_json::json!(["cats", "fun"]));
            assert_eq!(entry["uploadedAt"], gif.uploaded_at.as_str());
            assert!(file.ends_with(".gif"), "{file}");
        } else {
            assert_eq!(id, photo.id);
            assert_eq!(files[file], still, "a PNG without metadata is stored as sent");
            assert!(file.ends_with(".png"), "{file}");
        }
    }
    assert!(!String::from_utf8_lossy(&files["manifest.json"]).contains("Bob's"), "only alice's GIFs");

    // The session cookie is enough (a plain link); nobody else gets it.
    error_of(app.get("/api/settings/export.zip", None).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
    let empty = unzip(
        &app.get("/api/settings/export.zip", Some(&app.signed_in("carol").await))
            .await
            .bytes()
            .await
            .unwrap_or_default(),
    );
    assert_eq!(empty.keys().collect::<Vec<_>>(), ["manifest.json"]);
}

/// The resident memory of this process (the app runs inside it), in MiB. A test that reads it runs
/// alone in a process of its own (`gifshelf_testkit::alone`): no other test's memory counts.
fn rss_mib() -> u64 {
    gifshelf_testkit::Memory::of_this_process().resident_kib / 1024
}

async fn a_200_mb_archive_streams_with_flat_memory(backend: Backend) {
    // It measures the memory of its process: alone in one, no other test beside it.
    if !gifshelf_testkit::alone() {
        return;
    }
    let app = app!(backend);
    let token = app.signed_in("alice").await;
    // Ten GIFs whose stored originals are then swapped for 20 MB files on disk: 200 MB to send
    // without decoding 200 MB of GIFs first.
    const BIG: usize = 20 * 1024 * 1024;
    let mut ids = Vec::new();
    for n in 0..10 {
        let gif = app.upload_gif(&token, &format!("big {n}"), "", &[]).await;
        ids.push(gif.id);
    }
    let originals: Vec<std::path::PathBuf> =
        app.stored_files().into_iter().filter(|f| f.ends_with("original.gif")).map(std::path::PathBuf::from).collect();
    assert_eq!(originals.len(), 10, "{originals:?}");
    for (n, path) in originals.iter().enumerate() {
        let mut big = vec![n as u8; BIG];
        big[..6].copy_from_slice(b"GIF89a");
        std::fs::write(path, &big).unwrap_or_else(|e| panic!("{e}"));
    }

    let before = rss_mib();
    let response = app.get("/api/settings/export.zip", Some(&token)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = response.bytes_stream();
    let (mut total, mut peak) = (0_usize, 0_u64);
    let mut tail: Vec<u8> = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.unwrap_or_else(|e| panic!("{e}"));
        total += chunk.len();
        tail.extend_from_slice(&chunk);
        let keep = tail.len().saturating_sub(64 * 1024);
        tail.drain(..keep);
        peak = peak.max(rss_mib());
    }
    let grown = peak.saturating_sub(before);
    eprintln!("streamed {} MiB; the process grew by at most {grown} MiB", total / (1024 * 1024));
    assert!(total > 10 * BIG, "{total} bytes");
    assert!(grown < 60, "the process grew by {grown} MiB while streaming {} MiB", total / (1024 * 1024));
    // The archive ends with a manifest naming all ten.
    let text = String::from_utf8_lossy(&tail);
    for id in ids {
        assert!(text.contains(&format!("\"id\": {id},")), "manifest lists {id}");
    }
}

on_both_backends!(
    the_archive_holds_every_original_of_the_user_and_a_manifest,
    a_200_mb_archive_streams_with_flat_memory
);
