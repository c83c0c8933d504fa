//! Duplicates: byte-identical uploads are refused with the GIF they duplicate; resized and
//! re-encoded copies are stored and named as likely duplicates; distinct GIFs never are.

use gifshelf_http::dto::{ApiErrorBody, DuplicateGroupsDto, ErrorCode, GifLinkDto, PagedGifs, TagDto, UploadedGifDto};
use image::codecs::gif::{GifEncoder, Repeat};
use image::imageops::FilterType;
use image::{Delay, Frame, Rgba, RgbaImage};
use reqwest::StatusCode;

use crate::helpers::{animated_gif, dto_of, error_of, Backend};
use crate::{app, on_both_backends};

fn encode(frames: &[RgbaImage]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = GifEncoder::new_with_speed(&mut out, 10);
        encoder.set_repeat(Repeat::Infinite).unwrap_or_else(|e| panic!("{e}"));
        encoder
            .encode_frames(
                frames.iter().map(|f| Frame::from_parts(f.clone(), 0, 0, Delay::from_numer_denom_ms(100, 1))),
            )
            .unwrap_or_else(|e| panic!("{e}"));
    }
    out
}

/// Three 160×120 frames of a picture: a gradient and shapes placed by `seed`, drifting.
fn picture(seed: u32) -> Vec<RgbaImage> {
    let mut state = seed.wrapping_mul(2_654_435_761).max(1);
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        state
    };
    let (from, to) = (next().to_le_bytes(), next().to_le_bytes());
    let shapes: Vec<(i64, i64, i64, [u8; 4])> = (0..4)
        .map(|_| (i64::from(next() % 160), i64::from(next() % 120), 10 + i64::from(next() % 30), next().to_le_bytes()))
        .collect();
    (0..3)
        .map(|k| {
            RgbaImage::from_fn(160, 120, |x, y| {
                let (x, y) = (i64::from(x), i64::from(y));
                for &(cx, cy, r, c) in &shapes {
                    if (x - cx - k * 2).pow(2) + (y - cy).pow(2) <= r * r {
                        return Rgba([c[0], c[1], c[2], 255]);
                    }
                }
                let t = (x + y) as f64 / 280.0;
                let mix = |a: u8, b: u8| (f64::from(a) * (1.0 - t) + f64::from(b) * t) as u8;
                Rgba([mix(from[0], to[0]), mix(from[1], to[1]), mix(from[2], to[2]), 255])
            })
        })
        .collect()
}

/// `(id, title)` of each GIF named.
fn links(list: &[GifLinkDto]) -> Vec<(i64, &str)> {
    list.iter().map(|d| (d.id, d.title.as_str())).collect()
}

async fn a_byte_identical_upload_is_refused_with_the_gif_it_duplicates(backend: Backend) {
    let app = app!(backend);
    let alice = app.signed_in("alice").await;
    let bob = app.signed_in("bob").await;
    let bytes = animated_gif(64, 48, 3);
    let first: UploadedGifDto =
        dto_of(app.upload(&alice, "cat.gif", bytes.clone(), "Cat", "", &[]).await, StatusCode::CREATED).await;
    assert!(first.likely_duplicates.is_empty());
    let mut stored = app.stored_files();
    stored.sort();

    for (who, name) in [(&alice, "again.gif"), (&bob, "bobs-copy.gif")] {
        let response = app.upload(who, name, bytes.clone(), "Same file", "", &["copy"]).await;
        let body: ApiErrorBody = dto_of(response, StatusCode::CONFLICT).await;
        assert_eq!(body.code, ErrorCode::Duplicate);
        assert_eq!(body.error, "This GIF is already in the library");
        assert_eq!(body.existing_id, Some(first.gif.id));
    }
    // The same pixels with a comment added: the stored original (metadata stripped) is the same.
    let mut commented = bytes[..13 + 768].to_vec();
    commented.extend_from_slice(&[0x21, 0xFE, 5, b'h', b'e', b'l', b'l', b'o', 0]);
    commented.extend_from_slice(&bytes[13 + 768..]);
    let body: ApiErrorBody =
        dto_of(app.upload(&alice, "c.gif", commented, "Commented", "", &[]).await, StatusCode::CONFLICT).await;
    assert_eq!(body.existing_id, Some(first.gif.id));

    let mut after = app.stored_files();
    after.sort();
    assert_eq!(after, stored, "nothing stored");
    let all: PagedGifs = dto_of(app.get("/api/gifs/dtos", Some(&alice)).await, StatusCode::OK).await;
    assert_eq!(all.total_elements, 1);
    let tags: Vec<TagDto> = dto_of(app.get("/api/tags", Some(&alice)).await, StatusCode::OK).await;
    assert!(tags.iter().all(|t| t.name != "copy"), "no tag was created: {tags:?}");
    // Other errors keep the plain shape.
    error_of(app.get("/api/gifs/dto/424242", Some(&alice)).await, StatusCode::NOT_FOUND, "not_found").await;
}

async fn a_resized_and_re_encoded_copy_is_stored_and_named_as_a_likely_duplicate(backend: Backend) {
    let app = app!(backend);
    let admin = app.signed_in("admin").await;
    let bob = app.signed_in("bob").await;
    let frames = picture(7);
    let original: UploadedGifDto =
        dto_of(app.upload(&admin, "beach.gif", encode(&frames), "Beach", "", &[]).await, StatusCode::CREATED).await;
    let other: UploadedGifDto =
        dto_of(app.upload(&admin, "other.gif", encode(&picture(8)), "Other", "", &[]).await, StatusCode::CREATED).await;
    assert!(other.likely_duplicates.is_empty());

    let smaller: Vec<RgbaImage> =
        frames.iter().map(|f| image::imageops::resize(f, 96, 72, FilterType::Triangle)).collect();
    let copy: UploadedGifDto = dto_of(
        app.upload(&bob, "beach-small.gif", encode(&smaller), "Beach again", "", &[]).await,
        StatusCode::CREATED,
    )
    .await;
    assert_eq!(links(&copy.likely_duplicates), [(original.gif.id, "Beach")]);

    let copy_id = copy.gif.id;
    let looks_like: Vec<GifLinkDto> =
        dto_of(app.get(&format!("/api/gifs/{copy_id}/looks-like"), Some(&bob)).await, StatusCode::OK).await;
    assert_eq!(links(&looks_like), [(original.gif.id, "Beach")]);
    let other_id = other.gif.id;
    let nothing: Vec<GifLinkDto> =
        dto_of(app.get(&format!("/api/gifs/{other_id}/looks-like"), Some(&bob)).await, StatusCode::OK).await;
    assert!(nothing.is_empty());
    error_of(app.get("/api/gifs/424242/looks-like", Some(&bob)).await, StatusCode::NOT_FOUND, "not_found").await;
    error_of(app.get(&format!("/api/gifs/{copy_id}/looks-like"), None).await, StatusCode::UNAUTHORIZED, "unauthorized")
        .await;

    let groups: DuplicateGroupsDto = dto_of(app.get("/api/admin/duplicates", Some(&admin)).await, StatusCode::OK).await;
    let groups: Vec<_> = groups.groups.iter().map(|g| links(g)).collect();
    assert_eq!(groups, [[(original.gif.id, "Beach"), (copy_id, "Beach again")]]);
    error_of(app.get("/api/admin/duplicates", Some(&bob)).await, StatusCode::FORBIDDEN, "forbidden").await;
    error_of(app.get("/api/admin/duplicates", None).await, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

async fn distinct_gifs_are_never_flagged(backend: Backend) {
    let app = app!(backend);
    let token = app.signed_in("alice").await;
    // The real-world GIFs kept in the repository, with their licences.
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/corpus");
    let mut files: Vec<(String, Vec<u8>)> = ["moon_impact.gif", "sample_big.gif"]
        .into_iter()
        .map(|name| {
            let path = corpus.join(name);
            (name.to_owned(), std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        })
        .collect();
    files.extend((100..112).map(|seed| (format!("generated {seed}"), encode(&picture(seed)))));
    for (name, bytes) in files {
        let gif: UploadedGifDto =
            dto_of(app.upload(&token, "x.gif", bytes, &name, "", &[]).await, StatusCode::CREATED).await;
        assert!(gif.likely_duplicates.is_empty(), "{name}: {:?}", gif.likely_duplicates);
    }
    let groups: DuplicateGroupsDto = dto_of(app.get("/api/admin/duplicates", Some(&token)).await, StatusCode::OK).await;
    assert!(groups.groups.is_empty(), "{:?}", groups.groups);
}

on_both_backends!(
    a_byte_identical_upload_is_refused_with_the_gif_it_duplicates,
    a_resized_and_re_encoded_copy_is_stored_and_named_as_a_likely_duplicate,
    distinct_gifs_are_never_flagged
);
