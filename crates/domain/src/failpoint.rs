//! The crash-safety tests' hook. With the `failpoints` feature (test builds only) and
//! `GIFSHELF_FAIL_AT=NAME` (or `NAME#N` for the N-th time it is reached) in the environment, the
//! process kills itself with SIGKILL at that point: nothing is flushed, unwound or answered, as in a
//! power cut. Without the feature `fail_point` compiles to nothing.

/// Upload use case: the row is committed, the response is not sent yet.
pub const UPLOAD_AFTER_COMMIT: &str = "upload.after_commit";
/// Maker job: the GIF is made (in memory), nothing of it stored yet.
pub const MAKE_AFTER_ENGINE: &str = "make.after_engine";
/// Maker job: the GIF is stored through the upload, the make not yet marked done.
pub const MAKE_AFTER_UPLOAD: &str = "make.after_upload";
/// Local folder: a blob's temp file is written and synced, not yet renamed into place.
pub const BLOB_AFTER_WRITE: &str = "blob.after_write";
/// Local folder: a blob was renamed into place (visible), its folder not yet synced.
pub const BLOB_AFTER_RENAME: &str = "blob.after_rename";

#[cfg(feature = "failpoints")]
pub fn fail_point(name: &str) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static HITS: AtomicUsize = AtomicUsize::new(0);

    let Ok(wanted) = std::env::var("GIFSHELF_FAIL_AT") else { return };
    let (point, nth) = match wanted.split_once('#') {
        Some((point, n)) => (point.to_owned(), n.parse::<usize>().unwrap_or(1)),
        None => (wanted, 1),
    };
    if point != name || HITS.fetch_add(1, Ordering::SeqCst) + 1 != nth {
        return;
    }
    eprintln!("fail point {name} (hit {nth}): SIGKILL");
    let _ = std::process::Command::new("kill").args(["-KILL", &std::process::id().to_string()]).status();
    std::process::abort();
}

#[cfg(not(feature = "failpoints"))]
#[inline(always)]
pub fn fail_point(_name: &str) {}
