//! What the pipeline counts as it draws.

use super::work::ProgramTallies;

/// Counters of what the pipeline did (summed over draws).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub draws: u64,
    pub triangles_in: u64,
    /// Triangles not culled by facing or zero area (they may still be
    /// clipped away or cover no pixel centre).
    pub triangles_after_cull: u64,
    pub vertex_fetches: u64,
    pub vertex_cache_hits: u64,
    pub quads: u64,
    /// Covered pixels the rasterizer produced.
    pub fragments: u64,
    /// Pixels shaded (live pixels of quads given to the shader).
    pub fragments_shaded: u64,
    pub killed_hiz: u64,
    pub killed_early_z: u64,
    pub killed_late_z: u64,
    pub killed_stencil: u64,
    /// Pixels that passed every test and reached the colour stage.
    pub fragments_written: u64,
    /// Texels the shaders read (filter taps, repeats included, and loads).
    pub texels: u64,
    /// What each program's fragments ran, on the paths they took.
    pub programs: ProgramTallies,
}

impl Stats {
    /// What happened since `before` (an earlier copy of these counters).
    pub fn since(&self, before: &Stats) -> Stats {
        let (s, b) = (self, before);
        Stats {
            draws: s.draws - b.draws,
            triangles_in: s.triangles_in - b.triangles_in,
            triangles_after_cull: s.triangles_after_cull - b.triangles_after_cull,
            vertex_fetches: s.vertex_fetches - b.vertex_fetches,
            vertex_cache_hits: s.vertex_cache_hits - b.vertex_cache_hits,
            quads: s.quads - b.quads,
            fragments: s.fragments - b.fragments,
            fragments_shaded: s.fragments_shaded - b.fragments_shaded,
            killed_hiz: s.killed_hiz - b.killed_hiz,
            killed_early_z: s.killed_early_z - b.killed_early_z,
            killed_late_z: s.killed_late_z - b.killed_late_z,
            killed_stencil: s.killed_stencil - b.killed_stencil,
            fragments_written: s.fragments_written - b.fragments_written,
            texels: s.texels - b.texels,
            programs: s.programs.since(&b.programs),
        }
    }

    /// Add `other`'s counts to these.
    pub fn add(&mut self, other: &Stats) {
        let o = other;
        self.draws += o.draws;
        self.triangles_in += o.triangles_in;
        self.triangles_after_cull += o.triangles_after_cull;
        self.vertex_fetches += o.vertex_fetches;
        self.vertex_cache_hits += o.vertex_cache_hits;
        self.quads += o.quads;
        self.fragments += o.fragments;
        self.fragments_shaded += o.fragments_shaded;
        self.killed_hiz += o.killed_hiz;
        self.killed_early_z += o.killed_early_z;
        self.killed_late_z += o.killed_late_z;
        self.killed_stencil += o.killed_stencil;
        self.fragments_written += o.fragments_written;
        self.texels += o.texels;
        self.programs.add(&o.programs);
    }

    /// Shaded fragments per screen pixel for a `pixels`-pixel screen.
    pub fn overdraw(&self, pixels: u64) -> f64 {
        self.fragments_shaded as f64 / pixels.max(1) as f64
    }
}
