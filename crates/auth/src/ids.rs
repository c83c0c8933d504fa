use base64::Engine;
use gifshelf_domain::ports::IdGenerator;
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
}
