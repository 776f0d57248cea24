//! One replacement policy per file. Each file holds the policy's state, its
//! [`crate::Policy`] implementation and its parameters; `registry.rs` lists
//! them by name.

pub mod lru;
