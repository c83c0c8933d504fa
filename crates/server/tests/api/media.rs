//! Large media files: ranged reads at any offset, and many slow downloads at once in memory far
//! below the bytes they fetch (the folder store streams bounded chunks, never the whole file).
//!
//! Uploads are small (the image pipeline decodes them), so the tests grow the stored original in
//! place: the bytes in the media folder and the size in the database.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;
use diesel::Connection;
use reqwest::{Method, StatusCode};

use crate::helpers::{send, Backend, TestApp};
use crate::{app, on_both_backends};

/// 48 MiB: far larger than the store's chunk and than any buffer of the server.
const LARGE: usize = 48 * 1024 * 1024;

/// Byte `i` of the large file: a GIF header, then a pattern that shows any offset error.
fn byte_at(i: usize) -> u8 {
    b"GIF89a".get(i).copied().unwrap_or((i % 251) as u8)
}

fn bytes_between(start: usize, end: usize) -> Vec<u8> {
    (start..end).map(byte_at).collect()
}

/// Replaces the only stored original with the large file (written a MiB at a time: this process
/// never holds a copy of it) and records its new size.
fn grow_the_original(app: &TestApp, id: i64) {
    let original = app
        .stored_files()
        .into_iter()
        .find(|f| f.ends_with("/original.gif"))
        .unwrap_or_else(|| panic!("no stored original in {:?}", app.stored_files()));
    let mut file = std::fs::File::create(&original).unwrap_or_else(|e| panic!("{e}"));
    for start in (0..LARGE).step_by(1 << 20) {
        file.write_all(&bytes_between(start, (start + (1 << 20)).min(LARGE))).unwrap_or_else(|e| panic!("{e}"));
    }
    let sql = format!(
        "UPDATE gifs SET content_size = {LARGE} WHERE id = {id}; \
         UPDATE gif_renditions SET size = {LARGE} WHERE gif_id = {id} AND kind = 'original'"
    );
    let url = app.database_url();
    let done = match url.strip_prefix("sqlite://") {
        Some(path) => diesel::SqliteConnection::establish(path).map(|mut c| c.batch_execute(&sql)),
        None => diesel::PgConnection::establish(url).map(|mut c| c.batch_execute(&sql)),
    };
    done.unwrap_or_else(|e| panic!("{e}")).unwrap_or_else(|e| panic!("{e}"));
}

async fn large_files_answer_ranges_at_any_offset(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let gif = alice.upload_gif("large", "", &[]).await;
    grow_the_original(&app, gif.id);
    let (len, mib) = (LARGE, 1024 * 1024);
    let anonymous = app.anonymous();
    for (client, url) in
        [(&alice, format!("/api/gifs/content/{}", gif.id)), (&anonymous, format!("/s/{}.gif", gif.share_id))]
    {
        for (range, (start, end)) in [
            ("bytes=0-5".to_owned(), (0, 5)),
            (format!("bytes={}-{}", mib - 3, mib + 4), (mib - 3, mib + 4)),
            (format!("bytes={}-{}", 20 * mib + 12_345, 23 * mib + 7), (20 * mib + 12_345, 23 * mib + 7)),
            (format!("bytes={}-", len - 10), (len - 10, len - 1)),
            ("bytes=-3".to_owned(), (len - 3, len - 1)),
        ] {
            let response = send(client.request(Method::GET, &url).header("range", &range)).await;
            assert_eq!(response.status(), StatusCode::PARTIAL_CONTENT, "{url} {range}");
            let content_range = response.headers().get("content-range").and_then(|v| v.to_str().ok());
            assert_eq!(content_range, Some(format!("bytes {start}-{end}/{len}").as_str()), "{url} {range}");
            let body = response.bytes().await.unwrap_or_default();
            assert!(body.as_ref() == bytes_between(start, end + 1), "{url} {range}: other bytes");
        }
        // The whole file, compared as it arrives.
        let mut whole = client.get(&url).await;
        assert_eq!(whole.status(), StatusCode::OK, "{url}");
        assert_eq!(whole.content_length(), Some(len as u64), "{url}");
        let mut offset = 0;
        while let Some(chunk) = whole.chunk().await.unwrap_or_else(|e| panic!("{e}")) {
            assert!(chunk.as_ref() == bytes_between(offset, offset + chunk.len()), "{url}: other bytes at {offset}");
            offset += chunk.len();
        }
        assert_eq!(offset, len, "{url}");
    }
}

/// This process's resident memory (the server runs in it), in bytes. A test that reads it runs
/// alone in a process of its own (`gifshelf_testkit::alone`): no other test's memory counts.
fn resident() -> u64 {
    gifshelf_testkit::Memory::of_this_process().resident_kib * 1024
}

/// A client that asks for the file, reads the headers and a little, then stops reading: the server
/// has the rest to send and nowhere to put it but its own buffers.
fn slow_download(address: &str, path: &str, token: &str) -> std::net::TcpStream {
    let mut stream = std::net::TcpStream::connect(address).unwrap_or_else(|e| panic!("{e}"));
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap_or_else(|e| panic!("{e}"));
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\nAuthorization: Bearer {token}\r\n\r\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let mut head = vec![0; 64 * 1024];
    let read = stream.read(&mut head).unwrap_or_else(|e| panic!("{e}"));
    assert!(head[..read].starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&head[..read.min(200)]));
    stream
}

/// Waits (at most 30 s) until the server has pushed all it can to the stalled `clients`: what waits
/// unread in each one's socket (seen with `look`, as much as it holds) stopped growing.
fn wait_until_stalled(clients: &[std::net::TcpStream], look: &mut [u8]) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let (mut unread, mut unchanged) = (Vec::new(), 0);
    while unchanged < 5 {
        assert!(Instant::now() < deadline, "the downloads still moved after 30 s: {unread:?} bytes unread");
        std::thread::sleep(Duration::from_millis(100));
        let now: Vec<usize> = clients.iter().map(|client| client.peek(look).unwrap_or(0)).collect();
        unchanged = if now == unread && now.iter().all(|&n| n > 0) { unchanged + 1 } else { 0 };
        unread = now;
    }
}

async fn slow_downloads_of_a_large_file_hold_little_memory(backend: Backend) {
    const CLIENTS: usize = 8;
    // It measures the memory of its process: alone in one, no other test beside it.
    if !gifshelf_testkit::alone() {
        return;
    }
    let app = app!(backend);
    let alice = app.user("alice").await;
    let gif = alice.upload_gif("large", "", &[]).await;
    grow_the_original(&app, gif.id);
    // Filled now, so that looking into the sockets later adds nothing to the memory measured.
    let mut look = vec![1_u8; 8 << 20];
    let before = resident();
    let (address, token) = (app.socket_address().to_owned(), alice.token().to_owned());
    let path = format!("/api/gifs/content/{}", gif.id);
    let clients = tokio::task::spawn_blocking(move || {
        let clients: Vec<_> = (0..CLIENTS).map(|_| slow_download(&address, &path, &token)).collect();
        // The server fills every socket buffer and its own, then waits.
        wait_until_stalled(&clients, &mut look);
        clients
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    let during = resident();
    drop(clients);
    let growth = during.saturating_sub(before);
    let fetched = (CLIENTS * LARGE) as u64;
    println!("{CLIENTS} stalled downloads of {} MiB: resident memory grew {} KiB", LARGE >> 20, growth >> 10);
    // Whole files in memory would be 384 MiB, a chunk or two each a few MiB; the margin is for the
    // clients and the server's ordinary work.
    assert!(growth < fetched / 4, "resident memory grew {growth} bytes for {CLIENTS} downloads of {LARGE}");
}

on_both_backends!(large_files_answer_ranges_at_any_offset, slow_downloads_of_a_large_file_hold_little_memory);
