//! "Download my GIFs" and `gifshelf export-media`: the stored originals of a filter and a
//! `manifest.json`, as a ZIP streamed while it is written. GIFs are read a page at a time and each
//! original a chunk at a time, so memory stays flat however large the library is.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::dto::iso;
use actix_web::web::Bytes;
use chrono::NaiveDateTime;
use futures_util::Stream;
use gifshelf_app::gifs::GifService;
use gifshelf_domain::gif::{Gif, GifFilter, GifSort, PageRequest, RenditionKind, MAX_PAGE_SIZE};
use gifshelf_domain::ports::BlobReader;
use gifshelf_domain::user::UserId;
use serde::Serialize;

use crate::zip::ZipWriter;

/// Called after each file with (files written, GIFs the filter holds).
pub type Progress = Arc<dyn Fn(u64, i64) + Send + Sync>;

/// One GIF in `manifest.json`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ManifestEntry {
    id: i64,
    /// The entry of the archive holding the original.
    file: String,
    title: String,
    description: String,
    tags: Vec<String>,
    uploaded_by: String,
    /// ISO-8601, UTC.
    uploaded_at: String,
    content_type: String,
    size: i64,
    width: i32,
    height: i32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Manifest {
    exported_at: String,
    count: usize,
    gifs: Vec<ManifestEntry>,
    /// GIFs whose original could not be read (with why): not in the archive.
    missing: Vec<MissingEntry>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct MissingEntry {
    id: i64,
    title: String,
    error: String,
}

struct State {
    gifs: Arc<GifService>,
    filter: GifFilter,
    progress: Option<Progress>,
    zip: Option<ZipWriter>,
    next_page: Option<u32>,
    queue: VecDeque<Gif>,
    reader: Option<Box<dyn BlobReader>>,
    manifest: Vec<ManifestEntry>,
    missing: Vec<MissingEntry>,
    total: i64,
    /// When the download began: the manifest's `exportedAt`.
    started: NaiveDateTime,
}

/// A file name from a title: letters and digits kept, runs of anything else one `-`, at most 60.
fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.chars().count() >= 60 {
            break;
        }
    }
    let trimmed = out.trim_end_matches('-');
    if trimmed.is_empty() {
        "gif".to_owned()
    } else {
        trimmed.to_owned()
    }
}

fn io_error(err: impl std::fmt::Display) -> std::io::Error {
    std::io::Error::other(err.to_string())
}

impl State {
    /// The next bytes of the archive, `None` at its end.
    async fn next(&mut self) -> Option<Result<Bytes, std::io::Error>> {
        loop {
            if let Some(reader) = self.reader.as_mut() {
                match reader.next_chunk().await {
                    Ok(Some(chunk)) => {
                        self.zip.as_mut()?.data(&chunk);
                        return Some(Ok(Bytes::from_owner(chunk)));
                    }
                    Ok(None) => {
                        self.reader = None;
                        if let Some(progress) = &self.progress {
                            progress(self.manifest.len() as u64, self.total);
                        }
                        continue;
                    }
                    // The entry is half written: the archive cannot be finished honestly.
                    Err(err) => return Some(Err(io_error(err))),
                }
            }
            if let Some(gif) = self.queue.pop_front() {
                match self.start_entry(gif).await {
                    Some(header) => return Some(Ok(header)),
                    None => continue,
                }
            }
            if let Some(page) = self.next_page {
                match self.list_page(page).await {
                    Ok(()) => continue,
                    Err(err) => return Some(Err(err)),
                }
            }
            return self.finish();
        }
    }

    /// Opens the original of `gif` and answers its entry's header; `None` when it has none to
    /// read (a missing blob is noted in the manifest).
    async fn start_entry(&mut self, gif: Gif) -> Option<Bytes> {
        let original = gif.rendition(RenditionKind::Original).cloned()?;
        match self.gifs.open_blob(&original.key, None).await {
            Ok(reader) => self.reader = Some(reader),
            Err(err) => {
                tracing::warn!(gif_id = gif.id.0, error = %err, "an original is missing from the export");
                self.missing.push(MissingEntry {
                    id: gif.id.0,
                    title: gif.title.as_str().to_owned(),
                    error: err.to_string(),
                });
                return None;
            }
        }
        let file = format!("{}-{}.{}", gif.id.0, slug(gif.title.as_str()), original.extension());
        let header = self.zip.as_mut()?.start(&file, gif.uploaded_at);
        self.manifest.push(ManifestEntry {
            id: gif.id.0,
            file,
            title: gif.title.as_str().to_owned(),
            description: gif.description.as_str().to_owned(),
            tags: gif.tags.iter().map(|t| t.name.as_str().to_owned()).collect(),
            uploaded_by: gif.uploader.as_str().to_owned(),
            uploaded_at: iso(gif.uploaded_at),
            content_type: original.content_type.clone(),
            size: original.size,
            width: original.width,
            height: original.height,
        });
        Some(Bytes::from(header))
    }

    /// Queues the GIFs of page `page`; past the last page, there is no next one.
    async fn list_page(&mut self, page: u32) -> Result<(), std::io::Error> {
        let request = PageRequest::new(Some(page), Some(MAX_PAGE_SIZE)).map_err(io_error)?;
        // No viewer: the archive says nothing of anyone's favourites.
        let listed = self.gifs.list(UserId(0), &self.filter, GifSort::Newest, request).await.map_err(io_error)?;
        self.total = listed.total;
        self.next_page = (!listed.items.is_empty()).then_some(page + 1);
        self.queue.extend(listed.items);
        Ok(())
    }

    /// `manifest.json` and the archive's end; `None` once they were written.
    fn finish(&mut self) -> Option<Result<Bytes, std::io::Error>> {
        let mut zip = self.zip.take()?;
        let now = self.started;
        let manifest = Manifest {
            exported_at: iso(now),
            count: self.manifest.len(),
            gifs: std::mem::take(&mut self.manifest),
            missing: std::mem::take(&mut self.missing),
        };
        let json = match serde_json::to_vec_pretty(&manifest) {
            Ok(json) => json,
            Err(err) => return Some(Err(io_error(err))),
        };
        let mut out = zip.start("manifest.json", now);
        zip.data(&json);
        out.extend_from_slice(&json);
        out.extend_from_slice(&zip.finish());
        Some(Ok(Bytes::from(out)))
    }
}

/// The archive of every original `filter` keeps, newest first, then `manifest.json`.
pub fn originals(
    gifs: Arc<GifService>,
    filter: GifFilter,
    progress: Option<Progress>,
    started: NaiveDateTime,
) -> impl Stream<Item = Result<Bytes, std::io::Error>> + 'static {
    let state = State {
        gifs,
        filter,
        progress,
        zip: Some(ZipWriter::new()),
        next_page: Some(0),
        queue: VecDeque::new(),
        reader: None,
        manifest: Vec::new(),
        missing: Vec::new(),
        total: 0,
        started,
    };
    futures_util::stream::unfold(state, |mut state| async move { state.next().await.map(|item| (item, state)) })
}

#[cfg(test)]
mod tests {
    use super::slug;

    #[test]
    fn titles_become_safe_file_names() {
        assert_eq!(slug("Dancing Cat!"), "dancing-cat");
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("   "), "gif");
        assert_eq!(slug("Ünïcode ok"), "ünïcode-ok");
    }
}
