//! The stored original loses its metadata and nothing else: files carrying a GPS position, XMP,
//! IPTC, text chunks and comments come out without any of it, decode to the same pixels, and keep
//! their ICC profile, their JPEG orientation and their GIF loop count.

mod common;

use std::io::Cursor;

use common::{corpus_gif, CORPUS_GIFS};
use gifshelf_media::strip_metadata;
use gifshelf_media::testing::{png_chunk, riff_chunk};
use image::codecs::jpeg::JpegEncoder;
use image::codecs::png::PngEncoder;
use image::codecs::webp::WebPEncoder;
use image::{ExtendedColorType, ImageDecoder, ImageEncoder, ImageFormat, ImageReader};

/// A recognisable ICC profile body (encoders store it as given).
const ICC: &[u8] = b"gifshelf test ICC profile: keep me";
/// An XMP packet naming a place, as cameras and editors write it.
const XMP: &[u8] = b"<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:Description exif:GPSLatitude='48,51.494N' photoshop:City='Paris'/></x:xmpmeta>";
const COMMENT: &[u8] = b"shot at 12 Rue Example, Paris";

/// GPS coordinates as EXIF rationals (48°51'29.64"N 2°17'40.20"E), recognisable in any output.
fn gps_rationals() -> Vec<u8> {
    [(48u32, 1u32), (51, 1), (2964, 100), (2, 1), (17, 1), (4020, 100)]
        .iter()
        .flat_map(|(n, d)| [n.to_be_bytes(), d.to_be_bytes()].concat())
        .collect()
}

/// A big-endian TIFF structure: IFD0 with the orientation, a maker string and a GPS IFD pointer,
/// then the GPS IFD with latitude and longitude.
fn exif_tiff(orientation: u16) -> Vec<u8> {
    let entry = |tag: u16, kind: u16, count: u32, value: [u8; 4]| {
        [tag.to_be_bytes().as_slice(), &kind.to_be_bytes(), &count.to_be_bytes(), &value].concat()
    };
    let gps_ifd_at = 8 + 2 + 2 * 12 + 4;
    let gps_data_at = gps_ifd_at + 2 + 4 * 12 + 4;
    let mut tiff = b"MM\0\x2a\0\0\0\x08".to_vec();
    tiff.extend_from_slice(&2u16.to_be_bytes());
    tiff.extend(entry(0x0112, 3, 1, [(orientation >> 8) as u8, orientation as u8, 0, 0]));
    tiff.extend(entry(0x8825, 4, 1, (gps_ifd_at as u32).to_be_bytes()));
    tiff.extend_from_slice(&0u32.to_be_bytes());
    tiff.extend_from_slice(&4u16.to_be_bytes());
    tiff.extend(entry(0x0001, 2, 2, *b"N\0\0\0"));
    tiff.extend(entry(0x0002, 5, 3, (gps_data_at as u32).to_be_bytes()));
    tiff.extend(entry(0x0003, 2, 2, *b"E\0\0\0"));
    tiff.extend(entry(0x0004, 5, 3, (gps_data_at as u32 + 24).to_be_bytes()));
    tiff.extend_from_slice(&0u32.to_be_bytes());
    tiff.extend(gps_rationals());
    tiff
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn assert_no_metadata(name: &str, bytes: &[u8]) {
    assert!(!contains(bytes, &gps_rationals()), "{name}: the GPS position survived");
    assert!(!contains(bytes, b"xmpmeta"), "{name}: XMP survived");
    assert!(!contains(bytes, COMMENT), "{name}: the comment survived");
    assert!(!contains(bytes, b"Photoshop 3.0"), "{name}: IPTC survived");
}

fn pixels(bytes: &[u8]) -> Vec<u8> {
    let reader = ImageReader::new(Cursor::new(bytes)).with_guessed_format().unwrap_or_else(|e| panic!("{e}"));
    reader.decode().unwrap_or_else(|e| panic!("decode: {e}")).into_rgba8().into_raw()
}

fn icc_of(bytes: &[u8], format: ImageFormat) -> Option<Vec<u8>> {
    let mut decoder =
        ImageReader::with_format(Cursor::new(bytes), format).into_decoder().unwrap_or_else(|e| panic!("decoder: {e}"));
    decoder.icc_profile().unwrap_or_else(|e| panic!("icc: {e}"))
}

fn picture(w: u32, h: u32) -> Vec<u8> {
    (0..w * h).flat_map(|i| [(i % w * 7) as u8, (i / w * 5) as u8, (i * 3) as u8]).collect()
}

fn segment(marker: u8, payload: &[u8]) -> Vec<u8> {
    let len = u16::try_from(payload.len() + 2).unwrap_or_else(|e| panic!("{e}"));
    [[0xFF, marker].as_slice(), &len.to_be_bytes(), payload].concat()
}

/// A phone photo: JFIF, an ICC profile, EXIF with GPS and orientation 6, XMP, IPTC, a comment,
/// and a trailer after the end of the image.
fn phone_jpeg() -> Vec<u8> {
    let mut plain = Vec::new();
    let mut encoder = JpegEncoder::new_with_quality(&mut plain, 90);
    encoder.set_icc_profile(ICC.to_vec()).unwrap_or_else(|e| panic!("{e}"));
    encoder.write_image(&picture(48, 32), 48, 32, ExtendedColorType::Rgb8).unwrap_or_else(|e| panic!("{e}"));
    let extra = [
        segment(0xE1, &[b"Exif\0\0".as_slice(), &exif_tiff(6)].concat()),
        segment(0xE1, &[b"http://ns.adobe.com/xap/1.0/\0".as_slice(), XMP].concat()),
        segment(0xED, b"Photoshop 3.0\08BIM\x04\x04\0\0\0\0\0\x10Paris, France..."),
        segment(0xFE, COMMENT),
    ]
    .concat();
    [&plain[..2], &extra, &plain[2..], b"SAMSUNG trailer shot at 12 Rue Example, Paris"].concat()
}

#[test]
fn jpeg_loses_exif_xmp_iptc_comments_and_trailers_but_keeps_pixels_icc_and_orientation() {
    let original = phone_jpeg();
    assert!(contains(&original, &gps_rationals()) && contains(&original, b"xmpmeta"));
    let stripped = strip_metadata(&original).unwrap_or_else(|e| panic!("{e}"));
    assert_no_metadata("jpeg", &stripped);
    assert!(!contains(&stripped, b"SAMSUNG"), "the trailer survived");
    assert!(stripped.ends_with(&[0xFF, 0xD9]));
    assert_eq!(pixels(&stripped), pixels(&original), "pixels");
    assert_eq!(icc_of(&stripped, ImageFormat::Jpeg).as_deref(), Some(ICC));
    let mut decoder = ImageReader::with_format(Cursor::new(&stripped), ImageFormat::Jpeg)
        .into_decoder()
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(decoder.orientation().ok(), Some(image::metadata::Orientation::Rotate90), "orientation kept");
    let probed = gifshelf_media::probe(&stripped, &gifshelf_media::Limits::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((probed.width, probed.height), (32, 48), "still shown upright");
}

#[test]
fn jpeg_without_orientation_gets_no_exif_at_all() {
    let mut plain = Vec::new();
    JpegEncoder::new(&mut plain)
        .write_image(&picture(8, 8), 8, 8, ExtendedColorType::Rgb8)
        .unwrap_or_else(|e| panic!("{e}"));
    let with_exif =
        [&plain[..2], &segment(0xE1, &[b"Exif\0\0".as_slice(), &exif_tiff(1)].concat()), &plain[2..]].concat();
    let stripped = strip_metadata(&with_exif).unwrap_or_else(|e| panic!("{e}"));
    assert!(!contains(&stripped, b"Exif"));
    assert_eq!(stripped, plain, "a plain encoder output is left exactly as it was");
}

#[test]
fn png_loses_text_exif_and_time_chunks_but_keeps_pixels_and_icc() {
    let mut plain = Vec::new();
    let mut encoder = PngEncoder::new(&mut plain);
    encoder.set_icc_profile(ICC.to_vec()).unwrap_or_else(|e| panic!("{e}"));
    encoder.write_image(&picture(20, 10), 20, 10, ExtendedColorType::Rgb8).unwrap_or_else(|e| panic!("{e}"));
    // Metadata chunks go before IEND (the last 12 bytes).
    let (body, iend) = plain.split_at(plain.len() - 12);
    let extra = [
        png_chunk(b"eXIf", &exif_tiff(1)),
        png_chunk(b"tEXt", &[b"Comment\0".as_slice(), COMMENT].concat()),
        png_chunk(b"iTXt", &[b"XML:com.adobe.xmp\0\0\0\0\0".as_slice(), XMP].concat()),
        png_chunk(b"tIME", &[0x07, 0xEA, 11, 24, 1, 2, 3]),
    ]
    .concat();
    let original = [body, &extra, iend, b"trailing"].concat();
    let stripped = strip_metadata(&original).unwrap_or_else(|e| panic!("{e}"));
    assert_no_metadata("png", &stripped);
    assert!(!contains(&stripped, b"tIME") && !contains(&stripped, b"eXIf"));
    assert_eq!(stripped, plain, "exactly the encoder's chunks remain");
    assert_eq!(pixels(&stripped), pixels(&original));
    assert_eq!(icc_of(&stripped, ImageFormat::Png).as_deref(), Some(ICC));
}

#[test]
fn webp_loses_exif_and_xmp_chunks_and_their_flags_but_keeps_pixels_and_icc() {
    let mut plain = Vec::new();
    let mut encoder = WebPEncoder::new_lossless(&mut plain);
    encoder.set_icc_profile(ICC.to_vec()).unwrap_or_else(|e| panic!("{e}"));
    encoder.write_image(&picture(16, 12), 16, 12, ExtendedColorType::Rgb8).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&plain[12..16], b"VP8X", "the encoder writes an extended file when it has a profile");
    let mut body = plain[12..].to_vec();
    body[8] |= 0x08 | 0x04; // VP8X: EXIF and XMP present
    body.extend(riff_chunk(b"EXIF", &exif_tiff(1)));
    body.extend(riff_chunk(b"XMP ", XMP));
    let size = u32::try_from(body.len() + 4).unwrap_or_else(|e| panic!("{e}"));
    let original = [b"RIFF".as_slice(), &size.to_le_bytes(), b"WEBP", &body].concat();
    assert_eq!(pixels(&original), pixels(&plain), "the fixture itself decodes");

    let stripped = strip_metadata(&original).unwrap_or_else(|e| panic!("{e}"));
    assert_no_metadata("webp", &stripped);
    assert_eq!(stripped[20] & (0x08 | 0x04), 0, "the VP8X flags no longer announce EXIF or XMP");
    assert_eq!(stripped, plain, "exactly the encoder's file remains");
    assert_eq!(pixels(&stripped), pixels(&original));
    assert_eq!(icc_of(&stripped, ImageFormat::WebP).as_deref(), Some(ICC));
}

/// Every frame of a GIF as the `gif` crate composes it, with its delay, and the loop count.
fn gif_frames(bytes: &[u8]) -> (Vec<(u16, Vec<u8>)>, gif::Repeat) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).unwrap_or_else(|e| panic!("{e}"));
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap_or_else(|e| panic!("{e}")) {
        frames.push((frame.delay, frame.buffer.to_vec()));
    }
    (frames, decoder.repeat())
}

fn gif_extension(label: u8, data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x21, label];
    for chunk in data.chunks(255) {
        out.push(chunk.len() as u8);
        out.extend_from_slice(chunk);
    }
    out.push(0);
    out
}

#[test]
fn gif_loses_comments_and_foreign_application_blocks_but_keeps_frames_and_loop_count() {
    let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, 255 - i, i / 2]).collect();
    let mut plain = Vec::new();
    {
        let mut encoder = gif::Encoder::new(&mut plain, 10, 8, &palette).unwrap_or_else(|e| panic!("{e}"));
        encoder.set_repeat(gif::Repeat::Finite(3)).unwrap_or_else(|e| panic!("{e}"));
        for k in 0..4u8 {
            let mut frame = gif::Frame::from_indexed_pixels(
                10,
                8,
                (0..80u8).map(|i| i.wrapping_mul(k + 1)).collect::<Vec<u8>>(),
                None,
            );
            frame.delay = 7 + u16::from(k);
            encoder.write_frame(&frame).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    // Header, screen descriptor and global table: 13 + 768 bytes; the NETSCAPE block follows.
    let head = 13 + 768;
    let xmp_block = [[11u8].as_slice(), b"XMP DataXMP", XMP].concat();
    let extra = [gif_extension(0xFE, COMMENT), gif_extension(0xFF, &xmp_block)].concat();
    let mut original = [&plain[..head], &extra, &plain[head..plain.len() - 1]].concat();
    original.extend(gif_extension(0xFE, COMMENT));
    original.push(0x3B);
    original.extend_from_slice(b"junk after the trailer");

    let stripped = strip_metadata(&original).unwrap_or_else(|e| panic!("{e}"));
    assert_no_metadata("gif", &stripped);
    assert_eq!(stripped, plain, "exactly the encoder's blocks remain");
    assert_eq!(gif_frames(&stripped), gif_frames(&plain));
    assert_eq!(gif_frames(&stripped).1, gif::Repeat::Finite(3), "the loop count is kept");
}

#[test]
fn real_world_gifs_keep_every_frame() {
    for name in CORPUS_GIFS {
        let original = corpus_gif(name);
        let stripped = strip_metadata(&original).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(stripped.len() <= original.len());
        assert_eq!(gif_frames(&stripped), gif_frames(&original), "{name}");
    }
}
