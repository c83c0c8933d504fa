//! `cargo xtask load [SECONDS]`: 32 concurrent clients mixing uploads, gallery pages, searches and
//! detail views against a fresh server on the embedded defaults (SQLite, a local folder), driven by
//! `wrk` (Debian's package) with a Lua script. Reports requests per second, p50/p95/p99, every
//! status that is not 2xx, and "database is locked" lines in the server log. `cargo xtask test`
//! runs a few seconds of it against the debug binary and fails on any 5xx or locked database.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use gifshelf_media::testing::tiny_gif;
use gifshelf_testkit::{ServerEnv, ServerProcess};

use crate::Result;

/// What one run measured.
#[derive(Debug, Default)]
pub struct Report {
    pub seconds: u32,
    pub connections: u32,
    pub requests: u64,
    /// Bytes read by the clients, headers included.
    pub bytes: u64,
    pub per_second: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub statuses: BTreeMap<u16, u64>,
    pub by_kind: BTreeMap<String, u64>,
    pub socket_errors: String,
    pub database_locked: usize,
    pub log_errors: usize,
    /// The first few ERROR or "database is locked" lines of the server log, to say what failed.
    pub log_samples: Vec<String>,
}

impl Report {
    pub fn server_errors(&self) -> u64 {
        self.statuses.iter().filter(|(status, _)| **status >= 500).map(|(_, n)| n).sum()
    }

    pub fn print(&self) {
        println!(
            "load: {} s, {} clients on SQLite: {} requests, {:.0} req/s",
            self.seconds, self.connections, self.requests, self.per_second
        );
        println!("load: latency p50 {:.1} ms  p95 {:.1} ms  p99 {:.1} ms", self.p50_ms, self.p95_ms, self.p99_ms);
        let mix: Vec<String> = self.by_kind.iter().map(|(k, n)| format!("{k} {n}")).collect();
        println!("load: mix {}", mix.join(", "));
        let statuses: Vec<String> = self.statuses.iter().map(|(s, n)| format!("{s}: {n}")).collect();
        println!("load: statuses {}", statuses.join(", "));
        let not_ok: u64 = self.statuses.iter().filter(|(s, _)| !(200..300).contains(*s)).map(|(_, n)| n).sum();
        println!(
            "load: non-2xx {not_ok}, 5xx {}, \"database is locked\" {}, server log errors {}{}",
            self.server_errors(),
            self.database_locked,
            self.log_errors,
            if self.socket_errors.is_empty() { String::new() } else { format!(", wrk {}", self.socket_errors) }
        );
        for line in &self.log_samples {
            println!("load: server log: {line}");
        }
    }
}

/// A server as the load mix needs it, in `dir` (its data, and its log in `server.log`) with a bare
/// web app: see [`serve`].
pub(crate) fn start(binary: &Path, dir: &Path) -> Result<ServerProcess> {
    start_with(binary, dir, &[])
}

/// [`start`] with more environment variables (`GIFSHELF_…` settings) for the server.
pub(crate) fn start_with(binary: &Path, dir: &Path, env: &[(&str, &str)]) -> Result<ServerProcess> {
    let web = gifshelf_testkit::bare_web_dir(dir).map_err(|e| e.to_string())?;
    serve(binary, dir, &web, env)
}

/// [`start`] serving the web app in `web` (a built `frontend/dist`).
pub(crate) fn start_serving(binary: &Path, dir: &Path, web: &Path) -> Result<ServerProcess> {
    serve(binary, dir, web, &[])
}

/// `binary serve` on the embedded defaults (SQLite and a media folder under `dir/data`) serving the
/// web app in `web`, with the settings of a server under test (`gifshelf_testkit`) but its own HTTP
/// and job workers as in production, logging warnings to `dir/server.log`, and `extra` on top;
/// ready once it answers its health check.
fn serve(binary: &Path, dir: &Path, web: &Path, extra: &[(&str, &str)]) -> Result<ServerProcess> {
    let data = dir.join("data");
    let env = ServerEnv::new(&data, web, &gifshelf_testkit::sqlite_url(&data))
        .unset("GIFSHELF_HTTP_WORKERS")
        .unset("GIFSHELF_WORKERS")
        // Every simulated client registers from this one address.
        .set("GIFSHELF_REGISTER_MAX_PER_ADDRESS", "100000")
        .set("GIFSHELF_LOG", "warn");
    let env = extra.iter().fold(env, |env, (key, value)| env.set(key, *value));
    env.spawn(binary, &dir.join("server.log"))
}

/// One HTTP/1.1 request over a fresh connection; `(status, body)`.
pub(crate) fn http(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, String)],
    body: &[u8],
) -> Result<(u16, Vec<u8>)> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(Duration::from_secs(30))).map_err(|e| e.to_string())?;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n");
    for (name, value) in headers {
        let _ = write!(head, "{name}: {value}\r\n");
    }
    let _ = write!(head, "Content-Length: {}\r\n\r\n", body.len());
    stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body)).map_err(|e| e.to_string())?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).map_err(|e| e.to_string())?;
    let split = response.windows(4).position(|w| w == b"\r\n\r\n").ok_or("no HTTP response")?;
    let status_line = String::from_utf8_lossy(&response[..split]).lines().next().unwrap_or_default().to_owned();
    let status = status_line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).ok_or("no status")?;
    let mut body = response[split + 4..].to_vec();
    let chunked =
        String::from_utf8_lossy(&response[..split]).to_ascii_lowercase().contains("transfer-encoding: chunked");
    if chunked {
        body = dechunk(&body);
    }
    Ok((status, body))
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line_end) = raw.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&raw[..line_end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = line_end + 2;
        out.extend_from_slice(&raw[start..(start + size).min(raw.len())]);
        raw = raw.get(start + size + 2..).unwrap_or_default();
    }
    out
}

pub(crate) const BOUNDARY: &str = "gifshelf-load-boundary";

pub(crate) fn multipart(gif: &[u8], title: &str) -> Vec<u8> {
    let mut body = format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"load.gif\"\r\nContent-Type: image/gif\r\n\r\n"
    )
    .into_bytes();
    body.extend_from_slice(gif);
    body.extend_from_slice(
        format!(
            "\r\n--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"gifData\"\r\n\r\n{}\r\n--{BOUNDARY}--\r\n",
            serde_json::json!({"title": title, "description": "load test", "tags": ["load", "cats"]})
        )
        .as_bytes(),
    );
    body
}

/// Registers the load user, uploads a few GIFs and returns the token and the GIF ids.
fn seed(port: u16) -> Result<(String, Vec<i64>)> {
    let json = |value: serde_json::Value| value.to_string().into_bytes();
    let content = ("Content-Type", "application/json".to_owned());
    let register = serde_json::json!({"username": "loader", "email": "loader@example.com", "password": "secret1", "confirmPassword": "secret1"});
    let (status, _) = http(port, "POST", "/api/auth/register", std::slice::from_ref(&content), &json(register))?;
    if status != 201 {
        return Err(format!("register answered {status}"));
    }
    let login = serde_json::json!({"username": "loader", "password": "secret1"});
    let (status, body) = http(port, "POST", "/api/auth/login", &[content], &json(login))?;
    let token = serde_json::from_slice::<serde_json::Value>(&body)
        .ok()
        .and_then(|v| v["token"].as_str().map(str::to_owned))
        .ok_or_else(|| format!("login answered {status}"))?;
    let auth = ("Authorization", format!("Bearer {token}"));
    let form = ("Content-Type", format!("multipart/form-data; boundary={BOUNDARY}"));
    for (i, title) in
        ["cat jumps", "dog runs", "bird sings", "cat sleeps", "happy dance"].iter().cycle().take(20).enumerate()
    {
        // A different file each (the library refuses byte-identical uploads).
        let body = multipart(&numbered_gif(2 + (i % 3) as u8, 1000 + i as u32), title);
        let (status, answer) = http(port, "POST", "/api/gifs", &[auth.clone(), form.clone()], &body)?;
        if !(200..300).contains(&status) {
            return Err(format!("seeding upload answered {status}: {}", String::from_utf8_lossy(&answer)));
        }
    }
    let (_, body) = http(port, "GET", "/api/gifs/dtos?page=0&size=50", &[auth], b"")?;
    let page: serde_json::Value = serde_json::from_slice(&body).map_err(|e| format!("gallery page: {e}"))?;
    let ids: Vec<i64> = page["content"].as_array().into_iter().flatten().filter_map(|g| g["id"].as_i64()).collect();
    Ok((token, ids))
}

/// A Lua string literal holding any bytes.
fn lua_bytes(bytes: &[u8]) -> String {
    let mut out = String::from("\"");
    for b in bytes {
        let _ = write!(out, "\\{b}");
    }
    out.push('"');
    out
}

/// Byte 13 of a GIF: its first palette colour, three bytes.
const FIRST_COLOUR: usize = 13;

/// `tiny_gif(frames)` with its first colour set from `n` (its low three bytes): a different file
/// for each `n`, the same work to process.
fn numbered_gif(frames: u8, n: u32) -> Vec<u8> {
    let mut gif = tiny_gif(frames);
    let [_, a, b, c] = n.to_be_bytes();
    gif[FIRST_COLOUR..FIRST_COLOUR + 3].copy_from_slice(&[a, b, c]);
    gif
}

fn script(token: &str, ids: &[i64], gzip: bool) -> String {
    // The upload body around the GIF's first colour, which each request sets to its own value:
    // every upload under load is a new file, processed in full, never refused as a duplicate.
    let body = multipart(&tiny_gif(3), "uploaded under load");
    let at = body.windows(6).position(|w| w == b"GIF89a").unwrap_or_default() + FIRST_COLOUR;
    let (upload_head, upload_tail) = (lua_bytes(&body[..at]), lua_bytes(&body[at + 3..]));
    let ids: Vec<String> = ids.iter().map(i64::to_string).collect();
    format!(
        r#"-- gifshelf load mix: 10% uploads, 40% gallery pages, 25% searches, 25% detail views.
local token = "Bearer {token}"
local gzip = {gzip}
local upload_head = {upload_head}
local upload_tail = {upload_tail}
local uploads = 0
local ids = {{{ids}}}
local words = {{"cat", "dog", "bird", "dance", "load", "happy jumps", "nothing-matches"}}
local threads = {{}}
counts = {{}}
kinds = {{}}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(os.time() + id * 7919)
end

-- Every request's headers, with Accept-Encoding when the run measures compressed answers.
local function headers(h) if gzip then h["Accept-Encoding"] = "gzip" end return h end

local function count(tbl, key)
  tbl[key] = (tbl[key] or 0) + 1
end

function request()
  local r = math.random(100)
  if r <= 10 then
    count(kinds, "upload")
    uploads = uploads + 1
    -- Thread ids start at 1: never the colours of the seeded GIFs (thread 0).
    local colour = string.char(id % 256, math.floor(uploads / 256) % 256, uploads % 256)
    return wrk.format("POST", "/api/gifs", headers({{["Authorization"] = token, ["Content-Type"] = "multipart/form-data; boundary={BOUNDARY}"}}), upload_head .. colour .. upload_tail)
  elseif r <= 50 then
    count(kinds, "gallery")
    return wrk.format("GET", "/api/gifs/dtos?page=" .. math.random(0, 3) .. "&size=12", headers({{["Authorization"] = token}}))
  elseif r <= 75 then
    count(kinds, "search")
    local q = words[math.random(#words)]:gsub(" ", "%%20")
    return wrk.format("GET", "/api/gifs/dtos/search?query=" .. q .. "&page=0&size=12", headers({{["Authorization"] = token}}))
  else
    count(kinds, "detail")
    return wrk.format("GET", "/api/gifs/dto/" .. ids[math.random(#ids)], headers({{["Authorization"] = token}}))
  end
end

function response(status, headers, body)
  count(counts, status)
end

function done(summary, latency, requests)
  local statuses, mix = {{}}, {{}}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("counts")) do statuses[status] = (statuses[status] or 0) + n end
    for kind, n in pairs(thread:get("kinds")) do mix[kind] = (mix[kind] or 0) + n end
  end
  for status, n in pairs(statuses) do io.write(string.format("LOAD status %d %d\n", status, n)) end
  for kind, n in pairs(mix) do io.write(string.format("LOAD kind %s %d\n", kind, n)) end
  io.write(string.format("LOAD requests %d %d %d\n", summary.requests, summary.duration, summary.bytes))
  io.write(string.format("LOAD latency %d %d %d\n", latency:percentile(50), latency:percentile(95), latency:percentile(99)))
  local e = summary.errors
  io.write(string.format("LOAD errors connect=%d read=%d write=%d timeout=%d status=%d\n", e.connect, e.read, e.write, e.timeout, e.status))
end
"#,
        ids = ids.join(", "),
        gzip = if gzip { "true" } else { "false" },
    )
}

/// Runs the mix for `seconds` with `connections` clients against `binary` (a gifshelf build).
/// What accepting gzip changed: throughput (the target: a cost under 5 %) and bytes per answer.
pub fn compare_gzip(plain: &Report, gzip: &Report) {
    let per = |r: &Report| r.bytes as f64 / r.requests.max(1) as f64;
    let cost = 100.0 * (1.0 - gzip.per_second / plain.per_second.max(1e-9));
    println!(
        "load --gzip: {:.0} req/s identity, {:.0} req/s gzip: throughput cost {cost:.1} % (target < 5 %: {}); \
         {:.0} bytes per answer identity, {:.0} gzip ({:.2}x)",
        plain.per_second,
        gzip.per_second,
        if cost < 5.0 { "met" } else { "not met" },
        per(plain),
        per(gzip),
        per(gzip) / per(plain).max(1e-9),
    );
}

/// With `gzip`, every request accepts gzip (as browsers and chat clients do).
pub fn run(binary: &Path, seconds: u32, connections: u32, gzip: bool) -> Result<Report> {
    if Command::new("wrk").arg("--version").output().is_err() {
        return Err("`wrk` is not installed: apt-get install wrk".into());
    }
    let dir = std::env::temp_dir().join(format!("gifshelf-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let server = start(binary, &dir)?;
    let (token, ids) = seed(server.port())?;
    if ids.is_empty() {
        return Err("seeding left no GIFs to view".into());
    }
    let lua = dir.join("mix.lua");
    std::fs::write(&lua, script(&token, &ids, gzip)).map_err(|e| e.to_string())?;
    let output = Command::new("wrk")
        .args(["-t", "2", "-c", &connections.to_string(), "-d", &format!("{seconds}s"), "--timeout", "30s", "-s"])
        .arg(&lua)
        .arg(server.url())
        .output()
        .map_err(|e| format!("wrk: {e}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.status.success() {
        return Err(format!("wrk failed: {}{}", stdout, String::from_utf8_lossy(&output.stderr)));
    }
    let mut report = Report { seconds, connections, ..Report::default() };
    for line in stdout.lines().filter_map(|l| l.strip_prefix("LOAD ")) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let num = |i: usize| fields.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
        match fields.first() {
            Some(&"status") => {
                report.statuses.insert(num(1) as u16, num(2) as u64);
            }
            Some(&"kind") => {
                report.by_kind.insert(fields.get(1).copied().unwrap_or_default().to_owned(), num(2) as u64);
            }
            Some(&"requests") => {
                report.requests = num(1) as u64;
                report.per_second = num(1) / (num(2) / 1e6).max(1e-9);
                report.bytes = num(3) as u64;
            }
            Some(&"latency") => {
                (report.p50_ms, report.p95_ms, report.p99_ms) = (num(1) / 1e3, num(2) / 1e3, num(3) / 1e3)
            }
            Some(&"errors") => {
                let nonzero: Vec<&str> =
                    fields[1..].iter().copied().filter(|f| !f.ends_with("=0") && !f.starts_with("status=")).collect();
                report.socket_errors = nonzero.join(" ");
            }
            _ => {}
        }
    }
    drop(server);
    let log = std::fs::read_to_string(dir.join("server.log")).unwrap_or_default();
    report.database_locked = log.matches("database is locked").count();
    report.log_errors = log.lines().filter(|l| l.contains("ERROR")).count();
    report.log_samples = log
        .lines()
        .filter(|l| l.contains("ERROR") || l.contains("database is locked"))
        .take(5)
        .map(str::to_owned)
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(report)
}

#[cfg(test)]
mod tests {
    #[test]
    fn tiny_gif_is_well_formed() {
        let gif = gifshelf_media::testing::tiny_gif(2);
        assert!(gif.starts_with(b"GIF89a") && gif.ends_with(&[0x3b]));
    }

    #[test]
    fn dechunk_joins_chunks() {
        assert_eq!(super::dechunk(b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"), b"abcde");
    }
}
