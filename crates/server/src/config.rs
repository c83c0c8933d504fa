//! Configuration: defaults, then a TOML file (`--config`), then `GIFSHELF_*` environment variables.
//! Loaded once in `main` and passed down; no global statics.

use std::path::{Path, PathBuf};

use secrecy::SecretString;
use serde::Deserialize;

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the configuration file {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("the configuration file {path} is not valid: {source}")]
    Parse { path: String, source: Box<toml::de::Error> },
    #[error("{name} = {value:?} is not valid: {reason}")]
    Invalid { name: &'static str, value: String, reason: &'static str },
}

/// Every setting, resolved. See `docs/configuration.md`.
#[derive(Debug, Clone)]
pub struct Settings {
    pub bind: String,
    pub data_dir: PathBuf,
    pub database_url: String,
    pub storage_url: String,
    /// How to reach an `s3://` storage URL's service (the `AWS_*` and `GIFSHELF_S3_*` variables).
    pub s3: gifshelf_storage::S3Options,
    pub public_url: Option<String>,
    pub jwt_secret: Option<SecretString>,
    pub google_client_id: Option<String>,
    pub oidc_issuer: String,
    /// Whether a first sign-in through the provider creates an account.
    pub oidc_signup: bool,
    pub max_upload_mb: u64,
    pub web_dir: PathBuf,
    pub bcrypt_cost: u32,
    pub token_ttl_hours: i64,
    pub login_max_failures: u32,
    pub login_lockout_secs: i64,
    pub login_ip_max_failures: u32,
    pub login_ip_window_secs: i64,
    /// Registrations allowed per client address within `register_window_secs`.
    pub register_max_per_address: u32,
    pub register_window_secs: i64,
    /// How often each instance sweeps orphan blobs of interrupted uploads (the first sweep runs at
    /// startup).
    pub sweep_interval_secs: u64,
    /// `GIFSHELF_STATS_REFRESH_SECS` when configured: ignored (the statistics are exact on every
    /// read, there is no snapshot to refresh), read so that existing configurations keep starting
    /// and the start can say so.
    pub stats_refresh_secs: Option<u64>,
    pub trust_proxy: bool,
    /// How many trusted proxies stand in front (see `GIFSHELF_TRUSTED_PROXY_HOPS`).
    pub trusted_proxy_hops: usize,
    /// HTTP worker threads (`GIFSHELF_HTTP_WORKERS`).
    pub http_workers: usize,
    /// Job workers of `serve` (`GIFSHELF_WORKERS`; 0: this instance runs none).
    pub job_workers: usize,
    pub jobs: gifshelf_app::jobs::RunnerSettings,
    /// How long a job waits between looks at an empty queue.
    pub job_poll: std::time::Duration,
    /// `ffmpeg` for video renditions (`GIFSHELF_FFMPEG`; `off` disables videos).
    pub ffmpeg: Option<PathBuf>,
    /// Wall-clock limit of one ffmpeg run.
    pub video_timeout_secs: u64,
    /// Address-space limit of one ffmpeg process, in MiB.
    pub video_memory_mb: u64,
    pub db_max_connections: u32,
    pub media_workers: usize,
    /// Who sends media bytes after the access check (`GIFSHELF_MEDIA_OFFLOAD`).
    pub media_offload: gifshelf_http::MediaOffload,
    /// Address ranges "From a link" may reach despite the rules (`GIFSHELF_URL_FETCH_ALLOW`).
    pub url_fetch_allow: Vec<gifshelf_fetch::Cidr>,
    /// The time limit of connecting to and of each read from a link, in seconds (the whole
    /// fetch may take four times this).
    pub url_fetch_timeout_secs: u64,
    /// Requests per minute each API key (or, anonymously, each address) may make of the chat APIs.
    pub chat_api_rate_limit: u32,
    /// Whether the chat APIs answer without a key (`GIFSHELF_CHAT_API_ANONYMOUS`).
    pub chat_api_anonymous: bool,
    /// The secrets slash commands may prove themselves with, beside those admins add in the app.
    pub chat_commands: ChatCommandSecrets,
}

/// `GIFSHELF_SLACK_SIGNING_SECRET`, `GIFSHELF_MATTERMOST_TOKENS` and `GIFSHELF_ZULIP_TOKENS`
/// (comma-separated), each 8 to 200 characters without spaces.
#[derive(Debug, Clone, Default)]
pub struct ChatCommandSecrets {
    pub slack_signing_secret: Option<SecretString>,
    pub mattermost_tokens: Vec<SecretString>,
    pub zulip_tokens: Vec<SecretString>,
}

/// The TOML file's shape: the same names as the environment variables, lower-case, no prefix.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileSettings {
    bind: Option<String>,
    data_dir: Option<PathBuf>,
    database_url: Option<String>,
    storage_url: Option<String>,
    s3_force_path_style: Option<bool>,
    s3_allow_http: Option<bool>,
    aws_endpoint_url: Option<String>,
    aws_region: Option<String>,
    aws_access_key_id: Option<String>,
    aws_secret_access_key: Option<String>,
    aws_session_token: Option<String>,
    public_url: Option<String>,
    jwt_secret: Option<String>,
    google_client_id: Option<String>,
    oidc_issuer: Option<String>,
    oidc_signup: Option<bool>,
    max_upload_mb: Option<u64>,
    web_dir: Option<PathBuf>,
    bcrypt_cost: Option<u32>,
    token_ttl_hours: Option<i64>,
    login_max_failures: Option<u32>,
    login_lockout_secs: Option<i64>,
    login_ip_max_failures: Option<u32>,
    login_ip_window_secs: Option<i64>,
    register_max_per_address: Option<u32>,
    register_window_secs: Option<i64>,
    sweep_interval_secs: Option<u64>,
    stats_refresh_secs: Option<u64>,
    trust_proxy: Option<bool>,
    trusted_proxy_hops: Option<usize>,
    http_workers: Option<usize>,
    workers: Option<usize>,
    job_lease_secs: Option<u64>,
    job_max_attempts: Option<i32>,
    job_retry_secs: Option<u64>,
    job_poll_ms: Option<u64>,
    ffmpeg: Option<String>,
    video_timeout_secs: Option<u64>,
    video_memory_mb: Option<u64>,
    db_max_connections: Option<u32>,
    media_workers: Option<usize>,
    media_offload: Option<String>,
    media_offload_prefix: Option<String>,
    media_presign_secs: Option<u64>,
    url_fetch_allow: Option<String>,
    url_fetch_timeout_secs: Option<u64>,
    chat_api_rate_limit: Option<u32>,
    chat_api_anonymous: Option<bool>,
    slack_signing_secret: Option<String>,
    mattermost_tokens: Option<String>,
    zulip_tokens: Option<String>,
}

impl Settings {
    /// Reads the file (when given) and the process environment.
    ///
    /// # Errors
    /// When the file cannot be read or parsed, or a value is out of range.
    pub fn load(config_file: Option<&Path>) -> Result<Self, ConfigError> {
        Self::from_sources(config_file, |name| std::env::var(name).ok())
    }

    /// Like `load`, with the environment given as a function (tests).
    ///
    /// # Errors
    /// As `load`.
    pub fn from_sources(config_file: Option<&Path>, env: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let file = match config_file {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|source| ConfigError::Read { path: path.display().to_string(), source })?;
                toml::from_str(&text).map_err(|source| ConfigError::Parse {
                    path: path.display().to_string(),
                    source: Box::new(source),
                })?
            }
            None => FileSettings::default(),
        };
        let env = |name: &str| env(name).filter(|v| !v.trim().is_empty());
        let text = |name: &'static str, from_file: Option<String>| env(name).or(from_file);

        let data_dir = env("GIFSHELF_DATA_DIR").map(PathBuf::from).or(file.data_dir).unwrap_or_else(|| "./data".into());
        let database_url = text("GIFSHELF_DATABASE_URL", file.database_url)
            .unwrap_or_else(|| format!("sqlite://{}", data_dir.join("gifshelf.db").display()));
        let storage_url = text("GIFSHELF_STORAGE_URL", file.storage_url)
            .unwrap_or_else(|| format!("file://{}", data_dir.join("media").display()));

        let s3 = gifshelf_storage::S3Options {
            endpoint: env("AWS_ENDPOINT_URL_S3").or_else(|| text("AWS_ENDPOINT_URL", file.aws_endpoint_url)),
            region: env("AWS_REGION").or_else(|| text("AWS_DEFAULT_REGION", file.aws_region)),
            access_key_id: text("AWS_ACCESS_KEY_ID", file.aws_access_key_id),
            secret_access_key: text("AWS_SECRET_ACCESS_KEY", file.aws_secret_access_key).map(SecretString::from),
            session_token: text("AWS_SESSION_TOKEN", file.aws_session_token).map(SecretString::from),
            force_path_style: number(&env, "GIFSHELF_S3_FORCE_PATH_STYLE", file.s3_force_path_style, false)?,
            allow_http: number(&env, "GIFSHELF_S3_ALLOW_HTTP", file.s3_allow_http, false)?,
            ..gifshelf_storage::S3Options::default()
        };

        let settings = Self {
            bind: text("GIFSHELF_BIND", file.bind).unwrap_or_else(|| "127.0.0.1:8080".into()),
            database_url,
            storage_url,
            s3,
            public_url: text("GIFSHELF_PUBLIC_URL", file.public_url).map(|u| u.trim_end_matches('/').to_owned()),
            jwt_secret: text("GIFSHELF_JWT_SECRET", file.jwt_secret).map(SecretString::from),
            google_client_id: text("GIFSHELF_GOOGLE_CLIENT_ID", file.google_client_id),
            oidc_issuer: text("GIFSHELF_OIDC_ISSUER", file.oidc_issuer)
                .unwrap_or_else(|| "https://accounts.google.com".into()),
            oidc_signup: number(&env, "GIFSHELF_OIDC_SIGNUP", file.oidc_signup, true)?,
            max_upload_mb: number(&env, "GIFSHELF_MAX_UPLOAD_MB", file.max_upload_mb, 10)?,
            web_dir: env("GIFSHELF_WEB_DIR")
                .map(PathBuf::from)
                .or(file.web_dir)
                .unwrap_or_else(|| "frontend/dist".into()),
            bcrypt_cost: number(&env, "GIFSHELF_BCRYPT_COST", file.bcrypt_cost, 12)?,
            token_ttl_hours: number(&env, "GIFSHELF_TOKEN_TTL_HOURS", file.token_ttl_hours, 24)?,
            login_max_failures: number(&env, "GIFSHELF_LOGIN_MAX_FAILURES", file.login_max_failures, 5)?,
            login_lockout_secs: number(&env, "GIFSHELF_LOGIN_LOCKOUT_SECS", file.login_lockout_secs, 30)?,
            login_ip_max_failures: number(&env, "GIFSHELF_LOGIN_IP_MAX_FAILURES", file.login_ip_max_failures, 100)?,
            login_ip_window_secs: number(&env, "GIFSHELF_LOGIN_IP_WINDOW_SECS", file.login_ip_window_secs, 900)?,
            register_max_per_address: number(
                &env,
                "GIFSHELF_REGISTER_MAX_PER_ADDRESS",
                file.register_max_per_address,
                20,
            )?,
            register_window_secs: number(&env, "GIFSHELF_REGISTER_WINDOW_SECS", file.register_window_secs, 600)?,
            sweep_interval_secs: number(&env, "GIFSHELF_SWEEP_INTERVAL_SECS", file.sweep_interval_secs, 3600)?,
            stats_refresh_secs: match env("GIFSHELF_STATS_REFRESH_SECS") {
                Some(_) => Some(number(&env, "GIFSHELF_STATS_REFRESH_SECS", None, 0)?),
                None => file.stats_refresh_secs,
            },
            trust_proxy: number(&env, "GIFSHELF_TRUST_PROXY", file.trust_proxy, false)?,
            trusted_proxy_hops: number(&env, "GIFSHELF_TRUSTED_PROXY_HOPS", file.trusted_proxy_hops, 1)?,
            http_workers: number(&env, "GIFSHELF_HTTP_WORKERS", file.http_workers, default_http_workers())?,
            job_workers: number(&env, "GIFSHELF_WORKERS", file.workers, default_job_workers())?,
            jobs: gifshelf_app::jobs::RunnerSettings {
                lease: std::time::Duration::from_secs(number(
                    &env,
                    "GIFSHELF_JOB_LEASE_SECS",
                    file.job_lease_secs,
                    900,
                )?),
                max_attempts: number(&env, "GIFSHELF_JOB_MAX_ATTEMPTS", file.job_max_attempts, 5)?,
                retry_after: std::time::Duration::from_secs(number(
                    &env,
                    "GIFSHELF_JOB_RETRY_SECS",
                    file.job_retry_secs,
                    30,
                )?),
            },
            job_poll: std::time::Duration::from_millis(number(&env, "GIFSHELF_JOB_POLL_MS", file.job_poll_ms, 1000)?),
            ffmpeg: match text("GIFSHELF_FFMPEG", file.ffmpeg).as_deref().map(str::trim) {
                Some("off" | "none" | "false") => None,
                Some(path) => Some(PathBuf::from(path)),
                None => Some(PathBuf::from("ffmpeg")),
            },
            video_timeout_secs: number(&env, "GIFSHELF_VIDEO_TIMEOUT_SECS", file.video_timeout_secs, 300)?,
            video_memory_mb: number(&env, "GIFSHELF_VIDEO_MEMORY_MB", file.video_memory_mb, 1024)?,
            db_max_connections: number(&env, "GIFSHELF_DB_MAX_CONNECTIONS", file.db_max_connections, 10)?,
            media_workers: number(&env, "GIFSHELF_MEDIA_WORKERS", file.media_workers, default_media_workers())?,
            media_offload: media_offload(
                text("GIFSHELF_MEDIA_OFFLOAD", file.media_offload),
                text("GIFSHELF_MEDIA_OFFLOAD_PREFIX", file.media_offload_prefix),
                number(&env, "GIFSHELF_MEDIA_PRESIGN_SECS", file.media_presign_secs, 300)?,
            )?,
            url_fetch_allow: match text("GIFSHELF_URL_FETCH_ALLOW", file.url_fetch_allow) {
                Some(list) => gifshelf_fetch::parse_list(&list).map_err(|_| ConfigError::Invalid {
                    name: "GIFSHELF_URL_FETCH_ALLOW",
                    value: list.clone(),
                    reason: "it must be comma-separated IP addresses or ranges (10.0.0.0/8, fd00::/8)",
                })?,
                None => Vec::new(),
            },
            url_fetch_timeout_secs: number(&env, "GIFSHELF_URL_FETCH_TIMEOUT_SECS", file.url_fetch_timeout_secs, 10)?,
            chat_api_rate_limit: number(&env, "GIFSHELF_CHAT_API_RATE_LIMIT", file.chat_api_rate_limit, 100)?,
            chat_api_anonymous: number(&env, "GIFSHELF_CHAT_API_ANONYMOUS", file.chat_api_anonymous, false)?,
            chat_commands: ChatCommandSecrets {
                slack_signing_secret: chat_secrets(
                    "GIFSHELF_SLACK_SIGNING_SECRET",
                    text("GIFSHELF_SLACK_SIGNING_SECRET", file.slack_signing_secret),
                    false,
                )?
                .pop(),
                mattermost_tokens: chat_secrets(
                    "GIFSHELF_MATTERMOST_TOKENS",
                    text("GIFSHELF_MATTERMOST_TOKENS", file.mattermost_tokens),
                    true,
                )?,
                zulip_tokens: chat_secrets(
                    "GIFSHELF_ZULIP_TOKENS",
                    text("GIFSHELF_ZULIP_TOKENS", file.zulip_tokens),
                    true,
                )?,
            },
            data_dir,
        };
        settings.check()?;
        Ok(settings)
    }

    fn check(&self) -> Result<(), ConfigError> {
        let invalid = |name, value: String, reason| Err(ConfigError::Invalid { name, value, reason });
        if !(4..=31).contains(&self.bcrypt_cost) {
            return invalid(
                "GIFSHELF_BCRYPT_COST",
                self.bcrypt_cost.to_string(),
                "bcrypt's cost is 4 to 31 (12 is right for production)",
            );
        }
        if self.max_upload_mb == 0 || self.max_upload_mb > 1024 {
            return invalid("GIFSHELF_MAX_UPLOAD_MB", self.max_upload_mb.to_string(), "it must be 1 to 1024");
        }
        if self.token_ttl_hours <= 0 {
            return invalid("GIFSHELF_TOKEN_TTL_HOURS", self.token_ttl_hours.to_string(), "it must be positive");
        }
        if self.http_workers == 0 || self.db_max_connections == 0 || self.media_workers == 0 {
            return invalid(
                "GIFSHELF_HTTP_WORKERS",
                self.http_workers.to_string(),
                "workers and connections must be at least 1",
            );
        }
        if self.jobs.lease.as_secs() < 1 || self.jobs.max_attempts < 1 || self.job_poll.is_zero() {
            return invalid(
                "GIFSHELF_JOB_LEASE_SECS",
                self.jobs.lease.as_secs().to_string(),
                "the job lease, attempts and poll interval must be at least 1",
            );
        }
        if self.video_timeout_secs == 0 || self.video_memory_mb < 64 {
            return invalid(
                "GIFSHELF_VIDEO_TIMEOUT_SECS",
                self.video_timeout_secs.to_string(),
                "the video time limit must be at least 1 second and its memory at least 64 MiB",
            );
        }
        if self.login_max_failures == 0 || self.login_ip_max_failures == 0 {
            return invalid(
                "GIFSHELF_LOGIN_MAX_FAILURES",
                self.login_max_failures.to_string(),
                "limits must be at least 1",
            );
        }
        if self.sweep_interval_secs == 0 {
            return invalid("GIFSHELF_SWEEP_INTERVAL_SECS", "0".into(), "the sweep interval must be at least 1 second");
        }
        if self.register_max_per_address == 0 || self.register_window_secs <= 0 {
            return invalid(
                "GIFSHELF_REGISTER_MAX_PER_ADDRESS",
                self.register_max_per_address.to_string(),
                "the registration limit and its window must be at least 1",
            );
        }
        if matches!(self.media_offload, gifshelf_http::MediaOffload::Presigned { .. })
            && !self.storage_url.starts_with("s3://")
        {
            return invalid(
                "GIFSHELF_MEDIA_OFFLOAD",
                "presigned".into(),
                "presigned redirects need S3 storage (GIFSHELF_STORAGE_URL=s3://…); use x-accel-redirect for a folder",
            );
        }
        if self.chat_api_rate_limit == 0 {
            return invalid(
                "GIFSHELF_CHAT_API_RATE_LIMIT",
                "0".into(),
                "it must be at least 1 request a minute (keys are revoked in Settings, not by a zero rate)",
            );
        }
        if self.url_fetch_timeout_secs == 0 || self.url_fetch_timeout_secs > 300 {
            return invalid(
                "GIFSHELF_URL_FETCH_TIMEOUT_SECS",
                self.url_fetch_timeout_secs.to_string(),
                "it must be 1 to 300",
            );
        }
        Ok(())
    }

    pub fn max_upload_bytes(&self) -> u64 {
        self.max_upload_mb * 1024 * 1024
    }
}

/// `GIFSHELF_MEDIA_OFFLOAD`: `none` (gifshelf streams), `x-accel-redirect` (nginx sends the file
/// from the internal location `GIFSHELF_MEDIA_OFFLOAD_PREFIX`) or `presigned` (a redirect to the
/// object store, valid `GIFSHELF_MEDIA_PRESIGN_SECS`).
fn media_offload(
    mode: Option<String>,
    prefix: Option<String>,
    presign_secs: u64,
) -> Result<gifshelf_http::MediaOffload, ConfigError> {
    let invalid = |name, value: String, reason| Err(ConfigError::Invalid { name, value, reason });
    match mode.as_deref().map(str::trim).unwrap_or("none") {
        "none" | "stream" => Ok(gifshelf_http::MediaOffload::Stream),
        "x-accel-redirect" => {
            let prefix = prefix.unwrap_or_else(|| "/_gifshelf_media/".into());
            let valid = prefix.starts_with('/')
                && prefix.ends_with('/')
                && prefix.bytes().all(|b| b.is_ascii_alphanumeric() || b"/_-.".contains(&b));
            if !valid {
                return invalid(
                    "GIFSHELF_MEDIA_OFFLOAD_PREFIX",
                    prefix,
                    "an internal location of the proxy: starts and ends with '/', letters, digits, '_', '-', '.'",
                );
            }
            Ok(gifshelf_http::MediaOffload::XAccelRedirect { prefix })
        }
        "presigned" => {
            if !(1..=604_800).contains(&presign_secs) {
                return invalid(
                    "GIFSHELF_MEDIA_PRESIGN_SECS",
                    presign_secs.to_string(),
                    "1 second to 7 days (S3's longest)",
                );
            }
            Ok(gifshelf_http::MediaOffload::Presigned { expires: std::time::Duration::from_secs(presign_secs) })
        }
        other => invalid("GIFSHELF_MEDIA_OFFLOAD", other.to_owned(), "none, x-accel-redirect or presigned"),
    }
}

/// Image jobs at once: one per core, at most four (each may hold a large canvas in memory).
/// One secret, or a comma-separated list of them, each checked as the admins' are. A refusal
/// names the variable, never the value.
fn chat_secrets(name: &'static str, raw: Option<String>, list: bool) -> Result<Vec<SecretString>, ConfigError> {
    let Some(raw) = raw else { return Ok(Vec::new()) };
    let parts: Vec<&str> =
        if list { raw.split(',').map(str::trim).filter(|p| !p.is_empty()).collect() } else { vec![raw.trim()] };
    parts
        .into_iter()
        .map(|part| {
            gifshelf_domain::integration::IntegrationSecret::parse(part)
                .map(|secret| SecretString::from(secret.expose().to_owned()))
                .map_err(|_| ConfigError::Invalid {
                    name,
                    value: "(not shown)".into(),
                    reason: "each secret or token must be 8 to 200 characters without spaces",
                })
        })
        .collect()
}

fn default_media_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().clamp(1, 4))
}

fn default_http_workers() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 16))
}

/// Half the cores make renditions (at least one): transcoding never takes every core from the
/// web server.
fn default_job_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
}

fn number<T: std::str::FromStr>(
    env: &impl Fn(&str) -> Option<String>,
    name: &'static str,
    from_file: Option<T>,
    default: T,
) -> Result<T, ConfigError> {
    match env(name) {
        Some(value) => {
            value.trim().parse().map_err(|_| ConfigError::Invalid { name, value, reason: "not a valid value" })
        }
        None => Ok(from_file.unwrap_or(default)),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn with(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = vars.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        move |name| map.get(name).cloned()
    }

    #[test]
    fn embedded_defaults() {
        let s = Settings::from_sources(None, with(&[])).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.bind, "127.0.0.1:8080");
        assert_eq!(s.database_url, "sqlite://./data/gifshelf.db");
        assert_eq!(s.storage_url, "file://./data/media");
        assert_eq!(s.max_upload_bytes(), 10 * 1024 * 1024);
        assert_eq!(s.web_dir, PathBuf::from("frontend/dist"));
        assert!(s.jwt_secret.is_none() && s.google_client_id.is_none());
    }

    #[test]
    fn env_wins_over_file_and_paths_follow_the_data_dir() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("gifshelf.toml");
        std::fs::write(&file, "bind = \"0.0.0.0:9000\"\nmax_upload_mb = 20\ndata_dir = \"/srv/gif\"\n")
            .unwrap_or_else(|e| panic!("{e}"));
        let s = Settings::from_sources(Some(&file), with(&[("GIFSHELF_MAX_UPLOAD_MB", "5")]))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.bind.as_str(), s.max_upload_mb), ("0.0.0.0:9000", 5));
        assert_eq!(s.database_url, "sqlite:///srv/gif/gifshelf.db");
    }

    #[test]
    fn s3_settings_come_from_the_aws_variables() {
        use secrecy::ExposeSecret;

        let s = Settings::from_sources(None, with(&[])).unwrap_or_else(|e| panic!("{e}"));
        assert!(s.s3.endpoint.is_none() && s.s3.access_key_id.is_none() && !s.s3.force_path_style && !s.s3.allow_http);
        let s = Settings::from_sources(
            None,
            with(&[
                ("GIFSHELF_STORAGE_URL", "s3://gifs/media"),
                ("AWS_ENDPOINT_URL", "http://minio:9000"),
                ("AWS_DEFAULT_REGION", "eu-west-1"),
                ("AWS_ACCESS_KEY_ID", "id"),
                ("AWS_SECRET_ACCESS_KEY", "secret"),
                ("GIFSHELF_S3_FORCE_PATH_STYLE", "true"),
                ("GIFSHELF_S3_ALLOW_HTTP", "true"),
            ]),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.storage_url, "s3://gifs/media");
        assert_eq!((s.s3.endpoint.as_deref(), s.s3.region.as_deref()), (Some("http://minio:9000"), Some("eu-west-1")));
        assert_eq!(s.s3.secret_access_key.as_ref().map(|k| k.expose_secret().to_owned()), Some("secret".into()));
        assert!(s.s3.force_path_style && s.s3.allow_http && s.s3.session_token.is_none());
        assert!(!format!("{s:?}").contains("secret\""), "the secret stays out of debug output");
        let s = Settings::from_sources(None, with(&[("AWS_REGION", "us-west-2"), ("AWS_DEFAULT_REGION", "eu-west-1")]))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.s3.region.as_deref(), Some("us-west-2"));
        let err = Settings::from_sources(None, with(&[("GIFSHELF_S3_ALLOW_HTTP", "yes please")])).err();
        assert!(matches!(err, Some(ConfigError::Invalid { name: "GIFSHELF_S3_ALLOW_HTTP", .. })));
    }

    #[test]
    fn bad_values_name_the_setting() {
        let err = Settings::from_sources(None, with(&[("GIFSHELF_MAX_UPLOAD_MB", "lots")])).err();
        assert!(matches!(err, Some(ConfigError::Invalid { name: "GIFSHELF_MAX_UPLOAD_MB", .. })));
        let err = Settings::from_sources(None, with(&[("GIFSHELF_BCRYPT_COST", "2")])).err();
        assert!(matches!(err, Some(ConfigError::Invalid { name: "GIFSHELF_BCRYPT_COST", .. })));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let file = dir.path().join("bad.toml");
        std::fs::write(&file, "bindd = 1").unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(Settings::from_sources(Some(&file), with(&[])), Err(ConfigError::Parse { .. })));
    }

    #[test]
    fn media_offload_modes_and_their_refusals() {
        let offload = |vars: &[(&str, &str)]| Settings::from_sources(None, with(vars)).map(|s| s.media_offload);
        assert_eq!(offload(&[]).ok(), Some(gifshelf_http::MediaOffload::Stream));
        assert_eq!(
            offload(&[("GIFSHELF_MEDIA_OFFLOAD", "x-accel-redirect")]).ok(),
            Some(gifshelf_http::MediaOffload::XAccelRedirect { prefix: "/_gifshelf_media/".into() })
        );
        assert_eq!(
            offload(&[("GIFSHELF_MEDIA_OFFLOAD", "presigned"), ("GIFSHELF_STORAGE_URL", "s3://bucket/gifs")]).ok(),
            Some(gifshelf_http::MediaOffload::Presigned { expires: std::time::Duration::from_secs(300) })
        );
        let refused = |vars: &[(&str, &str)]| match offload(vars) {
            Err(ConfigError::Invalid { name, .. }) => name,
            other => panic!("{other:?}"),
        };
        // Presigned URLs need an object store; a folder has nothing to sign.
        assert_eq!(refused(&[("GIFSHELF_MEDIA_OFFLOAD", "presigned")]), "GIFSHELF_MEDIA_OFFLOAD");
        assert_eq!(refused(&[("GIFSHELF_MEDIA_OFFLOAD", "sendfile")]), "GIFSHELF_MEDIA_OFFLOAD");
        let bad_prefix = [("GIFSHELF_MEDIA_OFFLOAD", "x-accel-redirect"), ("GIFSHELF_MEDIA_OFFLOAD_PREFIX", "media")];
        assert_eq!(refused(&bad_prefix), "GIFSHELF_MEDIA_OFFLOAD_PREFIX");
        let too_long = [
            ("GIFSHELF_MEDIA_OFFLOAD", "presigned"),
            ("GIFSHELF_STORAGE_URL", "s3://bucket"),
            ("GIFSHELF_MEDIA_PRESIGN_SECS", "9999999"),
        ];
        assert_eq!(refused(&too_long), "GIFSHELF_MEDIA_PRESIGN_SECS");
    }

    #[test]
    fn chat_command_secrets_are_read_checked_and_never_shown() {
        use secrecy::ExposeSecret;

        let s = Settings::from_sources(None, with(&[])).unwrap_or_else(|e| panic!("{e}"));
        assert!(s.chat_commands.slack_signing_secret.is_none());
        assert!(s.chat_commands.mattermost_tokens.is_empty() && s.chat_commands.zulip_tokens.is_empty());
        let s = Settings::from_sources(
            None,
            with(&[
                ("GIFSHELF_SLACK_SIGNING_SECRET", " 8f742231b10e8888abcd99yyyzzz85a5 "),
                ("GIFSHELF_MATTERMOST_TOKENS", "pbte7m9wbbfbmjk1f4mhsibbzc, qtuf8n0xccgcnkl2g5nitjccad,"),
                ("GIFSHELF_ZULIP_TOKENS", "xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0"),
            ]),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let exposed =
            |secrets: &[SecretString]| secrets.iter().map(|t| t.expose_secret().to_owned()).collect::<Vec<_>>();
        assert_eq!(
            s.chat_commands.slack_signing_secret.as_ref().map(|k| k.expose_secret().to_owned()),
            Some("8f742231b10e8888abcd99yyyzzz85a5".into())
        );
        assert_eq!(
            exposed(&s.chat_commands.mattermost_tokens),
            ["pbte7m9wbbfbmjk1f4mhsibbzc", "qtuf8n0xccgcnkl2g5nitjccad"]
        );
        assert_eq!(exposed(&s.chat_commands.zulip_tokens), ["xvOzfurIutdRRVLzpXrIIHXJvNfaJLJ0"]);
        let debug = format!("{s:?}");
        assert!(!debug.contains("8f742231") && !debug.contains("pbte7m9w") && !debug.contains("xvOzfur"), "{debug}");

        for (name, value) in [
            ("GIFSHELF_SLACK_SIGNING_SECRET", "short"),
            ("GIFSHELF_SLACK_SIGNING_SECRET", "two secrets-with-a-space"),
            ("GIFSHELF_MATTERMOST_TOKENS", "pbte7m9wbbfbmjk1f4mhsibbzc,tiny"),
            ("GIFSHELF_ZULIP_TOKENS", &"z".repeat(201)),
        ] {
            match Settings::from_sources(None, with(&[(name, value)])) {
                Err(err @ ConfigError::Invalid { name: named, .. }) => {
                    assert_eq!(named, name);
                    assert!(!err.to_string().contains(value), "{err}");
                }
                other => panic!("{name}={value}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_link_fetch_allow_list_is_parsed_or_named() {
        let s = Settings::from_sources(None, with(&[])).unwrap_or_else(|e| panic!("{e}"));
        assert!(s.url_fetch_allow.is_empty());
        assert_eq!(s.url_fetch_timeout_secs, 10);
        let s = Settings::from_sources(None, with(&[("GIFSHELF_URL_FETCH_ALLOW", "127.0.0.0/8, ::1")]))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.url_fetch_allow.len(), 2);
        let err = Settings::from_sources(None, with(&[("GIFSHELF_URL_FETCH_ALLOW", "intranet")])).err();
        assert!(matches!(err, Some(ConfigError::Invalid { name: "GIFSHELF_URL_FETCH_ALLOW", .. })));
    }
}
