#![doc = include_str!("../README.md")]

mod local;

pub use local::LocalFolder;

/// Opens the store a `GIFSHELF_STORAGE_URL` names.
///
/// # Errors
/// A message for an unsupported or unusable URL.
pub fn open(url: &str) -> Result<LocalFolder, String> {
    match url.strip_prefix("file://") {
        Some(path) if !path.is_empty() => LocalFolder::new(path).map_err(|e| format!("storage folder {path}: {e}")),
        _ => Err(format!("unsupported storage URL {url:?}: use file:///path/to/folder")),
    }
}
