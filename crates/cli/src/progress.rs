//! Progress bars on stderr. They draw only when stderr is a terminal, so
//! logs and `--json` runs stay clean.

use indicatif::{ProgressBar, ProgressStyle};

/// A byte-based bar for a pass over a file of `total` bytes.
pub fn bytes(label: &str, total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{msg:>12} [{bar:40}] {bytes}/{total_bytes} ({eta})")
            .expect("static template")
            .progress_chars("=> "),
    );
    bar.set_message(label.to_string());
    bar
}

/// A bar counting `total` items (frames, passes).
pub fn count(label: &str, total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{msg:>12} [{bar:40}] {pos}/{len} ({eta})")
            .expect("static template")
            .progress_chars("=> "),
    );
    bar.set_message(label.to_string());
    bar
}

/// Nothing to do yet: bars are cleared when dropped. Kept as the one place
/// to hook terminal clean-up before an error message.
pub fn clear() {}
