#![doc = include_str!("../README.md")]

mod clock;
mod hasher;
pub mod secret;
mod tokens;

pub use clock::SystemClock;
pub use hasher::BcryptHasher;
pub use tokens::JwtTokens;
