//! GIFs, tags and the rules of spec §5 for them. One file per part; every item is re-exported
//! here, so `gif::X` names it wherever it lives.

mod entity;
mod filters;
mod fingerprint;
mod paging;
mod renditions;
mod values;

pub use entity::*;
pub use filters::*;
pub use fingerprint::*;
pub use paging::*;
pub use renditions::*;
pub use values::*;
