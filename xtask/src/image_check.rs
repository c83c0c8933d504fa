//! The container image's check in `cargo xtask test`: the image built around the debug binary and
//! run with podman, as a user would run it. It answers ready, its server runs as a non-root user, the
//! image's own health check passes, and a GIF uploaded before a stop is there after a start with
//! every byte (the volume keeps `/data`). Without podman it is skipped with a line saying so; with
//! `CI=true` a missing podman fails the run (`.ci/run` installs it).
//!
//! Podman runs as root here with runc and cgroupfs: a `containers.conf` under `target/image/` sets
//! `cgroup_manager = "cgroupfs"` and `default_ulimits = []` unless `CONTAINERS_CONF` names another.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::image::{capture, installed, UID};
use crate::{exec, Result};

const NAME: &str = "localhost/gifshelf-check:latest";

pub fn check(binary: &Path) -> Result {
    if !installed("podman") || !installed("buildah") {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            return Err(
                "podman and buildah are needed for the image check (apt-get install podman buildah debootstrap runc)"
                    .into(),
            );
        }
        eprintln!("image check did not run: podman or buildah is not installed");
        return Ok(());
    }
    let conf = containers_conf()?;
    crate::image::build(binary, NAME)?;
    let run = Run::new(conf);
    let result = run.scenario();
    run.clean();
    result?;
    eprintln!("image check: ready, non-root, healthy, the GIF and its files kept over a restart");
    Ok(())
}

fn containers_conf() -> Result<PathBuf> {
    if let Ok(path) = std::env::var("CONTAINERS_CONF") {
        return Ok(path.into());
    }
    let dir = crate::target_dir().join("image");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let path = dir.join("containers.conf");
    let text = "[containers]\ndefault_ulimits = []\n\n[engine]\ncgroup_manager = \"cgroupfs\"\n";
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// One container and its volume, named after this process.
struct Run {
    conf: PathBuf,
    container: String,
    volume: String,
    port: u16,
}

impl Run {
    fn new(conf: PathBuf) -> Self {
        let id = std::process::id();
        let port = crate::free_ports().ok().and_then(|[p]| p.parse().ok()).unwrap_or(18_990);
        Self { conf, container: format!("gifshelf-check-{id}"), volume: format!("gifshelf-check-{id}"), port }
    }

    fn podman(&self) -> Command {
        let mut cmd = Command::new("podman");
        cmd.env("CONTAINERS_CONF", &self.conf);
        if installed("runc") {
            cmd.args(["--runtime", "runc"]);
        }
        cmd
    }

    /// The image keeps its health check (the Docker format does; OCI's would drop it).
    fn health_check_kept(&self) -> Result {
        let test = capture(self.podman().args(["image", "inspect", "--format", "{{json .Config.Healthcheck}}", NAME]))?;
        if test.contains(r#""/usr/local/bin/gifshelf","healthcheck""#) {
            Ok(())
        } else {
            Err(format!("the image has no health check running `gifshelf healthcheck`: {test}"))
        }
    }

    fn scenario(&self) -> Result {
        self.health_check_kept()?;
        let publish = format!("127.0.0.1:{}:8080", self.port);
        let mount = format!("{}:/data", self.volume);
        // No systemd here to time the periodic checks: they are run by hand below.
        let run =
            ["run", "-d", "--health-interval", "disable", "--name", &self.container, "-p", &publish, "-v", &mount];
        exec(self.podman().args(run).arg(NAME))?;
        self.wait_ready()?;
        let pid_user = capture(self.podman().args(["exec", &self.container, "id", "-u"]))?;
        if pid_user != UID.to_string() {
            return Err(format!("the server runs as uid {pid_user}, not {UID}"));
        }
        exec(self.podman().args(["healthcheck", "run", &self.container]))
            .map_err(|e| format!("the image's health check failed: {e}"))?;

        let api = Api { base: format!("http://127.0.0.1:{}", self.port) };
        api.register()?;
        let token = api.login()?;
        let gif = crate::root().join("testdata/corpus/moon_impact.gif");
        let id = api.upload(&token, &gif)?;
        let before = api.file(&token, &format!("content/{id}"))?;
        let thumbnail = api.file(&token, &format!("thumbnail/{id}"))?;
        if !before.starts_with(b"GIF8") {
            return Err(format!("GIF {id} is served as something else ({} bytes)", before.len()));
        }

        exec(self.podman().args(["stop", "-t", "20", &self.container]))?;
        exec(self.podman().args(["start", &self.container]))?;
        self.wait_ready()?;
        let token = api.login()?;
        if api.file(&token, &format!("content/{id}"))? != before {
            return Err(format!("GIF {id} lost or changed over a stop and start"));
        }
        if api.file(&token, &format!("thumbnail/{id}"))? != thumbnail {
            return Err(format!("the thumbnail of GIF {id} lost or changed over a stop and start"));
        }
        Ok(())
    }

    fn wait_ready(&self) -> Result {
        let url = format!("http://127.0.0.1:{}/api/health/ready", self.port);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(90) {
            if Command::new("curl").args(["-fsS", "-o", "/dev/null", &url]).output().is_ok_and(|o| o.status.success()) {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(300));
        }
        let logs = self.podman().args(["logs", "--tail", "30", &self.container]).output();
        let logs = logs.map(|o| String::from_utf8_lossy(&o.stderr).into_owned()).unwrap_or_default();
        Err(format!("the container never answered {url} with 200 in 90 s; its log ends:\n{logs}"))
    }

    fn clean(&self) {
        let _ = self.podman().args(["rm", "-f", "-t", "5", &self.container]).output();
        let _ = self.podman().args(["volume", "rm", "-f", &self.volume]).output();
        // Earlier builds of the image that this one replaced.
        let label = "label=org.opencontainers.image.title=gifshelf";
        let _ = self.podman().args(["image", "prune", "-f", "--filter", label]).output();
    }
}

/// The few calls the check makes, with curl (the image has none; the host has).
struct Api {
    base: String,
}

const PASSWORD: &str = "container-check-1";

impl Api {
    fn curl(&self, args: &[&str]) -> Result<String> {
        capture(Command::new("curl").args(["-fsS", "--max-time", "60"]).args(args))
    }

    fn register(&self) -> Result {
        let body = format!(
            r#"{{"username":"owner","email":"owner@example.com","password":"{PASSWORD}","confirmPassword":"{PASSWORD}"}}"#
        );
        let url = format!("{}/api/auth/register", self.base);
        self.curl(&["-H", "content-type: application/json", "-d", &body, &url]).map(drop)
    }

    fn login(&self) -> Result<String> {
        let body = format!(r#"{{"username":"owner","password":"{PASSWORD}"}}"#);
        let url = format!("{}/api/auth/login", self.base);
        let answer = self.curl(&["-H", "content-type: application/json", "-d", &body, &url])?;
        field(&answer, "token")
    }

    fn upload(&self, token: &str, gif: &Path) -> Result<String> {
        let auth = format!("authorization: Bearer {token}");
        let file = format!("file=@{};type=image/gif", gif.display());
        let data = r#"gifData={"title":"Moon impact","description":"","tags":["space"]};type=application/json"#;
        let url = format!("{}/api/gifs", self.base);
        let answer = self.curl(&["-H", &auth, "-F", &file, "-F", data, &url])?;
        field(&answer, "id")
    }

    /// A file of a GIF: `content/{id}`, `thumbnail/{id}`.
    fn file(&self, token: &str, path: &str) -> Result<Vec<u8>> {
        let auth = format!("authorization: Bearer {token}");
        let url = format!("{}/api/gifs/{path}", self.base);
        let output = Command::new("curl").args(["-fsS", "--max-time", "60", "-H", &auth, &url]).output();
        let output = output.map_err(|e| format!("cannot start curl: {e}"))?;
        if output.status.success() {
            Ok(output.stdout)
        } else {
            Err(format!("GET {url}: {}", String::from_utf8_lossy(&output.stderr).trim()))
        }
    }
}

/// A top-level field of a JSON answer, as text.
fn field(json: &str, name: &str) -> Result<String> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| format!("not JSON ({e}): {json}"))?;
    match &value[name] {
        serde_json::Value::String(s) => Ok(s.clone()),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        _ => Err(format!("no {name} in {json}")),
    }
}
