//! The DTM-NUCA paper's published numbers (Section V, from the text: the
//! figures are captions only in our copy), to set beside ours.

use serde::Serialize;

/// The class of frames the paper measured: Android games on a tile-based
/// GPU (the built-in suite of that name).
pub const SUITE: &str = "mobile";

/// The fragment processors of the paper's Figure 1 (its
/// [`PaperNumbers::replicated_percent`] is with 4 private caches).
pub const REPLICATION_FPS: usize = 4;

/// What the paper reports, per figure.
#[derive(Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct PaperNumbers {
    /// Figure 1: with 4 private texture caches, the share of texture
    /// requests whose block is in more than one cache, in percent.
    pub replicated_percent: f64,
    /// Figure 6: L2 accesses against private caches, in percent (D-NUCA,
    /// DTM-NUCA, DTM-NUCA distributed).
    pub l2_accesses_percent: [f64; 3],
    /// Figure 7: the private texture cache size DTM-NUCA's 16 KiB caches
    /// match in L2 accesses, in KiB (centralized, distributed).
    pub effective_kib: [u64; 2],
    /// Figure 8: local hits among texture accesses, in percent.
    pub local_hits_percent: [f64; 3],
    /// Figure 9: speedup over private caches, in percent.
    pub speedup_percent: [f64; 3],
    /// Figure 10: energy against private caches, in percent.
    pub energy_percent: [f64; 3],
    /// Figure 11: DTM-NUCA's and its distributed form's speedup with 4 and
    /// with 32 fragment processors, in percent.
    pub speedup_p4_percent: [f64; 2],
    pub speedup_p32_percent: [f64; 2],
}

/// The organizations the paper's three-number figures list, in order.
pub const PAPER_ORGANIZATIONS: [crate::OrgKind; 3] = [
    crate::OrgKind::DNuca,
    crate::OrgKind::Dtm,
    crate::OrgKind::DtmDist,
];

/// The paper's numbers.
pub fn numbers() -> PaperNumbers {
    PaperNumbers {
        replicated_percent: 84.6,
        l2_accesses_percent: [-46.2, -41.8, -33.3],
        effective_kib: [128, 64],
        local_hits_percent: [27.5, 66.3, 73.9],
        speedup_percent: [-22.0, 16.9, 15.7],
        energy_percent: [4.0, -6.9, -7.6],
        speedup_p4_percent: [10.2, 7.0],
        speedup_p32_percent: [16.9, 15.7],
    }
}
