#![doc = include_str!("../README.md")]

mod clock;
mod hasher;
mod ids;
pub mod secret;
mod tokens;

pub use clock::SystemClock;
pub use hasher::BcryptHasher;
pub use ids::RandomIds;
pub use tokens::JwtTokens;
