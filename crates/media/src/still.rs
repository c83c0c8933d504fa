//! Still images (PNG, JPEG, still WebP) and the static-thumbnail encoder.

use std::io::Cursor;

use image::codecs::jpeg::{JpegDecoder, JpegEncoder};
use image::codecs::png::{CompressionType, FilterType, PngDecoder, PngEncoder};
use image::codecs::webp::WebPDecoder;
use image::metadata::Orientation;
use image::{DynamicImage, ExtendedColorType, ImageDecoder, ImageEncoder};

use crate::limits::{Deadline, Limits};
use crate::probe::{jpeg_info, probe};
use crate::resize::resize_image;
use crate::sink::{Output, Tools};
use crate::video::{Ffmpeg, Video, VideoSink};
use crate::{Made, MediaKind, MediaRejection, Rendition};

fn encode_err(e: image::ImageError) -> MediaRejection {
    crate::error::internal(format!("thumbnail encoding failed: {e}"))
}

fn decode_err(kind: MediaKind, e: image::ImageError) -> MediaRejection {
    match e {
        image::ImageError::Limits(_) => MediaRejection::ImageTooLarge(format!(
            "The {} image needs more memory to decode than the limit allows.",
            kind.name()
        )),
        other => crate::error::corrupt_by(kind.name(), other),
    }
}

/// Encodes an RGBA image as a PNG (RGB when it is fully opaque).
pub(crate) fn encode_png(rgba: &[u8], width: u32, height: u32) -> Result<Vec<u8>, MediaRejection> {
    let mut out = Vec::new();
    let enc = PngEncoder::new_with_quality(&mut out, CompressionType::Default, FilterType::Adaptive);
    if rgba.chunks_exact(4).all(|p| p[3] == 255) {
        let rgb: Vec<u8> = rgba.chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
        enc.write_image(&rgb, width, height, ExtendedColorType::Rgb8).map_err(encode_err)?;
    } else {
        enc.write_image(rgba, width, height, ExtendedColorType::Rgba8).map_err(encode_err)?;
    }
    Ok(out)
}

/// The static thumbnail of an animation: its first composited frame as a PNG.
pub(crate) fn encode_static(rgba: &[u8], width: u32, height: u32) -> Result<Rendition, MediaRejection> {
    Ok(Rendition {
        bytes: encode_png(rgba, width, height)?,
        mime: "image/png",
        width,
        height,
        frames: 1,
        duration_ms: 0,
        codec: None,
    })
}

fn encode_jpeg(rgb: &[u8], width: u32, height: u32) -> Result<Vec<u8>, MediaRejection> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, 85)
        .write_image(rgb, width, height, ExtendedColorType::Rgb8)
        .map_err(encode_err)?;
    Ok(out)
}

fn image_limits(limits: &Limits) -> image::Limits {
    let mut l = image::Limits::default();
    l.max_image_width = Some(limits.max_width);
    l.max_image_height = Some(limits.max_height);
    // Room for the decoded image at up to 16 bytes a pixel (16-bit RGBA) plus the decoder's own.
    l.max_alloc = Some(limits.max_canvas_pixels.saturating_mul(16).saturating_add(64 << 20));
    l
}

fn decode(kind: MediaKind, bytes: &[u8], limits: &Limits) -> Result<DynamicImage, MediaRejection> {
    let err = |e| decode_err(kind, e);
    match kind {
        MediaKind::Png => {
            let mut d = PngDecoder::new(Cursor::new(bytes)).map_err(err)?;
            d.set_limits(image_limits(limits)).map_err(err)?;
            DynamicImage::from_decoder(d).map_err(err)
        }
        MediaKind::Jpeg => {
            let jpeg = |bytes: &[u8]| {
                let mut d = JpegDecoder::new(Cursor::new(bytes)).map_err(err)?;
                d.set_limits(image_limits(limits)).map_err(err)?;
                DynamicImage::from_decoder(d).map_err(err)
            };
            match jpeg(bytes) {
                // The decoder is stricter than libjpeg about metadata segments (an APPn with an
                // impossible length, say). Browsers skip those; so does the metadata strip, so
                // the stripped file (what is stored anyway) is tried before giving up.
                Err(first @ MediaRejection::InvalidImage { .. }) => match crate::strip_metadata(bytes) {
                    Ok(stripped) if stripped != bytes => jpeg(&stripped),
                    _ => Err(first),
                },
                other => other,
            }
        }
        MediaKind::Webp => {
            let mut d = WebPDecoder::new(Cursor::new(bytes)).map_err(err)?;
            d.set_limits(image_limits(limits)).map_err(err)?;
            DynamicImage::from_decoder(d).map_err(err)
        }
        MediaKind::Gif => Err(crate::error::internal("GIF sent to the still pipeline")),
    }
}

/// `img` (stored orientation) resized to `size` (display orientation) and turned upright.
fn upright_resized(
    img: &DynamicImage,
    kind: MediaKind,
    orientation: u8,
    size: (u32, u32),
) -> Result<DynamicImage, MediaRejection> {
    let (tw, th) = size;
    let (rw, rh) = if orientation >= 5 { (th, tw) } else { (tw, th) };
    let (sw, sh) = (img.width(), img.height());
    let small = if has_alpha(img, kind) {
        let owned;
        let src = match img.as_rgba8() {
            Some(src) => src,
            None => {
                owned = img.to_rgba8();
                &owned
            }
        };
        let buf = resize_image(src.as_raw(), sw, sh, 4, rw, rh)?;
        image::RgbaImage::from_raw(rw, rh, buf).map(DynamicImage::ImageRgba8)
    } else {
        let owned;
        let src = match img.as_rgb8() {
            Some(src) => src,
            None => {
                owned = img.to_rgb8();
                &owned
            }
        };
        let buf = resize_image(src.as_raw(), sw, sh, 3, rw, rh)?;
        image::RgbImage::from_raw(rw, rh, buf).map(DynamicImage::ImageRgb8)
    };
    let mut small = small.ok_or_else(|| crate::error::internal("resized buffer has the wrong size"))?;
    if let Some(o) = Orientation::from_exif(orientation) {
        small.apply_orientation(o);
    }
    Ok(small)
}

fn has_alpha(img: &DynamicImage, kind: MediaKind) -> bool {
    img.color().has_alpha() && kind != MediaKind::Jpeg
}

/// A still rendition in the source's family: JPEG for JPEG, PNG otherwise.
fn encode_still(kind: MediaKind, img: &DynamicImage) -> Result<Rendition, MediaRejection> {
    let (width, height) = (img.width(), img.height());
    let (bytes, mime) = if kind == MediaKind::Jpeg {
        (encode_jpeg(img.to_rgb8().as_raw(), width, height)?, "image/jpeg")
    } else {
        (encode_png(img.to_rgba8().as_raw(), width, height)?, "image/png")
    };
    Ok(Rendition { bytes, mime, width, height, frames: 1, duration_ms: 0, codec: None })
}

/// The text sheets of a still image: the upright picture, its only scene.
fn text_sheets(img: &DynamicImage, kind: MediaKind, orientation: u8) -> Result<Vec<Rendition>, MediaRejection> {
    use crate::sink::{CanvasFrame, FrameSink};
    let size = if orientation >= 5 { (img.height(), img.width()) } else { (img.width(), img.height()) };
    let upright = upright_resized(img, kind, orientation, size)?.to_rgba8();
    let (w, h) = upright.dimensions();
    let mut sheet = crate::text::TextSheet::new(w, h, 1);
    let dirty = crate::resize::Rect::full(w, h);
    sheet.frame(&CanvasFrame { rgba: upright.as_raw(), dirty, opaque: true, delay: 0, own_table: true })?;
    sheet.sheets()
}

/// The videos and animated WebPs of a still image, in the order of `videos`: its upright picture
/// at full size, one frame that `ffmpeg` shows for a second (a one-second loop).
fn still_videos(
    ffmpeg: &Ffmpeg,
    videos: &[Video],
    img: &DynamicImage,
    kind: MediaKind,
    orientation: u8,
    limits: &Limits,
) -> Result<Vec<Rendition>, MediaRejection> {
    use crate::sink::{CanvasFrame, FrameSink};
    let size = if orientation >= 5 { (img.height(), img.width()) } else { (img.width(), img.height()) };
    let upright = upright_resized(img, kind, orientation, size)?.to_rgba8();
    let (w, h) = upright.dimensions();
    let opaque = upright.pixels().all(|px| px[3] == 255);
    let mut sink = Box::new(VideoSink::start(ffmpeg, videos, limits, (w, h), &[])?);
    let dirty = crate::resize::Rect::full(w, h);
    sink.frame(&CanvasFrame { rgba: upright.as_raw(), dirty, opaque, delay: 0, own_table: true })?;
    sink.finish()
}

/// PNG, JPEG and still WebP: every output is the still at that output's size (the thumbnail's
/// for the thumbnail and the still, 220 wide for tiny, …), each size encoded once; the videos and
/// animated WebPs (with `ffmpeg`) are one-second loops of the picture.
pub(crate) fn process_still(
    kind: MediaKind,
    bytes: &[u8],
    limits: &Limits,
    deadline: &Deadline,
    outputs: &[Output],
    tools: Tools<'_>,
) -> Result<Made, MediaRejection> {
    let p = probe(bytes, limits)?;
    let videos: Vec<Video> = outputs.iter().filter_map(|o| o.video()).collect();
    if !videos.is_empty() && tools.ffmpeg.is_none() {
        return Err(crate::sink::no_ffmpeg());
    }
    if outputs.contains(&Output::Remake) {
        return Err(MediaRejection::invalid("Only animations (GIF or animated WebP) can be made into a new GIF here."));
    }
    let orientation = if kind == MediaKind::Jpeg { jpeg_info(bytes)?.orientation } else { 1 };
    let img = decode(kind, bytes, limits)?;
    deadline.check()?;
    let opaque = !has_alpha(&img, kind)
        || match img.as_rgba8() {
            Some(rgba) => rgba.pixels().all(|px| px[3] == 255),
            None => img.to_rgba8().pixels().all(|px| px[3] == 255),
        };
    let thumb_size = limits.thumb_size(p.width, p.height);
    let thumb = upright_resized(&img, kind, orientation, thumb_size)?;
    deadline.check()?;
    let phash = crate::phash::still(thumb.to_rgba8().as_raw(), thumb.width(), thumb.height());
    let mut made: Vec<((u32, u32), Rendition)> = Vec::new();
    let mut videos = match tools.ffmpeg {
        Some(ffmpeg) if !videos.is_empty() => still_videos(ffmpeg, &videos, &img, kind, orientation, limits)?,
        _ => Vec::new(),
    }
    .into_iter();
    let mut renditions = Vec::with_capacity(outputs.len());
    for output in outputs {
        if *output == Output::TextSheet {
            renditions.extend(text_sheets(&img, kind, orientation)?);
            continue;
        }
        if output.video().is_some() {
            renditions.push(videos.next().ok_or_else(|| crate::error::internal("a video is missing"))?);
            continue;
        }
        let size = output.size(limits, p.width, p.height);
        let rendition = match made.iter().find(|(s, _)| *s == size) {
            Some((_, r)) => r.clone(),
            None => {
                let r = if size == thumb_size {
                    encode_still(kind, &thumb)?
                } else {
                    encode_still(kind, &upright_resized(&img, kind, orientation, size)?)?
                };
                deadline.check()?;
                made.push((size, r.clone()));
                r
            }
        };
        renditions.push(rendition);
    }
    Ok(Made { kind, width: p.width, height: p.height, frames: 1, renditions, phash, opaque, duration_ms: 0 })
}
