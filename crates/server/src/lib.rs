#![doc = include_str!("../README.md")]

pub mod config;
mod wiring;

pub use config::{ConfigError, Settings};
pub use wiring::{gif_service, open_database, Application, StartupError};
