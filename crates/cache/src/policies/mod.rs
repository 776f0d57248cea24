//! One replacement policy per file. Each file holds the policy's state, its
//! [`crate::Policy`] implementation and its parameters; `registry.rs` lists
//! them by name.

pub mod brrip;
pub mod drrip;
pub mod fifo;
pub mod lru;
pub mod mru;
pub mod nru;
pub mod opt;
pub mod random;
pub mod ship_mem;
pub mod srrip;
