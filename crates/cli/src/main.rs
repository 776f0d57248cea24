//! `gfxcache`: the command line of the simulator.
//!
//! Each subcommand lives in `cmd/`; this file only parses arguments and
//! turns errors into a message on stderr and a non-zero exit. Results go to
//! stdout (a table, or with `--json` one JSON document and nothing else);
//! progress and warnings go to stderr. An interrupt (SIGINT, SIGTERM,
//! SIGHUP) removes every output still being written and exits with 130.

mod cmd;
mod gspc;
mod nbtc;
mod nuca;
mod output;
mod progress;
mod report;
mod table;
mod tcor;

use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "gfxcache",
    version,
    about = "Memory-hierarchy simulator for graphics GPUs, driven by rendered frames"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Simulate a trace through caches of one geometry under one or more policies.
    Sim(cmd::sim::Args),
    /// Miss-ratio curves of LRU for every size (or every way count) in one pass.
    Mrc(cmd::mrc::Args),
    /// Inspect and convert traces.
    #[command(subcommand)]
    Trace(cmd::trace::Command),
    /// List the replacement policies and their parameters.
    Policies(cmd::policies::Args),
    /// The GSPC paper's LLC study on one frame, or each scene of a suite and their mean: every policy, reuse analyses, FPS.
    Gspc(cmd::gspc::Args),
    /// The TCOR paper's study on one tile-based frame, or each scene of a suite and their mean: Attribute Cache curves, PB traffic, energy.
    Tcor(cmd::tcor::Args),
    /// The DTM-NUCA paper's study on one tile-based frame, or each scene of a suite and their mean: private, D-NUCA and DTM-NUCA texture caches, hits, L2 traffic, speedup, energy, scaling, sweeps.
    Nuca(cmd::nuca::Args),
    /// The NBTC slides' study on one tile-based frame per filter mode, or each scene of a suite and their mean: the blocking, non-blocking, MSHR and prefetching texture caches at each memory latency, stall cycles, miss rate, memory traffic, sweeps.
    Nbtc(Box<cmd::nbtc::Args>),
    /// Render frames of a scene: the LLC trace, the picture, a summary.
    Render(cmd::render::Args),
    /// List the built-in scenes, by workload suite.
    Scenes(cmd::scenes::Args),
}

/// Exit status after an interrupt: 128 + SIGINT, as shells report it.
const INTERRUPTED: i32 = 130;

/// Set by the interrupt handler before it removes anything: the main
/// thread, which may meanwhile fail on a staged file the handler removed,
/// must then leave the exit (and its status) to the handler.
static INTERRUPTING: AtomicBool = AtomicBool::new(false);

/// On SIGINT, SIGTERM or SIGHUP: remove the temporary files (and staged
/// directories) of every output not yet complete, say so, and exit. The
/// handler runs on a thread of its own, so it may take locks and print.
fn remove_partial_outputs_on_interrupt() {
    let installed = ctrlc::set_handler(|| {
        INTERRUPTING.store(true, Ordering::SeqCst);
        let removed = gfxcache_trace::atomic::remove_registered();
        progress::clear();
        let what = match removed {
            0 => String::new(),
            1 => "; removed 1 unfinished output".to_string(),
            n => format!("; removed {n} unfinished outputs"),
        };
        eprintln!("error: interrupted{what}");
        std::process::exit(INTERRUPTED);
    });
    if let Err(e) = installed {
        eprintln!(
            "warning: cannot catch interrupts ({e}); an interrupted run may leave *.partial files"
        );
    }
}

/// The error and its causes on one line, as anyhow's `{:#}` prints them,
/// except that a cause whose text ends the line already (a library error
/// that shows its source and also returns it) is said once.
fn one_line(e: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if line.ends_with(&text) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&text);
    }
    line
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    remove_partial_outputs_on_interrupt();
    let result = match cli.command {
        Command::Sim(a) => cmd::sim::run(a),
        Command::Mrc(a) => cmd::mrc::run(a),
        Command::Trace(c) => cmd::trace::run(c),
        Command::Policies(a) => cmd::policies::run(a),
        Command::Gspc(a) => cmd::gspc::run(a),
        Command::Tcor(a) => cmd::tcor::run(a),
        Command::Nuca(a) => cmd::nuca::run(a),
        Command::Nbtc(a) => cmd::nbtc::run(*a),
        Command::Render(a) => cmd::render::run(a),
        Command::Scenes(a) => cmd::scenes::run(a),
    };
    if INTERRUPTING.load(Ordering::SeqCst) {
        // The handler exits with INTERRUPTED once it has cleaned up.
        loop {
            std::thread::park();
        }
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            progress::clear();
            eprintln!("error: {}", one_line(&e));
            ExitCode::FAILURE
        }
    }
}
