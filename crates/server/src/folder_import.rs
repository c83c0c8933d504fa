//! `gifshelf import-folder`: every image below a folder, through the upload use case.
//!
//! Files are recognised by their content (GIF, PNG, JPEG, WebP), never by their name; titles come
//! from file names and, when asked, tags from the names of the folders between DIR and the file.
//! Re-running imports nothing twice: a file whose stored original is in the library (its SHA-256)
//! is skipped and counted.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use gifshelf_app::auth::Actor;
use gifshelf_app::gifs::{GifService, UploadInput};
use gifshelf_app::AppError;
use gifshelf_domain::gif::{TagName, TITLE_MAX};

/// How an import is run.
#[derive(Debug, Clone)]
pub struct ImportOptions {
    pub dir: PathBuf,
    pub tags_from_folders: bool,
    /// Check and count, store nothing.
    pub dry_run: bool,
    /// Files over this size are refused (the server's upload limit).
    pub max_bytes: u64,
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportSummary {
    pub imported: usize,
    /// Already in the library (byte for byte, after metadata stripping).
    pub duplicates: usize,
    /// Files that are not images (by content): skipped without a word.
    pub not_images: usize,
    /// Images the upload refused, with the reason.
    pub refused: Vec<(PathBuf, String)>,
    /// Stored, but looking like GIFs already there (perceptual hash).
    pub look_alikes: usize,
}

/// Every file below `dir` that is not a folder, sorted; folders behind symbolic links are not
/// entered. Links and other non-regular entries are listed: opening them refuses them, so that they
/// are reported, and one swapped in after the listing is refused the same way.
fn files_below(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            if kind.is_dir() {
                pending.push(entry.path());
            } else {
                files.push(entry.path());
            }
        }
    }
    files.sort();
    Ok(files)
}

/// What opening a listed file gave.
enum Read {
    Bytes(Vec<u8>),
    /// Refused before any byte was read, or at the limit: the reason.
    Refused(String),
}

/// Opens `path` once, never following a symbolic link (nor blocking on a FIFO), checks on the
/// opened handle that it is a regular file within `max_bytes`, and reads at most `max_bytes + 1`
/// bytes of it: a link or a larger file swapped in after the listing is refused, never read whole.
fn read_capped(path: &Path, max_bytes: u64) -> std::io::Result<Read> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt;
    let too_large = || Read::Refused(format!("the file is larger than the {} MB limit", max_bytes / (1024 * 1024)));
    let file = match std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path)
    {
        Ok(file) => file,
        Err(err) if err.raw_os_error() == Some(libc::ELOOP) => {
            return Ok(Read::Refused("a symbolic link, not followed".into()))
        }
        Err(err) => return Err(err),
    };
    let metadata = file.metadata()?;
    if !metadata.file_type().is_file() {
        return Ok(Read::Refused("not a regular file".into()));
    }
    if metadata.len() > max_bytes {
        return Ok(too_large());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Ok(too_large());
    }
    Ok(Read::Bytes(bytes))
}

/// The title from a file name: its stem, `_` as spaces, at most 100 characters.
fn title_of(path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let title: String = stem.replace('_', " ").trim().chars().take(TITLE_MAX).collect();
    if title.trim().is_empty() {
        "Untitled".to_owned()
    } else {
        title
    }
}

/// The names of the folders between `dir` and the file that make valid tags.
fn tags_of(dir: &Path, path: &Path) -> Vec<String> {
    let Some(parent) = path.parent().and_then(|p| p.strip_prefix(dir).ok()) else {
        return Vec::new();
    };
    parent
        .components()
        .filter_map(|c| TagName::parse(&c.as_os_str().to_string_lossy()).ok())
        .map(|t| t.as_str().to_owned())
        .collect()
}

/// Reports each file: a progress bar with rate and ETA on a terminal, plain lines otherwise.
enum Reporter {
    Bar(indicatif::ProgressBar),
    Lines { total: usize, done: usize, started: Instant },
}

impl Reporter {
    fn new(total: usize) -> Self {
        if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new(total as u64);
            if let Ok(style) =
                indicatif::ProgressStyle::with_template("{wide_bar} {pos}/{len} files  {per_sec}  ETA {eta}  {msg}")
            {
                bar.set_style(style);
            }
            Self::Bar(bar)
        } else {
            Self::Lines { total, done: 0, started: Instant::now() }
        }
    }

    fn file(&mut self, path: &Path, outcome: &str) {
        match self {
            Self::Bar(bar) => {
                bar.set_message(format!("{}", path.display()));
                bar.inc(1);
                if outcome.starts_with("refused") {
                    bar.println(format!("{}: {outcome}", path.display()));
                }
            }
            Self::Lines { total, done, started } => {
                *done += 1;
                let rate = *done as f64 / started.elapsed().as_secs_f64().max(0.001);
                println!("[{done}/{total}, {rate:.1}/s] {}: {outcome}", path.display());
            }
        }
    }

    fn finish(&self) {
        if let Self::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

/// Imports every image below `options.dir` as `owner`.
///
/// # Errors
/// When the folder cannot be read, or storage fails (the files before stay imported; re-run).
pub async fn import_folder(
    gifs: Arc<GifService>,
    owner: &Actor,
    options: &ImportOptions,
) -> Result<ImportSummary, String> {
    let files = files_below(&options.dir).map_err(|e| format!("cannot read {}: {e}", options.dir.display()))?;
    let mut summary = ImportSummary::default();
    let mut reporter = Reporter::new(files.len());
    // A dry run stores nothing, so the library cannot tell it of copies within the folder itself.
    let mut seen = HashSet::new();
    for path in files {
        let shown = path.strip_prefix(&options.dir).unwrap_or(&path).to_path_buf();
        let outcome = match import_one(&gifs, owner, options, &path, &mut seen).await {
            Ok(Outcome::Imported { look_alikes }) => {
                summary.imported += 1;
                if look_alikes.is_empty() {
                    "imported".to_owned()
                } else {
                    summary.look_alikes += 1;
                    format!("imported (looks like {})", look_alikes.join(", "))
                }
            }
            Ok(Outcome::WouldImport) => {
                summary.imported += 1;
                "would be imported".to_owned()
            }
            Ok(Outcome::Duplicate) => {
                summary.duplicates += 1;
                "already in the library".to_owned()
            }
            Ok(Outcome::NotAnImage) => {
                summary.not_images += 1;
                "not an image, skipped".to_owned()
            }
            Ok(Outcome::Refused(reason)) => {
                summary.refused.push((shown.clone(), reason.clone()));
                format!("refused: {reason}")
            }
            Err(err) => {
                reporter.finish();
                return Err(format!("{}: {err}", shown.display()));
            }
        };
        reporter.file(&shown, &outcome);
    }
    reporter.finish();
    Ok(summary)
}

enum Outcome {
    Imported { look_alikes: Vec<String> },
    WouldImport,
    Duplicate,
    NotAnImage,
    Refused(String),
}

async fn import_one(
    gifs: &GifService,
    owner: &Actor,
    options: &ImportOptions,
    path: &Path,
    seen: &mut HashSet<(usize, u64)>,
) -> Result<Outcome, String> {
    let bytes = match read_capped(path, options.max_bytes).map_err(|e| e.to_string())? {
        Read::Bytes(bytes) => bytes,
        Read::Refused(reason) => return Ok(Outcome::Refused(reason)),
    };
    if gifshelf_media::sniff(&bytes[..bytes.len().min(16)]).is_none() {
        return Ok(Outcome::NotAnImage);
    }
    if options.dry_run {
        let mut hasher = DefaultHasher::new();
        bytes.hash(&mut hasher);
        let key = (bytes.len(), hasher.finish());
        return match gifs.check(bytes).await {
            Ok(None) if seen.insert(key) => Ok(Outcome::WouldImport),
            Ok(None) => Ok(Outcome::Duplicate),
            Ok(Some(_)) => Ok(Outcome::Duplicate),
            Err(err) => refusal(err),
        };
    }
    let tags = if options.tags_from_folders { tags_of(&options.dir, path) } else { Vec::new() };
    let input = UploadInput {
        title: title_of(path),
        description: String::new(),
        tags,
        rating: None,
        bytes: Arc::new(bytes),
        caption_text: None,
    };
    match gifs.upload(owner, input).await {
        Ok(uploaded) => Ok(Outcome::Imported {
            look_alikes: uploaded
                .likely_duplicates
                .iter()
                .map(|d| format!("#{} {:?}", d.id.0, d.title.as_str()))
                .collect(),
        }),
        Err(AppError::Duplicate { .. }) => Ok(Outcome::Duplicate),
        Err(err) => refusal(err),
    }
}

/// Refusals of the file are reported and the import goes on; failures of ours stop it.
fn refusal(err: AppError) -> Result<Outcome, String> {
    match err {
        AppError::BadMedia(rejection) => Ok(Outcome::Refused(rejection.to_string())),
        AppError::Validation(gifshelf_domain::ValidationError { message, .. }) => Ok(Outcome::Refused(message)),
        other => Err(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{read_capped, tags_of, title_of, Read};

    fn refusal(path: &Path, max: u64) -> Option<String> {
        match read_capped(path, max).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
            Read::Refused(reason) => Some(reason),
            Read::Bytes(_) => None,
        }
    }

    #[test]
    fn links_devices_and_files_over_the_limit_are_refused_unread() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("a.gif");
        std::fs::write(&file, [7_u8; 1000]).unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(read_capped(&file, 1000), Ok(Read::Bytes(b)) if b.len() == 1000));
        assert_eq!(refusal(&file, 999).as_deref(), Some("the file is larger than the 0 MB limit"));
        let link = dir.path().join("link.gif");
        std::os::unix::fs::symlink(&file, &link).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(refusal(&link, 1000).as_deref(), Some("a symbolic link, not followed"));
        // An endless file (a device a link could have pointed to) is never read: its size says 0.
        assert_eq!(refusal(Path::new("/dev/zero"), 1000).as_deref(), Some("not a regular file"));
        let fifo = dir.path().join("fifo.gif");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        assert_eq!(
            refusal(&fifo, 1000).as_deref(),
            Some("not a regular file"),
            "no writer: would block without O_NONBLOCK"
        );
    }

    #[test]
    fn titles_and_tags_come_from_names() {
        assert_eq!(title_of(Path::new("/x/happy_dance.gif")), "happy dance");
        assert_eq!(title_of(Path::new("/x/.gif")), ".gif");
        assert_eq!(tags_of(Path::new("/x"), Path::new("/x/Cats/Funny/a.gif")), ["cats", "funny"]);
        assert!(tags_of(Path::new("/x"), Path::new("/x/a.gif")).is_empty());
    }
}
