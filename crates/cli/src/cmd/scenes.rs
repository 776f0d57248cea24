//! `gfxcache scenes`: the built-in scenes, one line each, grouped by the
//! workload suite they belong to (or one suite's with `--suite`).

use anyhow::Result;
use gfxcache_render::scene::builtin::{Builtin, Suite, BUILTINS};
use serde::Serialize;

use super::print_json;

#[derive(clap::Args)]
#[command(after_help = "Example:\n  gfxcache scenes --suite mobile")]
pub struct Args {
    /// List only this suite's scenes.
    #[arg(long, value_parser = super::suite_parser())]
    pub suite: Option<Suite>,
    /// Print one JSON document on stdout instead of lines.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Entry {
    name: &'static str,
    about: &'static str,
    suite: &'static str,
}

pub fn run(args: Args) -> Result<()> {
    let suites: Vec<Suite> = match args.suite {
        Some(s) => vec![s],
        None => Suite::ALL.to_vec(),
    };
    // Grouped by suite, each in registry order.
    let scenes: Vec<&Builtin> = suites.iter().flat_map(|s| s.scenes()).collect();
    if args.json {
        let v: Vec<Entry> = scenes
            .iter()
            .map(|b| Entry {
                name: b.name,
                about: b.about,
                suite: b.suite.name(),
            })
            .collect();
        return print_json(&v);
    }
    match args.suite {
        Some(s) if scenes.is_empty() => eprintln!("the {s} suite has no scenes"),
        None if BUILTINS.is_empty() => eprintln!("no built-in scenes are registered"),
        _ => {}
    }
    let width = scenes.iter().map(|b| b.name.len()).max().unwrap_or(0);
    for suite in suites {
        let mut of_suite = suite.scenes().peekable();
        if of_suite.peek().is_none() {
            continue;
        }
        println!("{suite}:");
        for b in of_suite {
            println!("  {:<width$}  {}", b.name, b.about);
        }
    }
    Ok(())
}
