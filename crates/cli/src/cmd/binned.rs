//! `render --binned`: the polygon lists of every pass written as JSON, and
//! the TCOR paper's Table II (Parameter Buffer footprint, average primitive
//! reuse) for each, in the summary.

use std::path::Path;

use anyhow::{Context, Result};
use gfxcache_tcor::{characteristics, Binning, Characteristics};
use gfxcache_trace::binned::BinnedPass;
use serde::Serialize;

use crate::table::{human_bytes, thousands, Table};

/// One binned pass in the summary.
#[derive(Serialize)]
pub struct BinnedOut {
    pub frame: u32,
    pub pass: String,
    #[serde(flatten)]
    pub characteristics: Characteristics,
}

/// Writes `passes` to `path` as one JSON document (through a `.partial`
/// file) and returns their characteristics.
pub fn write(path: &Path, passes: &[BinnedPass]) -> Result<Vec<BinnedOut>> {
    let out = passes
        .iter()
        .map(|p| {
            let b = Binning::new(&p.frame).with_context(|| format!("binned pass {}", p.pass))?;
            Ok(BinnedOut {
                frame: p.frame_number,
                pass: p.pass.clone(),
                characteristics: characteristics(&b),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let text = gfxcache_trace::binned::to_json(passes);
    crate::output::write_bytes(path, text.as_bytes())?;
    Ok(out)
}

/// The Table II rows, or nothing when no pass was binned.
pub fn table(binned: &[BinnedOut]) -> String {
    if binned.is_empty() {
        return String::new();
    }
    let mut t = Table::new([
        "frame",
        "pass",
        "primitives",
        "tiles used",
        "attributes",
        "PB footprint",
        "avg reuse",
    ])
    .left(1);
    for b in binned {
        let c = &b.characteristics;
        t.row([
            b.frame.to_string(),
            b.pass.clone(),
            thousands(c.primitives),
            format!("{}/{}", c.busy_tiles, c.tiles),
            thousands(c.attributes),
            human_bytes(c.footprint_bytes),
            format!("{:.2}", c.average_reuse),
        ]);
    }
    format!(
        "\nbinned passes (TCOR Table II: Parameter Buffer footprint, tiles per primitive)\n{}",
        t.render()
    )
}
