//! `gfxcache policies`: what `--policy` accepts, each policy's parameters
//! with their defaults and ranges.

use anyhow::Result;
use gfxcache_cache::{Geometry, ParamInfo, Ways};
use serde::Serialize;

use super::print_json;
use crate::table::Table;

#[derive(clap::Args)]
#[command(after_help = "Example:\n  gfxcache policies --json")]
pub struct Args {
    /// Print one JSON document on stdout instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Entry {
    name: &'static str,
    about: &'static str,
    needs_next_use: bool,
    /// Defaults as on [`defaults_geometry`] (some depend on the geometry).
    params: Vec<ParamInfo>,
}

/// The geometry the defaults are shown for: the GSPC paper's 8 MiB 16-way
/// LLC of 64 B blocks.
fn defaults_geometry() -> Geometry {
    Geometry::from_size(8 << 20, Ways::N(16), 64).expect("a valid geometry")
}

pub fn run(args: Args) -> Result<()> {
    let geom = defaults_geometry();
    let entries: Vec<Entry> = gfxcache_llc::registry()
        .map(|p| Entry {
            name: p.name,
            about: p.about,
            needs_next_use: p.needs_next_use,
            params: p.params(&geom),
        })
        .collect();
    if args.json {
        return print_json(&entries);
    }
    let mut t = Table::new(["policy", "what it is", "parameters: default (range)"])
        .left(1)
        .left(2);
    for e in &entries {
        let params: Vec<String> = e.params.iter().map(ToString::to_string).collect();
        let params = if params.is_empty() {
            "-".to_string()
        } else {
            params.join(", ")
        };
        t.row([e.name.to_string(), e.about.to_string(), params]);
    }
    print!("{}", t.render());
    println!(
        "\nSpecs: name[+ucd][:key=value,...]; +ucd leaves the display stream unallocated.\n\
         Defaults are those of an 8 MiB 16-way cache of 64 B blocks (some depend on the geometry)."
    );
    Ok(())
}
