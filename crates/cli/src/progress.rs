//! Progress bars on stderr. They draw only when stderr is a terminal, so
//! logs and `--json` runs stay clean.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use gfxcache_cache::{Progress, ProgressUnit};
use indicatif::{ProgressBar, ProgressStyle};

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
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("static template")
            .progress_chars("=> "),
    );
    bar.set_message(label.to_string());
    bar
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
