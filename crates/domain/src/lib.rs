#![doc = include_str!("../README.md")]

pub mod account;
pub mod api_key;
pub mod audit;
pub mod auth;
pub mod collection;
pub mod error;
pub mod failpoint;
pub mod gif;
pub mod integration;
pub mod job;
pub mod join;
pub mod make;
pub mod media;
pub mod member;
pub mod ports;
pub mod report;
pub mod search;
pub mod stats;
pub mod user;

pub use error::{error_chain, Cause, RepoError, Unique, ValidationError};
