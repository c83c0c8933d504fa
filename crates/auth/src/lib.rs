#![doc = include_str!("../README.md")]

mod clock;
mod hasher;
mod ids;
mod oidc;
mod sealer;
pub mod secret;
#[cfg(feature = "testing")]
pub mod testing;
mod tokens;

pub use clock::{ManualClock, SystemClock};
pub use hasher::BcryptHasher;
pub use ids::RandomIds;
pub use oidc::{OidcVerifier, GOOGLE_ISSUER};
pub use sealer::{BadSecretsKey, SecretsKey};
pub use tokens::{Claims, JwtTokens};
