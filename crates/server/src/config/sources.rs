//! Where settings come from: the TOML file's shape, the environment (which wins) and the defaults.

use std::path::{Path, PathBuf};

use secrecy::SecretString;
use serde::Deserialize;

use super::{ChatCommandSecrets, ConfigError};

/// The TOML file's shape: the same names as the environment variables, lower-case, no prefix.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileSettings {
    pub(super) bind: Option<String>,
    pub(super) data_dir: Option<PathBuf>,
    pub(super) database_url: Option<String>,
    pub(super) storage_url: Option<String>,
    pub(super) s3_force_path_style: Option<bool>,
    pub(super) s3_allow_http: Option<bool>,
    pub(super) aws_endpoint_url: Option<String>,
    pub(super) aws_region: Option<String>,
    pub(super) aws_access_key_id: Option<String>,
    pub(super) aws_secret_access_key: Option<String>,
    pub(super) aws_session_token: Option<String>,
    pub(super) public_url: Option<String>,
    pub(super) jwt_secret: Option<String>,
    pub(super) secrets_key: Option<String>,
    pub(super) google_client_id: Option<String>,
    pub(super) oidc_issuer: Option<String>,
    pub(super) oidc_signup: Option<bool>,
    pub(super) max_upload_mb: Option<u64>,
    pub(super) web_dir: Option<PathBuf>,
    pub(super) bcrypt_cost: Option<u32>,
    pub(super) token_ttl_hours: Option<i64>,
    pub(super) login_max_failures: Option<u32>,
    pub(super) login_lockout_secs: Option<i64>,
    pub(super) login_ip_max_failures: Option<u32>,
    pub(super) login_ip_window_secs: Option<i64>,
    pub(super) register_max_per_address: Option<u32>,
    pub(super) register_window_secs: Option<i64>,
    pub(super) ready_max_backlog: Option<i64>,
    pub(super) sweep_interval_secs: Option<u64>,
    pub(super) stats_refresh_secs: Option<u64>,
    pub(super) trust_proxy: Option<bool>,
    pub(super) trusted_proxy_hops: Option<usize>,
    pub(super) http_workers: Option<usize>,
    pub(super) workers: Option<usize>,
    pub(super) job_lease_secs: Option<u64>,
    pub(super) job_max_attempts: Option<i32>,
    pub(super) job_retry_secs: Option<u64>,
    pub(super) job_poll_ms: Option<u64>,
    pub(super) ffmpeg: Option<String>,
    pub(super) tesseract: Option<String>,
    pub(super) video_timeout_secs: Option<u64>,
    pub(super) video_memory_mb: Option<u64>,
    pub(super) db_max_connections: Option<u32>,
    pub(super) media_workers: Option<usize>,
    pub(super) job_media_workers: Option<usize>,
    pub(super) media_offload: Option<String>,
    pub(super) default_rating: Option<String>,
    pub(super) media_offload_prefix: Option<String>,
    pub(super) media_presign_secs: Option<u64>,
    pub(super) url_fetch_allow: Option<String>,
    pub(super) metrics_allow: Option<String>,
    pub(super) metrics_token: Option<String>,
    pub(super) url_fetch_timeout_secs: Option<u64>,
    pub(super) url_fetch_concurrency: Option<usize>,
    pub(super) url_fetch_per_user: Option<usize>,
    pub(super) url_fetch_per_hour: Option<u32>,
    pub(super) chat_api_rate_limit: Option<u32>,
    pub(super) chat_api_anonymous: Option<bool>,
    pub(super) chat_api_cors_origins: Option<String>,
    pub(super) allowed_hosts: Option<String>,
    pub(super) slack_signing_secret: Option<String>,
    pub(super) mattermost_tokens: Option<String>,
    pub(super) zulip_tokens: Option<String>,
    pub(super) discord_public_key: Option<String>,
    pub(super) telegram_webhook_secret: Option<String>,
    pub(super) teams_tokens: Option<String>,
    pub(super) rocketchat_tokens: Option<String>,
    pub(super) registration: Option<String>,
    pub(super) allowed_email_domains: Option<String>,
    pub(super) max_video_mb: Option<u64>,
    pub(super) max_video_secs: Option<u32>,
    pub(super) quota_storage_mb: Option<i64>,
    pub(super) quota_uploads_per_day: Option<i64>,
}

/// The file's settings and the environment, read the same way for every setting.
pub(super) struct Sources<E> {
    pub(super) file: FileSettings,
    env: E,
}

impl<E: Fn(&str) -> Option<String>> Sources<E> {
    /// Reads and parses the file when given (no file: every file setting is unset).
    pub(super) fn read(config_file: Option<&Path>, env: E) -> Result<Self, ConfigError> {
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
        Ok(Self { file, env })
    }

    /// A variable of the environment; a blank one counts as unset.
    pub(super) fn env(&self, name: &str) -> Option<String> {
        (self.env)(name).filter(|v| !v.trim().is_empty())
    }

    /// `GIFSHELF_DATA_DIR`, else the file's, else `./data`.
    pub(super) fn data_dir(&self) -> std::path::PathBuf {
        self.env("GIFSHELF_DATA_DIR")
            .map(std::path::PathBuf::from)
            .or_else(|| self.file.data_dir.clone())
            .unwrap_or_else(|| "./data".into())
    }

    /// The variable, else the file's value.
    pub(super) fn text(&self, name: &'static str, from_file: &Option<String>) -> Option<String> {
        self.env(name).or_else(|| from_file.clone())
    }

    /// The variable parsed, else the file's value, else the default.
    pub(super) fn number<T: std::str::FromStr>(
        &self,
        name: &'static str,
        from_file: Option<T>,
        default: T,
    ) -> Result<T, ConfigError> {
        match self.env(name) {
            Some(value) => {
                value.trim().parse().map_err(|_| ConfigError::Invalid { name, value, reason: "not a valid value" })
            }
            None => Ok(from_file.unwrap_or(default)),
        }
    }

    /// `GIFSHELF_SECRETS_KEY`: 32 bytes in base64, refused at load otherwise (never echoed).
    pub(super) fn secrets_key(&self, from_file: &Option<String>) -> Result<Option<secrecy::SecretString>, ConfigError> {
        let Some(value) = self.text("GIFSHELF_SECRETS_KEY", from_file) else { return Ok(None) };
        if gifshelf_auth::SecretsKey::parse(&value).is_err() {
            return Err(ConfigError::Invalid {
                name: "GIFSHELF_SECRETS_KEY",
                value: "(not shown)".into(),
                reason: "must be 32 random bytes in base64 (`openssl rand -base64 32`)",
            });
        }
        Ok(Some(secrecy::SecretString::from(value)))
    }

    pub(super) fn s3(&self) -> Result<gifshelf_storage::S3Options, ConfigError> {
        let f = &self.file;
        Ok(gifshelf_storage::S3Options {
            endpoint: self.env("AWS_ENDPOINT_URL_S3").or_else(|| self.text("AWS_ENDPOINT_URL", &f.aws_endpoint_url)),
            region: self.env("AWS_REGION").or_else(|| self.text("AWS_DEFAULT_REGION", &f.aws_region)),
            access_key_id: self.text("AWS_ACCESS_KEY_ID", &f.aws_access_key_id),
            secret_access_key: self.text("AWS_SECRET_ACCESS_KEY", &f.aws_secret_access_key).map(SecretString::from),
            session_token: self.text("AWS_SESSION_TOKEN", &f.aws_session_token).map(SecretString::from),
            force_path_style: self.number("GIFSHELF_S3_FORCE_PATH_STYLE", f.s3_force_path_style, false)?,
            allow_http: self.number("GIFSHELF_S3_ALLOW_HTTP", f.s3_allow_http, false)?,
            ..gifshelf_storage::S3Options::default()
        })
    }

    /// Who may join as configured (`GIFSHELF_REGISTRATION`, `GIFSHELF_ALLOWED_EMAIL_DOMAINS`):
    /// `None` when neither is set. It seeds the stored policy only while none is stored.
    pub(super) fn registration(&self) -> Result<Option<gifshelf_domain::join::RegistrationPolicy>, ConfigError> {
        use gifshelf_domain::join::{RegistrationMode, RegistrationPolicy};
        let f = &self.file;
        let mode = self.text("GIFSHELF_REGISTRATION", &f.registration);
        let domains = self.text("GIFSHELF_ALLOWED_EMAIL_DOMAINS", &f.allowed_email_domains);
        if mode.is_none() && domains.is_none() {
            return Ok(None);
        }
        let mode = match &mode {
            Some(raw) => RegistrationMode::parse(raw).map_err(|_| ConfigError::Invalid {
                name: "GIFSHELF_REGISTRATION",
                value: raw.clone(),
                reason: "must be open, invite or closed",
            })?,
            None => RegistrationMode::Open,
        };
        let raw = domains.unwrap_or_default();
        let list: Vec<&str> = raw.split(',').collect();
        RegistrationPolicy::new(mode, &list, false).map(Some).map_err(|_| ConfigError::Invalid {
            name: "GIFSHELF_ALLOWED_EMAIL_DOMAINS",
            value: raw.clone(),
            reason: "must be a comma list of at most 50 domain names",
        })
    }

    /// The quota for everyone as configured (`GIFSHELF_QUOTA_STORAGE_MB`,
    /// `GIFSHELF_QUOTA_UPLOADS_PER_DAY`; unset: unlimited), until an administrator sets one.
    pub(super) fn quota(&self) -> Result<gifshelf_domain::account::Quota, ConfigError> {
        let f = &self.file;
        let limit = |name: &'static str, from_file: Option<i64>| -> Result<Option<i64>, ConfigError> {
            let value = match self.env(name) {
                Some(raw) => Some(raw.trim().parse::<i64>().map_err(|_| ConfigError::Invalid {
                    name,
                    value: raw.clone(),
                    reason: "must be a whole number of at least 0",
                })?),
                None => from_file,
            };
            match value {
                Some(n) if n < 0 => Err(ConfigError::Invalid {
                    name,
                    value: n.to_string(),
                    reason: "must be a whole number of at least 0",
                }),
                other => Ok(other),
            }
        };
        let storage = limit("GIFSHELF_QUOTA_STORAGE_MB", f.quota_storage_mb)?.map(|mb| mb.saturating_mul(1024 * 1024));
        let uploads = limit("GIFSHELF_QUOTA_UPLOADS_PER_DAY", f.quota_uploads_per_day)?;
        Ok(gifshelf_domain::account::Quota { storage_bytes: storage, uploads_per_day: uploads })
    }

    pub(super) fn jobs(&self) -> Result<gifshelf_app::jobs::RunnerSettings, ConfigError> {
        let f = &self.file;
        Ok(gifshelf_app::jobs::RunnerSettings {
            lease: std::time::Duration::from_secs(self.number("GIFSHELF_JOB_LEASE_SECS", f.job_lease_secs, 900)?),
            max_attempts: self.number("GIFSHELF_JOB_MAX_ATTEMPTS", f.job_max_attempts, 5)?,
            retry_after: std::time::Duration::from_secs(self.number(
                "GIFSHELF_JOB_RETRY_SECS",
                f.job_retry_secs,
                30,
            )?),
        })
    }

    /// `GIFSHELF_MAX_VIDEO_MB` (1 to 4096, 200 by default) and `GIFSHELF_MAX_VIDEO_SECS` (at least 1,
    /// 600 by default): the GIF maker's sources.
    pub(super) fn maker(&self) -> Result<gifshelf_app::make::MakerLimits, ConfigError> {
        let f = &self.file;
        let mb: u64 = self.number("GIFSHELF_MAX_VIDEO_MB", f.max_video_mb, 200)?;
        if mb == 0 || mb > 4096 {
            return Err(ConfigError::Invalid {
                name: "GIFSHELF_MAX_VIDEO_MB",
                value: mb.to_string(),
                reason: "it must be 1 to 4096",
            });
        }
        let secs: u32 = self.number("GIFSHELF_MAX_VIDEO_SECS", f.max_video_secs, 600)?;
        if secs == 0 {
            return Err(ConfigError::Invalid {
                name: "GIFSHELF_MAX_VIDEO_SECS",
                value: "0".into(),
                reason: "it must be at least 1",
            });
        }
        Ok(gifshelf_app::make::MakerLimits { max_source_bytes: mb * 1024 * 1024, max_source_secs: secs })
    }

    pub(super) fn ffmpeg(&self) -> Option<PathBuf> {
        match self.text("GIFSHELF_FFMPEG", &self.file.ffmpeg).as_deref().map(str::trim) {
            Some("off" | "none" | "false") => None,
            Some(path) => Some(PathBuf::from(path)),
            None => Some(PathBuf::from("ffmpeg")),
        }
    }

    pub(super) fn tesseract(&self) -> Option<PathBuf> {
        match self.text("GIFSHELF_TESSERACT", &self.file.tesseract).as_deref().map(str::trim) {
            Some("off" | "none" | "false") => None,
            Some(path) => Some(PathBuf::from(path)),
            None => Some(PathBuf::from("tesseract")),
        }
    }

    /// `GIFSHELF_DEFAULT_RATING`: `g` (the default), `pg`, `pg-13` or `r`.
    pub(super) fn default_rating(&self) -> Result<gifshelf_domain::gif::Rating, ConfigError> {
        let name = "GIFSHELF_DEFAULT_RATING";
        match self.text(name, &self.file.default_rating) {
            None => Ok(gifshelf_domain::gif::Rating::G),
            Some(value) => gifshelf_domain::gif::Rating::parse(value.trim()).map_err(|_| ConfigError::Invalid {
                name,
                value,
                reason: "it must be g, pg, pg-13 or r",
            }),
        }
    }

    pub(super) fn media_offload(&self) -> Result<gifshelf_http::MediaOffload, ConfigError> {
        let f = &self.file;
        media_offload(
            self.text("GIFSHELF_MEDIA_OFFLOAD", &f.media_offload),
            self.text("GIFSHELF_MEDIA_OFFLOAD_PREFIX", &f.media_offload_prefix),
            self.number("GIFSHELF_MEDIA_PRESIGN_SECS", f.media_presign_secs, 300)?,
        )
    }

    pub(super) fn url_fetch_limits(&self) -> Result<gifshelf_app::gifs::FetchLimits, ConfigError> {
        let d = gifshelf_app::gifs::FetchLimits::default();
        let f = &self.file;
        Ok(gifshelf_app::gifs::FetchLimits {
            concurrent: self.number("GIFSHELF_URL_FETCH_CONCURRENCY", f.url_fetch_concurrency, d.concurrent)?,
            per_user_concurrent: self.number(
                "GIFSHELF_URL_FETCH_PER_USER",
                f.url_fetch_per_user,
                d.per_user_concurrent,
            )?,
            per_user_per_hour: self.number("GIFSHELF_URL_FETCH_PER_HOUR", f.url_fetch_per_hour, d.per_user_per_hour)?,
        })
    }

    pub(super) fn url_fetch_allow(&self) -> Result<Vec<gifshelf_fetch::Cidr>, ConfigError> {
        match self.text("GIFSHELF_URL_FETCH_ALLOW", &self.file.url_fetch_allow) {
            Some(list) => gifshelf_fetch::parse_list(&list).map_err(|_| ConfigError::Invalid {
                name: "GIFSHELF_URL_FETCH_ALLOW",
                value: list.clone(),
                reason: "it must be comma-separated IP addresses or ranges (10.0.0.0/8, fd00::/8)",
            }),
            None => Ok(Vec::new()),
        }
    }

    /// `GIFSHELF_METRICS_ALLOW`: addresses and ranges whose connections may read `/metrics`.
    pub(super) fn metrics_allow(&self) -> Result<Option<Vec<gifshelf_fetch::Cidr>>, ConfigError> {
        match self.text("GIFSHELF_METRICS_ALLOW", &self.file.metrics_allow) {
            Some(list) => gifshelf_fetch::parse_list(&list).map(Some).map_err(|_| ConfigError::Invalid {
                name: "GIFSHELF_METRICS_ALLOW",
                value: list.clone(),
                reason: "it must be comma-separated IP addresses or ranges (127.0.0.1, 10.0.0.0/8)",
            }),
            None => Ok(None),
        }
    }

    /// `GIFSHELF_CHAT_API_CORS_ORIGINS`: web origins (`https://chat.example.com`) whose pages may
    /// read the chat APIs when they answer anonymously.
    pub(super) fn chat_api_cors_origins(&self) -> Result<Vec<String>, ConfigError> {
        let Some(list) = self.text("GIFSHELF_CHAT_API_CORS_ORIGINS", &self.file.chat_api_cors_origins) else {
            return Ok(Vec::new());
        };
        list.split(',')
            .map(str::trim)
            .filter(|o| !o.is_empty())
            .map(|origin| {
                web_origin(origin).ok_or_else(|| ConfigError::Invalid {
                    name: "GIFSHELF_CHAT_API_CORS_ORIGINS",
                    value: origin.to_owned(),
                    reason: "each entry is a web origin: http:// or https://, a host and an optional port, no path",
                })
            })
            .collect()
    }

    /// `GIFSHELF_ALLOWED_HOSTS`: the hosts (`gifs.example.com`, or with a port to allow only that
    /// port) a request may name for links built from it; by default the bind address's host,
    /// `localhost`, `127.0.0.1` and `[::1]`.
    pub(super) fn allowed_hosts(&self, bind: &str) -> Result<Vec<String>, ConfigError> {
        let Some(list) = self.text("GIFSHELF_ALLOWED_HOSTS", &self.file.allowed_hosts) else {
            let bind_host = bind.rsplit_once(':').map_or(bind, |(host, _)| host).to_ascii_lowercase();
            let mut hosts = vec![bind_host];
            for host in ["localhost", "127.0.0.1", "[::1]"] {
                if !hosts.iter().any(|h| h == host) {
                    hosts.push(host.to_owned());
                }
            }
            return Ok(hosts);
        };
        list.split(',')
            .map(str::trim)
            .filter(|h| !h.is_empty())
            .map(|host| {
                let valid = host.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b));
                if valid {
                    Ok(host.to_ascii_lowercase())
                } else {
                    Err(ConfigError::Invalid {
                        name: "GIFSHELF_ALLOWED_HOSTS",
                        value: host.to_owned(),
                        reason: "each entry is a host name or address, with an optional port (gifs.example.com:8443)",
                    })
                }
            })
            .collect()
    }

    pub(super) fn chat_commands(&self) -> Result<ChatCommandSecrets, ConfigError> {
        let f = &self.file;
        let secrets = |name: &'static str, from_file: &Option<String>, list: bool| {
            chat_secrets(name, self.text(name, from_file), list)
        };
        Ok(ChatCommandSecrets {
            slack_signing_secret: secrets("GIFSHELF_SLACK_SIGNING_SECRET", &f.slack_signing_secret, false)?.pop(),
            mattermost_tokens: secrets("GIFSHELF_MATTERMOST_TOKENS", &f.mattermost_tokens, true)?,
            zulip_tokens: secrets("GIFSHELF_ZULIP_TOKENS", &f.zulip_tokens, true)?,
            discord_public_key: secrets("GIFSHELF_DISCORD_PUBLIC_KEY", &f.discord_public_key, false)?.pop(),
            telegram_webhook_secret: secrets("GIFSHELF_TELEGRAM_WEBHOOK_SECRET", &f.telegram_webhook_secret, false)?
                .pop(),
            teams_tokens: secrets("GIFSHELF_TEAMS_TOKENS", &f.teams_tokens, true)?,
            rocketchat_tokens: secrets("GIFSHELF_ROCKETCHAT_TOKENS", &f.rocketchat_tokens, true)?,
        })
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

/// An origin as browsers send it (`https://chat.example.com`, `http://10.0.0.5:8080`), lower-cased;
/// `None` for anything else (a path, a user name, another scheme).
fn web_origin(text: &str) -> Option<String> {
    let text = text.trim_end_matches('/').to_ascii_lowercase();
    let host = text.strip_prefix("https://").or_else(|| text.strip_prefix("http://"))?;
    let valid = !host.is_empty()
        && host.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b))
        && !host.starts_with(':');
    valid.then_some(text)
}

/// Image jobs at once: one per core, at most four (each may hold a large canvas in memory).
pub(super) fn default_media_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().clamp(1, 4))
}

pub(super) fn default_http_workers() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 16))
}

/// Half the cores make renditions (at least one): transcoding never takes every core from the
/// web server.
pub(super) fn default_job_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
}
