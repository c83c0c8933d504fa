//! `SecretSealer` with AES-256-GCM (ring): the server's secrets key (`GIFSHELF_SECRETS_KEY`, 32
//! random bytes in base64) seals the integration secrets that must be kept with their clear value.
//! A seal is `v1.` and the URL-safe base64 of a fresh 96-bit nonce followed by the ciphertext and
//! its tag; the associated data names what it is, so a seal cannot be passed off as another thing.

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use gifshelf_domain::integration::{IntegrationSecret, SealError};
use gifshelf_domain::ports::SecretSealer;
use rand::RngCore;
use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM, NONCE_LEN};

const VERSION: &str = "v1.";
const PURPOSE: &[u8] = b"gifshelf integration secret";

/// Why a configured secrets key is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("GIFSHELF_SECRETS_KEY must be 32 random bytes in base64 (44 characters); generate one with `openssl rand -base64 32`")]
pub struct BadSecretsKey;

/// The server's secrets key. Its `Debug` never shows it.
pub struct SecretsKey(LessSafeKey);

impl SecretsKey {
    /// # Errors
    /// `BadSecretsKey` unless `base64` is exactly 32 bytes in standard or URL-safe base64.
    pub fn parse(base64: &str) -> Result<Self, BadSecretsKey> {
        let text = base64.trim();
        let bytes = STANDARD
            .decode(text)
            .or_else(|_| base64::engine::general_purpose::URL_SAFE.decode(text))
            .or_else(|_| URL_SAFE_NO_PAD.decode(text))
            .map_err(|_| BadSecretsKey)?;
        if bytes.len() != 32 {
            return Err(BadSecretsKey);
        }
        UnboundKey::new(&AES_256_GCM, &bytes).map(|key| Self(LessSafeKey::new(key))).map_err(|_| BadSecretsKey)
    }
}

impl std::fmt::Debug for SecretsKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretsKey(…)")
    }
}

impl SecretSealer for SecretsKey {
    fn seal(&self, secret: &IntegrationSecret) -> String {
        let mut nonce = [0_u8; NONCE_LEN];
        rand::rngs::OsRng.fill_bytes(&mut nonce);
        let mut sealed = secret.expose().as_bytes().to_vec();
        // Sealing fails only for inputs of gigabytes; a secret is at most 200 characters.
        if self
            .0
            .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(PURPOSE), &mut sealed)
            .is_err()
        {
            sealed.clear();
        }
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        format!("{VERSION}{}", URL_SAFE_NO_PAD.encode(out))
    }

    fn open(&self, sealed: &str) -> Result<IntegrationSecret, SealError> {
        let bytes = sealed.strip_prefix(VERSION).and_then(|b| URL_SAFE_NO_PAD.decode(b).ok()).ok_or(SealError)?;
        if bytes.len() <= NONCE_LEN {
            return Err(SealError);
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| SealError)?;
        let mut buffer = ciphertext.to_vec();
        let clear = self.0.open_in_place(nonce, Aad::from(PURPOSE), &mut buffer).map_err(|_| SealError)?;
        let text = std::str::from_utf8(clear).map_err(|_| SealError)?;
        Ok(IntegrationSecret::from_trusted(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "q0dAa2G3mY8lT1Pz0sQXb7d0tq3Y0Zr5o2w3U4c5V6E=";

    fn key(text: &str) -> SecretsKey {
        SecretsKey::parse(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_sealed_secret_opens_with_its_key_only_and_never_shows_in_clear() {
        let secret = IntegrationSecret::from_trusted("8f742231b10e8888abcd99yyyzzz85a5".into());
        let sealed = key(KEY).seal(&secret);
        assert!(sealed.starts_with("v1.") && !sealed.contains("8f742231"), "{sealed}");
        assert_ne!(sealed, key(KEY).seal(&secret), "a fresh nonce per seal");
        assert_eq!(key(KEY).open(&sealed), Ok(secret));
        let other = key("AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
        assert_eq!(other.open(&sealed), Err(SealError));
    }

    #[test]
    fn an_altered_or_malformed_seal_is_refused() {
        let sealed = key(KEY).seal(&IntegrationSecret::from_trusted("slack-secret-1".into()));
        let mut altered = sealed.clone().into_bytes();
        let last = altered.len() - 2;
        altered[last] = if altered[last] == b'A' { b'B' } else { b'A' };
        let altered = String::from_utf8(altered).unwrap_or_default();
        for bad in [altered.as_str(), "", "v1.", "v1.AAAA", "v2.abc", sealed.trim_start_matches("v1.")] {
            assert_eq!(key(KEY).open(bad), Err(SealError), "{bad:?}");
        }
    }

    #[test]
    fn keys_are_exactly_32_bytes_of_base64() {
        assert!(SecretsKey::parse(KEY).is_ok());
        assert!(SecretsKey::parse(" q0dAa2G3mY8lT1Pz0sQXb7d0tq3Y0Zr5o2w3U4c5V6E ").is_ok(), "unpadded, trimmed");
        for bad in
            ["", "short", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd", "not base64 at all!!!!!!!!!!!!!!!!!!!!!!!!!"]
        {
            assert_eq!(SecretsKey::parse(bad).map(|_| ()), Err(BadSecretsKey), "{bad:?}");
        }
        assert_eq!(format!("{:?}", key(KEY)), "SecretsKey(…)");
    }
}
