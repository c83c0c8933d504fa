use base64::Engine;
use gifshelf_domain::ports::{IdGenerator, KeyMinter};
use rand::RngCore;

/// Random identifiers from the OS's generator: share ids carry 128 bits (22 URL-safe characters),
/// blob prefixes 128 bits in hex.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomIds;

impl IdGenerator for RandomIds {
    fn share_id(&self) -> String {
        let mut bytes = [0_u8; 16];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    }

    fn blob_prefix(&self) -> String {
        let mut bytes = [0_u8; 16];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        hex::encode(bytes)
    }
}

/// API keys: `gs_` and 32 random bytes, URL-safe (256 bits); stored as their SHA-256, which is
/// enough for a random secret (nothing to guess from, unlike a password).
impl KeyMinter for RandomIds {
    fn mint(&self) -> String {
        let mut bytes = [0_u8; 32];
        rand::rngs::OsRng.fill_bytes(&mut bytes);
        format!("gs_{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes))
    }

    fn digest(&self, key: &str) -> String {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(key.as_bytes()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_url_safe_long_and_distinct() {
        let ids = RandomIds;
        let a = ids.share_id();
        assert_eq!(a.len(), 22);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_ne!(a, ids.share_id());
        let p = ids.blob_prefix();
        assert_eq!(p.len(), 32);
        assert!(p.chars().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn api_keys_are_long_url_safe_and_stored_as_a_digest() {
        let key = RandomIds.mint();
        assert!(key.starts_with("gs_") && key.len() == 46, "{key}");
        assert!(key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_ne!(key, RandomIds.mint());
        let digest = RandomIds.digest(&key);
        assert_eq!(digest.len(), 64);
        assert_eq!(digest, RandomIds.digest(&key));
        assert!(!digest.contains(&key[3..]));
    }
}
