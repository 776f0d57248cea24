//! `gfxcache programs`: the renderer's fragment programs as the typed
//! operations and texture requests they are (`render`'s `frame/code.rs`):
//! each program's steps and its longest and shortest path, counted by the
//! same rules as `gfxcache shaders` counts real shaders.

use anyhow::Result;
use gfxcache_render::frame::shaders::Program;
use gfxcache_render::pipeline::{Opt, Options, PathCost, ShaderCode, Step, When};
use gfxcache_trace::ShaderOps;
use serde::Serialize;

use super::print_json;
use crate::table::Table;

/// Taps of a program that loops over its pass's taps, for the paths shown.
const TAPS: u32 = 4;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  gfxcache programs\n  gfxcache programs --json")]
pub struct Args {
    /// Print one JSON document on stdout instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Path {
    samples: u32,
    loads: u32,
    ops: ShaderOps,
    instructions: u64,
    scalar_ops: u64,
}

impl Path {
    fn of(p: PathCost) -> Path {
        Path {
            samples: p.samples,
            loads: p.loads,
            ops: p.ops,
            instructions: p.ops.instructions(),
            scalar_ops: p.ops.scalar_ops(),
        }
    }
}

#[derive(Serialize)]
struct Entry {
    program: &'static str,
    /// The steps, one word each (`code`'s notation, see the table's note).
    steps: String,
    /// Every optional request made and every option on (loops at 4 taps).
    longest: Path,
    /// No optional request made and no option on (loops at 4 taps).
    shortest: Path,
}

/// An operation count in short: `4x1 3x2 sp1 br1` (ALU width x count,
/// special functions, branches).
fn short(o: &ShaderOps) -> String {
    let mut parts: Vec<String> = (0..4)
        .filter(|&w| o.alu[w] > 0)
        .map(|w| format!("{}x{}", w + 1, o.alu[w]))
        .collect();
    if o.special > 0 {
        parts.push(format!("sp{}", o.special));
    }
    if o.branch > 0 {
        parts.push(format!("br{}", o.branch));
    }
    parts.join(" ")
}

/// The steps in short: `[...]` an operation count, `S` a sample, `L` a
/// load, `?(n)` the next n steps where the request is made, `opt(n)` in a
/// draw with the option, `tap(n)` per tap, `discard`.
fn steps(code: &ShaderCode) -> String {
    code.steps
        .iter()
        .map(|s| match s {
            Step::Ops(o) => format!("[{}]", short(o)),
            Step::Sample => "S".into(),
            Step::Load => "L".into(),
            Step::If {
                when: When::Requested,
                len,
            } => format!("?({len})"),
            Step::If {
                when: When::Option(o),
                len,
            } => format!("{}({len})", o.name()),
            Step::Loop { len } => format!("tap({len})"),
            Step::Discard => "discard".into(),
        })
        .collect::<Vec<String>>()
        .join(" ")
}

fn entries() -> Vec<Entry> {
    let all = Opt::ALL
        .iter()
        .fold(Options::NONE, |o, &opt| o.with(opt, true));
    Program::CLASSIC
        .into_iter()
        .chain(Program::EXTRA)
        .map(|p| {
            let code = p.code();
            Entry {
                program: code.name,
                steps: steps(code),
                longest: Path::of(code.path(TAPS, all, true)),
                shortest: Path::of(code.path(TAPS, Options::NONE, false)),
            }
        })
        .collect()
}

pub fn run(args: Args) -> Result<()> {
    let entries = entries();
    if args.json {
        return print_json(&entries);
    }
    let mut t = Table::new(["program", "requests", "instructions", "scalar ops", "steps"])
        .left(0)
        .left(4);
    for e in &entries {
        let range = |f: fn(&Path) -> u64| {
            let (lo, hi) = (f(&e.shortest), f(&e.longest));
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}-{hi}")
            }
        };
        t.row([
            e.program.to_string(),
            range(|p| u64::from(p.samples + p.loads)),
            range(|p| p.instructions),
            range(|p| p.scalar_ops),
            e.steps.clone(),
        ]);
    }
    print!("{}", t.render());
    println!(
        "Per fragment, from its shortest path (no optional request, no option) to its longest \
         (every request, every option; loops at {TAPS} taps). Steps: [WxN] N ALU operations of \
         width W, spN special functions, brN branches; S a sample, L a load; ?(n) the next n \
         steps where the request is made; OPTION(n) in the draws with it; tap(n) per tap; \
         discard. `render --json` gives the paths the fragments took."
    );
    Ok(())
}
