//! Black-box tests of the HTTP API: the real app, real adapters, a temp data dir, real HTTP.
//! Each test runs on a fresh SQLite file and on a fresh PostgreSQL database.

mod helpers;

mod accounts;
mod audit;
mod auth;
mod bad_input;
mod bots;
mod chat;
mod chat_docs;
mod collections;
mod commands;
mod duplicates;
mod export;
mod gifs;
mod giphy_schema;
mod google;
mod hardening;
mod health;
mod hidden_counts;
mod intake;
mod join;
mod keys;
mod last_admin;
mod library;
mod make;
mod media;
mod members;
mod meta;
mod moderation;
mod offload;
mod poster;
mod quotas;
mod rating_ceilings;
mod ratings;
mod renditions;
mod secrets;
mod settings;
mod share;
mod stats;
mod stickers;
mod tags;
mod text;
mod tokens;
mod who_gets_in;
