//! Ports: the traits through which use cases reach the outside world. Adapters implement them;
//! `app` tests mock them (feature `mock`).
//!
//! One file per area; every item is re-exported here, so `ports::X` names it wherever it lives.

mod accounts;
mod audit;
mod batch;
mod blobs;
mod chat_feed;
mod clock;
mod collections;
mod favourites;
mod fetch;
mod fingerprints;
mod gifs;
mod health;
mod jobs;
mod join;
mod keys;
mod limits;
mod makes;
mod media;
mod members;
mod renditions;
mod reports;
mod stats;
mod tags;
mod terms;
mod text;
mod users;

pub use accounts::*;
pub use audit::*;
pub use batch::*;
pub use blobs::*;
pub use chat_feed::*;
pub use clock::*;
pub use collections::*;
pub use favourites::*;
pub use fetch::*;
pub use fingerprints::*;
pub use gifs::*;
pub use health::*;
pub use jobs::*;
pub use join::*;
pub use keys::*;
pub use limits::*;
pub use makes::*;
pub use media::*;
pub use members::*;
pub use renditions::*;
pub use reports::*;
pub use stats::*;
pub use tags::*;
pub use terms::*;
pub use text::*;
pub use users::*;
