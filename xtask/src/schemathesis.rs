//! Schemathesis (PyPI) against `/api/openapi.json` of a fresh server, signed in: no 5xx, no
//! response outside the document, no write to the other user's GIF, and every operation exercised
//! past its authentication. Installed into a virtualenv under `target/` on first use; a pinned
//! version and seed keep runs comparable.
//!
//! The hooks (`schemathesis_hooks.py`) send each request as the account it needs: the admin to the
//! operations only an admin may call, a plain member to the others, and the chat integrations'
//! proofs (a Slack signature, a Mattermost or Zulip token, with the secrets the server is started
//! with) to the slash command endpoint. They write down every operation's statuses; the run fails
//! when an operation of the document was never called or only ever answered 401 or 403.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use gifshelf_media::testing::tiny_gif;

use crate::load::{http, multipart, start_with, BOUNDARY};
use crate::{exec, Result};

const VERSION: &str = "4.32.5";
const SEED: &str = "20261122";

const HOOKS: &str = include_str!("schemathesis_hooks.py");

/// The hooks sign every request in, so Schemathesis is not to sign up an account of its own.
const CONFIG: &str = "[auth]\nauto-signup = false\n";

/// The server's settings for the run: the chat integrations' secrets (the hooks prove slash
/// commands and the bots' requests with them), and room for the failed logins Schemathesis sends,
/// so that the hooks can still sign in again after renaming their account.
const SERVER_ENV: [(&str, &str); 8] = [
    ("GIFSHELF_SLACK_SIGNING_SECRET", "st-slack-signing-secret"),
    ("GIFSHELF_MATTERMOST_TOKENS", "st-mattermost-token"),
    ("GIFSHELF_ZULIP_TOKENS", "st-zulip-token"),
    // The public half of DISCORD_SEED.
    ("GIFSHELF_DISCORD_PUBLIC_KEY", "25bbd1210e90bc7fae1ff66a12fbe47c9dd2d01480efc0547171b0c16b1c8f08"),
    ("GIFSHELF_TELEGRAM_WEBHOOK_SECRET", "st-telegram-secret"),
    // Teams gives its security token in base64; its bytes key the HMAC.
    ("GIFSHELF_TEAMS_TOKENS", "c3QtdGVhbXMtc2VjdXJpdHktdG9rZW4tMzJieXRlcyE="),
    ("GIFSHELF_ROCKETCHAT_TOKENS", "st-rocketchat-token"),
    ("GIFSHELF_LOGIN_IP_MAX_FAILURES", "100000"),
];

/// The Ed25519 private key (seed, hex) the hooks sign Discord's interactions with.
const DISCORD_SEED: &str = "08fccfc5eb648a4b948fd76ce9389a656b89bdb8d0fc316525a2b035db16995c";

const PASSWORD: &str = "secret1";

/// The accounts and GIFs the run starts with.
struct Seed {
    admin: String,
    member: String,
    /// The owner of `other_gif`; its token checks the GIF after the run.
    other: String,
    /// The account whose name and password the run changes.
    changing: String,
    other_gif: i64,
    own_gif: i64,
}

fn register(port: u16, name: &str) -> Result<String> {
    let json = ("Content-Type", "application/json".to_owned());
    let body = serde_json::json!({"username": name, "email": format!("{name}@example.com"), "password": PASSWORD, "confirmPassword": PASSWORD});
    let (status, _) =
        http(port, "POST", "/api/auth/register", std::slice::from_ref(&json), body.to_string().as_bytes())?;
    if status != 201 {
        return Err(format!("register {name}: {status}"));
    }
    let login = serde_json::json!({"username": name, "password": PASSWORD});
    let (_, answer) = http(port, "POST", "/api/auth/login", &[json], login.to_string().as_bytes())?;
    serde_json::from_slice::<serde_json::Value>(&answer)
        .ok()
        .and_then(|v| v["token"].as_str().map(str::to_owned))
        .ok_or_else(|| format!("login {name} failed"))
}

fn upload(port: u16, token: &str, title: &str, frames: u8) -> Result<i64> {
    let form = ("Content-Type", format!("multipart/form-data; boundary={BOUNDARY}"));
    let auth = ("Authorization", format!("Bearer {token}"));
    let (status, body) = http(port, "POST", "/api/gifs", &[auth, form], &multipart(&tiny_gif(frames), title))?;
    serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v["id"].as_i64())
        .ok_or_else(|| format!("uploading \"{title}\" answered {status}"))
}

/// The first account is the admin; the tests act as a plain member next to another plain member.
fn seed(port: u16) -> Result<Seed> {
    let admin = register(port, "st-admin")?;
    let other = register(port, "st-other")?;
    let member = register(port, "st-tester")?;
    let changing = register(port, "st-self")?;
    // The only account the run's member changes (role, status) aim at: see the hooks.
    register(port, "st-spare")?;
    let other_gif = upload(port, &other, "not yours", 2)?;
    let own_gif = upload(port, &member, "yours", 3)?;
    Ok(Seed { admin, member, other, changing, other_gif, own_gif })
}

/// Every operation of the served document, as `METHOD /path`.
fn operations(port: u16) -> Result<BTreeSet<String>> {
    let (status, body) = http(port, "GET", "/api/openapi.json", &[], b"")?;
    let doc: serde_json::Value =
        serde_json::from_slice(&body).map_err(|e| format!("/api/openapi.json answered {status}: {e}"))?;
    let paths = doc["paths"].as_object().ok_or("the OpenAPI document has no paths")?;
    let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
    Ok(paths
        .iter()
        .flat_map(|(path, item)| {
            methods.iter().filter(move |m| item.get(**m).is_some()).map(move |m| format!("{} {path}", m.to_uppercase()))
        })
        .collect())
}

/// The hooks' record (`METHOD /path STATUS` lines) as each operation's statuses.
fn statuses(record: &str) -> BTreeMap<String, BTreeSet<u16>> {
    let mut seen: BTreeMap<String, BTreeSet<u16>> = BTreeMap::new();
    for line in record.lines() {
        if let Some((operation, status)) = line.rsplit_once(' ') {
            if let Ok(status) = status.parse() {
                seen.entry(operation.to_owned()).or_default().insert(status);
            }
        }
    }
    seen
}

/// The operations of `operations` that were never called or only ever answered 401 or 403.
fn never_past_auth(operations: &BTreeSet<String>, seen: &BTreeMap<String, BTreeSet<u16>>) -> Vec<String> {
    operations
        .iter()
        .filter_map(|op| match seen.get(op) {
            None => Some(format!("{op}: never called")),
            Some(statuses) if statuses.iter().all(|s| matches!(s, 401 | 403)) => {
                Some(format!("{op}: only {}", list(statuses)))
            }
            Some(_) => None,
        })
        .collect()
}

fn list(statuses: &BTreeSet<u16>) -> String {
    statuses.iter().map(u16::to_string).collect::<Vec<_>>().join(", ")
}

/// Prints each operation's statuses; an error naming those that never got past authentication.
fn report(operations: &BTreeSet<String>, record: &Path) -> Result {
    let seen = statuses(&std::fs::read_to_string(record).unwrap_or_default());
    for op in operations {
        println!("schemathesis: {op}: {}", seen.get(op).map(list).unwrap_or_default());
    }
    let stuck = never_past_auth(operations, &seen);
    if stuck.is_empty() {
        println!("schemathesis: all {} operations answered past their authentication", operations.len());
        return Ok(());
    }
    Err(format!("operations that never got past authentication:\n  {}", stuck.join("\n  ")))
}

fn install(venv: &Path) -> Result {
    if !venv.join("bin/st").exists() {
        exec(Command::new("python3").arg("-m").arg("venv").arg(venv))?;
        exec(Command::new(venv.join("bin/pip")).args(["install", "-q", &format!("schemathesis=={VERSION}")]))?;
    }
    Ok(())
}

/// The `st run` of the check; `dir` holds the hooks and receives the record.
fn schemathesis(st: &Path, dir: &Path, port: u16, seed: &Seed) -> Command {
    let changing = serde_json::json!({"username": "st-self", "password": PASSWORD, "token": seed.changing});
    let mut command = Command::new(st);
    command
        .arg("--config-file")
        .arg(dir.join("schemathesis.toml"))
        .args(["run", &format!("http://127.0.0.1:{port}/api/openapi.json")])
        .args(["--checks", "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,no_write_to_another_users_gif"])
        .args(["--max-examples", "20", "--seed", SEED, "--workers", "1", "--no-color"])
        // Its run cache (`.schemathesis/`) goes to the temp folder, not the checkout.
        .current_dir(dir)
        .env("SCHEMATHESIS_HOOKS", "gifshelf_st_hooks")
        .env("PYTHONPATH", dir)
        .env("GIFSHELF_ST_BASE_URL", format!("http://127.0.0.1:{port}"))
        .env("GIFSHELF_ST_STATUSES", dir.join("statuses.txt"))
        .env("GIFSHELF_ST_DISCORD_SEED", DISCORD_SEED)
        .env("GIFSHELF_ST_MEMBER_TOKEN", &seed.member)
        .env("GIFSHELF_ST_ADMIN_TOKEN", &seed.admin)
        .env("GIFSHELF_ST_SELF", changing.to_string())
        .env("GIFSHELF_OTHER_GIF", seed.other_gif.to_string())
        .env("GIFSHELF_OWN_GIF", seed.own_gif.to_string())
        .envs(SERVER_ENV);
    command
}

/// Runs the check against `binary`; `venv` is where schemathesis lives.
pub fn run(binary: &Path, venv: &Path) -> Result {
    install(venv)?;
    let dir = std::env::temp_dir().join(format!("gifshelf-schemathesis-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let server = start_with(binary, &dir, &SERVER_ENV)?;
    let port = server.port();
    let seed = seed(port)?;
    let operations = operations(port)?;
    std::fs::write(dir.join("gifshelf_st_hooks.py"), HOOKS).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("schemathesis.toml"), CONFIG).map_err(|e| e.to_string())?;
    let result = exec(&mut schemathesis(&venv.join("bin/st"), &dir, port, &seed));
    // Whatever the run did, the other user's GIF is still there and still theirs.
    let other_gif = format!("/api/gifs/dto/{}", seed.other_gif);
    let (status, _) = http(port, "GET", &other_gif, &[("Authorization", format!("Bearer {}", seed.other))], b"")?;
    drop(server);
    let reported = report(&operations, &dir.join("statuses.txt"));
    let _ = std::fs::remove_dir_all(&dir);
    result?;
    reported?;
    if status != 200 {
        return Err(format!("the other user's GIF answered {status} after the run"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operation_that_only_answered_401_or_403_or_never_answered_is_named() {
        let operations: BTreeSet<String> =
            ["GET /api/stats", "POST /api/auth/login", "GET /api/tags", "DELETE /api/tags/{id}"]
                .map(str::to_owned)
                .into();
        let record = "GET /api/stats 401\nGET /api/stats 403\nPOST /api/auth/login 401\nPOST /api/auth/login 200\n\
                      GET /api/tags 200\nTRACE /api/tags 405\nnot a line\n";
        let seen = statuses(record);
        assert_eq!(seen["GET /api/stats"], BTreeSet::from([401, 403]));
        assert_eq!(
            never_past_auth(&operations, &seen),
            ["DELETE /api/tags/{id}: never called", "GET /api/stats: only 401, 403"]
        );
    }
}
