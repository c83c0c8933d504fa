//! Whether the tests that need Tesseract can run, decided when they are built: `GIFSHELF_TESSERACT`
//! names the program (`off`: none), else `tesseract` on `PATH`, which must have the English model.
//! When it does, the cfg `tesseract_tests` is set and its path given to the tests as
//! `GIFSHELF_TEST_TESSERACT`; otherwise those tests are compiled as ignored, so test runners report
//! them as skipped, never as passed.

use std::path::PathBuf;
use std::process::{Command, Stdio};

pub fn emit() {
    println!("cargo::rustc-check-cfg=cfg(tesseract_tests)");
    println!("cargo::rerun-if-env-changed=GIFSHELF_TESSERACT");
    let named = std::env::var("GIFSHELF_TESSERACT").ok().map(|v| v.trim().to_owned()).filter(|v| !v.is_empty());
    let tesseract = match named.as_deref() {
        Some("off" | "none" | "false") => return,
        Some(path) => PathBuf::from(path),
        None => PathBuf::from("tesseract"),
    };
    let english = Command::new(&tesseract)
        .arg("--list-langs")
        .stdin(Stdio::null())
        .output()
        .ok()
        .filter(|out| out.status.success())
        .is_some_and(|out| {
            let listed = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            listed.lines().any(|l| l.trim() == "eng")
        });
    if english {
        println!("cargo::rustc-cfg=tesseract_tests");
        println!("cargo::rustc-env=GIFSHELF_TEST_TESSERACT={}", tesseract.display());
    }
}
