use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use gifshelf_domain::ports::{HashError, PasswordHasher};
use gifshelf_domain::user::{PasswordHash, PASSWORD_MAX_BYTES};
use tokio::sync::{Semaphore, SemaphorePermit};

/// bcrypt with a configurable cost (12 in production; tests go lower). Hashing runs on the
/// blocking pool so that a login storm never stalls the async executor, and behind a semaphore:
/// at most `slots` hashes at once, at most `max_waiting` callers waiting, none longer than
/// `max_wait`. Past that the answer is `Busy` (a 503), so a flood of logins or registrations
/// cannot queue work without end.
#[derive(Debug, Clone)]
pub struct BcryptHasher {
    cost: u32,
    /// A real hash of a random password, verified against when the user does not exist so that
    /// both paths take the same time.
    dummy: String,
    gate: Arc<Gate>,
}

#[derive(Debug)]
struct Gate {
    slots: Semaphore,
    waiting: AtomicUsize,
    max_waiting: usize,
    max_wait: Duration,
}

impl Gate {
    async fn enter(&self) -> Result<SemaphorePermit<'_>, HashError> {
        if let Ok(permit) = self.slots.try_acquire() {
            return Ok(permit);
        }
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.max_waiting {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(HashError::Busy);
        }
        let permit = tokio::time::timeout(self.max_wait, self.slots.acquire()).await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        match permit {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(HashError::Busy),
        }
    }
}

impl BcryptHasher {
    /// One slot per core, 64 waiting callers, 5 s of waiting at most.
    ///
    /// # Errors
    /// When `cost` is outside bcrypt's range (4 to 31).
    pub fn new(cost: u32) -> Result<Self, String> {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
        Self::with_limits(cost, cores.max(2), 64, Duration::from_secs(5))
    }

    /// # Errors
    /// When `cost` is outside bcrypt's range (4 to 31).
    pub fn with_limits(cost: u32, slots: usize, max_waiting: usize, max_wait: Duration) -> Result<Self, String> {
        let dummy = bcrypt::hash("gifshelf-timing-equaliser", cost).map_err(|e| e.to_string())?;
        let gate = Gate { slots: Semaphore::new(slots.max(1)), waiting: AtomicUsize::new(0), max_waiting, max_wait };
        Ok(Self { cost, dummy, gate: Arc::new(gate) })
    }
}

#[async_trait]
impl PasswordHasher for BcryptHasher {
    async fn hash(&self, password: &str) -> Result<PasswordHash, HashError> {
        let _slot = self.gate.enter().await?;
        let password = password.to_owned();
        let cost = self.cost;
        tokio::task::spawn_blocking(move || bcrypt::hash(password, cost))
            .await
            .map_err(|e| HashError::Failed(e.into()))?
            .map(PasswordHash)
            .map_err(|e| HashError::Failed(e.into()))
    }

    async fn verify(&self, password: &str, hash: &PasswordHash) -> Result<bool, HashError> {
        let _slot = self.gate.enter().await?;
        // bcrypt reads only the first 72 bytes: a longer password (never accepted when set) would
        // match on its prefix. Refused after the same work, so the time says nothing.
        let too_long = password.len() > PASSWORD_MAX_BYTES;
        let password = password.to_owned();
        let hash = hash.0.clone();
        let matched = tokio::task::spawn_blocking(move || bcrypt::verify(password, &hash).unwrap_or(false))
            .await
            .unwrap_or(false);
        Ok(matched && !too_long)
    }

    async fn verify_dummy(&self, password: &str) -> Result<(), HashError> {
        let _slot = self.gate.enter().await?;
        let password = password.to_owned();
        let hash = self.dummy.clone();
        let _ = tokio::task::spawn_blocking(move || bcrypt::verify(password, &hash)).await;
        Ok(())
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
        assert_eq!(hasher.verify("hunter22", &hash).await.ok(), Some(true));
        assert_eq!(hasher.verify("hunter23", &hash).await.ok(), Some(false));
        assert_eq!(hasher.verify("hunter22", &PasswordHash("garbage".into())).await.ok(), Some(false));
        // Never a match on a 72-byte prefix, which is all bcrypt reads.
        let longest = "p".repeat(PASSWORD_MAX_BYTES);
        let hash = hasher.hash(&longest).await.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(hasher.verify(&longest, &hash).await.ok(), Some(true));
        assert_eq!(hasher.verify(&format!("{longest}x"), &hash).await.ok(), Some(false));
        assert!(hasher.verify_dummy("anything").await.is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_saturated_hasher_answers_busy_instead_of_queueing() {
        // One slot, one waiter, waiting 200 ms at most; cost 12 takes far longer than that.
        let hasher = BcryptHasher::with_limits(12, 1, 1, Duration::from_millis(200)).unwrap_or_else(|e| panic!("{e}"));
        let results = futures_util::future::join_all((0..6).map(|_| hasher.hash("secret1"))).await;
        let busy = results.iter().filter(|r| matches!(r, Err(HashError::Busy))).count();
        let done = results.iter().filter(|r| r.is_ok()).count();
        assert!(done >= 1 && busy >= 4, "{done} hashed, {busy} busy");
        // Free again afterwards.
        assert!(hasher.hash("secret1").await.is_ok());
    }
}
