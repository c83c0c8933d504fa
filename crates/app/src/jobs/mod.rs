//! Work done after the answer: the renditions a GIF is missing and the text in it, made by workers that claim jobs
//! from the durable queue (`runner.rs`), and the backfill that enqueues them for GIFs stored
//! before a kind existed.

mod renditions;
mod runner;
mod text;

pub use renditions::{BackfillProgress, Made, RenditionMaker, MEDIUM_MAX_RATIO};
pub use runner::{JobRunner, RunnerSettings, Settled};
pub use text::{Read, TextPorts, TextReading};
