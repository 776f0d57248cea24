//! `gfxcache`'s command line as a library: every subcommand's arguments
//! and composition (`cmd/`), the report writers, the progress bars. The
//! binary (`main.rs`) parses the command line and runs [`Command::run`];
//! the sweep executors and the Python package call the same code, so a
//! knob of the command line is a knob of both.

pub mod cmd;
pub mod compose;
pub mod gspc;
pub mod nbtc;
pub mod nuca;
pub mod output;
pub mod progress;
pub mod reference;
pub mod report;
pub mod sweep;
pub mod table;
pub mod tcor;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "gfxcache",
    version = gfxcache_sweep::VERSION,
    long_version = gfxcache_sweep::LONG_VERSION,
    about = "Memory-hierarchy simulator for graphics GPUs, driven by rendered frames"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Simulate a trace through a cache of one geometry, or a hierarchy of caches (--levels), under one or more policies.
    Sim(cmd::sim::Args),
    /// Miss-ratio curves: LRU's for every size (or every way count) in one pass, or any policy's by SHARDS sampling (--policy).
    Mrc(cmd::mrc::Args),
    /// Inspect and convert traces.
    #[command(subcommand)]
    Trace(cmd::trace::Command),
    /// List the replacement policies and their parameters.
    Policies(cmd::policies::Args),
    /// List the GPU machines (each paper's and a present-day one) or a machine file: every value with its source.
    Machines(cmd::machines::Args),
    /// List the renderer's fragment programs as typed operations and texture requests, with their longest and shortest paths.
    Programs(cmd::programs::Args),
    /// The GSPC paper's LLC study on one frame, or each scene of a suite and their mean: every policy, reuse analyses, FPS.
    Gspc(cmd::gspc::Args),
    /// The TCOR paper's study on one tile-based frame, or each scene of a suite and their mean: Attribute Cache curves, PB traffic, energy.
    Tcor(cmd::tcor::Args),
    /// The DTM-NUCA paper's study on one tile-based frame, or each scene of a suite and their mean: private, D-NUCA and DTM-NUCA texture caches, hits, L2 traffic, speedup, energy, scaling, sweeps.
    Nuca(cmd::nuca::Args),
    /// The NBTC slides' study on one tile-based frame per filter mode, or each scene of a suite and their mean: the blocking, non-blocking, MSHR and prefetching texture caches at each memory latency, stall cycles, miss rate, memory traffic, sweeps.
    Nbtc(Box<cmd::nbtc::Args>),
    /// The designs composed on one GPU machine: each miss handling of the NBTC study (blocking, NBTC, MSHR, prefetching) as the fragment processors' texture units, under each placement of their texture caches of the DTM-NUCA study, on one tile-based frame, or each scene of a suite and their mean.
    Compose(Box<cmd::compose::Args>),
    /// Run a sweep file's jobs (scenes x resolutions x caches x policies x studies) in parallel, resumably; then one tidy table (CSV, Parquet) and a page comparing across the axes.
    Sweep(cmd::sweep::Args),
    /// Each paper's study on every scene of its suite, on its machine, resumably (a sweep each): the suites' reports and the book's result pages (markdown tables and figures).
    Reproduce(cmd::reproduce::Args),
    /// One frame or job of a local sweep, in a process of its own (what
    /// `gfxcache sweep` starts; not for people).
    #[command(name = "sweep-worker", hide = true)]
    SweepWorker(sweep::worker::WorkerArgs),
    /// Render frames of a scene: the LLC trace, the picture, a summary.
    Render(cmd::render::Args),
    /// List the built-in scenes, by workload suite.
    Scenes(cmd::scenes::Args),
    /// The shader census: per GLSL file its operations by class (ALU by width, special functions, branches) and texture samples, the ALU:TEX ratios, and their distribution.
    Shaders(cmd::shaders::Args),
}

impl Command {
    /// Runs the subcommand and gives what its `--json` prints, printing
    /// nothing on stdout (progress and warnings still go to stderr): `sim`,
    /// `mrc`, `render`, the studies and the composed study (their report,
    /// also written to `--out`), `sweep` and `shaders`. The sweep executors and Python call this.
    pub fn output(self) -> anyhow::Result<serde_json::Value> {
        /// A study run quietly, its report read back from `--out`.
        macro_rules! study {
            ($args:expr, $module:ident) => {{
                let mut a = $args;
                a.quiet = true;
                let out = a.out.clone();
                cmd::$module::run(a)?;
                sweep::read_report(&out, stringify!($module))
            }};
        }
        match self {
            Command::Sim(a) => Ok(serde_json::to_value(cmd::sim::output(&a)?)?),
            Command::Mrc(a) => Ok(serde_json::to_value(cmd::mrc::output(&a)?)?),
            Command::Render(a) => cmd::render::summary(&a),
            Command::Gspc(a) => study!(a, gspc),
            Command::Tcor(a) => study!(a, tcor),
            Command::Nuca(a) if !a.l1.is_empty() => study!(cmd::nuca::composed(&a)?, compose),
            Command::Nuca(a) => study!(a, nuca),
            Command::Nbtc(a) if !a.placements.is_empty() => {
                study!(cmd::nbtc::composed(&a)?, compose)
            }
            Command::Nbtc(a) => study!(*a, nbtc),
            Command::Compose(a) => study!(*a, compose),
            Command::Sweep(a) => cmd::sweep::output(a),
            Command::Reproduce(a) => Ok(serde_json::to_value(cmd::reproduce::output(a)?)?),
            Command::Shaders(a) => Ok(serde_json::to_value(cmd::shaders::output(&a)?)?),
            Command::Trace(_)
            | Command::Policies(_)
            | Command::Machines(_)
            | Command::Programs(_)
            | Command::SweepWorker(_)
            | Command::Scenes(_) => {
                anyhow::bail!("this command gives no result to return: run it instead")
            }
        }
    }

    /// Checks the subcommand's arguments as it checks them before its
    /// work, doing none of it: nothing is rendered, simulated, read from
    /// a trace or request file, or written. Its settings are built as the
    /// command builds them (one function for both, in each `cmd` module):
    /// sizes and ranges, policy specs and their parameters, the frames it
    /// would render, and the machine, model, unit or energy file it names,
    /// read and checked. A sweep checks every job's command line with it
    /// before its first frame. For `sim`, `mrc`, `render` and the studies;
    /// any other command is an error.
    pub fn check(&self) -> anyhow::Result<()> {
        if !self.has_check() {
            anyhow::bail!("this command has no check apart from running it");
        }
        match self {
            Command::Sim(a) => cmd::sim::check(a),
            Command::Mrc(a) => cmd::mrc::check(a),
            Command::Render(a) => cmd::render::check(a),
            Command::Gspc(a) => cmd::gspc::check(a),
            Command::Tcor(a) => cmd::tcor::check(a),
            Command::Nuca(a) => cmd::nuca::check(a),
            Command::Nbtc(a) => cmd::nbtc::check(a),
            Command::Compose(a) => cmd::compose::check(a),
            Command::Sweep(_)
            | Command::Reproduce(_)
            | Command::SweepWorker(_)
            | Command::Shaders(_)
            | Command::Trace(_)
            | Command::Policies(_)
            | Command::Machines(_)
            | Command::Programs(_)
            | Command::Scenes(_) => unreachable!("has_check is false"),
        }
    }

    /// Whether [`Command::check`] checks this command (`sim`, `mrc`,
    /// `render` and the studies).
    pub fn has_check(&self) -> bool {
        matches!(
            self,
            Command::Sim(_)
                | Command::Mrc(_)
                | Command::Render(_)
                | Command::Gspc(_)
                | Command::Tcor(_)
                | Command::Nuca(_)
                | Command::Nbtc(_)
                | Command::Compose(_)
        )
    }

    /// The warnings the command line's deprecated flags give, for the
    /// caller to print once (parsing prints nothing: a sweep parses each
    /// of its command lines more than once).
    pub fn deprecations(&self) -> Vec<&'static str> {
        let fps = match self {
            Command::Render(a) => a.processors.deprecated(),
            Command::Tcor(a) => a.processors.deprecated(),
            Command::Nuca(a) => a.processors.deprecated(),
            _ => false,
        };
        fps.then_some(cmd::FPS_DEPRECATED).into_iter().collect()
    }

    /// Runs the subcommand: its results on stdout, progress on stderr.
    pub fn run(self) -> anyhow::Result<()> {
        match self {
            Command::Sim(a) => cmd::sim::run(a),
            Command::Mrc(a) => cmd::mrc::run(a),
            Command::Trace(c) => cmd::trace::run(c),
            Command::Policies(a) => cmd::policies::run(a),
            Command::Machines(a) => cmd::machines::run(a),
            Command::Programs(a) => cmd::programs::run(a),
            Command::Gspc(a) => cmd::gspc::run(a),
            Command::Tcor(a) => cmd::tcor::run(a),
            Command::Nuca(a) => cmd::nuca::run(a),
            Command::Nbtc(a) => cmd::nbtc::run(*a),
            Command::Compose(a) => cmd::compose::run(*a),
            Command::Sweep(a) => cmd::sweep::run(a),
            Command::Reproduce(a) => cmd::reproduce::run(a),
            Command::SweepWorker(a) => sweep::worker::serve(a),
            Command::Render(a) => cmd::render::run(a),
            Command::Scenes(a) => cmd::scenes::run(a),
            Command::Shaders(a) => cmd::shaders::run(a),
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every subcommand (and sub-subcommand) people run, with its path
    /// (hidden ones, such as a sweep's worker, are not for people).
    fn commands() -> Vec<(String, clap::Command)> {
        fn walk(prefix: &str, c: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
            for s in c.get_subcommands().filter(|s| !s.is_hide_set()) {
                let path = format!("{prefix} {}", s.get_name());
                if s.has_subcommands() {
                    walk(&path, s, out);
                } else {
                    out.push((path, s.clone()));
                }
            }
        }
        let mut out = Vec::new();
        walk("gfxcache", &super::Cli::command(), &mut out);
        out
    }

    #[test]
    fn every_option_is_described_and_every_command_has_an_example() {
        let mut missing = Vec::new();
        for (path, c) in commands() {
            for a in c.get_arguments() {
                let id = a.get_id().as_str();
                if id == "help" || id == "version" {
                    continue;
                }
                if a.get_help().is_none() && a.get_long_help().is_none() {
                    missing.push(format!("{path}: --{id} has no description"));
                }
            }
            let after = c
                .get_after_help()
                .map(|h| h.to_string())
                .unwrap_or_default();
            if !after.contains("Example") {
                missing.push(format!("{path}: no example in --help"));
            }
            if c.get_about().is_none() {
                missing.push(format!("{path}: no description"));
            }
        }
        assert!(missing.is_empty(), "{}", missing.join("\n"));
    }

    /// Every command people run, from `gfxcache` itself down through each
    /// subcommand's own, with its path.
    fn every_command() -> Vec<(String, clap::Command)> {
        fn walk(path: String, c: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
            for s in c.get_subcommands().filter(|s| !s.is_hide_set()) {
                walk(format!("{path} {}", s.get_name()), s, out);
            }
            out.push((path, c.clone()));
        }
        let mut out = Vec::new();
        walk("gfxcache".into(), &super::Cli::command(), &mut out);
        out
    }

    use crate::reference::{help_text as help_of, options};

    /// Whether `a` takes a number: an integer or float parser, or a size
    /// (`64KiB`: a string, parsed by the command, named `SIZE`).
    fn is_numeric(a: &clap::Arg) -> bool {
        use std::any::TypeId;
        let numbers = [
            TypeId::of::<u8>(),
            TypeId::of::<u16>(),
            TypeId::of::<u32>(),
            TypeId::of::<u64>(),
            TypeId::of::<usize>(),
            TypeId::of::<i32>(),
            TypeId::of::<i64>(),
            TypeId::of::<f32>(),
            TypeId::of::<f64>(),
        ];
        let parsed = a.get_value_parser().type_id();
        let sized = a
            .get_value_names()
            .is_some_and(|names| names.iter().any(|n| n.as_str().starts_with("SIZE")));
        numbers.iter().any(|&t| parsed == t) || sized
    }

    #[test]
    fn each_option_has_a_help_of_its_own() {
        let mut shared = Vec::new();
        for (path, c) in every_command() {
            let mut seen: Vec<(String, String)> = Vec::new();
            for a in options(&c) {
                let id = a.get_long().unwrap_or(a.get_id().as_str()).to_string();
                let help = help_of(a);
                if let Some((other, _)) = seen.iter().find(|(_, h)| *h == help) {
                    shared.push(format!("{path}: --{other} and --{id} say {help:?}"));
                }
                seen.push((id, help));
            }
        }
        assert!(shared.is_empty(), "{}", shared.join("\n"));
    }

    /// A number a person may leave out has a default they can read: clap's
    /// `[default: ...]`, or, where it depends on something else (the
    /// machine, the mode, the preset), the help saying what it is. A
    /// required number has none to show.
    #[test]
    fn each_numeric_option_shows_its_default() {
        let mut silent = Vec::new();
        let mut numeric = Vec::new();
        for (path, c) in every_command() {
            for a in options(&c).filter(|a| is_numeric(a) && !a.is_required_set()) {
                let name = format!("{path} --{}", a.get_long().unwrap_or_default());
                let shown = !a.get_default_values().is_empty() && !a.is_hide_default_value_set();
                if !shown && !help_of(a).to_lowercase().contains("default") {
                    silent.push(format!("{name} shows no default"));
                }
                numeric.push(name);
            }
        }
        assert!(silent.is_empty(), "{}", silent.join("\n"));
        // The test sees numbers of each kind: integers, floats, sizes.
        for known in [
            "gfxcache render --fragment-processors",
            "gfxcache tcor --tolerance",
            "gfxcache tcor --l2-size",
            "gfxcache nuca --private-sizes",
        ] {
            assert!(
                numeric.iter().any(|n| n == known),
                "{known} not seen as a number"
            );
        }
    }

    #[test]
    fn fps_is_a_deprecated_name_of_fragment_processors_where_it_was_one() {
        for study in ["tcor", "nuca"] {
            let parse = |flag: &str| {
                let words = ["gfxcache", study, "--scene", "city", flag, "8"];
                <super::Cli as clap::Parser>::try_parse_from(words)
                    .unwrap()
                    .command
            };
            let old = parse("--fps");
            assert_eq!(old.deprecations(), [super::cmd::FPS_DEPRECATED], "{study}");
            old.check().unwrap();
            assert!(parse("--fragment-processors").deprecations().is_empty());
        }
    }

    #[test]
    fn every_help_example_parses() {
        for (path, c) in commands() {
            let after = c
                .get_after_help()
                .map(|h| h.to_string())
                .unwrap_or_default();
            for line in after
                .lines()
                .map(str::trim)
                .filter(|l| l.starts_with("gfxcache "))
            {
                let words = line.split_whitespace();
                if let Err(e) = <super::Cli as clap::Parser>::try_parse_from(words) {
                    panic!("{path}: example `{line}` does not parse: {e}");
                }
            }
        }
    }
}
