//! `gfxcache scenes`: the built-in scenes, one line each.

use anyhow::Result;
use gfxcache_render::scene::builtin::BUILTINS;
use serde::Serialize;

use super::print_json;

#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON document on stdout instead of lines.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Entry {
    name: &'static str,
    about: &'static str,
}

pub fn run(args: Args) -> Result<()> {
    if args.json {
        let v: Vec<Entry> = BUILTINS
            .iter()
            .map(|b| Entry {
                name: b.name,
                about: b.about,
            })
            .collect();
        return print_json(&v);
    }
    if BUILTINS.is_empty() {
        eprintln!("no built-in scenes are registered");
    }
    let width = BUILTINS.iter().map(|b| b.name.len()).max().unwrap_or(0);
    for b in BUILTINS {
        println!("{:<width$}  {}", b.name, b.about);
    }
    Ok(())
}
