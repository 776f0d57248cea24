//! The book's shader work of the suites (`BOOK/workload.md`, which the
//! machines chapter includes): each scene rendered as `gfxcache render
//! --json` renders it, at the frame of the paper measured on its class of
//! frames (the mobile suite at the DTM-NUCA study's, tile-based with
//! hidden surfaces removed; the desktop suite at the GSPC study's), and
//! per scene the instructions, scalar operations and texture requests a
//! fragment, the instructions a request and the fragments of each
//! program. No trace is written: only the summary is read.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use gfxcache_sweep::{Experiment, FramePoint};
use serde_json::Value;

use super::Paper;
use crate::Command;

/// A suite measured at a paper's frame, and the flags its study renders
/// with beyond the frame's size and mode.
struct Measured {
    paper: Paper,
    what: &'static str,
    flags: &'static [&'static str],
}

const MEASURED: [Measured; 2] = [
    Measured {
        paper: Paper::Nuca,
        what: "the mobile suite at the DTM-NUCA study's frame",
        // The study's tile-based frames remove hidden surfaces before
        // shading (its machine, `dtm-nuca`, is a TBDR).
        flags: &["--hsr"],
    },
    Measured {
        paper: Paper::Gspc,
        what: "the desktop suite at the GSPC study's frame",
        flags: &[],
    },
];

/// `gfxcache render`'s words for `frame` with `flags`, no file written.
fn words(frame: &FramePoint, flags: &[&str]) -> Vec<String> {
    let mut w = crate::sweep::frame_words(frame);
    w.extend(flags.iter().map(|f| f.to_string()));
    w
}

/// Renders every scene of each suite of [`MEASURED`] (small frames with
/// `quick`) and writes their shader work as markdown to `BOOK/workload.md`.
pub fn write(quick: bool, book: &Path, scratch: &Path) -> Result<PathBuf> {
    let mut md = String::from("<!-- Written by `gfxcache reproduce`: do not edit. -->\n\n");
    if quick {
        md += "**A quick run on small frames: its numbers are not the results.**\n\n";
    }
    for m in &MEASURED {
        let file = scratch.join(format!("{}.toml", m.paper.name()));
        crate::output::write_bytes(&file, m.paper.experiment(quick).as_bytes())?;
        let exp = Experiment::read(&file)?;
        let Some(first) = exp.frames.first() else {
            bail!("{}: no frame", file.display());
        };
        let mut shown = words(first, m.flags);
        shown[3] = "S".into();
        let _ = write!(
            md,
            "#### Shader work of {} ({}x{})\n\n*Each scene S as `{} --json` renders it \
             (field `shader`; gfxcache {}).*\n\n",
            m.what,
            first.width,
            first.height,
            shown.join(" "),
            gfxcache_sweep::VERSION
        );
        md += "| scene | instructions / fragment | scalar ops / fragment | requests / fragment \
               | instructions / request | fragments by program |\n\
               |---|---:|---:|---:|---:|---|\n";
        for frame in &exp.frames {
            eprintln!("reproduce: shader work of {}", frame.scene);
            let Command::Render(args) = crate::sweep::parse(&words(frame, m.flags))? else {
                unreachable!("render words parse as render");
            };
            let summary = super::super::render::summary(&args)
                .with_context(|| format!("rendering {}", frame.scene))?;
            md += &row(&frame.scene, &summary["shader"])
                .with_context(|| format!("{}: the render summary's shader", frame.scene))?;
        }
        md.push('\n');
    }
    let path = book.join("workload.md");
    crate::output::write_bytes(&path, md.as_bytes())?;
    Ok(path)
}

/// A scene's row from its render summary's `shader`.
fn row(scene: &str, shader: &Value) -> Result<String> {
    let total = &shader["total"];
    let number = |v: &Value, key: &str| v[key].as_f64().with_context(|| format!("no number {key}"));
    let fragments = number(total, "fragments")?;
    let mut programs: Vec<(String, f64)> = shader["programs"]
        .as_array()
        .context("no programs")?
        .iter()
        .map(|p| {
            let name = p["program"].as_str().unwrap_or("?").to_string();
            Ok((name, number(p, "fragments")?))
        })
        .collect::<Result<_>>()?;
    programs.retain(|(_, n)| *n > 0.0);
    programs.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let share = |n: f64| 100.0 * n / fragments.max(1.0);
    let (shown, small): (Vec<_>, Vec<_>) = programs.iter().partition(|(_, n)| share(*n) >= 0.5);
    let mut mix: Vec<String> = shown
        .iter()
        .map(|(name, n)| format!("{name} {:.0} %", share(*n)))
        .collect();
    if !small.is_empty() {
        mix.push(format!("{} more under 0.5 %", small.len()));
    }
    Ok(format!(
        "| {scene} | {:.1} | {:.1} | {:.2} | {:.1} | {} |\n",
        number(total, "instructions_per_fragment")?,
        number(total, "scalar_ops_per_fragment")?,
        number(total, "requests_per_fragment")?,
        number(total, "instructions_per_request")?,
        mix.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row: the totals' per-fragment and per-request figures, the
    /// programs by share of the fragments, largest first, those under
    /// half a percent counted, none with no fragment.
    #[test]
    fn a_scenes_row_from_its_render_summary() {
        let shader = serde_json::json!({
            "total": {
                "fragments": 1000,
                "instructions_per_fragment": 9.44,
                "scalar_ops_per_fragment": 23.66,
                "requests_per_fragment": 1.004,
                "instructions_per_request": 9.4,
            },
            "programs": [
                {"program": "ui", "fragments": 60},
                {"program": "pixel-lit", "fragments": 936},
                {"program": "sprite", "fragments": 4},
                {"program": "vertex-lit", "fragments": 0},
            ],
        });
        assert_eq!(
            row("maze", &shader).unwrap(),
            "| maze | 9.4 | 23.7 | 1.00 | 9.4 | pixel-lit 94 %, ui 6 %, 1 more under 0.5 % |\n"
        );
        let broken = serde_json::json!({"total": {"fragments": 1}});
        assert!(row("x", &broken).is_err(), "a summary without its figures");
    }

    /// The frames measured are those of the papers' experiments, as
    /// `gfxcache render` parses them.
    #[test]
    fn the_measured_frames_parse_as_render_commands() {
        let dir = tempfile::tempdir().unwrap();
        for m in &MEASURED {
            for quick in [false, true] {
                let file = dir.path().join(format!("{}.toml", m.paper.name()));
                std::fs::write(&file, m.paper.experiment(quick)).unwrap();
                let exp = Experiment::read(&file).unwrap();
                assert!(!exp.frames.is_empty());
                for f in &exp.frames {
                    let parsed = crate::sweep::parse(&words(f, m.flags)).unwrap();
                    assert!(matches!(parsed, Command::Render(_)));
                }
            }
        }
    }
}
