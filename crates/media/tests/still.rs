#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed step should stop the test loudly
mod common;

use common::*;
use gifshelf_media::{probe, process, Limits, MediaKind};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::{ExtendedColorType, ImageEncoder};

fn png(w: u32, h: u32, alpha: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let ct = if alpha { ExtendedColorType::Rgba8 } else { ExtendedColorType::Rgb8 };
    let ch = if alpha { 4 } else { 3 };
    let data: Vec<u8> = (0..w * h)
        .flat_map(|i| {
            let (x, y) = (i % w, i / w);
            let mut p = vec![(x * 255 / w) as u8, (y * 255 / h) as u8, 128];
            if alpha {
                p.push(if x < w / 2 { 255 } else { 0 });
            }
            p
        })
        .collect();
    assert_eq!(data.len(), (w * h * ch) as usize);
    PngEncoder::new(&mut out).write_image(&data, w, h, ct).unwrap();
    out
}

#[test]
fn png_is_scaled_to_a_png_thumbnail() {
    let src = png(1000, 500, true);
    let out = process(&src, &Limits::default()).unwrap();
    assert_eq!(out.kind, MediaKind::Png);
    assert_eq!((out.width, out.height, out.frames), (1000, 500, 1));
    for r in [&out.thumbnail, &out.static_thumbnail] {
        assert_eq!(r.mime, "image/png");
        assert_eq!((r.width, r.height), (320, 160));
        let img = image::load_from_memory(&r.bytes).unwrap().to_rgba8();
        assert_eq!(img.dimensions(), (320, 160));
        assert_eq!(img.get_pixel(10, 10)[3], 255);
        assert_eq!(img.get_pixel(310, 10)[3], 0);
    }
}

#[test]
fn narrow_png_keeps_its_size() {
    let src = png(100, 50, false);
    let out = process(&src, &Limits::default()).unwrap();
    assert_eq!((out.thumbnail.width, out.thumbnail.height), (100, 50));
    let img = image::load_from_memory(&out.static_thumbnail.bytes).unwrap();
    assert_eq!((img.width(), img.height()), (100, 50));
}

/// A JPEG whose stored pixels are red on the left and blue on the right, with an EXIF
/// orientation tag and a GPS-ish payload.
fn jpeg_with_orientation(w: u32, h: u32, orientation: u16) -> Vec<u8> {
    let data: Vec<u8> = (0..w * h).flat_map(|i| if i % w < w / 2 { [255, 0, 0] } else { [0, 0, 255] }).collect();
    let mut plain = Vec::new();
    JpegEncoder::new_with_quality(&mut plain, 95).write_image(&data, w, h, ExtendedColorType::Rgb8).unwrap();
    // APP1: "Exif\0\0" + little-endian TIFF with one IFD0 entry (orientation) + a marker string.
    let mut tiff = b"II*\0".to_vec();
    tiff.extend_from_slice(&8u32.to_le_bytes());
    tiff.extend_from_slice(&1u16.to_le_bytes());
    tiff.extend_from_slice(&0x0112u16.to_le_bytes());
    tiff.extend_from_slice(&3u16.to_le_bytes());
    tiff.extend_from_slice(&1u32.to_le_bytes());
    tiff.extend_from_slice(&orientation.to_le_bytes());
    tiff.extend_from_slice(&[0, 0]);
    tiff.extend_from_slice(&0u32.to_le_bytes());
    tiff.extend_from_slice(b"GPS-SECRET-LOCATION");
    let mut app1 = b"Exif\0\0".to_vec();
    app1.extend_from_slice(&tiff);
    let mut out = vec![0xFF, 0xD8, 0xFF, 0xE1];
    out.extend_from_slice(&((app1.len() + 2) as u16).to_be_bytes());
    out.extend_from_slice(&app1);
    out.extend_from_slice(&plain[2..]);
    out
}

#[test]
fn jpeg_orientation_is_applied_and_exif_dropped() {
    let src = jpeg_with_orientation(600, 300, 6);
    let p = probe(&src, &Limits::default()).unwrap();
    assert_eq!((p.kind, p.width, p.height), (MediaKind::Jpeg, 300, 600));
    let out = process(&src, &Limits::default()).unwrap();
    assert_eq!((out.width, out.height), (300, 600));
    for r in [&out.thumbnail, &out.static_thumbnail] {
        assert_eq!(r.mime, "image/jpeg");
        assert_eq!((r.width, r.height), (300, 600));
        let img = image::load_from_memory(&r.bytes).unwrap().to_rgb8();
        assert_eq!(img.dimensions(), (300, 600));
        // Rotated 90° clockwise: the stored left (red) half is now on top.
        let top = img.get_pixel(150, 100);
        let bottom = img.get_pixel(150, 500);
        assert!(top[0] > 200 && top[2] < 60, "top is {top:?}");
        assert!(bottom[2] > 200 && bottom[0] < 60, "bottom is {bottom:?}");
        assert!(!r.bytes.windows(4).any(|w| w == b"Exif"));
        assert!(!r.bytes.windows(10).any(|w| w == b"GPS-SECRET"));
    }
}

#[test]
fn wide_jpeg_without_exif_is_scaled() {
    let src = jpeg_with_orientation(1280, 720, 1);
    let out = process(&src, &Limits::default()).unwrap();
    assert_eq!((out.thumbnail.width, out.thumbnail.height), (320, 180));
    let img = image::load_from_memory(&out.thumbnail.bytes).unwrap();
    assert_eq!((img.width(), img.height()), (320, 180));
}

#[test]
fn still_webp_gives_still_renditions() {
    let src = webp_still(500, 300, |x, y| [(x % 256) as u8, (y % 256) as u8, 50, 255]);
    let p = probe(&src, &Limits::default()).unwrap();
    assert_eq!((p.kind, p.width, p.height, p.frames, p.animated), (MediaKind::Webp, 500, 300, 1, false));
    let out = process(&src, &Limits::default()).unwrap();
    assert_eq!(out.thumbnail.mime, "image/png");
    assert_eq!((out.thumbnail.width, out.thumbnail.height), (320, 192));
    let img = image::load_from_memory(&out.static_thumbnail.bytes).unwrap();
    assert_eq!((img.width(), img.height()), (320, 192));
}

fn anim_webp() -> Vec<u8> {
    let colors = [[255u8, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]];
    let frames: Vec<_> = colors
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let c = *c;
            (
                0,
                0,
                webp_still(640, 200, move |x, _| if x < 100 { c } else { [200, 200, 200, 255] }),
                640,
                200,
                100 * (i as u32 + 1),
            )
        })
        .collect();
    webp_anim(640, 200, 2, &frames)
}

#[test]
fn animated_webp_becomes_an_animated_gif_thumbnail() {
    let src = anim_webp();
    let p = probe(&src, &Limits::default()).unwrap();
    assert_eq!((p.kind, p.width, p.height, p.frames, p.animated), (MediaKind::Webp, 640, 200, 3, true));
    let out = process(&src, &Limits::default()).unwrap();
    assert_eq!(out.frames, 3);
    assert_eq!(out.thumbnail.mime, "image/gif");
    assert_eq!((out.thumbnail.width, out.thumbnail.height), (320, 100));
    let meta = gif_meta(&out.thumbnail.bytes);
    assert_eq!(meta.delays, vec![10, 20, 30]);
    assert_eq!(meta.repeat, gif::Repeat::Finite(2));
    let frames = composited(&out.thumbnail.bytes);
    assert_eq!(frames[0].get_pixel(10, 50).0, [255, 0, 0, 255]);
    assert_eq!(frames[1].get_pixel(10, 50).0, [0, 255, 0, 255]);
    assert_eq!(frames[2].get_pixel(10, 50).0, [0, 0, 255, 255]);
    assert_eq!(frames[2].get_pixel(200, 50).0, [200, 200, 200, 255]);
    assert_eq!(out.static_thumbnail.mime, "image/png");
    let still = image::load_from_memory(&out.static_thumbnail.bytes).unwrap().to_rgba8();
    assert_eq!(still.dimensions(), (320, 100));
    assert_eq!(still.get_pixel(10, 50).0, [255, 0, 0, 255]);
}
