//! `gifshelf export-media`: every original of the library and a `manifest.json` in one ZIP file,
//! written as the originals are read (the archive of "Download my GIFs", for the whole library).

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::Arc;

use futures_util::StreamExt;
use gifshelf_app::gifs::GifService;
use gifshelf_domain::gif::GifFilter;

/// Writes the archive to `to` (which must not exist); returns the bytes written.
///
/// # Errors
/// When the file cannot be created or written, or a stored original cannot be read (the partial
/// file is removed).
pub async fn export_media(gifs: Arc<GifService>, to: &Path, started: chrono::NaiveDateTime) -> Result<u64, String> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(to)
        .map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        if let Ok(style) = indicatif::ProgressStyle::with_template("{wide_bar} {pos}/{len} GIFs  {per_sec}  ETA {eta}")
        {
            bar.set_style(style);
        }
        bar
    });
    let progress: gifshelf_http::archive::Progress = match bar.clone() {
        Some(bar) => Arc::new(move |done, total| {
            bar.set_length(u64::try_from(total).unwrap_or(0));
            bar.set_position(done);
        }),
        None => Arc::new(|done, total| {
            if done % 100 == 0 || i64::try_from(done).is_ok_and(|d| d == total) {
                println!("{done}/{total} GIFs written");
            }
        }),
    };
    let mut archive = Box::pin(gifshelf_http::archive::originals(gifs, GifFilter::All, Some(progress), started));
    let mut written = 0_u64;
    let result: Result<(), String> = async {
        while let Some(chunk) = archive.next().await {
            let chunk = chunk.map_err(|e| e.to_string())?;
            out.write_all(&chunk).map_err(|e| e.to_string())?;
            written += chunk.len() as u64;
        }
        out.flush().map_err(|e| e.to_string())?;
        out.get_ref().sync_all().map_err(|e| e.to_string())
    }
    .await;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Err(err) = result {
        let _ = std::fs::remove_file(to);
        return Err(err);
    }
    Ok(written)
}
