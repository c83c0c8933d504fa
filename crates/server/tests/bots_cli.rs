//! `gifshelf discord register` and `gifshelf telegram set-webhook`, run as an operator runs them,
//! against a local HTTP server standing in for Discord's and Telegram's APIs: what each sends
//! (path, credentials, body), and what each says when the platform refuses.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::Output;
use std::thread::JoinHandle;

use gifshelf_testkit::ServerEnv;
use serde_json::{json, Value};

fn ok<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| panic!("{e}"))
}

/// One request as the stand-in received it.
#[derive(Debug)]
struct Received {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Value,
}

impl Received {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// A server on a free local port that answers one request with `status` and `answer`, and hands
/// back what it received.
fn stand_in(status: u16, answer: Value) -> (String, JoinHandle<Received>) {
    let listener = ok(TcpListener::bind("127.0.0.1:0"));
    let url = format!("http://{}", ok(listener.local_addr()));
    let handle = std::thread::spawn(move || {
        let (stream, _) = ok(listener.accept());
        let mut reader = BufReader::new(ok(stream.try_clone()));
        let mut line = String::new();
        ok(reader.read_line(&mut line));
        let mut parts = line.split_whitespace();
        let (method, path) = (parts.next().unwrap_or_default().to_owned(), parts.next().unwrap_or_default().to_owned());
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            ok(reader.read_line(&mut header));
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                headers.push((name.trim().to_owned(), value.trim().to_owned()));
            }
        }
        let length: usize = headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        ok(reader.read_exact(&mut body));
        let text = answer.to_string();
        let mut stream = stream;
        ok(write!(
            stream,
            "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
            text.len()
        ));
        Received { method, path, headers, body: serde_json::from_slice(&body).unwrap_or(Value::Null) }
    });
    (url, handle)
}

/// Runs the binary with the settings of a server under test and `vars`: nothing from the
/// developer's shell.
fn run(vars: &[(&str, &str)], args: &[&str]) -> Output {
    let dir = ok(tempfile::tempdir());
    let mut env = ServerEnv::new(dir.path(), dir.path(), &gifshelf_testkit::sqlite_url(dir.path()));
    for (name, value) in vars {
        env = env.set(name, *value);
    }
    ok(env.command(env!("CARGO_BIN_EXE_gifshelf")).args(args).output())
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

const BOT_TOKEN: &str = "MTIwMzk4NjIzNDIzNDI0MTAyNA.GqZ3bX.discord-bot-token";

#[test]
fn discord_register_sends_the_gif_command_with_its_autocompleted_query() {
    let (api, received) = stand_in(200, json!({"id": "1204081450927280199", "name": "gif"}));
    let output = run(
        &[("GIFSHELF_DISCORD_BOT_TOKEN", BOT_TOKEN), ("GIFSHELF_DISCORD_API_URL", &api)],
        &["discord", "register", "--application-id", "1203986234234241024"],
    );
    assert!(output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("1204081450927280199"), "{}", text(&output));
    let request = ok(received.join().map_err(|_| "the stand-in failed"));
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/applications/1203986234234241024/commands")
    );
    assert_eq!(request.header("authorization"), Some(format!("Bot {BOT_TOKEN}").as_str()));
    assert_eq!(request.body["name"], "gif");
    assert_eq!(request.body["type"], 1);
    let option = &request.body["options"][0];
    assert_eq!((option["name"].as_str(), option["type"].as_u64()), (Some("query"), Some(3)));
    assert_eq!((option["autocomplete"].as_bool(), option["required"].as_bool()), (Some(true), Some(true)));
    assert_eq!(option["max_length"], 80);
}

#[test]
fn discord_register_says_what_discord_refused_and_checks_the_id_first() {
    let (api, received) = stand_in(401, json!({"message": "401: Unauthorized", "code": 0}));
    let output = run(
        &[("GIFSHELF_DISCORD_BOT_TOKEN", "wrong"), ("GIFSHELF_DISCORD_API_URL", &api)],
        &["discord", "register", "--application-id", "1203986234234241024"],
    );
    assert!(!output.status.success());
    assert!(text(&output).contains("401"), "{}", text(&output));
    drop(received.join());

    let output =
        run(&[("GIFSHELF_DISCORD_BOT_TOKEN", BOT_TOKEN)], &["discord", "register", "--application-id", "../x"]);
    assert!(!output.status.success());
    assert!(text(&output).contains("--application-id"), "{}", text(&output));
    let output = run(&[], &["discord", "register", "--application-id", "1203986234234241024"]);
    assert!(!output.status.success(), "no bot token: {}", text(&output));
}

const TELEGRAM_TOKEN: &str = "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw";

#[test]
fn telegram_set_webhook_points_the_bot_at_this_server_with_the_secret() {
    let (api, received) = stand_in(200, json!({"ok": true, "result": true, "description": "Webhook was set"}));
    let output = run(
        &[
            ("GIFSHELF_TELEGRAM_BOT_TOKEN", TELEGRAM_TOKEN),
            ("GIFSHELF_TELEGRAM_API_URL", &api),
            ("GIFSHELF_PUBLIC_URL", "https://gifs.example.com"),
            ("GIFSHELF_TELEGRAM_WEBHOOK_SECRET", "Tg_webhook-secret-42"),
        ],
        &["telegram", "set-webhook"],
    );
    assert!(output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("https://gifs.example.com/api/chat/telegram"), "{}", text(&output));
    let request = ok(received.join().map_err(|_| "the stand-in failed"));
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", format!("/bot{TELEGRAM_TOKEN}/setWebhook").as_str())
    );
    assert_eq!(request.body["url"], "https://gifs.example.com/api/chat/telegram");
    assert_eq!(request.body["secret_token"], "Tg_webhook-secret-42");
    assert_eq!(request.body["allowed_updates"], json!(["message", "inline_query", "chosen_inline_result"]));
}

#[test]
fn telegram_set_webhook_says_what_telegram_refused_and_never_prints_the_token() {
    let refusal = json!({"ok": false, "error_code": 400, "description": "Bad Request: bad webhook: HTTPS url must be provided for webhook"});
    let (api, received) = stand_in(400, refusal);
    let vars = [
        ("GIFSHELF_TELEGRAM_BOT_TOKEN", TELEGRAM_TOKEN),
        ("GIFSHELF_TELEGRAM_API_URL", api.as_str()),
        ("GIFSHELF_PUBLIC_URL", "http://gifs.example.com"),
        ("GIFSHELF_TELEGRAM_WEBHOOK_SECRET", "Tg_webhook-secret-42"),
    ];
    let output = run(&vars, &["telegram", "set-webhook"]);
    assert!(!output.status.success());
    assert!(text(&output).contains("HTTPS url must be provided"), "{}", text(&output));
    assert!(!text(&output).contains("AAHdqTcv"), "the token shows: {}", text(&output));
    drop(received.join());

    // Without a public URL or a secret, nothing is sent.
    let output = run(&vars[..2], &["telegram", "set-webhook"]);
    assert!(!output.status.success());
    assert!(text(&output).contains("GIFSHELF_PUBLIC_URL"), "{}", text(&output));
    let output = run(&vars[..3], &["telegram", "set-webhook"]);
    assert!(text(&output).contains("GIFSHELF_TELEGRAM_WEBHOOK_SECRET"), "{}", text(&output));
    // Nothing answers: said so, without the token.
    let closed = ok(TcpListener::bind("127.0.0.1:0"));
    let nowhere = format!("http://{}", ok(closed.local_addr()));
    drop(closed);
    let mut unreachable = vars;
    unreachable[1] = ("GIFSHELF_TELEGRAM_API_URL", &nowhere);
    let output = run(&unreachable, &["telegram", "set-webhook"]);
    assert!(!output.status.success());
    assert!(text(&output).contains("cannot be reached") && !text(&output).contains("AAHdqTcv"), "{}", text(&output));
}
