//! `cargo xtask <task>`: the project's tasks in plain Rust, so they run the same everywhere.
//!
//! - `run`: install frontend dependencies when missing, build the SPA and the release server, start
//!   it on the embedded defaults (SQLite and a folder under `./data`) and print the URL.
//! - `dev`: the backend plus webpack's dev server with a proxy, both rebuilt on change.
//! - `test`: every test: Rust crates, a short load check, Schemathesis against the OpenAPI document,
//!   frontend unit tests, browser end-to-end tests.
//! - `schemathesis`: only the Schemathesis check (against the debug binary).
//! - `load [SECONDS]`: 32 clients mixing uploads, gallery pages, searches and detail views against
//!   the release server on SQLite for 60 s (wrk); prints req/s, p50/p95/p99 and every non-2xx.
//!   `load --check` is the bounded variant `test` runs (5 s on the debug binary, fails on any 5xx);
//!   `load --gzip` runs the mix twice, the second time accepting gzip, and prints what compressing
//!   the JSON answers costs in throughput.
//! - `ci`: formatting, clippy with warnings denied, the dependency rule, the fuzz targets' build,
//!   then `test`.
//! - `fuzz [SECONDS]`: runs every cargo-fuzz target for SECONDS (default 60) each (nightly toolchain
//!   and `cargo install cargo-fuzz`); findings land in `fuzz/artifacts/`.
//! - `tidy`: the limits every source file keeps (600 lines a file, 80 a Rust function) and the
//!   names docs/ARCHITECTURE.md must hold (every crate, port and job task; its recipes). Also a test.
//! - `image [--binary PATH] [--tag NAME]`: the container image from Debian's packages with buildah
//!   (see `image.rs`); its name is the last line printed. `test` builds one around the debug binary
//!   and runs it with podman (`image_check.rs`).
//! - `gen-types`: regenerate `frontend/src/api/generated` from the Rust DTOs.
//! - `bench [media|make|api|text|serve|web] [ARGS]`: benchmarks that print figures next to their targets
//!   and anchors (they never gate a test run); ARGS go to the bench (`bench api --gifs 1000000`).
//!   `media` also times the upload of a 10 MB, 200-frame GIF through the real application. `text`
//!   reads a labelled set of 80 GIFs with Tesseract and searches their captions' words. `serve`
//!   loads the release binary with `wrk` (media bytes against nginx, gallery requests with one and two
//!   instances on PostgreSQL); it skips what is not installed. `web` runs Lighthouse (Debian's
//!   Chromium, mobile profile) on the SPA served by the release server, seeded and signed in, and
//!   prints its scores and the gallery route's JavaScript size next to the targets (see `web.rs`).

mod deps;
mod image;
mod image_check;
mod load;
mod schemathesis;
mod tidy;
mod web;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let task = args.first().map(String::as_str).unwrap_or("help");
    let rest = args.get(1..).unwrap_or_default();
    let result = match task {
        "run" => run(rest),
        "dev" => dev(),
        "test" => test(),
        "ci" => ci(),
        "gen-types" => gen_types(),
        "deps" => deps::check(&root()),
        "tidy" => tidy::check(&root()),
        "bench" => bench(rest),
        "load" => load_scenario(rest),
        "fuzz" => fuzz(rest),
        "image" => image::command(rest),
        "schemathesis" => schemathesis::run(&built("debug", "gifshelf"), &target_dir().join("schemathesis")),
        _ => {
            eprintln!("usage: cargo xtask <run|dev|test|ci|tidy|gen-types|bench|load|fuzz|image>");
            return if task == "help" { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask {task}: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root (xtask lives one level below it).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Where cargo puts what it builds: `cargo metadata`'s `target_directory`, which honours
/// `CARGO_TARGET_DIR` and `build.target-dir`. Asked once per run.
fn target_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let output = cargo().args(["metadata", "--format-version", "1", "--no-deps"]).output();
        output
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| target_directory(&o.stdout))
            .unwrap_or_else(|| root().join("target"))
    })
    .clone()
}

/// The `target_directory` of `cargo metadata`'s JSON.
fn target_directory(metadata_json: &[u8]) -> Option<PathBuf> {
    let metadata: serde_json::Value = serde_json::from_slice(metadata_json).ok()?;
    metadata["target_directory"].as_str().map(PathBuf::from)
}

/// A binary of the workspace built in `profile` (`debug` or `release`).
fn built(profile: &str, name: &str) -> PathBuf {
    built_in(&target_dir(), profile, name)
}

fn built_in(target: &Path, profile: &str, name: &str) -> PathBuf {
    target.join(profile).join(name)
}

fn frontend() -> PathBuf {
    root().join("frontend")
}

fn cargo() -> Command {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(root());
    cmd
}

fn npm(args: &[&str]) -> Command {
    let mut cmd = Command::new("npm");
    cmd.args(args).current_dir(frontend());
    cmd
}

/// Runs a command to completion; a non-zero exit is an error naming the command.
fn exec(cmd: &mut Command) -> Result {
    let shown = format!("{cmd:?}");
    eprintln!("$ {shown}");
    let status = cmd.status().map_err(|e| format!("cannot start {shown}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({status})"))
    }
}

/// `npm ci` when `node_modules` is missing or older than the lock file.
fn ensure_frontend_deps() -> Result {
    let modules = frontend().join("node_modules");
    let lock = frontend().join("package-lock.json");
    let stamp = modules.join(".package-lock.json");
    let fresh = match (
        std::fs::metadata(&stamp).and_then(|m| m.modified()),
        std::fs::metadata(&lock).and_then(|m| m.modified()),
    ) {
        (Ok(installed), Ok(locked)) => installed >= locked,
        _ => false,
    };
    if fresh {
        return Ok(());
    }
    exec(npm(&["ci", "--no-audit", "--no-fund"]).env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1"))
}

fn build_spa() -> Result {
    ensure_frontend_deps()?;
    exec(&mut npm(&["run", "build"]))
}

/// The SPA, then the release server embedding it.
fn build_release_with_spa() -> Result {
    build_spa()?;
    // The binary embeds frontend/dist (crates/http/build.rs); naming this build makes cargo embed
    // it even when the last build of the binary found no web app to embed.
    let built_at = std::fs::metadata(frontend().join("dist/index.html"))
        .and_then(|m| m.modified())
        .map(|t| format!("{t:?}"))
        .unwrap_or_default();
    exec(cargo().args(["build", "--release", "-p", "gifshelf-server"]).env("GIFSHELF_WEB_BUILD", built_at))
}

fn run(args: &[String]) -> Result {
    build_release_with_spa()?;
    let bind = std::env::var("GIFSHELF_BIND").unwrap_or_else(|_| "127.0.0.1:8080".into());
    println!("\ngifshelf: open http://{bind} (Ctrl-C stops it; data lives in ./data)\n");
    let mut server = Command::new(built("release", "gifshelf"));
    server.current_dir(root()).arg("serve").args(args);
    exec(&mut server)
}

fn dev() -> Result {
    ensure_frontend_deps()?;
    let mut backend = cargo()
        .args(["run", "-p", "gifshelf-server", "--", "serve"])
        .spawn()
        .map_err(|e| format!("cannot start the backend: {e}"))?;
    println!("\ngifshelf dev: open http://127.0.0.1:5173 (the API runs on :8080)\n");
    let result = exec(&mut npm(&["run", "dev"]));
    let _ = backend.kill();
    result
}

fn gen_types() -> Result {
    exec(
        cargo()
            .args(["test", "-q", "-p", "gifshelf-http", "--test", "generated_types"])
            .env("GIFSHELF_UPDATE_TYPES", "1"),
    )
}

fn test() -> Result {
    // 1. Every Rust test (the PostgreSQL half runs when GIFSHELF_TEST_POSTGRES_URL is set).
    exec(cargo().args(["test", "--workspace", "--no-fail-fast"]))?;
    // 1b. A few seconds of the load scenario on the debug binary: no 5xx, no locked database.
    load_check()?;
    // 1b'. The container image around the debug binary, run with podman (skipped without it).
    image_check::check(&built("debug", "gifshelf"))?;
    // 1c. Schemathesis against the OpenAPI document: no 5xx, no undocumented answer, no cross-user write.
    schemathesis::run(&built("debug", "gifshelf"), &target_dir().join("schemathesis"))?;
    // 2. Frontend: types, lint, the production build (a unit test checks its chunks), unit tests.
    ensure_frontend_deps()?;
    exec(&mut npm(&["run", "typecheck"]))?;
    exec(&mut npm(&["run", "lint"]))?;
    exec(&mut npm(&["run", "build"]))?;
    exec(&mut npm(&["test"]))?;
    // 3. End to end: the real server and the built SPA in headless Chromium. Step 1 built the
    //    binary already (integration tests need it); building it again with other features would
    //    recompile half the tree.
    let binary = built("debug", "gifshelf");
    if !binary.exists() {
        exec(cargo().args(["build", "-p", "gifshelf-server"]))?;
    }
    // The fake OpenID provider the Google sign-in test signs its ID tokens with.
    exec(cargo().args(["build", "-p", "gifshelf-auth", "--features", "testing", "--bin", "gifshelf-fake-oidc"]))?;
    let chromium = find_chromium()?;
    // Three distinct ports: each probe's listener stays open until all three are chosen, so
    // the system cannot hand the same free port out twice.
    let [app, oidc, google] = free_ports()?;
    let port = std::env::var("E2E_PORT").unwrap_or(app);
    exec(
        npm(&["run", "e2e"])
            .env("GIFSHELF_BIN", binary)
            .env("GIFSHELF_FAKE_OIDC_BIN", built("debug", "gifshelf-fake-oidc"))
            .env("CHROMIUM_PATH", chromium)
            .env("E2E_TARGET_DIR", target_dir())
            .env("E2E_PORT", port)
            .env("E2E_OIDC_PORT", oidc)
            .env("E2E_GOOGLE_PORT", google)
            .env("CI", std::env::var("CI").unwrap_or_else(|_| "true".into())),
    )
}

/// Loopback ports nobody listens on right now, so a stray server never fails the run, and
/// distinct from each other: every probe listener is held until all of them are bound.
fn free_ports<const N: usize>() -> Result<[String; N]> {
    let listeners = (0..N)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("no free port: {e}")))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let ports = listeners
        .iter()
        .map(|l| l.local_addr().map(|a| a.port().to_string()).map_err(|e| e.to_string()))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    ports.try_into().map_err(|_| "port count".to_string())
}

fn find_chromium() -> Result<PathBuf> {
    if let Ok(path) = std::env::var("CHROMIUM_PATH") {
        return Ok(path.into());
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .ok_or_else(|| {
            "no Chromium found: install Debian's `chromium` package (apt-get install chromium) or set CHROMIUM_PATH"
                .into()
        })
}

fn ci() -> Result {
    exec(cargo().args(["fmt", "--all", "--check"]))?;
    exec(cargo().args(["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))?;
    deps::check(&root())?;
    fuzz_build()?;
    test()
}

fn bench(args: &[String]) -> Result {
    let filter = args.first().map(String::as_str);
    let mut ran = false;
    let benches = [
        ("media", "gifshelf-media", "media"),
        // The maker against ffmpeg's palettegen/paletteuse and gifski.
        ("make", "gifshelf-media", "make"),
        // The upload of a 10 MB, 200-frame GIF through the real application.
        ("media", "gifshelf-server", "upload"),
        ("api", "gifshelf-server", "api"),
        // The text in GIFs found by searching for it: a labelled set through the real application.
        ("text", "gifshelf-server", "text"),
        ("serve", "gifshelf-server", "serve"),
    ];
    // What follows the bench's name goes to it (`bench api --gifs 1000000`).
    let extra = args.get(1..).unwrap_or_default();
    for (name, package, bench) in benches {
        if filter.is_none_or(|f| f == name) {
            exec(cargo().args(["bench", "-p", package, "--bench", bench, "--"]).args(extra))?;
            ran = true;
        }
    }
    // Not a cargo bench: Lighthouse in Chromium on the built SPA and the release server.
    if filter.is_none_or(|f| f == "web") {
        web::bench()?;
        ran = true;
    }
    if ran {
        Ok(())
    } else {
        let mut names: Vec<&str> = benches.iter().map(|(name, ..)| *name).collect();
        names.dedup();
        names.push("web");
        Err(format!("no benchmark matched: use {}", names.join(", ")))
    }
}

/// `cargo xtask load [SECONDS]`: the release server under the mixed load, figures printed.
fn load_scenario(args: &[String]) -> Result {
    if args.first().is_some_and(|a| a == "--check") {
        return load_check();
    }
    let gzip = args.iter().any(|a| a == "--gzip");
    let seconds = args
        .iter()
        .find(|a| *a != "--gzip")
        .map_or(Ok(60), |s| s.parse().map_err(|_| format!("not a number of seconds: {s}")))?;
    exec(cargo().args(["build", "--release", "-p", "gifshelf-server"]))?;
    let binary = built("release", "gifshelf");
    let plain = load::run(&binary, seconds, 32, false)?;
    plain.print();
    if gzip {
        // The same mix again, every request accepting gzip: what compressing JSON costs.
        let compressed = load::run(&binary, seconds, 32, true)?;
        compressed.print();
        load::compare_gzip(&plain, &compressed);
    }
    Ok(())
}

/// The test variant: a few bounded seconds on the debug binary; any 5xx or locked database fails.
fn load_check() -> Result {
    let binary = built("debug", "gifshelf");
    if !binary.exists() {
        exec(cargo().args(["build", "-p", "gifshelf-server"]))?;
    }
    let report = load::run(&binary, 5, 32, false)?;
    report.print();
    if report.server_errors() > 0 || report.database_locked > 0 {
        return Err(format!(
            "the load check saw {} 5xx responses and {} \"database is locked\" errors",
            report.server_errors(),
            report.database_locked
        ));
    }
    if report.requests == 0 {
        return Err("the load check made no requests".into());
    }
    Ok(())
}

/// The cargo-fuzz targets of `fuzz/`.
const FUZZ_TARGETS: [&str; 3] = ["media_ingest", "json_requests", "multipart_upload"];

fn cargo_fuzz() -> Command {
    let mut cmd = Command::new("cargo");
    cmd.args(["+nightly", "fuzz"]).current_dir(root()).env_remove("CARGO").env_remove("RUSTUP_TOOLCHAIN");
    cmd
}

/// Builds the fuzz targets (they must keep compiling as the code changes).
fn fuzz_build() -> Result {
    exec(cargo_fuzz().args(["build", "-O"])).map_err(|e| {
        format!("{e}: the fuzz targets need `rustup toolchain install nightly` and `cargo install cargo-fuzz`")
    })
}

/// `cargo xtask fuzz [SECONDS]`: every target for SECONDS each; a crash fails with its artifact.
fn fuzz(args: &[String]) -> Result {
    let seconds: u64 =
        args.first().map_or(Ok(60), |s| s.parse().map_err(|_| format!("not a number of seconds: {s}")))?;
    fuzz_build()?;
    for target in FUZZ_TARGETS {
        let started = std::time::Instant::now();
        exec(cargo_fuzz().args([
            "run",
            "-O",
            target,
            "--",
            &format!("-max_total_time={seconds}"),
            "-rss_limit_mb=4096",
        ]))?;
        println!("fuzz: {target} ran {:.0} s without a finding", started.elapsed().as_secs_f64());
    }
    Ok(())
}

#[cfg(test)]
mod target_dir_tests {
    use super::*;

    #[test]
    fn the_target_directory_comes_from_cargo_metadata() {
        let json = br#"{"packages": [], "target_directory": "/elsewhere/target", "workspace_root": "/w"}"#;
        assert_eq!(target_directory(json), Some(PathBuf::from("/elsewhere/target")));
        assert_eq!(target_directory(b"not json"), None);
        assert_eq!(built_in(Path::new("/t"), "release", "gifshelf"), PathBuf::from("/t/release/gifshelf"));
    }

    #[test]
    fn the_live_metadata_names_a_directory_that_honours_cargo_target_dir() {
        let dir = target_dir();
        match std::env::var_os("CARGO_TARGET_DIR") {
            Some(configured) => assert_eq!(dir, root().join(configured)),
            None => assert!(dir.ends_with("target"), "{}", dir.display()),
        }
    }
}
