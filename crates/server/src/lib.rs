#![doc = include_str!("../README.md")]

pub mod backup;
pub mod bots;
mod chat_secrets;
pub mod config;
pub mod folder_import;
pub mod healthcheck;
pub mod logging;
pub mod media_export;
mod metered_store;
mod metrics;
mod programs;
mod wiring;
pub mod workers;

pub use config::{ConfigError, Settings};
pub use wiring::{gif_service, library, media_service, open_database, Application, Library, StartupError};
