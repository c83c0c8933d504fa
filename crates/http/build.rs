//! Builds the web app into the binary: every file of `frontend/dist` (what `npm run build`
//! writes) becomes a static byte slice of `$OUT_DIR/embedded_web.rs`, with an ETag made of its
//! content. Without a built web app (a fresh clone, a Rust-only build, clippy) the binary embeds
//! `src/spa/not_built.html`, a page saying how to build it, so no Rust build needs npm.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let frontend = manifest.join("../../frontend");
    let dist = frontend.join("dist");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("embedded_web.rs");
    println!("cargo::rerun-if-changed=src/spa/not_built.html");
    println!("cargo::rerun-if-changed=build.rs");
    let mut files = Vec::new();
    if dist.join("index.html").is_file() {
        // A directory is scanned whole: any rebuilt file embeds the new build.
        println!("cargo::rerun-if-changed={}", dist.display());
        collect(&dist, &dist, &mut files);
    } else {
        // Not built yet. Watching `frontend/` would scan node_modules on every build, and watching
        // the missing folder would rebuild this crate every time: `cargo xtask run` names the new
        // build in GIFSHELF_WEB_BUILD instead (after a bare `npm run build`, touch this file).
        println!("cargo::rerun-if-env-changed=GIFSHELF_WEB_BUILD");
    }
    files.sort();
    let built = !files.is_empty();
    if !built {
        files.push(("index.html".to_owned(), manifest.join("src/spa/not_built.html")));
    }
    let mut code = String::new();
    let _ = writeln!(
        code,
        "/// Whether the web app was built when this binary was.\npub(crate) const BUILT: bool = {built};"
    );
    code.push_str("/// The web app's files, sorted by path.\npub(crate) static FILES: &[EmbeddedFile] = &[\n");
    for (path, file) in &files {
        let bytes = std::fs::read(file).unwrap_or_default();
        let _ = writeln!(
            code,
            "    EmbeddedFile {{ path: {path:?}, bytes: include_bytes!({file:?}), etag: \"\\\"{:016x}-{:x}\\\"\" }},",
            fnv1a(&bytes),
            bytes.len(),
            file = file.display().to_string(),
        );
    }
    code.push_str("];\n");
    if std::fs::read_to_string(&out).ok().as_deref() != Some(code.as_str()) {
        if let Err(e) = std::fs::write(&out, code) {
            println!("cargo::error=cannot write {}: {e}", out.display());
        }
    }
}

/// Every file below `dir`, as (path relative to `root` with `/`, absolute path).
fn collect(root: &Path, dir: &Path, files: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, files);
        } else if let Ok(relative) = path.strip_prefix(root) {
            let name = relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            files.push((name, path));
        }
    }
}

/// FNV-1a, 64 bits: an ETag needs to change with the content, not to resist anyone.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
