#![doc = include_str!("../README.md")]

pub mod accounts;
pub mod audit;
pub mod auth;
mod bounded;
pub mod chat;
pub mod collections;
pub mod commands;
mod error;
pub mod gifs;
pub mod health;
pub mod integrations;
pub mod jobs;
pub mod join;
pub mod keys;
pub mod make;
pub mod members;
pub mod moderation;
pub mod rate_limit;
pub mod settings;
pub mod stats;

pub use error::{AppError, Conflict, ACCOUNT_DISABLED};
