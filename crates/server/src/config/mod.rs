//! Configuration: defaults, then a TOML file (`--config`), then `GIFSHELF_*` environment variables.
//! Loaded once in `main` and passed down; no global statics.

use std::path::{Path, PathBuf};

use secrecy::SecretString;

mod check;
mod sources;

use sources::Sources;

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
    /// Hosts a request may name for the links built from it (`GIFSHELF_ALLOWED_HOSTS`).
    pub allowed_hosts: Vec<String>,
    pub jwt_secret: Option<SecretString>,
    /// The key that seals stored integration secrets (`GIFSHELF_SECRETS_KEY`, checked at load).
    pub secrets_key: Option<SecretString>,
    pub google_client_id: Option<String>,
    pub oidc_issuer: String,
    /// Whether a first sign-in through the provider creates an account.
    pub oidc_signup: bool,
    /// Who may join as configured; seeds the stored policy while none is stored.
    pub registration: Option<gifshelf_domain::join::RegistrationPolicy>,
    /// The quota for everyone as configured; an administrator's stored one wins.
    pub quota: gifshelf_domain::account::Quota,
    pub max_upload_mb: u64,
    /// A folder holding the built web app, for development; `None` serves the one built into the
    /// binary.
    pub web_dir: Option<PathBuf>,
    pub bcrypt_cost: u32,
    pub token_ttl_hours: i64,
    pub login_max_failures: u32,
    pub login_lockout_secs: i64,
    pub login_ip_max_failures: u32,
    pub login_ip_window_secs: i64,
    /// Registrations allowed per client address within `register_window_secs`.
    pub register_max_per_address: u32,
    pub register_window_secs: i64,
    /// The most queued jobs before `/api/health/ready` says the instance is not ready.
    pub ready_max_backlog: i64,
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
    /// `tesseract` for reading the text in GIFs (`GIFSHELF_TESSERACT`; `off` reads none).
    pub tesseract: Option<PathBuf>,
    pub db_max_connections: u32,
    pub media_workers: usize,
    /// Media jobs at once of the background runner (video renditions), apart from uploads' slots
    /// (`GIFSHELF_JOB_MEDIA_WORKERS`).
    pub job_media_workers: usize,
    /// Who sends media bytes after the access check (`GIFSHELF_MEDIA_OFFLOAD`).
    pub media_offload: gifshelf_http::MediaOffload,
    /// The rating of an upload that names none (`GIFSHELF_DEFAULT_RATING`, `g`).
    pub default_rating: gifshelf_domain::gif::Rating,
    /// Address ranges "From a link" may reach despite the rules (`GIFSHELF_URL_FETCH_ALLOW`).
    pub url_fetch_allow: Vec<gifshelf_fetch::Cidr>,
    /// Who may read `/metrics` by their connection's address; `None`: loopback only.
    pub metrics_allow: Option<Vec<gifshelf_fetch::Cidr>>,
    /// A bearer token that may read `/metrics` from any address.
    pub metrics_token: Option<SecretString>,
    /// The time limit of connecting to and of each read from a link, in seconds (the whole
    /// fetch may take four times this).
    pub url_fetch_timeout_secs: u64,
    /// Links fetched at once over everyone (`GIFSHELF_URL_FETCH_CONCURRENCY`), per person
    /// (`GIFSHELF_URL_FETCH_PER_USER`) and started per person an hour (`GIFSHELF_URL_FETCH_PER_HOUR`).
    pub url_fetch_limits: gifshelf_app::gifs::FetchLimits,
    /// Requests per minute each API key (or, anonymously, each address) may make of the chat APIs.
    pub chat_api_rate_limit: u32,
    /// Whether the chat APIs answer without a key (`GIFSHELF_CHAT_API_ANONYMOUS`).
    pub chat_api_anonymous: bool,
    /// Origins whose pages may read the chat APIs when they answer anonymously
    /// (`GIFSHELF_CHAT_API_CORS_ORIGINS`); with keys, any page may.
    pub chat_api_cors_origins: Vec<String>,
    /// The secrets slash commands may prove themselves with, beside those admins add in the app.
    pub chat_commands: ChatCommandSecrets,
    /// The GIF maker's limits on its sources: `GIFSHELF_MAX_VIDEO_MB` (200) and
    /// `GIFSHELF_MAX_VIDEO_SECS` (600).
    pub maker: gifshelf_app::make::MakerLimits,
}

/// `GIFSHELF_SLACK_SIGNING_SECRET`, `GIFSHELF_MATTERMOST_TOKENS` and `GIFSHELF_ZULIP_TOKENS`
/// (comma-separated), `GIFSHELF_DISCORD_PUBLIC_KEY`, `GIFSHELF_TELEGRAM_WEBHOOK_SECRET`,
/// `GIFSHELF_TEAMS_TOKENS` and `GIFSHELF_ROCKETCHAT_TOKENS` (comma-separated), each 8 to 200
/// characters without spaces.
#[derive(Debug, Clone, Default)]
pub struct ChatCommandSecrets {
    pub slack_signing_secret: Option<SecretString>,
    pub mattermost_tokens: Vec<SecretString>,
    pub zulip_tokens: Vec<SecretString>,
    pub discord_public_key: Option<SecretString>,
    pub telegram_webhook_secret: Option<SecretString>,
    pub teams_tokens: Vec<SecretString>,
    pub rocketchat_tokens: Vec<SecretString>,
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
        let src = Sources::read(config_file, env)?;
        let f = &src.file;
        let data_dir = src.data_dir();
        let bind = src.text("GIFSHELF_BIND", &f.bind).unwrap_or_else(|| "127.0.0.1:8080".into());
        let settings = Self {
            allowed_hosts: src.allowed_hosts(&bind)?,
            bind,
            database_url: src
                .text("GIFSHELF_DATABASE_URL", &f.database_url)
                .unwrap_or_else(|| format!("sqlite://{}", data_dir.join("gifshelf.db").display())),
            storage_url: src
                .text("GIFSHELF_STORAGE_URL", &f.storage_url)
                .unwrap_or_else(|| format!("file://{}", data_dir.join("media").display())),
            s3: src.s3()?,
            public_url: src.text("GIFSHELF_PUBLIC_URL", &f.public_url).map(|u| u.trim_end_matches('/').to_owned()),
            jwt_secret: src.text("GIFSHELF_JWT_SECRET", &f.jwt_secret).map(SecretString::from),
            secrets_key: src.secrets_key(&f.secrets_key)?,
            google_client_id: src.text("GIFSHELF_GOOGLE_CLIENT_ID", &f.google_client_id),
            oidc_issuer: src
                .text("GIFSHELF_OIDC_ISSUER", &f.oidc_issuer)
                .unwrap_or_else(|| "https://accounts.google.com".into()),
            oidc_signup: src.number("GIFSHELF_OIDC_SIGNUP", f.oidc_signup, true)?,
            registration: src.registration()?,
            quota: src.quota()?,
            max_upload_mb: src.number("GIFSHELF_MAX_UPLOAD_MB", f.max_upload_mb, 10)?,
            web_dir: src
                .env("GIFSHELF_WEB_DIR")
                .filter(|dir| !dir.is_empty())
                .map(PathBuf::from)
                .or_else(|| f.web_dir.clone()),
            bcrypt_cost: src.number("GIFSHELF_BCRYPT_COST", f.bcrypt_cost, 12)?,
            token_ttl_hours: src.number("GIFSHELF_TOKEN_TTL_HOURS", f.token_ttl_hours, 24)?,
            login_max_failures: src.number("GIFSHELF_LOGIN_MAX_FAILURES", f.login_max_failures, 5)?,
            login_lockout_secs: src.number("GIFSHELF_LOGIN_LOCKOUT_SECS", f.login_lockout_secs, 30)?,
            login_ip_max_failures: src.number("GIFSHELF_LOGIN_IP_MAX_FAILURES", f.login_ip_max_failures, 100)?,
            login_ip_window_secs: src.number("GIFSHELF_LOGIN_IP_WINDOW_SECS", f.login_ip_window_secs, 900)?,
            register_max_per_address: src.number(
                "GIFSHELF_REGISTER_MAX_PER_ADDRESS",
                f.register_max_per_address,
                20,
            )?,
            register_window_secs: src.number("GIFSHELF_REGISTER_WINDOW_SECS", f.register_window_secs, 600)?,
            ready_max_backlog: src.number("GIFSHELF_READY_MAX_BACKLOG", f.ready_max_backlog, 1000)?,
            sweep_interval_secs: src.number("GIFSHELF_SWEEP_INTERVAL_SECS", f.sweep_interval_secs, 3600)?,
            stats_refresh_secs: match src.env("GIFSHELF_STATS_REFRESH_SECS") {
                Some(_) => Some(src.number("GIFSHELF_STATS_REFRESH_SECS", None, 0)?),
                None => f.stats_refresh_secs,
            },
            trust_proxy: src.number("GIFSHELF_TRUST_PROXY", f.trust_proxy, false)?,
            trusted_proxy_hops: src.number("GIFSHELF_TRUSTED_PROXY_HOPS", f.trusted_proxy_hops, 1)?,
            http_workers: src.number("GIFSHELF_HTTP_WORKERS", f.http_workers, sources::default_http_workers())?,
            job_workers: src.number("GIFSHELF_WORKERS", f.workers, sources::default_job_workers())?,
            jobs: src.jobs()?,
            job_poll: std::time::Duration::from_millis(src.number("GIFSHELF_JOB_POLL_MS", f.job_poll_ms, 1000)?),
            ffmpeg: src.ffmpeg(),
            tesseract: src.tesseract(),
            video_timeout_secs: src.number("GIFSHELF_VIDEO_TIMEOUT_SECS", f.video_timeout_secs, 60)?,
            video_memory_mb: src.number("GIFSHELF_VIDEO_MEMORY_MB", f.video_memory_mb, 2048)?,
            db_max_connections: src.number("GIFSHELF_DB_MAX_CONNECTIONS", f.db_max_connections, 10)?,
            media_workers: src.number("GIFSHELF_MEDIA_WORKERS", f.media_workers, sources::default_media_workers())?,
            job_media_workers: src.number("GIFSHELF_JOB_MEDIA_WORKERS", f.job_media_workers, 1)?,
            media_offload: src.media_offload()?,
            default_rating: src.default_rating()?,
            url_fetch_allow: src.url_fetch_allow()?,
            metrics_allow: src.metrics_allow()?,
            metrics_token: src.text("GIFSHELF_METRICS_TOKEN", &f.metrics_token).map(SecretString::from),
            url_fetch_timeout_secs: src.number("GIFSHELF_URL_FETCH_TIMEOUT_SECS", f.url_fetch_timeout_secs, 10)?,
            url_fetch_limits: src.url_fetch_limits()?,
            chat_api_rate_limit: src.number("GIFSHELF_CHAT_API_RATE_LIMIT", f.chat_api_rate_limit, 100)?,
            chat_api_anonymous: src.number("GIFSHELF_CHAT_API_ANONYMOUS", f.chat_api_anonymous, false)?,
            chat_api_cors_origins: src.chat_api_cors_origins()?,
            chat_commands: src.chat_commands()?,
            maker: src.maker()?,
            data_dir,
        };
        settings.check()?;
        Ok(settings)
    }

    pub fn max_upload_bytes(&self) -> u64 {
        self.max_upload_mb * 1024 * 1024
    }
}

#[cfg(test)]
mod tests;
