//! Arbitrary bytes as the body of `POST /api/gifs`, read the way the upload handler reads it
//! (actix-multipart, each field capped as it arrives, `gifData` as JSON, then the domain's parsing of
//! the form): an error or a form, never a panic, a hang or unbounded memory. The first byte picks
//! how the body is cut into chunks, as a network would.
#![no_main]

use actix_web::http::header::{HeaderMap, HeaderValue, CONTENT_TYPE};
use actix_web::web::Bytes;
use futures_util::StreamExt;
use gifshelf_domain::gif::{Description, TagName, Title};
use gifshelf_http::dto::GifUploadData;
use libfuzzer_sys::fuzz_target;

const FILE_CAP: usize = 1024 * 1024;
const FORM_CAP: usize = 64 * 1024;

fuzz_target!(|data: &[u8]| {
    let Some((&chunking, body)) = data.split_first() else { return };
    let chunk = usize::from(chunking % 64) + 1;
    let pieces: Vec<Result<Bytes, actix_web::error::PayloadError>> =
        body.chunks(chunk).map(|c| Ok(Bytes::copy_from_slice(c))).collect();
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("multipart/form-data; boundary=X-FUZZ-BOUNDARY"));
    let mut form = actix_multipart::Multipart::new(&headers, futures_util::stream::iter(pieces));
    futures_executor::block_on(async move {
        let mut file_bytes = 0usize;
        while let Some(field) = form.next().await {
            let Ok(mut field) = field else { return };
            let name = field.name().unwrap_or_default().to_owned();
            let cap = if name == "file" { FILE_CAP } else { FORM_CAP };
            let mut bytes = Vec::new();
            while let Some(piece) = field.next().await {
                let Ok(piece) = piece else { return };
                if bytes.len() + piece.len() > cap {
                    return;
                }
                bytes.extend_from_slice(&piece);
            }
            if name == "file" {
                file_bytes += bytes.len();
                assert!(file_bytes <= body.len());
            } else if name == "gifData" {
                if let Ok(form) = serde_json::from_slice::<GifUploadData>(&bytes) {
                    let _ = Title::parse(&form.title);
                    let _ = Description::parse(&form.description);
                    let _ = TagName::parse_list(&form.tags);
                }
            }
        }
    });
});
