use async_trait::async_trait;
use gifshelf_domain::ports::PasswordHasher;
use gifshelf_domain::user::{PasswordHash, PASSWORD_MAX_BYTES};

/// bcrypt with a configurable cost (12 in production; tests go lower). Hashing runs on the
/// blocking pool so that a login storm never stalls the async executor.
#[derive(Debug, Clone)]
pub struct BcryptHasher {
    cost: u32,
    /// A real hash of a random password, verified against when the user does not exist so that
    /// both paths take the same time.
    dummy: String,
}

impl BcryptHasher {
    /// # Errors
    /// When `cost` is outside bcrypt's range (4 to 31).
    pub fn new(cost: u32) -> Result<Self, String> {
        let dummy = bcrypt::hash("gifshelf-timing-equaliser", cost).map_err(|e| e.to_string())?;
        Ok(Self { cost, dummy })
    }
}

#[async_trait]
impl PasswordHasher for BcryptHasher {
    async fn hash(&self, password: &str) -> Result<PasswordHash, String> {
        let password = password.to_owned();
        let cost = self.cost;
        tokio::task::spawn_blocking(move || bcrypt::hash(password, cost))
            .await
            .map_err(|e| e.to_string())?
            .map(PasswordHash)
            .map_err(|e| e.to_string())
    }

    async fn verify(&self, password: &str, hash: &PasswordHash) -> bool {
        // bcrypt reads only the first 72 bytes: a longer password (never accepted when set) would
        // match on its prefix. Refused after the same work, so the time says nothing.
        let too_long = password.len() > PASSWORD_MAX_BYTES;
        let password = password.to_owned();
        let hash = hash.0.clone();
        let matched = tokio::task::spawn_blocking(move || bcrypt::verify(password, &hash).unwrap_or(false))
            .await
            .unwrap_or(false);
        matched && !too_long
    }

    async fn verify_dummy(&self, password: &str) {
        let password = password.to_owned();
        let hash = self.dummy.clone();
        let _ = tokio::task::spawn_blocking(move || bcrypt::verify(password, &hash)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_verify_and_never_contain_the_password() {
        let hasher = BcryptHasher::new(4).unwrap_or_else(|e| panic!("{e}"));
        let hash = hasher.hash("hunter22").await.unwrap_or_else(|e| panic!("{e}"));
        assert!(!hash.0.contains("hunter22"));
        assert!(hash.0.starts_with("$2b$04$"));
        assert!(hasher.verify("hunter22", &hash).await);
        assert!(!hasher.verify("hunter23", &hash).await);
        assert!(!hasher.verify("hunter22", &PasswordHash("garbage".into())).await);
        // Never a match on a 72-byte prefix, which is all bcrypt reads.
        let longest = "p".repeat(PASSWORD_MAX_BYTES);
        let hash = hasher.hash(&longest).await.unwrap_or_else(|e| panic!("{e}"));
        assert!(hasher.verify(&longest, &hash).await);
        assert!(!hasher.verify(&format!("{longest}x"), &hash).await);
        hasher.verify_dummy("anything").await;
    }
}
