//! What a pass draws into and reads, resolved to the pipeline's targets.

use crate::graph::Role;
use crate::math::Mat4;
use crate::pipeline::{ColorId, DepthId};

use super::TargetId;

/// A pass's targets.
pub(crate) struct PassIo {
    pub color: Vec<ColorId>,
    pub depth: Option<DepthId>,
    /// Reads other than shadow maps, by role.
    pub reads: Vec<(Role, TargetId)>,
    /// The shadow maps drawn this frame that the pass reads, nearest
    /// cascade first, with the sun's view-projection of each.
    pub shadows: Vec<(DepthId, Mat4)>,
    /// The first colour target is the display surface: lit colour goes
    /// out gamma-encoded, as into a game's sRGB framebuffer.
    pub encode: bool,
}

impl PassIo {
    /// The colour target read as `role`.
    pub fn color_read(&self, role: Role) -> Option<ColorId> {
        self.reads.iter().find_map(|(r, id)| match id {
            TargetId::Color(c) if *r == role => Some(*c),
            _ => None,
        })
    }

    /// The depth target read as `role`.
    pub fn depth_read(&self, role: Role) -> Option<DepthId> {
        self.reads.iter().find_map(|(r, id)| match id {
            TargetId::Depth(d) if *r == role => Some(*d),
            _ => None,
        })
    }

    /// The `source` the graph's check guarantees to a filter pass.
    pub fn source(&self) -> ColorId {
        self.color_read(Role::Source)
            .expect("checked graph: a source")
    }

    /// The first colour target.
    pub fn target(&self) -> ColorId {
        self.color[0]
    }
}
