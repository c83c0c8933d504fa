//! Bad input to the upload and the image pipeline.

use super::*;

// ---------------------------------------------------------------------------------------------
// Upload and the image pipeline

pub(super) async fn upload_size_cap_is_413_with_or_without_a_content_length(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let max = 10 * 1024 * 1024;
    // Exactly at the limit passes the size check (and is then refused for its bytes).
    let at_limit = alice.upload("x.gif", vec![b'G'; max], "at the limit", "", &[]).await;
    refused(&app, &alice, at_limit, StatusCode::BAD_REQUEST, "unsupported_type").await;
    let over = alice.upload("x.gif", vec![b'G'; max + 1], "one byte over", "", &[]).await;
    let message = refused(&app, &alice, over, StatusCode::PAYLOAD_TOO_LARGE, "too_large").await;
    assert_eq!(message, "The file is larger than the 10 MB limit.");

    // A chunked body, with no Content-Length, is cut off at the limit as it streams in.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        (0..10).map(|_| Ok(vec![b'G'; 1024 * 1024])).chain([Ok(vec![b'G'])]).collect();
    let part = reqwest::multipart::Part::stream(reqwest::Body::wrap_stream(futures_util::stream::iter(chunks)))
        .file_name("x.gif");
    let form =
        reqwest::multipart::Form::new().part("file", part).text("gifData", json!({"title": "chunked"}).to_string());
    let chunked = send(alice.request(Method::POST, "/api/gifs").multipart(form)).await;
    refused(&app, &alice, chunked, StatusCode::PAYLOAD_TOO_LARGE, "too_large").await;

    // A declared length far over the limit is refused before a byte of the body is read.
    let addr = app.socket_address().to_owned();
    let head = upload_head(&addr, alice.token(), 1 << 30);
    let (status, body) = tokio::task::spawn_blocking(move || {
        let mut stream = connect(&addr);
        stream.write_all(&head).unwrap_or_else(|e| panic!("{e}"));
        read_response(&mut stream)
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(status, 413, "{body}");
    let body: ApiErrorBody = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert_eq!(body.code, ErrorCode::TooLarge);
    nothing_stored(&app, &alice).await;
    still_serving(&app).await;
}

pub(super) async fn upload_lying_type_is_stored_as_the_sniffed_type(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    // PNG bytes, named x.gif, sent as image/gif.
    let gif: GifDto =
        dto_of(alice.upload("x.gif", png(40, 30), "a png in disguise", "", &[]).await, StatusCode::CREATED).await;
    assert_eq!(gif.content_type, "image/png");
    let id = gif.id;
    for path in ["content", "thumbnail", "static-thumbnail"] {
        let served = alice.get(&format!("/api/gifs/{path}/{id}")).await;
        assert_eq!(header(&served, "content-type"), "image/png", "{path}");
        assert!(served.bytes().await.unwrap_or_default().starts_with(b"\x89PNG"), "{path}");
    }
    let files = app.stored_files();
    assert!(
        files.iter().any(|f| f.ends_with("/original.png")) && !files.iter().any(|f| f.contains(".gif")),
        "{files:?}"
    );
    still_serving(&app).await;
}

pub(super) async fn upload_not_an_image_is_400_and_unneeded_codecs_are_compiled_out(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let cases: [(&str, &[u8]); 8] = [
        ("x.gif", b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"><script>alert(2)</script></svg>"),
        ("x.png", b"<?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
        ("x.gif", b"<!doctype html><html><body><script>alert(document.cookie)</script></body></html>"),
        ("x.gif", b"just some text, renamed to .gif\n"),
        ("x.png", b"II*\0\x08\0\0\0\x01\0\0\x01\x03\0\x01\0\0\0\x01\0\0\0\0\0\0\0"),
        ("x.gif", b"MM\0*\0\0\0\x08\0\x01\x01\0\0\x03\0\0\0\x01\0\x01\0\0\0\0\0\0"),
        (
            "x.gif",
            b"BM\x3a\0\0\0\0\0\0\0\x36\0\0\0\x28\0\0\0\x01\0\0\0\x01\0\0\0\x01\0\x18\0\0\0\0\0\x04\0\0\0\
              \0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\xff\0",
        ),
        ("x.png", b"\0\0\x01\0\x01\0\x10\x10\0\0\x01\0\x20\0\x68\x04\0\0\x16\0\0\0"),
    ];
    for (name, bytes) in cases {
        let message = refused(
            &app,
            &alice,
            alice.upload(name, bytes.to_vec(), "not an image", "", &[]).await,
            StatusCode::BAD_REQUEST,
            "unsupported_type",
        )
        .await;
        assert_eq!(message, "The file is not a supported image; upload a GIF, PNG, JPEG or WebP file.");
    }
    // The image crate is built with its default features off: only the four codecs we accept.
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../Cargo.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    let line = manifest.lines().find(|l| l.starts_with("image = ")).unwrap_or_else(|| panic!("no image dependency"));
    assert!(line.contains("default-features = false"), "{line}");
    let features = line.split("features = [").nth(1).and_then(|f| f.split(']').next()).unwrap_or_default();
    let mut features: Vec<&str> = features.split(',').map(|f| f.trim().trim_matches('"')).collect();
    features.sort_unstable();
    assert_eq!(features, ["gif", "jpeg", "png", "webp"], "{line}");
}

pub(super) async fn upload_corrupt_files_are_400_invalid_image(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let whole = animated_gif(64, 48, 3);
    // Header, screen descriptor and the 256-colour table: 13 + 768 bytes.
    let header_only = &whole[..13 + 768];
    let mut state = 0x2545_f491_u32;
    let mut noise = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                (state >> 7) as u8
            })
            .collect()
    };
    let mut garbage_blocks = header_only.to_vec();
    garbage_blocks.push(0x01);
    garbage_blocks.extend(noise(600));
    // A well-formed 64×48 frame whose compressed data is noise.
    let mut garbage_pixels = header_only.to_vec();
    garbage_pixels.extend_from_slice(&[0x2C, 0, 0, 0, 0, 64, 0, 48, 0, 0, 8]);
    garbage_pixels.extend(sub_blocks(&noise(300)));
    garbage_pixels.push(0x3B);
    let mut no_frames = header_only.to_vec();
    no_frames.push(0x3B);
    let still = png(40, 30);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        // Cut inside its first frame (a file cut after complete frames keeps them, as browsers do).
        ("GIF cut inside its first frame", whole[..13 + 768 + 60].to_vec()),
        ("GIF signature only", b"GIF89a".to_vec()),
        ("garbage after the header", garbage_blocks),
        ("garbage LZW data", garbage_pixels),
        ("zero frames", no_frames),
        ("truncated PNG", still[..still.len() / 2].to_vec()),
    ];
    for (case, bytes) in cases {
        let response = alice.upload("x.gif", bytes, case, "", &[]).await;
        let message = refused(&app, &alice, response, StatusCode::BAD_REQUEST, "invalid_image").await;
        if case == "zero frames" {
            assert_eq!(message, "The GIF file contains no frames.");
        }
    }
}

pub(super) async fn upload_canvas_bomb_is_400_and_memory_stays_flat(backend: Backend) {
    // It measures the memory of its process: alone in one, no other test beside it.
    if !gifshelf_testkit::alone() {
        return;
    }
    let app = app!(backend);
    let alice = app.user("alice").await;
    let bomb = canvas_bomb();
    assert!(bomb.len() < 70, "{} bytes", bomb.len());
    let before = peak_rss_kib();
    let response = alice.upload("bomb.gif", bomb, "canvas bomb", "", &[]).await;
    let message = refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_large").await;
    assert_eq!(message, "The image is 65535×65535 pixels; the limit is 8192×8192.");
    // A 65535×65535 canvas is 17 GB; had it been allocated the process would have aborted.
    assert!(peak_rss_kib().saturating_sub(before) < MEMORY_MARGIN_KIB, "memory grew");
}

pub(super) async fn upload_pixel_flood_png_is_400_before_any_allocation(backend: Backend) {
    // It measures the memory of its process: alone in one, no other test beside it.
    if !gifshelf_testkit::alone() {
        return;
    }
    let app = app!(backend);
    let alice = app.user("alice").await;
    let flood = png_pixel_flood();
    assert!(flood.len() < 100, "{} bytes", flood.len());
    let before = peak_rss_kib();
    let response = alice.upload("flood.png", flood, "pixel flood", "", &[]).await;
    let message = refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_large").await;
    assert!(message.contains("50000×50000"), "{message}");
    assert!(peak_rss_kib().saturating_sub(before) < MEMORY_MARGIN_KIB, "memory grew");
}

pub(super) async fn upload_frame_flood_is_400_at_the_frame_cap(backend: Backend) {
    // It measures the memory of its process: alone in one, no other test beside it.
    if !gifshelf_testkit::alone() {
        return;
    }
    let app = app!(backend);
    let alice = app.user("alice").await;
    // 3000 real 512×512 frames (each decodes to its full size): a few MB of file.
    let flood = run_gif(512, 512, 3000, 0);
    assert!((1_000_000..10_000_000).contains(&flood.len()), "{} bytes", flood.len());
    let before = peak_rss_kib();
    let response = alice.upload("frames.gif", flood, "frame flood", "", &[]).await;
    let message = refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_large").await;
    assert_eq!(message, "The animation has more than 2000 frames, which is the limit.");
    assert!(peak_rss_kib().saturating_sub(before) < MEMORY_MARGIN_KIB, "memory grew");
}

pub(super) async fn upload_animated_webp_canvas_is_400_by_our_header_check(backend: Backend) {
    // It measures the memory of its process: alone in one, no other test beside it.
    if !gifshelf_testkit::alone() {
        return;
    }
    let app = app!(backend);
    let alice = app.user("alice").await;
    let before = peak_rss_kib();
    let response = alice.upload("anim.webp", webp_animation(16383, 16383, 50), "webp canvas", "", &[]).await;
    let message = refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_large").await;
    assert!(message.contains("16383×16383"), "{message}");
    // Within the dimensions, but 100 frames of 16 megapixels: over the decoding budget.
    let response = alice.upload("anim.webp", webp_animation(4000, 4000, 100), "webp frames", "", &[]).await;
    refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_large").await;
    assert!(peak_rss_kib().saturating_sub(before) < MEMORY_MARGIN_KIB, "memory grew");
}

pub(super) async fn upload_file_name_never_reaches_the_file_system(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    let long = "n".repeat(300) + ".gif";
    let names: [&[u8]; 8] = [
        b"../../x.gif",
        b"..\\..\\x.gif",
        b"/etc/passwd",
        b"x\0.gif",
        long.as_bytes(),
        b"x\r\nContent-Type: text/html\r\n\r\n<script>alert(1)</script>.gif",
        "\u{202e}fig.exe.gif".as_bytes(),
        b"x\".gif",
    ];
    let mut stored = Vec::new();
    for name in names {
        let shown = String::from_utf8_lossy(name).to_string();
        let response = post_multipart(&alice, multipart(name, &alice.fresh_gif(), "odd name")).await;
        match response.status() {
            StatusCode::CREATED => {
                let gif: UploadedGifDto = dto_of(response, StatusCode::CREATED).await;
                assert_eq!(gif.gif.content_type, "image/gif", "{shown:?}");
                let answer = serde_json::to_string(&gif).unwrap_or_default();
                for needle in ["x.gif", "passwd", "fig.exe", "nnnnnnnn", "<script"] {
                    assert!(!answer.contains(needle), "the name is not echoed: {answer}");
                }
                stored.push(gif.gif.id);
            }
            // A name that breaks the part's header is a clean 400.
            _ => {
                // Untyped on purpose: the check is that the body has its two keys and no other.
                let body = json_of(response, StatusCode::BAD_REQUEST).await;
                assert_eq!(body.as_object().map(|o| o.len()), Some(2), "{shown:?}: {body}");
                assert!(
                    ["bad_request", "unsupported_type"].contains(&body["code"].as_str().unwrap_or_default()),
                    "{shown:?}: {body}"
                );
            }
        }
    }
    assert!(stored.len() >= 5, "the ordinary odd names are accepted: {stored:?}");
    // Every file is under a key the server made: gifs/<32 hex>/<rendition>.<type>.
    let files = app.stored_files();
    assert_eq!(files.len(), 3 * stored.len(), "{files:?}");
    let media = app.data_dir.join("media").display().to_string();
    for file in &files {
        let key = file.strip_prefix(&media).unwrap_or_default();
        let parts: Vec<&str> = key.trim_start_matches('/').split('/').collect();
        assert_eq!(parts.len(), 3, "{key}");
        assert_eq!(parts[0], "gifs", "{key}");
        assert!(parts[1].len() == 32 && parts[1].bytes().all(|b| b.is_ascii_hexdigit()), "{key}");
        assert!(["original.gif", "thumbnail.gif", "static.png"].contains(&parts[2]), "{key}");
    }
    // Nothing named after the upload anywhere around the data folder.
    let root = app.data_dir.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().to_string();
            assert!(
                !["x.gif", "passwd", "fig", "nnnn", "script"].iter().any(|n| name.contains(n)),
                "{}",
                entry.path().display()
            );
            if entry.path().is_dir() {
                stack.push(entry.path());
            }
        }
    }
    // Where a name could be shown, the server shows its own.
    for id in stored {
        let served = alice.get(&format!("/api/gifs/content/{id}")).await;
        assert_eq!(header(&served, "content-disposition"), format!("inline; filename=\"gif-{id}-original.gif\""));
    }
    still_serving(&app).await;
}

pub(super) async fn upload_metadata_gps_exif_is_dropped_and_orientation_applied(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    // Stored 600×300, orientation 6 (rotate 90° clockwise): displayed 300×600.
    let photo = jpeg_with_gps(600, 300, 6);
    let gif: GifDto =
        dto_of(alice.upload("photo.jpg", photo.clone(), "holiday", "", &[]).await, StatusCode::CREATED).await;
    assert_eq!(gif.content_type, "image/jpeg");
    assert_eq!((gif.content_width, gif.content_height), (300, 600));
    let id = gif.id;
    let gps = gps_rationals();
    // The stored original keeps its pixels and its orientation, and loses its GPS position.
    let original = alice.get(&format!("/api/gifs/content/{id}")).await.bytes().await.unwrap_or_default().to_vec();
    assert!(!original.windows(gps.len()).any(|w| w == gps.as_slice()), "the original carries the GPS position");
    assert_eq!(usize::try_from(gif.content_size).ok(), Some(original.len()), "contentSize is the stored size");
    let pixels = |bytes: &[u8]| image::load_from_memory(bytes).unwrap_or_else(|e| panic!("{e}")).to_rgb8().into_raw();
    assert!(pixels(&original) == pixels(&photo), "the original's pixels are the upload's");
    let probed = gifshelf_media::probe(&original, &gifshelf_media::Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((probed.width, probed.height), (300, 600), "still shown upright");
    for path in ["thumbnail", "static-thumbnail"] {
        let bytes = alice.get(&format!("/api/gifs/{path}/{id}")).await.bytes().await.unwrap_or_default().to_vec();
        assert!(!bytes.windows(4).any(|w| w == b"Exif"), "{path} carries EXIF");
        assert!(!bytes.windows(gps.len()).any(|w| w == gps.as_slice()), "{path} carries the GPS position");
        let image = image::load_from_memory(&bytes).unwrap_or_else(|e| panic!("{path}: {e}")).to_rgb8();
        assert_eq!(image.dimensions(), (300, 600), "{path}");
        // The stored left (red) half is on top once rotated.
        let (top, bottom) = (image.get_pixel(150, 100), image.get_pixel(150, 500));
        assert!(top[0] > 200 && top[2] < 60, "{path}: top is {top:?}");
        assert!(bottom[2] > 200 && bottom[0] < 60, "{path}: bottom is {bottom:?}");
    }
    still_serving(&app).await;
}

pub(super) async fn upload_polyglot_is_served_as_an_image_never_as_html(backend: Backend) {
    let app = app!(backend);
    let alice = app.user("alice").await;
    for (name, bytes) in [("x.js", gif_js_polyglot()), ("x.html", gif_then_html())] {
        let gif: GifDto =
            dto_of(alice.upload(name, bytes.clone(), "polyglot", "", &[]).await, StatusCode::CREATED).await;
        assert_eq!(gif.content_type, "image/gif", "{name}");
        let (id, share) = (gif.id, gif.share_id);
        for path in [format!("/api/gifs/content/{id}"), format!("/s/{share}.gif")] {
            let served = alice.get(&path).await;
            assert_eq!(served.status(), StatusCode::OK, "{path}");
            assert_eq!(header(&served, "content-type"), "image/gif", "{path}");
            assert_eq!(header(&served, "x-content-type-options"), "nosniff", "{path}");
            assert_eq!(header(&served, "content-security-policy"), "sandbox; default-src 'none'", "{path}");
            assert!(header(&served, "content-disposition").starts_with("inline; filename=\""), "{path}");
            // Stored without what is not the picture: the comment and the bytes after the
            // trailer (where the script was) are gone, the pixels are the upload's.
            let served = served.bytes().await.unwrap_or_default();
            let expected = gifshelf_media::strip_metadata(&bytes).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(served.as_ref(), expected.as_slice(), "{path}: the upload without its metadata");
            assert!(!served.windows(5).any(|w| w == b"alert"), "{path}: the script is gone");
        }
        // The thumbnails are re-encoded images: no trace of the script.
        let thumb = alice.get(&format!("/api/gifs/thumbnail/{id}")).await.bytes().await.unwrap_or_default();
        assert!(!thumb.windows(5).any(|w| w == b"alert"), "{name}");
    }
    still_serving(&app).await;
}

/// A valid GIF with a lot of decoding work in a small file: `frames` frames of 2048×2048 (about a
/// second of work per 50 frames on one core).
pub(super) fn work_bomb(frames: usize, pad_to: usize) -> Vec<u8> {
    run_gif(2048, 2048, frames, pad_to)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn upload_slow_decode_leaves_other_requests_unaffected() {
    let app = app!(Backend::Sqlite, &[("GIFSHELF_MEDIA_WORKERS", "1")]);
    let alice = app.user("alice").await;
    let bomb = work_bomb(48, 0);
    assert!(bomb.len() < 1024 * 1024, "{} bytes", bomb.len());
    // A decoder accepts it: the first frame is whole.
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bomb.as_slice()).unwrap_or_else(|e| panic!("{e}"));
    let frame = decoder.read_next_frame().unwrap_or_else(|e| panic!("{e}")).map(|f| f.buffer.len());
    assert_eq!(frame, Some(2048 * 2048));

    let started = Instant::now();
    let upload = alice.upload("work.gif", bomb, "slow", "", &[]);
    let others = || async {
        still_serving(&app).await;
        alice.read::<PagedGifs>("/api/gifs/dtos").await;
    };
    let (response, slowest) = probing_while(upload, others).await;
    assert!(slowest < Duration::from_secs(10), "other requests waited for the decode: {slowest:?}");
    // Bounded: it finishes, or the processing timeout (20 s) answers for it.
    assert!(started.elapsed() < Duration::from_secs(90), "the upload hung");
    match response.status() {
        StatusCode::CREATED => {
            let gif: GifDto = dto_of(response, StatusCode::CREATED).await;
            assert_eq!(gif.frame_count, 48);
        }
        _ => {
            refused(&app, &alice, response, StatusCode::BAD_REQUEST, "image_too_complex").await;
        }
    }
    still_serving(&app).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn upload_parallel_uploads_are_bounded_and_the_excess_gets_503() {
    // It measures the memory of its process: alone in one, no other test beside it.
    if !gifshelf_testkit::alone() {
        return;
    }
    let app = app!(Backend::Sqlite, &[("GIFSHELF_MEDIA_WORKERS", "1"), ("GIFSHELF_MAX_UPLOAD_MB", "2")]);
    let alice = app.user("alice").await;
    // 20 uploads of the size limit at once, each a couple of seconds of decoding: one decodes at a
    // time, and those that cannot start within the queue wait (10 s) are told the server is busy.
    let bomb = work_bomb(96, 2 * 1024 * 1024 - 4096);
    assert!(bomb.len() > 2 * 1024 * 1024 - 8192 && bomb.len() < 2 * 1024 * 1024, "{}", bomb.len());
    let before = peak_rss_kib();
    let started = Instant::now();
    let titles: Vec<String> = (0..20).map(|i| format!("upload {i}")).collect();
    // Each a different file (the library refuses byte-identical uploads): a shade of its first colour.
    let bombs = (0..20u8).map(|i| {
        let mut bomb = bomb.clone();
        bomb[15] = i;
        bomb
    });
    let responses =
        join_all(titles.iter().zip(bombs).map(|(title, bomb)| alice.upload("max.gif", bomb, title, "", &[]))).await;
    assert!(started.elapsed() < Duration::from_secs(180), "the uploads hung");
    let (mut created, mut busy, mut timed_out) = (0, 0, 0);
    for response in responses {
        match response.status() {
            StatusCode::CREATED => created += 1,
            // On a very slow machine a job may also reach the processing timeout.
            StatusCode::BAD_REQUEST => {
                error_of(response, StatusCode::BAD_REQUEST, "image_too_complex").await;
                timed_out += 1;
            }
            _ => {
                let message = error_of(response, StatusCode::SERVICE_UNAVAILABLE, "unavailable").await;
                assert_eq!(message, "The server is busy processing other uploads. Please try again in a moment.");
                busy += 1;
            }
        }
    }
    assert!(created + timed_out >= 1 && busy >= 1, "{created} stored, {busy} busy, {timed_out} timed out");
    assert!(peak_rss_kib().saturating_sub(before) < MEMORY_MARGIN_KIB, "memory grew");
    // Exactly the stored ones exist, each with its three files.
    let page: PagedGifs = alice.read("/api/gifs/dtos").await;
    assert_eq!(usize::try_from(page.total_elements).ok(), Some(created));
    assert_eq!(app.stored_files().len(), 3 * created, "{:?}", app.stored_files());
    still_serving(&app).await;
}

on_both_backends!(
    upload_size_cap_is_413_with_or_without_a_content_length,
    upload_lying_type_is_stored_as_the_sniffed_type,
    upload_not_an_image_is_400_and_unneeded_codecs_are_compiled_out,
    upload_corrupt_files_are_400_invalid_image,
    upload_canvas_bomb_is_400_and_memory_stays_flat,
    upload_pixel_flood_png_is_400_before_any_allocation,
    upload_frame_flood_is_400_at_the_frame_cap,
    upload_animated_webp_canvas_is_400_by_our_header_check,
    upload_file_name_never_reaches_the_file_system,
    upload_metadata_gps_exif_is_dropped_and_orientation_applied,
    upload_polyglot_is_served_as_an_image_never_as_html,
);
