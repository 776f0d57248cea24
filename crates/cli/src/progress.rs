//! Progress on stderr (never on stdout, so `--json` stays one document).
//! On a terminal, bars that redraw in place; otherwise (a log, CI, a
//! notebook) the same text as plain lines, one every
//! [`LOG_LINE_INTERVAL`] at most per bar, so that long work is never
//! silent and a log is not flooded.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use gfxcache_cache::{Progress, ProgressUnit};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// How often a bar writes its line when stderr is not a terminal.
pub const LOG_LINE_INTERVAL: Duration = Duration::from_secs(5);

/// A byte-based bar for a pass over a file of `total` bytes.
pub fn bytes(label: &str, total: u64) -> ProgressBar {
    bar(
        label,
        total,
        "{msg:>12} [{bar:40}] {bytes}/{total_bytes} ({eta})",
    )
}

/// A bar counting `total` items (frames, passes).
pub fn count(label: &str, total: u64) -> ProgressBar {
    bar(label, total, "{msg:>12} [{bar:40}] {pos}/{len} ({eta})")
}

/// A bar of a rendering session in the frame graph's passes: a frame of
/// a large scene takes seconds, and its passes are what moves.
pub fn passes(label: &str, total: u64) -> ProgressBar {
    bar(
        label,
        total,
        "{msg:>12} [{bar:40}] {pos}/{len} passes ({eta})",
    )
}

/// Set while jobs run side by side (a sweep): their bars would draw over
/// each other, so they are hidden and the sweep reports per job instead.
static HIDDEN: AtomicBool = AtomicBool::new(false);

/// Hides every bar made from now on (`true`), or shows them again.
pub fn hide_bars(hidden: bool) {
    HIDDEN.store(hidden, Ordering::Relaxed);
}

fn bar(label: &str, total: u64, template: &str) -> ProgressBar {
    if HIDDEN.load(Ordering::Relaxed) {
        return ProgressBar::hidden();
    }
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(total)
    } else {
        ProgressBar::with_draw_target(
            Some(total),
            ProgressDrawTarget::term_like_with_hz(Box::new(LogLines::default()), 1),
        )
    };
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("static template")
            .progress_chars("=> "),
    );
    bar.set_message(label.to_string());
    bar
}

/// A bar's drawing as plain lines on stderr: each drawing's text (cursor
/// moves and padding dropped) written as one line, the first at once and
/// then at most one every [`LOG_LINE_INTERVAL`], and only when it changed.
#[derive(Debug, Default)]
struct LogLines {
    state: Mutex<LogState>,
}

#[derive(Debug, Default)]
struct LogState {
    drawing: String,
    last: String,
    at: Option<Instant>,
}

impl TermLike for LogLines {
    fn width(&self) -> u16 {
        120
    }

    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.write_str(s)
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        if let Ok(mut state) = self.state.lock() {
            state.drawing.push_str(s.trim_start_matches('\r'));
        }
        Ok(())
    }

    fn clear_line(&self) -> std::io::Result<()> {
        Ok(())
    }

    fn flush(&self) -> std::io::Result<()> {
        let Ok(mut state) = self.state.lock() else {
            return Ok(());
        };
        let line = std::mem::take(&mut state.drawing).trim().to_string();
        let due = state.at.is_none_or(|t| t.elapsed() >= LOG_LINE_INTERVAL);
        if line.is_empty() || line == state.last || !due {
            return Ok(());
        }
        // A log whose reader is gone is no reason to fail the work.
        let _ = writeln!(std::io::stderr(), "{line}");
        state.last = line;
        state.at = Some(Instant::now());
        Ok(())
    }
}

/// The bars of a library computation that reports [`Progress`]: one bar
/// per phase, replaced when the phase changes, cleared when dropped.
#[derive(Default)]
pub struct Bars {
    current: Mutex<Option<(&'static str, ProgressBar)>>,
}

impl Bars {
    pub fn new() -> Bars {
        Bars::default()
    }

    /// Shows `p` (the callback to hand a study: `&|p| bars.show(p)`).
    pub fn show(&self, p: Progress) {
        let Ok(mut current) = self.current.lock() else {
            return;
        };
        match &*current {
            Some((phase, bar)) if *phase == p.phase => bar.set_position(p.done),
            _ => {
                if let Some((_, old)) = current.take() {
                    old.finish_and_clear();
                }
                let bar = match p.unit {
                    ProgressUnit::Bytes => bytes(p.phase, p.total),
                    ProgressUnit::Items => count(p.phase, p.total),
                };
                bar.set_position(p.done);
                *current = Some((p.phase, bar));
            }
        }
    }

    /// Starts scene `k` of `n` of a suite (from 1): the bar of the scene
    /// before goes, and a line on stderr says which scene the next bars
    /// are about (kept in logs too, where bars are not drawn).
    pub fn scene(&self, k: usize, n: usize, name: &str) {
        if let Ok(mut current) = self.current.lock() {
            if let Some((_, bar)) = current.take() {
                bar.finish_and_clear();
            }
        }
        eprintln!("scene {k}/{n}: {name}");
    }
}

impl Drop for Bars {
    fn drop(&mut self) {
        if let Ok(mut current) = self.current.lock() {
            if let Some((_, bar)) = current.take() {
                bar.finish_and_clear();
            }
        }
    }
}

/// Nothing to do yet: bars are cleared when dropped. Kept as the one place
/// to hook terminal clean-up before an error message.
pub fn clear() {}
