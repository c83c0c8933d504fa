//! Blobs as objects in an S3-compatible bucket (AWS S3, MinIO, Garage, Ceph RGW, Cloudflare R2).

use std::time::Duration;

use async_trait::async_trait;
use futures_util::StreamExt;
use gifshelf_domain::ports::{BlobChunk, BlobError, BlobInfo, BlobReader, BlobStore};
use object_store::aws::{AmazonS3, AmazonS3Builder};
use object_store::path::Path;
use object_store::signer::Signer;
use object_store::{
    Attribute, Attributes, ClientOptions, GetOptions, ObjectStore, ObjectStoreExt, PutOptions, PutPayload, RetryConfig,
};
use secrecy::{ExposeSecret, SecretString};

use crate::key;

/// How to reach an S3-compatible service. The server fills it from its settings (the standard
/// `AWS_*` variables and `GIFSHELF_S3_*`); nothing here reads the environment.
#[derive(Debug, Clone)]
pub struct S3Options {
    /// The service's base URL without the bucket (`http://127.0.0.1:9000`); AWS's regional endpoint
    /// when unset.
    pub endpoint: Option<String>,
    /// `us-east-1` when unset.
    pub region: Option<String>,
    /// With `secret_access_key`; when both are unset the instance's role (EC2 metadata) is used.
    pub access_key_id: Option<String>,
    pub secret_access_key: Option<SecretString>,
    pub session_token: Option<SecretString>,
    /// `endpoint/bucket/key` rather than `bucket.endpoint/key`: what MinIO, Garage and Ceph expect
    /// unless they are set up with wildcard DNS.
    pub force_path_style: bool,
    /// Allow a plain-HTTP endpoint (a server on the same host or private network).
    pub allow_http: bool,
    /// Time to open a connection.
    pub connect_timeout: Duration,
    /// Time for one whole request; retries stop once this much time has passed since the first try.
    pub request_timeout: Duration,
    /// Retries of a failed request (connection errors, timeouts, 5xx), with exponential backoff.
    pub max_retries: usize,
}

impl Default for S3Options {
    fn default() -> Self {
        Self {
            endpoint: None,
            region: None,
            access_key_id: None,
            secret_access_key: None,
            session_token: None,
            force_path_style: false,
            allow_http: false,
            connect_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(60),
            max_retries: 2,
        }
    }
}

/// Blobs as objects under an optional prefix of one bucket.
///
/// A `put` is one `PutObject` request, which S3 applies atomically: readers see the old object, the
/// new one, or none, never a part. Multipart uploads are never started.
#[derive(Debug)]
pub struct S3Store {
    store: AmazonS3,
    bucket: String,
    /// Without slashes at either end; empty for the bucket's root.
    prefix: String,
    /// Credentials to blank out of error messages (services may echo the access key).
    secrets: Vec<SecretString>,
}

impl S3Store {
    /// A store on `s3://bucket/prefix`. Makes no request.
    ///
    /// # Errors
    /// A message for an invalid bucket, prefix, endpoint or half-given credentials.
    pub fn new(bucket: &str, prefix: &str, options: &S3Options) -> Result<Self, String> {
        if !valid_bucket(bucket) {
            return Err(format!("{bucket:?} is not a valid bucket name (3 to 63 of a-z, 0-9, '.', '-')"));
        }
        let prefix = prefix.trim_matches('/');
        if !prefix.is_empty() && !key::is_valid(prefix) {
            return Err(format!("{prefix:?} is not a valid key prefix (segments of A-Z a-z 0-9 . _ -)"));
        }
        let mut builder = AmazonS3Builder::new()
            .with_bucket_name(bucket)
            .with_region(options.region.as_deref().unwrap_or("us-east-1"))
            .with_virtual_hosted_style_request(!options.force_path_style)
            .with_client_options(
                ClientOptions::new()
                    .with_allow_http(options.allow_http)
                    .with_connect_timeout(options.connect_timeout)
                    .with_timeout(options.request_timeout),
            )
            .with_retry(RetryConfig {
                max_retries: options.max_retries,
                retry_timeout: options.request_timeout,
                ..RetryConfig::default()
            });
        if let Some(endpoint) = options.endpoint.as_deref().map(|e| e.trim_end_matches('/')) {
            let http = endpoint.starts_with("http://");
            if !http && !endpoint.starts_with("https://") {
                return Err(format!("the S3 endpoint {endpoint:?} must start with https:// or http://"));
            }
            if http && !options.allow_http {
                return Err(format!(
                    "the S3 endpoint {endpoint:?} is plain HTTP: set GIFSHELF_S3_ALLOW_HTTP=true to allow it"
                ));
            }
            let endpoint =
                if options.force_path_style { endpoint.to_owned() } else { virtual_hosted(endpoint, bucket) };
            builder = builder.with_endpoint(endpoint);
        }
        let mut secrets = Vec::new();
        match (&options.access_key_id, &options.secret_access_key) {
            (Some(id), Some(secret)) => {
                builder = builder.with_access_key_id(id).with_secret_access_key(secret.expose_secret());
                secrets.push(SecretString::from(id.clone()));
                secrets.push(secret.clone());
                if let Some(token) = &options.session_token {
                    builder = builder.with_token(token.expose_secret());
                    secrets.push(token.clone());
                }
            }
            (None, None) => {}
            _ => return Err("set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or neither".into()),
        }
        let store = builder.build().map_err(|e| format!("S3 bucket {bucket}: {e}"))?;
        Ok(Self { store, bucket: bucket.to_owned(), prefix: prefix.to_owned(), secrets })
    }

    fn path_of(&self, key: &str) -> Result<Path, BlobError> {
        key::check(key)?;
        Ok(if self.prefix.is_empty() { Path::from(key) } else { Path::from(format!("{}/{key}", self.prefix)) })
    }

    /// An `Io` error that says what failed without credentials or a whole response body.
    fn failure(&self, operation: &str, key: &str, err: &object_store::Error) -> BlobError {
        failure(&self.bucket, &self.secrets, operation, key, err)
    }
}

fn failure(bucket: &str, secrets: &[SecretString], operation: &str, key: &str, err: &object_store::Error) -> BlobError {
    let mut text = err.to_string();
    let reason = if denied(err, &text) {
        "access denied (check the access key, the secret and the bucket's policy)".to_owned()
    } else {
        for secret in secrets {
            let secret = secret.expose_secret();
            if !secret.is_empty() {
                text = text.replace(secret, "***");
            }
        }
        truncate(text, 300)
    };
    BlobError::io(format!("S3 {operation} {key:?} in bucket {bucket}: {reason}"))
}

/// Nothing to read.
struct EmptyReader;

#[async_trait]
impl BlobReader for EmptyReader {
    async fn next_chunk(&mut self) -> Result<Option<BlobChunk>, BlobError> {
        Ok(None)
    }
}

/// An object's body as it arrives from the bucket.
struct ObjectReader {
    stream: futures_util::stream::BoxStream<'static, object_store::Result<BlobChunk>>,
    key: String,
    bucket: String,
    secrets: Vec<SecretString>,
}

#[async_trait]
impl BlobReader for ObjectReader {
    async fn next_chunk(&mut self) -> Result<Option<BlobChunk>, BlobError> {
        loop {
            match self.stream.next().await {
                None => return Ok(None),
                Some(Ok(bytes)) if bytes.is_empty() => continue,
                Some(Ok(bytes)) => return Ok(Some(bytes)),
                Some(Err(err)) => return Err(failure(&self.bucket, &self.secrets, "get", &self.key, &err)),
            }
        }
    }
}

/// A 401 or 403: `object_store` says so for most requests, but only in the text for listings.
fn denied(err: &object_store::Error, text: &str) -> bool {
    matches!(err, object_store::Error::PermissionDenied { .. } | object_store::Error::Unauthenticated { .. })
        || text.contains("403 Forbidden")
        || text.contains("401 Unauthorized")
}

/// `https://host:port/path` → `https://bucket.host:port/path`.
fn virtual_hosted(endpoint: &str, bucket: &str) -> String {
    match endpoint.split_once("://") {
        Some((scheme, rest)) => format!("{scheme}://{bucket}.{rest}"),
        None => format!("{bucket}.{endpoint}"),
    }
}

fn valid_bucket(name: &str) -> bool {
    (3..=63).contains(&name.len())
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '-')
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric())
}

fn truncate(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

#[async_trait]
impl BlobStore for S3Store {
    async fn put(&self, key: &str, bytes: Vec<u8>, content_type: &str) -> Result<(), BlobError> {
        let path = self.path_of(key)?;
        let mut attributes = Attributes::new();
        if !content_type.is_empty() {
            attributes.insert(Attribute::ContentType, content_type.to_owned().into());
        }
        let options = PutOptions { attributes, ..PutOptions::default() };
        self.store
            .put_opts(&path, PutPayload::from(bytes), options)
            .await
            .map(|_| ())
            .map_err(|e| self.failure("put", key, &e))
    }

    async fn get(&self, key: &str) -> Result<Vec<u8>, BlobError> {
        let path = self.path_of(key)?;
        let result = match self.store.get(&path).await {
            Ok(result) => result,
            Err(object_store::Error::NotFound { .. }) => return Err(BlobError::NotFound),
            Err(err) => return Err(self.failure("get", key, &err)),
        };
        match result.bytes().await {
            Ok(bytes) => Ok(Vec::from(bytes)),
            Err(object_store::Error::NotFound { .. }) => Err(BlobError::NotFound),
            Err(err) => Err(self.failure("get", key, &err)),
        }
    }

    async fn read(&self, key: &str, range: Option<std::ops::Range<u64>>) -> Result<Box<dyn BlobReader>, BlobError> {
        let path = self.path_of(key)?;
        if range.as_ref().is_some_and(std::ops::Range::is_empty) {
            // S3 has no empty range; an empty read needs no request.
            return Ok(Box::new(EmptyReader));
        }
        let options = GetOptions::default().with_range(range);
        let result = match self.store.get_opts(&path, options).await {
            Ok(result) => result,
            Err(object_store::Error::NotFound { .. }) => return Err(BlobError::NotFound),
            Err(err) => return Err(self.failure("get", key, &err)),
        };
        Ok(Box::new(ObjectReader {
            stream: result.into_stream().map(|chunk| chunk.map(BlobChunk::new)).boxed(),
            key: key.to_owned(),
            bucket: self.bucket.clone(),
            secrets: self.secrets.clone(),
        }))
    }

    async fn presigned_get(&self, key: &str, expires: Duration) -> Result<Option<String>, BlobError> {
        let path = self.path_of(key)?;
        match self.store.signed_url(http::Method::GET, &path, expires).await {
            Ok(url) => Ok(Some(url.to_string())),
            Err(err) => Err(self.failure("sign", key, &err)),
        }
    }

    async fn delete(&self, key: &str) -> Result<(), BlobError> {
        let path = self.path_of(key)?;
        match self.store.delete(&path).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(err) => Err(self.failure("delete", key, &err)),
        }
    }

    async fn list(&self) -> Result<Vec<BlobInfo>, BlobError> {
        let prefix = (!self.prefix.is_empty()).then(|| Path::from(self.prefix.as_str()));
        // `list` pages through ListObjectsV2 continuation tokens itself.
        let mut objects = self.store.list(prefix.as_ref());
        let mut out = Vec::new();
        while let Some(object) = objects.next().await {
            let object = object.map_err(|e| self.failure("list", &self.prefix, &e))?;
            let full = object.location.as_ref();
            let key = if self.prefix.is_empty() {
                Some(full)
            } else {
                full.strip_prefix(self.prefix.as_str()).and_then(|rest| rest.strip_prefix('/'))
            };
            match key {
                Some(key) if key::is_valid(key) => {
                    out.push(BlobInfo { key: key.to_owned(), modified: Some(object.last_modified.naive_utc()) });
                }
                // Objects gifshelf cannot have written (hidden or odd names) are not its blobs.
                _ => tracing::debug!(object = full, "ignoring an object that is not a gifshelf blob"),
            }
        }
        out.sort_by(|a, b| a.key.cmp(&b.key));
        Ok(out)
    }

    /// Nothing to sweep: a `put` is a single `PutObject`, which leaves no partial object behind when
    /// it is interrupted, and gifshelf never starts multipart uploads. (`object_store` cannot list a
    /// bucket's incomplete multipart uploads either; a bucket lifecycle rule
    /// `AbortIncompleteMultipartUpload` cleans those left by other tools.)
    async fn sweep_partial_writes(&self) -> Result<usize, BlobError> {
        Ok(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_hosted_endpoints_carry_the_bucket() {
        assert_eq!(virtual_hosted("https://s3.example.com:9000", "gifs"), "https://gifs.s3.example.com:9000");
    }

    #[test]
    fn bucket_names_follow_the_s3_rules() {
        for name in ["gifs", "my-bucket.2", "abc"] {
            assert!(valid_bucket(name), "{name}");
        }
        for name in ["", "ab", "Gifs", "-gifs", "gifs-", "gi_fs", "gifs/x", &"a".repeat(64)] {
            assert!(!valid_bucket(name), "{name}");
        }
    }

    #[test]
    fn options_are_checked_before_any_request() {
        let http = S3Options { endpoint: Some("http://127.0.0.1:9".into()), ..S3Options::default() };
        assert!(S3Store::new("gifs", "", &http).is_err_and(|e| e.contains("GIFSHELF_S3_ALLOW_HTTP")));
        let half = S3Options { access_key_id: Some("id".into()), ..S3Options::default() };
        assert!(S3Store::new("gifs", "", &half).is_err_and(|e| e.contains("both")));
        let ok = S3Options { force_path_style: true, allow_http: true, ..http };
        assert!(S3Store::new("gifs", "a/b/", &ok).is_ok_and(|s| s.prefix == "a/b"));
        assert!(S3Store::new("gifs", "a/../b", &ok).is_err());
        assert!(S3Store::new("gifs", "", &S3Options { endpoint: Some("ftp://x".into()), ..ok }).is_err());
    }

    #[test]
    fn long_messages_are_cut_on_a_character_boundary() {
        assert_eq!(truncate("ééé".into(), 3), "é…");
        assert_eq!(truncate("short".into(), 300), "short");
    }
}
