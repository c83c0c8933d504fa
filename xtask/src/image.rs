//! `cargo xtask image [--binary PATH] [--tag NAME]` (or `--check`, the test's run of it): gifshelf's container image, made from Debian's
//! packages alone (no registry, no Docker Hub).
//!
//! The root file system is a minimal Debian (`debootstrap --variant=minbase`, the host's release so
//! the binary's libraries match) with ffmpeg, Tesseract and their models, the client libraries the
//! binary links (libpq, OpenSSL) and CA certificates; a system user `gifshelf` (uid 10001) owns
//! `/data`, the image's volume. buildah commits it from `scratch` in Docker format, which keeps the
//! HEALTHCHECK (OCI's format drops it); the check is the binary's own `gifshelf healthcheck`, since
//! the image has no curl. The root file system is kept as a tar under `target/image/` per release and
//! package list, so a second build only copies the binary. The image's name is the last line printed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{exec, Result};

/// What the image holds besides the base system.
const PACKAGES: &[&str] = &["ca-certificates", "libpq5", "libssl3", "ffmpeg", "tesseract-ocr", "tesseract-ocr-eng"];
/// The uid and gid of the user the server runs as.
pub const UID: u32 = 10001;
/// The image's name unless `--tag` says otherwise.
pub const DEFAULT_NAME: &str = "localhost/gifshelf:latest";

/// `cargo xtask image`: builds the release binary with the web app embedded (unless `--binary`
/// names one) and the image around it.
pub fn command(args: &[String]) -> Result {
    let mut binary = None;
    let mut name = DEFAULT_NAME.to_owned();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--binary" => binary = rest.next().map(PathBuf::from),
            "--tag" => name = rest.next().cloned().ok_or("--tag needs a name")?,
            // What `cargo xtask test` runs: an image around the debug binary, run with podman.
            "--check" => return crate::image_check::check(&crate::built("debug", "gifshelf")),
            other => return Err(format!("unknown argument {other:?}: use [--binary PATH] [--tag NAME] or --check")),
        }
    }
    let binary = match binary {
        Some(path) => path,
        None => {
            crate::build_release_with_spa()?;
            crate::built("release", "gifshelf")
        }
    };
    build(&binary, &name)?;
    println!("{name}");
    Ok(())
}

/// Builds the image `name` around `binary`.
pub fn build(binary: &Path, name: &str) -> Result {
    if !binary.is_file() {
        return Err(format!("no binary at {}", binary.display()));
    }
    require("buildah", "apt-get install buildah")?;
    let rootfs = rootfs_tar()?;
    let container = capture(Command::new("buildah").args(["from", "--format", "docker", "scratch"]))?;
    let built = assemble(&container, &rootfs, binary, name);
    if built.is_err() {
        let _ = Command::new("buildah").args(["rm", &container]).output();
    }
    built
}

fn assemble(container: &str, rootfs: &Path, binary: &Path, name: &str) -> Result {
    let buildah = || {
        let mut cmd = Command::new("buildah");
        cmd.env("BUILDAH_FORMAT", "docker");
        cmd
    };
    exec(buildah().args(["add", container]).arg(rootfs).arg("/"))?;
    exec(buildah().args(["copy", "--chmod", "0755", container]).arg(binary).arg("/usr/local/bin/gifshelf"))?;
    let version = env!("CARGO_PKG_VERSION");
    let user = format!("{UID}:{UID}");
    let mut config = buildah();
    config.arg("config").args(["--user", &user, "--workingdir", "/data", "--volume", "/data", "--port", "8080"]);
    for env in ["GIFSHELF_DATA_DIR=/data", "GIFSHELF_BIND=0.0.0.0:8080", "GIFSHELF_LOG_FORMAT=json"] {
        config.args(["--env", env]);
    }
    config.args(["--entrypoint", r#"["/usr/local/bin/gifshelf"]"#, "--cmd", "serve"]);
    config.args(["--healthcheck", "CMD /usr/local/bin/gifshelf healthcheck"]);
    config.args(["--healthcheck-interval", "30s", "--healthcheck-timeout", "5s", "--healthcheck-start-period", "20s"]);
    config.args(["--healthcheck-retries", "3", "--stop-signal", "SIGTERM"]);
    for (key, value) in [
        ("org.opencontainers.image.title", "gifshelf"),
        ("org.opencontainers.image.description", "A self-hostable GIF library"),
        ("org.opencontainers.image.version", version),
        ("org.opencontainers.image.licenses", env!("CARGO_PKG_LICENSE")),
        ("org.opencontainers.image.source", "https://github.com/gifshelf/gifshelf"),
    ] {
        config.args(["--label", &format!("{key}={value}")]);
    }
    exec(config.arg(container))?;
    exec(buildah().args(["commit", "--format", "docker", "--rm", container, name]))
}

/// The cached root file system for the host's Debian release and [`PACKAGES`], made when missing.
fn rootfs_tar() -> Result<PathBuf> {
    let suite = std::env::var("GIFSHELF_IMAGE_SUITE").ok().or_else(host_codename).ok_or(
        "cannot tell the host's Debian release from /etc/os-release: set GIFSHELF_IMAGE_SUITE (e.g. bookworm)",
    )?;
    let mirror = std::env::var("GIFSHELF_DEBIAN_MIRROR").unwrap_or_else(|_| "http://deb.debian.org/debian".into());
    let dir = crate::target_dir().join("image");
    let tar = dir.join(format!("rootfs-{suite}-{:08x}.tar", fnv(&format!("{suite} {}", PACKAGES.join(",")))));
    if tar.is_file() {
        eprintln!("image: reusing {}", tar.display());
        return Ok(tar);
    }
    require("debootstrap", "apt-get install debootstrap")?;
    let root = dir.join("rootfs");
    if root.exists() {
        std::fs::remove_dir_all(&root).map_err(|e| format!("cannot clear {}: {e}", root.display()))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let include = format!("--include={}", PACKAGES.join(","));
    exec(Command::new("debootstrap").args(["--variant=minbase", &include, &suite]).arg(&root).arg(&mirror))?;
    prepare(&root)?;
    let partial = tar.with_extension("partial");
    exec(
        Command::new("tar")
            .args(["--numeric-owner", "--exclude=./dev/*", "--exclude=./proc/*", "--exclude=./sys/*", "-C"])
            .arg(&root)
            .arg("-cf")
            .arg(&partial)
            .arg("."),
    )?;
    std::fs::rename(&partial, &tar).map_err(|e| format!("cannot keep {}: {e}", tar.display()))?;
    let _ = std::fs::remove_dir_all(&root);
    Ok(tar)
}

/// The user, the data folder, and no package caches, lists or manuals in the image.
fn prepare(root: &Path) -> Result {
    let io = |what: &str, e: std::io::Error| format!("image root: {what}: {e}");
    let append = |file: &str, line: String| -> Result {
        let path = root.join(file);
        let mut text = std::fs::read_to_string(&path).map_err(|e| io(file, e))?;
        let _ = writeln!(text, "{line}");
        std::fs::write(&path, text).map_err(|e| io(file, e))
    };
    append("etc/passwd", format!("gifshelf:x:{UID}:{UID}:gifshelf:/data:/usr/sbin/nologin"))?;
    append("etc/group", format!("gifshelf:x:{UID}:"))?;
    let data = root.join("data");
    std::fs::create_dir_all(&data).map_err(|e| io("data", e))?;
    exec(Command::new("chown").arg(format!("{UID}:{UID}")).arg(&data))?;
    for dir in ["var/cache/apt", "var/lib/apt/lists", "usr/share/doc", "usr/share/man", "usr/share/info"] {
        let path = root.join(dir);
        if path.is_dir() {
            std::fs::remove_dir_all(&path).map_err(|e| io(dir, e))?;
            std::fs::create_dir_all(&path).map_err(|e| io(dir, e))?;
        }
    }
    Ok(())
}

/// `VERSION_CODENAME` of /etc/os-release.
fn host_codename() -> Option<String> {
    let text = std::fs::read_to_string("/etc/os-release").ok()?;
    text.lines().find_map(|l| l.strip_prefix("VERSION_CODENAME=")).map(|v| v.trim_matches('"').to_owned())
}

/// A stable 32-bit hash (FNV-1a) naming the cached root file system.
fn fnv(text: &str) -> u32 {
    text.bytes().fold(0x811c_9dc5_u32, |hash, byte| (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193))
}

/// Whether `program` can be started.
pub fn installed(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|o| o.status.success())
}

fn require(program: &str, hint: &str) -> Result {
    if installed(program) {
        Ok(())
    } else {
        Err(format!("{program} is not installed ({hint})"))
    }
}

/// Runs a command and answers its trimmed standard output.
pub fn capture(cmd: &mut Command) -> Result<String> {
    let shown = format!("{cmd:?}");
    let output = cmd.output().map_err(|e| format!("cannot start {shown}: {e}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).trim().to_owned())
    } else {
        Err(format!("{shown} failed ({}): {}", output.status, String::from_utf8_lossy(&output.stderr).trim()))
    }
}
