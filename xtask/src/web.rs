//! `cargo xtask bench web`: Lighthouse on the built web app served by the release server.
//!
//! Builds the SPA and the release server, starts the server on a temporary SQLite database and
//! media folder with `frontend/dist` as its web app, then runs `frontend/scripts/lighthouse.mjs`,
//! which seeds it through the API (a user and 12 GIFs of the shared corpus), audits `/` signed out,
//! `/` signed in, `/gifs` and a detail page per corpus picture with Debian's Chromium (mobile
//! profile), and prints performance, accessibility, best practices and LCP next to the targets,
//! plus the gallery route's JavaScript in gzip KB. It measures; it fails only when it cannot run.
//! `GIFSHELF_LIGHTHOUSE_RUNS` (default 3) runs per page, the median reported; `GIFSHELF_CORPUS`
//! the GIFs (default `../shared/corpus`); the JSON reports land in `target/lighthouse/`.

use std::path::PathBuf;
use std::process::Command;

use crate::{built, exec, find_chromium, frontend, load, root, target_dir, Result};

pub fn bench() -> Result {
    crate::build_spa()?;
    exec(crate::cargo().args(["build", "--release", "-p", "gifshelf-server"]))?;
    let chromium = find_chromium()?;
    let dir = std::env::temp_dir().join(format!("gifshelf-web-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let result = (|| {
        let server = load::start_serving(&built("release", "gifshelf"), &dir, &frontend().join("dist"))?;
        let corpus = std::env::var_os("GIFSHELF_CORPUS").map_or_else(|| root().join("../shared/corpus"), PathBuf::from);
        let runs = std::env::var("GIFSHELF_LIGHTHOUSE_RUNS").unwrap_or_else(|_| "3".into());
        let result = exec(
            Command::new("node")
                .current_dir(frontend())
                .arg("scripts/lighthouse.mjs")
                .arg("--base")
                .arg(server.url())
                .arg("--corpus")
                .arg(&corpus)
                .arg("--runs")
                .arg(&runs)
                .arg("--out")
                .arg(target_dir().join("lighthouse"))
                .env("CHROMIUM_PATH", chromium),
        );
        drop(server);
        result
    })();
    if result.is_err() {
        let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
        for line in log.lines().filter(|l| l.contains("ERROR")).take(5) {
            eprintln!("server log: {line}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    result
}
