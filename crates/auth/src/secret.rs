//! The token signing secret: from configuration, or generated once and kept in the data folder.

use std::io::Write;
use std::path::Path;

use rand::RngCore;
use secrecy::SecretSlice;

/// The fewest bytes a secret may have (256 bits).
pub const MIN_SECRET_BYTES: usize = 32;
const FILE_NAME: &str = "jwt-secret";

#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error("GIFSHELF_JWT_SECRET is too weak: it must be at least {MIN_SECRET_BYTES} bytes (256 bits) long; generate one with `openssl rand -hex 32`")]
    TooWeak,
    #[error("cannot read or write the generated secret at {path}: {source}")]
    Io { path: String, source: std::io::Error },
}

/// Where the secret came from, for the startup log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretSource {
    Configured,
    Generated,
    Loaded,
}

/// Returns the configured secret (checked for strength), or the one kept in `data_dir`, creating it
/// with 256 random bits (file mode 0600) on first start.
///
/// # Errors
/// `TooWeak` for a short configured secret; `Io` when the data folder cannot be used.
pub fn load_or_create(
    configured: Option<&str>,
    data_dir: &Path,
) -> Result<(SecretSlice<u8>, SecretSource), SecretError> {
    if let Some(value) = configured {
        if value.len() < MIN_SECRET_BYTES {
            return Err(SecretError::TooWeak);
        }
        return Ok((SecretSlice::from(value.as_bytes().to_vec()), SecretSource::Configured));
    }
    let path = data_dir.join(FILE_NAME);
    let io = |source| SecretError::Io { path: path.display().to_string(), source };
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let bytes = hex::decode(text.trim()).map_err(|e| io(std::io::Error::other(e)))?;
            if bytes.len() < MIN_SECRET_BYTES {
                return Err(io(std::io::Error::other("the stored secret is too short")));
            }
            Ok((SecretSlice::from(bytes), SecretSource::Loaded))
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(data_dir).map_err(io)?;
            let mut bytes = vec![0_u8; MIN_SECRET_BYTES];
            rand::rngs::OsRng.fill_bytes(&mut bytes);
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            match options.open(&path) {
                Ok(mut file) => {
                    file.write_all(hex::encode(&bytes).as_bytes()).map_err(io)?;
                    file.sync_all().map_err(io)?;
                    Ok((SecretSlice::from(bytes), SecretSource::Generated))
                }
                // Another instance sharing the folder won the race: use its secret.
                Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => load_or_create(None, data_dir),
                Err(err) => Err(io(err)),
            }
        }
        Err(err) => Err(io(err)),
    }
}

#[cfg(test)]
mod tests {
    use secrecy::ExposeSecret;

    use super::*;

    #[test]
    fn generated_once_then_loaded() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let (first, source) = load_or_create(None, dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(source, SecretSource::Generated);
        assert_eq!(first.expose_secret().len(), 32);
        let (second, source) = load_or_create(None, dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(source, SecretSource::Loaded);
        assert_eq!(first.expose_secret(), second.expose_secret());
    }

    #[test]
    fn weak_configured_secret_is_refused() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(load_or_create(Some("short"), dir.path()), Err(SecretError::TooWeak)));
        let strong = "x".repeat(32);
        assert!(matches!(load_or_create(Some(&strong), dir.path()), Ok((_, SecretSource::Configured))));
    }
}
