//! The one key rule every adapter applies, so a key means the same thing in a folder and a bucket.

use gifshelf_domain::ports::BlobError;

/// At most 512 bytes of `A-Z a-z 0-9 / . _ -`, relative, in non-empty segments that are not `.`,
/// `..` or hidden (`.partial`, `.git`): the shape of the keys the server chooses
/// (`gifs/<random>/original.gif`), and nothing that could leave a folder or a prefix.
pub(crate) fn is_valid(key: &str) -> bool {
    !key.is_empty()
        && key.len() <= 512
        && !key.starts_with('/')
        && key.split('/').all(|part| !part.is_empty() && part != "." && part != ".." && !part.starts_with('.'))
        && key.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-'))
}

/// # Errors
/// `Io` naming the refused key.
pub(crate) fn check(key: &str) -> Result<(), BlobError> {
    if is_valid(key) {
        Ok(())
    } else {
        Err(BlobError::io(format!("refused blob key {key:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::is_valid;

    #[test]
    fn the_servers_keys_pass_and_escapes_do_not() {
        for key in ["gifs/abc/original.gif", "gifs/a-b_c/static.png", "x"] {
            assert!(is_valid(key), "{key:?}");
        }
        let long = "a".repeat(513);
        for key in
            ["", "/abs", "a//b", "a/", "../x", "a/../b", "./a", ".partial/x", "a/.hidden", "a b", "a\u{0}", "é", &long]
        {
            assert!(!is_valid(key), "{key:?}");
        }
    }
}
