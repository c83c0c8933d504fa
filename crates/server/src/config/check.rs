//! The ranges settings must fall in; a refusal names the setting.

use super::{ConfigError, Settings};

impl Settings {
    pub(super) fn check(&self) -> Result<(), ConfigError> {
        self.check_costs_and_workers()?;
        self.check_limits_and_periods()?;
        self.check_serving()
    }

    /// Hashing cost, upload size, token lifetime, workers and jobs.
    fn check_costs_and_workers(&self) -> Result<(), ConfigError> {
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
        if self.job_media_workers == 0 {
            return invalid("GIFSHELF_JOB_MEDIA_WORKERS", "0".into(), "it must be at least 1");
        }
        if self.jobs.lease.as_secs() < 1 || self.jobs.max_attempts < 1 || self.job_poll.is_zero() {
            return invalid(
                "GIFSHELF_JOB_LEASE_SECS",
                self.jobs.lease.as_secs().to_string(),
                "the job lease, attempts and poll interval must be at least 1",
            );
        }
        Ok(())
    }

    /// Video limits, sign-in and registration limits, refresh and sweep periods.
    fn check_limits_and_periods(&self) -> Result<(), ConfigError> {
        let invalid = |name, value: String, reason| Err(ConfigError::Invalid { name, value, reason });
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
        if self.ready_max_backlog < 0 {
            return invalid(
                "GIFSHELF_READY_MAX_BACKLOG",
                self.ready_max_backlog.to_string(),
                "it must not be negative",
            );
        }
        if self.register_max_per_address == 0 || self.register_window_secs <= 0 {
            return invalid(
                "GIFSHELF_REGISTER_MAX_PER_ADDRESS",
                self.register_max_per_address.to_string(),
                "the registration limit and its window must be at least 1",
            );
        }
        Ok(())
    }

    /// Media offload, the chat APIs' rate and link fetching.
    fn check_serving(&self) -> Result<(), ConfigError> {
        let invalid = |name, value: String, reason| Err(ConfigError::Invalid { name, value, reason });
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
        let limits = &self.url_fetch_limits;
        for (name, value) in [
            ("GIFSHELF_URL_FETCH_CONCURRENCY", limits.concurrent),
            ("GIFSHELF_URL_FETCH_PER_USER", limits.per_user_concurrent),
            ("GIFSHELF_URL_FETCH_PER_HOUR", usize::try_from(limits.per_user_per_hour).unwrap_or(usize::MAX)),
        ] {
            if value == 0 {
                return invalid(name, "0".into(), "it must be at least 1");
            }
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
}
