//! Whether the tests that need `ffmpeg` and `ffprobe` can run, decided when they are built (shared
//! by the build scripts of `gifshelf-media` and `gifshelf-server`): `GIFSHELF_FFMPEG` names the
//! `ffmpeg` to use (`off`: none), else `ffmpeg` on `PATH`; `ffprobe` is the one beside it, else
//! the one on `PATH`. When both start, the cfg `ffmpeg_tests` is set and their paths are given to
//! the tests as `GIFSHELF_TEST_FFMPEG` and `GIFSHELF_TEST_FFPROBE`; otherwise the tests that need
//! them are compiled as ignored, so test runners report them as skipped, never as passed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub fn emit() {
    println!("cargo::rustc-check-cfg=cfg(ffmpeg_tests)");
    println!("cargo::rerun-if-env-changed=GIFSHELF_FFMPEG");
    println!("cargo::rerun-if-env-changed=PATH");
    let named = std::env::var("GIFSHELF_FFMPEG").ok().map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let ffmpeg = match named.as_deref() {
        Some("off" | "none" | "false") => return,
        Some(path) => PathBuf::from(path),
        None => PathBuf::from("ffmpeg"),
    };
    let beside = ffmpeg.parent().filter(|dir| !dir.as_os_str().is_empty()).map(|dir| dir.join("ffprobe"));
    let ffprobe = beside.filter(|path| path.is_file()).unwrap_or_else(|| PathBuf::from("ffprobe"));
    if runs(&ffmpeg) && runs(&ffprobe) {
        println!("cargo::rustc-cfg=ffmpeg_tests");
        println!("cargo::rustc-env=GIFSHELF_TEST_FFMPEG={}", ffmpeg.display());
        println!("cargo::rustc-env=GIFSHELF_TEST_FFPROBE={}", ffprobe.display());
    }
}

/// `PROGRAM -version` starts and succeeds.
fn runs(program: &Path) -> bool {
    Command::new(program)
        .arg("-version")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}
