//! Media offload (`GIFSHELF_MEDIA_OFFLOAD`): gifshelf checks who may see a file, then hands the
//! sending to nginx (`x-accel-redirect`) or to the object store (`presigned`). The access rules of
//! a private library hold in every mode: a caller without a session gets a 401 and no pointer to
//! the bytes.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gifshelf_storage::testing::S3TestServer;
use reqwest::header::{CONTENT_TYPE, LOCATION, RANGE};
use reqwest::StatusCode;

use crate::helpers::{error_of, Backend};
use crate::{app, on_both_backends};

/// The stored key of a rendition, as the media folder names it (`gifs/<random>/original.gif`).
fn stored_key(media_dir: &Path, suffix: &str) -> String {
    fn walk(root: &Path, dir: &Path, suffix: &str) -> Option<String> {
        for entry in std::fs::read_dir(dir).ok()?.flatten() {
            let path = entry.path();
            if path.is_dir() {
                if let Some(found) = walk(root, &path, suffix) {
                    return Some(found);
                }
            } else if path.to_string_lossy().ends_with(suffix) {
                return path.strip_prefix(root).ok().map(|p| p.to_string_lossy().into_owned());
            }
        }
        None
    }
    walk(media_dir, media_dir, suffix).unwrap_or_else(|| panic!("no stored file ending in {suffix}"))
}

async fn x_accel_redirect_answers_point_nginx_at_the_file_after_the_access_check(backend: Backend) {
    let app = app!(backend, &[("GIFSHELF_MEDIA_OFFLOAD", "x-accel-redirect")]);
    let alice = app.user("alice").await;
    let gif = alice.upload_gif("cat", "", &[]).await;
    let (id, share_id) = (gif.id, gif.share_id);
    let key = stored_key(&app.data_dir.join("media"), "original.gif");

    // Signed in: an empty answer that names the internal location, with the media headers.
    let answer = alice.get(&format!("/api/gifs/content/{id}")).await;
    assert_eq!(answer.status(), StatusCode::OK);
    let accel = answer.headers().get("x-accel-redirect").and_then(|v| v.to_str().ok()).map(str::to_owned);
    assert_eq!(accel.as_deref(), Some(format!("/_gifshelf_media/{key}").as_str()));
    assert_eq!(answer.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()), Some("image/gif"));
    assert!(answer.bytes().await.unwrap_or_default().is_empty(), "the proxy sends the bytes, not gifshelf");

    // No session: 401, and nothing that names the file.
    let anonymous = app.anonymous().get(&format!("/api/gifs/content/{id}")).await;
    assert!(anonymous.headers().get("x-accel-redirect").is_none());
    error_of(anonymous, StatusCode::UNAUTHORIZED, "unauthorized").await;

    // A share URL is public on purpose: it is offloaded too.
    let shared = app.anonymous().get(&format!("/s/{share_id}.gif")).await;
    assert_eq!(shared.status(), StatusCode::OK);
    assert!(shared.headers().get("x-accel-redirect").is_some());
}

async fn presigned_answers_redirect_to_the_object_store_after_the_access_check(backend: Backend) {
    let s3 = S3TestServer::start();
    let app = app!(
        backend,
        &[
            ("GIFSHELF_MEDIA_OFFLOAD", "presigned"),
            ("GIFSHELF_MEDIA_PRESIGN_SECS", "60"),
            ("GIFSHELF_STORAGE_URL", &s3.url("media")),
            ("AWS_ENDPOINT_URL", &s3.endpoint),
            ("AWS_REGION", "us-east-1"),
            ("AWS_ACCESS_KEY_ID", &s3.access_key),
            ("AWS_SECRET_ACCESS_KEY", &s3.secret_key),
            ("GIFSHELF_S3_FORCE_PATH_STYLE", "true"),
            ("GIFSHELF_S3_ALLOW_HTTP", "true"),
        ]
    );
    let alice = app.user("alice").await;
    let gif = alice.upload_gif("cat", "", &[]).await;
    let (id, size) = (gif.id, gif.content_size);

    let answer = alice.get(&format!("/api/gifs/content/{id}")).await;
    assert_eq!(answer.status(), StatusCode::TEMPORARY_REDIRECT);
    assert_eq!(answer.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("private, no-store"));
    let location = answer.headers().get(LOCATION).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    assert!(location.starts_with(&s3.endpoint), "{location}");
    assert!(location.contains("X-Amz-Signature="), "a signed URL: {location}");
    assert!(location.contains("X-Amz-Expires=60"), "valid as configured: {location}");

    // The store answers the signed URL with the stored bytes, to a client with no credentials.
    let fetched = reqwest::get(&location).await.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(fetched.status(), StatusCode::OK);
    let bytes = fetched.bytes().await.unwrap_or_default();
    assert_eq!(i64::try_from(bytes.len()).ok(), Some(size));
    assert!(bytes.starts_with(b"GIF8"));
    // A forged signature is refused by the store.
    let forged = location.replace("X-Amz-Signature=", "X-Amz-Signature=0");
    assert!(!reqwest::get(&forged).await.map(|r| r.status().is_success()).unwrap_or(false));

    let anonymous = app.anonymous().get(&format!("/api/gifs/content/{id}")).await;
    assert!(anonymous.headers().get(LOCATION).is_none());
    error_of(anonymous, StatusCode::UNAUTHORIZED, "unauthorized").await;
}

on_both_backends!(
    x_accel_redirect_answers_point_nginx_at_the_file_after_the_access_check,
    presigned_answers_redirect_to_the_object_store_after_the_access_check,
);

/// nginx in front of the app, as docs/operations.md configures it, on a free loopback port.
struct Nginx {
    child: Child,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Nginx {
    /// `None` when nginx is not installed (outside CI, which installs it).
    fn start(upstream: &str, media_dir: &Path) -> Option<Self> {
        let binary =
            ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"].into_iter().find(|p| Path::new(p).exists());
        let Some(binary) = binary else {
            assert!(std::env::var("CI").is_err(), "nginx is not installed: .ci/run installs it");
            eprintln!("nginx not found: the x-accel-redirect test through nginx did not run");
            return None;
        };
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap_or_else(|e| panic!("{e}"));
        // As root, nginx's workers would switch to an unprivileged user that cannot read a
        // private temporary folder: keep them as the current user.
        let root = Command::new("id").arg("-u").output().map(|o| o.stdout.starts_with(b"0")).unwrap_or(false);
        let user = if root { "user root;" } else { "" };
        let media = media_dir.display();
        let d = dir.path().display();
        let config = format!(
            r#"{user}
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log;
events {{ worker_connections 64; }}
http {{
  access_log off;
  client_body_temp_path {d}/body;
  proxy_temp_path {d}/proxy;
  fastcgi_temp_path {d}/fastcgi;
  uwsgi_temp_path {d}/uwsgi;
  scgi_temp_path {d}/scgi;
  server {{
    listen 127.0.0.1:{port};
    location /_gifshelf_media/ {{
      internal;
      alias {media}/;
      add_header X-Content-Type-Options nosniff;
      add_header Content-Security-Policy "sandbox; default-src 'none'";
    }}
    location / {{
      proxy_pass {upstream};
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }}
  }}
}}
"#
        );
        let conf = dir.path().join("nginx.conf");
        std::fs::write(&conf, config).unwrap_or_else(|e| panic!("{e}"));
        let child = Command::new(binary)
            .args(["-e", &format!("{d}/error.log"), "-p"])
            .arg(dir.path())
            .arg("-c")
            .arg(&conf)
            .args(["-g", "daemon off;"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("nginx: {e}"));
        let started = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(started.elapsed() < Duration::from_secs(10), "nginx did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        Some(Self { child, port, _dir: dir })
    }

    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The whole path with the real nginx: the file comes from nginx, ranges work, and a session is
/// still needed; the internal location cannot be asked for from outside.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nginx_sends_the_file_gifshelf_allowed_and_nothing_else() {
    let app = app!(Backend::Sqlite, &[("GIFSHELF_MEDIA_OFFLOAD", "x-accel-redirect")]);
    let alice = app.user("alice").await;
    let id = alice.upload_gif("cat", "", &[]).await.id;
    let media = app.data_dir.join("media");
    let key = stored_key(&media, "original.gif");
    let on_disk = std::fs::read(media.join(&key)).unwrap_or_else(|e| panic!("{e}"));
    let Some(nginx) = Nginx::start(&app.address, &media) else {
        return;
    };
    let client = reqwest::Client::new();

    let whole = client.get(nginx.url(&format!("/api/gifs/content/{id}"))).bearer_auth(alice.token()).send().await;
    let whole = whole.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(whole.status(), StatusCode::OK);
    let header = |name: &str| whole.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    assert_eq!(header("content-type").as_deref(), Some("image/gif"));
    assert_eq!(header("x-content-type-options").as_deref(), Some("nosniff"));
    assert_eq!(header("cache-control").as_deref(), Some("private, max-age=86400"));
    assert!(header("x-accel-redirect").is_none(), "nginx consumes the header");
    assert_eq!(whole.bytes().await.unwrap_or_default().as_ref(), on_disk.as_slice());

    let part = client
        .get(nginx.url(&format!("/api/gifs/content/{id}")))
        .bearer_auth(alice.token())
        .header(RANGE, "bytes=0-5")
        .send()
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(part.status(), StatusCode::PARTIAL_CONTENT);
    assert_eq!(part.bytes().await.unwrap_or_default().as_ref(), &on_disk[..6]);

    let anonymous = client.get(nginx.url(&format!("/api/gifs/content/{id}"))).send().await;
    error_of(anonymous.unwrap_or_else(|e| panic!("{e}")), StatusCode::UNAUTHORIZED, "unauthorized").await;
    let internal = client.get(nginx.url(&format!("/_gifshelf_media/{key}"))).send().await;
    let internal = internal.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(internal.status(), StatusCode::NOT_FOUND, "the internal location is not reachable from outside");
    assert_ne!(internal.bytes().await.unwrap_or_default().as_ref(), on_disk.as_slice());
}
