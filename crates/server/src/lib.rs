#![doc = include_str!("../README.md")]

pub mod config;
mod wiring;

pub use config::{ConfigError, Settings};
pub use wiring::{open_database, Application, StartupError};
