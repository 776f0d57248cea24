//! The papers' GPU machines as data.
//!
//! A [`Machine`] is the GPU a study runs on: its clock and screen, its
//! fragment processors (how many, fragments in flight, how each issues
//! shader operations: an [`IssueModel`]), its texture caches, L2, memory
//! and interconnect, and for a tile-based GPU its tile and vertex caches.
//! Every value is [`Sourced`]: the paper's table (`paper:`), a hardware
//! document where the paper is silent (`hardware:`), or our choice
//! (`ours:`), never picked to move a result toward a paper's number. The
//! named presets ([`presets`]: each paper's machine and a present-day
//! mobile GPU) are TOML files in this crate's `presets/`, embedded; a
//! user's file has the same form ([`Machine::resolve`]).
//!
//! [`IssueModel::cycles`] is the one place shader work becomes time: the
//! renderer counts operations by class ([`gfxcache_trace::ShaderOps`]) and
//! a machine's issue model times them.
//!
//! This crate depends on `trace` (shader operations), `cache` (sizes) and
//! `mem` (DRAM presets) only: design crates take a machine, never the
//! other way round.

mod issue;
mod machine;
mod presets;
mod sourced;

use std::path::PathBuf;

pub use issue::{issue_sentence, IssueModel};
pub use machine::{
    Cache, Fragment, FrameTime, Gpu, Interconnect, Issue, Machine, Memory, RenderCaches,
    RequestUnit, Shape, Size, Value, L2,
};
pub use presets::{presets, Preset};
pub use sourced::{SourceKind, Sourced};

/// A machine that cannot be read or used.
#[derive(Debug, thiserror::Error)]
pub enum MachineError {
    /// The file could not be opened or looked at (the I/O error kept, so
    /// that a caller can tell a missing file).
    #[error("{}: {source}", file.display())]
    Open {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: {message}", file.display())]
    Read { file: PathBuf, message: String },
    #[error("{}: {key}: {message}", file.display())]
    Invalid {
        file: PathBuf,
        key: String,
        message: String,
    },
    #[error("machine {machine}: no {key}: {why}")]
    Missing {
        machine: String,
        key: &'static str,
        why: String,
    },
    #[error("unknown machine {name:?}: expected a preset ({known}) or a TOML file")]
    Unknown { name: String, known: String },
}
