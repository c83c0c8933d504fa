//! `gifshelf backup DIR` and `gifshelf restore DIR`: a folder holding a consistent SQLite snapshot
//! (`gifshelf.db`), the media folder (`media/`, copied incrementally: a file already there with
//! the same size and SHA-256 is kept), the generated signing secret (`jwt-secret`), and
//! `manifest.json` with the SHA-256 of every file. Secrets that live in the environment are
//! named in the manifest as needed, never copied. Restore checks every checksum first and fills
//! a temporary folder it renames into place, so a failure leaves nothing half-restored.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::Settings;

const MANIFEST: &str = "manifest.json";
const DATABASE: &str = "gifshelf.db";
const SECRET: &str = "jwt-secret";

#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    format: u32,
    /// Every file of the backup (relative, `/`-separated) and its SHA-256.
    files: BTreeMap<String, String>,
    /// Environment variables the restored server needs, which the backup does not hold.
    needed_not_copied: Vec<String>,
}

/// What a backup did.
#[derive(Debug, Default)]
pub struct Summary {
    pub copied: usize,
    pub kept: usize,
}

/// The media folder of a `file://` store.
fn media_folder(settings: &Settings) -> Result<PathBuf, String> {
    settings.storage_url.strip_prefix("file://").map(PathBuf::from).ok_or_else(|| {
        "the media are in an object store: keep them with the bucket's versioning (docs/operations.md)".to_owned()
    })
}

fn sha256_of(path: &Path) -> Result<String, String> {
    let mut file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0; 1 << 16];
    loop {
        let n = file.read(&mut buffer).map_err(|e| format!("{}: {e}", path.display()))?;
        if n == 0 {
            return Ok(hex::encode(hasher.finalize()));
        }
        hasher.update(buffer.get(..n).unwrap_or_default());
    }
}

/// Every file below `dir` (hidden folders such as `.partial` aside), relative with `/`.
fn files_below(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<(), String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        if entry.file_type().map_err(|e| e.to_string())?.is_dir() {
            files_below(root, &path, out)?;
        } else if let Ok(relative) = path.strip_prefix(root) {
            out.push(relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"));
        }
    }
    Ok(())
}

/// Copies `from` to `to` through a temporary name, so `to` is whole or absent.
fn copy_whole(from: &Path, to: &Path) -> Result<(), String> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let partial = to.with_extension("partial-copy");
    std::fs::copy(from, &partial).map_err(|e| format!("{}: {e}", from.display()))?;
    std::fs::rename(&partial, to).map_err(|e| format!("{}: {e}", to.display()))
}

fn progress(total: usize, what: &'static str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len}") {
        bar.set_style(style.progress_chars("#>."));
    }
    bar.set_message(what);
    bar
}

/// `gifshelf backup DIR [--media-only]`.
///
/// # Errors
/// What could not be read or written, named.
pub fn backup(
    settings: &Settings,
    db: &gifshelf_db::Database,
    dir: &Path,
    media_only: bool,
) -> Result<Summary, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files = BTreeMap::new();
    if !media_only {
        let snapshot = dir.join(DATABASE);
        let fresh = dir.join("gifshelf.db.partial-copy");
        let _ = std::fs::remove_file(&fresh);
        db.snapshot_sqlite(&fresh).map_err(|e| e.to_string())?;
        std::fs::rename(&fresh, &snapshot).map_err(|e| e.to_string())?;
        files.insert(DATABASE.to_owned(), sha256_of(&snapshot)?);
    }
    let media = media_folder(settings)?;
    let mut names = Vec::new();
    files_below(&media, &media, &mut names)?;
    let bar = progress(names.len(), "media");
    let mut summary = Summary::default();
    for name in names {
        let (from, to) = (media.join(&name), dir.join("media").join(&name));
        let hash = sha256_of(&from)?;
        let same = std::fs::metadata(&to).is_ok_and(|m| std::fs::metadata(&from).is_ok_and(|f| f.len() == m.len()))
            && sha256_of(&to).is_ok_and(|h| h == hash);
        if same {
            summary.kept += 1;
        } else {
            copy_whole(&from, &to)?;
            summary.copied += 1;
        }
        files.insert(format!("media/{name}"), hash);
        bar.inc(1);
    }
    bar.finish();
    let mut needed = Vec::new();
    if settings.jwt_secret.is_some() {
        needed.push("GIFSHELF_JWT_SECRET".to_owned());
    } else if settings.data_dir.join(SECRET).is_file() {
        copy_whole(&settings.data_dir.join(SECRET), &dir.join(SECRET))?;
        files.insert(SECRET.to_owned(), sha256_of(&dir.join(SECRET))?);
    }
    if std::env::var_os("GIFSHELF_SECRETS_KEY").is_some() {
        needed.push("GIFSHELF_SECRETS_KEY".to_owned());
    }
    let manifest = Manifest { format: 1, files, needed_not_copied: needed };
    let text = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())?;
    std::fs::write(dir.join(MANIFEST), text).map_err(|e| e.to_string())?;
    Ok(summary)
}

/// `gifshelf restore DIR` into an empty `GIFSHELF_DATA_DIR` (the SQLite database and media
/// folder at their default places in it).
///
/// # Errors
/// A data folder that is not empty, a file missing or whose checksum differs (named): then
/// nothing was written to the data folder.
pub fn restore(settings: &Settings, dir: &Path) -> Result<usize, String> {
    let target = &settings.data_dir;
    if settings.database_url.starts_with("postgres") {
        return Err("restore fills a SQLite data folder; on PostgreSQL restore pg_dump's file with pg_restore".into());
    }
    if std::fs::read_dir(target).is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(format!("{} is not empty: restore fills an empty data folder", target.display()));
    }
    let text = std::fs::read_to_string(dir.join(MANIFEST)).map_err(|e| format!("{MANIFEST}: {e}"))?;
    let manifest: Manifest = serde_json::from_str(&text).map_err(|e| format!("{MANIFEST}: {e}"))?;
    for name in &manifest.needed_not_copied {
        eprintln!("gifshelf: the restored server needs {name}, which the backup does not hold");
    }
    let parent = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let temp = tempfile::Builder::new().prefix(".gifshelf-restore-").tempdir_in(parent).map_err(|e| e.to_string())?;
    let bar = progress(manifest.files.len(), "restore");
    for (name, hash) in &manifest.files {
        if name.split('/').any(|part| part == ".." || part.is_empty()) {
            return Err(format!("{name}: not a file name of a backup"));
        }
        let from = dir.join(name);
        let actual = sha256_of(&from)?;
        if &actual != hash {
            return Err(format!("{name}: its checksum differs from the manifest's; nothing was restored"));
        }
        copy_whole(&from, &temp.path().join(name))?;
        bar.inc(1);
    }
    bar.finish();
    let _ = std::fs::remove_dir(target);
    let restored = temp.keep();
    std::fs::rename(&restored, target).map_err(|e| format!("{}: {e}", target.display()))?;
    Ok(manifest.files.len())
}
