//! `gfxcache policies`: what `--policy` accepts.

use anyhow::Result;
use serde::Serialize;

use super::print_json;
use crate::table::Table;

#[derive(clap::Args)]
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
}

pub fn run(args: Args) -> Result<()> {
    let entries: Vec<Entry> = gfxcache_llc::registry()
        .map(|p| Entry {
            name: p.name,
            about: p.about,
            needs_next_use: p.needs_next_use,
        })
        .collect();
    if args.json {
        return print_json(&entries);
    }
    let mut t = Table::new(["policy", "what it is"]).left(1);
    for e in &entries {
        t.row([e.name, e.about]);
    }
    print!("{}", t.render());
    println!("\nSpecs: name[+ucd][:key=value,...]; +ucd leaves the display stream unallocated.");
    Ok(())
}
