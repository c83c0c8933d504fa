#![doc = include_str!("../README.md")]

mod accounts;
mod api_keys;
mod audit;
mod backup;
mod captions;
mod collections;
mod connection;
mod duplicates;
mod error;
mod gifs;
mod integrations;
mod jobs;
mod join;
mod limits;
mod makes;
mod members;
mod migrate;
mod renditions;
mod reports;
mod schema;
mod search;
mod stats;
mod tags;
mod terms;
pub mod transfer;
mod users;
mod wakeups;

#[cfg(feature = "testing")]
pub mod testing;

pub use connection::{Backend, Database, DbConfig};
pub use error::{DbError, UNIQUE_CONSTRAINTS};
pub use wakeups::{AccountGenerations, JobWakeups};
