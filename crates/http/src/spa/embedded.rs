//! The web app built into the binary (see `build.rs`): served from memory with the headers the
//! folder gives, an ETag of each file's content, and the same history fallback.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::Method;
use actix_web::{HttpRequest, HttpResponse, ResponseError};

use crate::ApiError;

/// One file of the build.
pub(crate) struct EmbeddedFile {
    pub(crate) path: &'static str,
    pub(crate) bytes: &'static [u8],
    pub(crate) etag: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/embedded_web.rs"));

/// Whether the binary holds the built web app (else only the page saying how to build it).
pub fn web_app_built() -> bool {
    BUILT
}

/// The embedded file at `path` (relative, without the leading `/`).
fn find(path: &str) -> Option<&'static EmbeddedFile> {
    FILES.binary_search_by(|file| file.path.cmp(path)).ok().and_then(|i| FILES.get(i))
}

/// The embedded `index.html` (the page's inline scripts need their CSP hashes).
pub(crate) fn index_html() -> &'static str {
    find("index.html").and_then(|file| std::str::from_utf8(file.bytes).ok()).unwrap_or_default()
}

/// Any path that is not an API route: its file, else `index.html` for the client's router.
pub(crate) async fn serve(req: HttpRequest) -> HttpResponse {
    let path = req.path();
    if path == "/api" || path.starts_with("/api/") {
        return ApiError::not_found(format!("No API endpoint at {path}")).error_response();
    }
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed().insert_header((header::ALLOW, "GET, HEAD")).finish();
    }
    let relative = path.trim_start_matches('/');
    match find(relative).filter(|file| file.path != "index.html") {
        Some(file) => file_response(&req, file),
        None => index_response(),
    }
}

fn file_response(req: &HttpRequest, file: &'static EmbeddedFile) -> HttpResponse {
    let not_modified = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|tag| tag.trim() == file.etag || tag.trim() == "*"));
    let mut response = if not_modified { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    response.insert_header((header::ETAG, file.etag));
    if not_modified {
        return response.finish();
    }
    response.content_type(content_type(file.path)).body(file.bytes)
}

/// `index.html` (or the page saying how to build it), never cached: its asset names change with
/// every build.
pub(crate) fn index_response() -> HttpResponse {
    let bytes = find("index.html").map_or(&b""[..], |file| file.bytes);
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("no-cache")))
        .body(bytes)
}

/// The type the folder path gives the same file (`actix-files`, with UTF-8 text).
fn content_type(path: &str) -> String {
    let extension = path.rsplit_once('.').map_or("", |(_, ext)| ext);
    let mime = actix_files::file_extension_to_mime(extension);
    let essence = mime.essence_str();
    if mime.type_() == "text" || essence == "application/javascript" || essence == "application/json" {
        format!("{essence}; charset=utf-8")
    } else {
        essence.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_sorted_and_hold_an_index() {
        assert!(FILES.windows(2).all(|pair| pair.first().map(|a| a.path) < pair.get(1).map(|b| b.path)));
        assert!(index_html().contains("<html") || index_html().contains("<!doctype"), "{}", index_html());
    }

    #[test]
    fn content_types_match_the_folder_path() {
        assert_eq!(content_type("assets/app.1234.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("assets/app.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("favicon.png"), "image/png");
        assert_eq!(content_type("unknown"), "application/octet-stream");
    }
}
