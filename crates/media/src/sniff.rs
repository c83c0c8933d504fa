//! Type detection from magic numbers only.

/// The image types the pipeline accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MediaKind {
    /// GIF87a or GIF89a.
    Gif,
    /// PNG (an APNG is treated as its still default image).
    Png,
    /// JPEG (JFIF or EXIF).
    Jpeg,
    /// WebP, still or animated.
    Webp,
}

impl MediaKind {
    /// The MIME type to store and serve.
    pub fn mime(&self) -> &'static str {
        match self {
            MediaKind::Gif => "image/gif",
            MediaKind::Png => "image/png",
            MediaKind::Jpeg => "image/jpeg",
            MediaKind::Webp => "image/webp",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(&self) -> &'static str {
        match self {
            MediaKind::Gif => "gif",
            MediaKind::Png => "png",
            MediaKind::Jpeg => "jpg",
            MediaKind::Webp => "webp",
        }
    }

    pub(crate) fn name(&self) -> &'static str {
        match self {
            MediaKind::Gif => "GIF",
            MediaKind::Png => "PNG",
            MediaKind::Jpeg => "JPEG",
            MediaKind::Webp => "WebP",
        }
    }
}

/// Decides the type from the first bytes alone; never from a name or a declared content type.
/// Anything that is not GIF, PNG, JPEG or WebP (SVG, HTML, text, TIFF, BMP, ...) gives `None`.
pub fn sniff(bytes: &[u8]) -> Option<MediaKind> {
    if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some(MediaKind::Gif)
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(MediaKind::Png)
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(MediaKind::Jpeg)
    } else if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some(MediaKind::Webp)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_numbers() {
        assert_eq!(sniff(b"GIF89a\x01\x00"), Some(MediaKind::Gif));
        assert_eq!(sniff(b"GIF87a"), Some(MediaKind::Gif));
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n...."), Some(MediaKind::Png));
        assert_eq!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some(MediaKind::Jpeg));
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some(MediaKind::Webp));
        assert_eq!(sniff(b"RIFF\0\0\0\0WAVEfmt "), None);
        assert_eq!(sniff(b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>"), None);
        assert_eq!(sniff(b"BM\0\0"), None);
        assert_eq!(sniff(b"II*\0"), None);
        assert_eq!(sniff(b""), None);
        assert_eq!(sniff(b"GIF8"), None);
    }
}
