#![doc = include_str!("../README.md")]

pub mod auth;
mod error;
pub mod gifs;
pub mod settings;
pub mod stats;

pub use error::AppError;
