//! The process's log: human-readable lines (the default) or, with `GIFSHELF_LOG_FORMAT=json`, one
//! JSON object per line for log collectors, each line of a request carrying its `request_id`
//! (the request span's fields, the same id as the `X-Request-Id` answer header).

use tracing_subscriber::EnvFilter;

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

impl LogFormat {
    /// `GIFSHELF_LOG_FORMAT`: `text` (or unset) or `json`.
    ///
    /// # Errors
    /// Any other value, named.
    pub fn parse(value: Option<&str>) -> Result<Self, String> {
        match value.map(str::trim).map(str::to_ascii_lowercase).as_deref() {
            None | Some("" | "text") => Ok(Self::Text),
            Some("json") => Ok(Self::Json),
            Some(other) => Err(format!("GIFSHELF_LOG_FORMAT {other:?} is neither text nor json")),
        }
    }
}

/// Installs the log for this process: the filter of `GIFSHELF_LOG` (else `RUST_LOG`, else `info`).
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_env("GIFSHELF_LOG")
        .or_else(|_| EnvFilter::try_from_default_env())
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).with_span_list(false).init(),
    }
}

#[cfg(test)]
mod tests {
    use super::LogFormat;

    #[test]
    fn formats_parse_and_others_are_refused() {
        assert_eq!(LogFormat::parse(None), Ok(LogFormat::Text));
        assert_eq!(LogFormat::parse(Some("JSON")), Ok(LogFormat::Json));
        assert_eq!(LogFormat::parse(Some("text")), Ok(LogFormat::Text));
        assert!(LogFormat::parse(Some("xml")).is_err());
    }
}
