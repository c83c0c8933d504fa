//! Schemathesis (PyPI) against `/api/openapi.json` of a fresh server with two users: no 5xx, no
//! response outside the document, and no write to the other user's GIF. Installed into a virtualenv
//! under `target/` on first use; a pinned version and seed keep runs comparable.

use std::path::Path;
use std::process::Command;

use gifshelf_media::testing::tiny_gif;

use crate::load::{http, multipart, start, BOUNDARY};
use crate::{exec, Result};

const VERSION: &str = "4.32.5";
const SEED: &str = "20261122";

/// A custom check: every PUT or DELETE on the other user's GIF must be refused.
const HOOKS: &str = r#"
import os
import schemathesis

OTHER_GIF = os.environ["GIFSHELF_OTHER_GIF"]


@schemathesis.check
def no_write_to_another_users_gif(ctx, response, case):
    if case.method.upper() in ("PUT", "DELETE") and case.path == "/api/gifs/{id}":
        if str((case.path_parameters or {}).get("id")) == OTHER_GIF and 200 <= response.status_code < 300:
            raise AssertionError(
                f"{case.method} /api/gifs/{OTHER_GIF} (another user's GIF) answered {response.status_code}"
            )
"#;

fn config(other_gif: i64) -> String {
    format!(
        r#"# Writes to /api/gifs/{{id}} always aim at the other user's GIF.
[[operations]]
include-path-regex = "^/api/gifs/\\{{id\\}}$"
parameters = {{ "path.id" = {other_gif} }}
"#
    )
}

fn register(port: u16, name: &str) -> Result<String> {
    let json = ("Content-Type", "application/json".to_owned());
    let body = serde_json::json!({"username": name, "email": format!("{name}@example.com"), "password": "secret1", "confirmPassword": "secret1"});
    let (status, _) =
        http(port, "POST", "/api/auth/register", std::slice::from_ref(&json), body.to_string().as_bytes())?;
    if status != 201 {
        return Err(format!("register {name}: {status}"));
    }
    let login = serde_json::json!({"username": name, "password": "secret1"});
    let (_, answer) = http(port, "POST", "/api/auth/login", &[json], login.to_string().as_bytes())?;
    serde_json::from_slice::<serde_json::Value>(&answer)
        .ok()
        .and_then(|v| v["token"].as_str().map(str::to_owned))
        .ok_or_else(|| format!("login {name} failed"))
}

/// Runs the check against `binary`; `venv` is where schemathesis lives.
pub fn run(binary: &Path, venv: &Path) -> Result {
    let st = venv.join("bin/st");
    if !st.exists() {
        exec(Command::new("python3").arg("-m").arg("venv").arg(venv))?;
        exec(Command::new(venv.join("bin/pip")).args(["install", "-q", &format!("schemathesis=={VERSION}")]))?;
    }
    let dir = std::env::temp_dir().join(format!("gifshelf-schemathesis-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let server = start(binary, &dir)?;
    let port = server.port;
    // The first account is the admin; the tests act as a plain user next to another plain user.
    register(port, "st-admin")?;
    let other = register(port, "st-other")?;
    let tester = register(port, "st-tester")?;
    let form = ("Content-Type", format!("multipart/form-data; boundary={BOUNDARY}"));
    let (status, body) = http(
        port,
        "POST",
        "/api/gifs",
        &[("Authorization", format!("Bearer {other}")), form],
        &multipart(&tiny_gif(2), "not yours"),
    )?;
    let other_gif = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v["id"].as_i64())
        .ok_or_else(|| format!("the other user's upload answered {status}"))?;
    std::fs::write(dir.join("gifshelf_st_hooks.py"), HOOKS).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("schemathesis.toml"), config(other_gif)).map_err(|e| e.to_string())?;
    let result = exec(
        Command::new(&st)
            .arg("--config-file")
            .arg(dir.join("schemathesis.toml"))
            .args(["run", &format!("http://127.0.0.1:{port}/api/openapi.json")])
            .args(["-H", &format!("Authorization: Bearer {tester}")])
            .args(["--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,no_write_to_another_users_gif"])
            .args(["--max-examples", "20", "--seed", SEED, "--workers", "1", "--no-color"])
            // Its run cache (`.schemathesis/`) goes to the temp folder, not the checkout.
            .current_dir(&dir)
            .env("SCHEMATHESIS_HOOKS", "gifshelf_st_hooks")
            .env("PYTHONPATH", &dir)
            .env("GIFSHELF_OTHER_GIF", other_gif.to_string()),
    );
    // Whatever the run did, the other user's GIF is still there and still theirs.
    let (status, _) =
        http(port, "GET", &format!("/api/gifs/dto/{other_gif}"), &[("Authorization", format!("Bearer {other}"))], b"")?;
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
    result?;
    if status != 200 {
        return Err(format!("the other user's GIF answered {status} after the run"));
    }
    Ok(())
}
