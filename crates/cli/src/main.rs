//! `gfxcache`: the command line of the simulator.
//!
//! Each subcommand lives in the library (`lib.rs`, `cmd/`); this file only parses arguments and
//! turns errors into a message on stderr and a non-zero exit. Results go to
//! stdout (a table, or with `--json` one JSON document and nothing else);
//! progress and warnings go to stderr. An interrupt (SIGINT, SIGTERM,
//! SIGHUP) removes every output still being written and exits with 130.

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Parser;
use gfxcache_cli::{progress, Cli};

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
        // Not `eprintln!`, which panics when stderr is gone: a sweep's
        // worker whose sweep was killed gets SIGTERM with its stderr's
        // reader dead, and must still exit.
        let _ = writeln!(std::io::stderr(), "error: interrupted{what}");
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
    for warning in cli.command.deprecations() {
        eprintln!("warning: {warning}");
    }
    remove_partial_outputs_on_interrupt();
    let result = cli.command.run();
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
