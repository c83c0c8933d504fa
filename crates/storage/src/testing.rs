//! A real S3-compatible server on loopback for tests (feature `testing`): `s3s-fs` (objects as
//! files in a temporary folder) behind `s3s`'s request parsing and SigV4 authentication, served by
//! hyper on `127.0.0.1:0`. It never touches any other address.

use std::net::SocketAddr;
use std::time::Duration;

use hyper_util::rt::TokioIo;
use secrecy::SecretString;

use crate::S3Options;

/// A running server with one bucket; stopped when dropped.
///
/// It runs on its own thread and Tokio runtime, so it keeps answering whatever the caller's
/// runtime does (a `#[tokio::test]`, actix-web's runtime, or two gifshelf servers sharing it).
#[derive(Debug)]
pub struct S3TestServer {
    /// `http://127.0.0.1:PORT`
    pub endpoint: String,
    /// An existing, empty bucket.
    pub bucket: String,
    pub access_key: String,
    pub secret_key: String,
    /// The folder the objects live in (`{dir}/{bucket}/{key}`).
    pub dir: tempfile::TempDir,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl S3TestServer {
    /// Starts a server with the bucket `gifshelf-test` and fixed test credentials.
    ///
    /// # Panics
    /// When the temporary folder, the listener or the runtime cannot be set up (a broken test
    /// machine).
    pub fn start() -> Self {
        let dir = tempfile::tempdir().expect("a temporary folder for the S3 test server");
        let bucket = "gifshelf-test".to_owned();
        std::fs::create_dir(dir.path().join(&bucket)).expect("the test bucket's folder");
        let (access_key, secret_key) =
            ("gifshelf-test-access".to_owned(), "gifshelf-test-secret-0123456789".to_owned());

        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port for the S3 test server");
        listener.set_nonblocking(true).expect("a non-blocking listener");
        let addr: SocketAddr = listener.local_addr().expect("the listener's address");

        let fs = s3s_fs::FileSystem::new(dir.path()).expect("the s3s-fs root");
        let mut builder = s3s::service::S3ServiceBuilder::new(fs);
        builder.set_auth(s3s::auth::SimpleAuth::from_single(access_key.clone(), secret_key.clone()));
        let service = builder.build();

        let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a Tokio runtime");
        let thread = std::thread::Builder::new()
            .name("s3-test-server".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let listener = tokio::net::TcpListener::from_std(listener).expect("a Tokio listener");
                    loop {
                        let socket = tokio::select! {
                            accepted = listener.accept() => match accepted {
                                Ok((socket, _)) => socket,
                                Err(_) => continue,
                            },
                            _ = &mut stopped => break,
                        };
                        let service = service.clone();
                        tokio::spawn(async move {
                            let _ = hyper::server::conn::http1::Builder::new()
                                .serve_connection(TokioIo::new(socket), service)
                                .await;
                        });
                    }
                });
            })
            .expect("the S3 test server's thread");

        Self {
            endpoint: format!("http://{addr}"),
            bucket,
            access_key,
            secret_key,
            dir,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// `s3://{bucket}` followed by `/{prefix}` when one is given.
    pub fn url(&self, prefix: &str) -> String {
        let prefix = prefix.trim_matches('/');
        if prefix.is_empty() {
            format!("s3://{}", self.bucket)
        } else {
            format!("s3://{}/{prefix}", self.bucket)
        }
    }

    /// Options that reach this server: its endpoint and keys, path style, plain HTTP, and short
    /// timeouts.
    pub fn options(&self) -> S3Options {
        S3Options {
            endpoint: Some(self.endpoint.clone()),
            region: Some("us-east-1".into()),
            access_key_id: Some(self.access_key.clone()),
            secret_access_key: Some(SecretString::from(self.secret_key.clone())),
            session_token: None,
            force_path_style: true,
            allow_http: true,
            connect_timeout: Duration::from_secs(2),
            request_timeout: Duration::from_secs(10),
            max_retries: 1,
        }
    }

    /// Creates another, empty bucket.
    ///
    /// # Errors
    /// When its folder cannot be created.
    pub fn create_bucket(&self, name: &str) -> std::io::Result<()> {
        std::fs::create_dir(self.dir.path().join(name))
    }
}

impl Drop for S3TestServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
