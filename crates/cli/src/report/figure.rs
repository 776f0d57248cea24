//! A figure: an SVG file of one or more panels under a title, drawn with
//! plotters' SVG backend. Text is SVG `<text>`, so no font is loaded or
//! needed.
//!
//! A study lists its figures as [`Figure`]s, each building its panels from
//! the study's report; [`write_figures`] writes those with something to
//! show and skips the rest.

use std::path::{Path, PathBuf};

use anyhow::Context;
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;

/// One panel of a figure: a chart drawn into its share of the SVG.
pub trait Plot {
    /// Drops what has nothing to show; false if nothing is left, and the
    /// panel is then not drawn.
    fn prune(&mut self) -> bool;
    /// The width, in pixels, the panel needs to be read.
    fn width(&self) -> u32;
    fn draw(&self, area: &DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()>;
}

/// One figure of a paper: its file, its title and what it shows.
pub struct Figure<R, P> {
    pub file: &'static str,
    pub title: &'static str,
    pub caption: &'static str,
    /// The panels to draw, top to bottom, from the report.
    pub build: fn(&R) -> Vec<P>,
}

/// The title and caption of the figure of `figures` written to `file`.
pub fn about<R, P>(figures: &[Figure<R, P>], file: &str) -> Option<(&'static str, &'static str)> {
    figures
        .iter()
        .find(|f| f.file == file)
        .map(|f| (f.title, f.caption))
}

/// Writes every figure of `figures` that has something to show into `dir`;
/// returns the paths written, in the order of `figures`.
pub fn write_figures<R, P: Plot>(
    report: &R,
    figures: &[Figure<R, P>],
    dir: &Path,
) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for fig in figures {
        let panels: Vec<P> = (fig.build)(report)
            .into_iter()
            .filter_map(|mut p| p.prune().then_some(p))
            .collect();
        if panels.is_empty() {
            continue;
        }
        let path = dir.join(fig.file);
        let svg = render(fig.title, &panels).with_context(|| format!("plotting {}", fig.file))?;
        crate::output::write_bytes(&path, svg.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

pub const PANEL_HEIGHT: u32 = 380;
const TITLE_HEIGHT: u32 = 40;

/// The SVG text of a figure: its title above its panels.
pub fn render<P: Plot>(title: &str, panels: &[P]) -> anyhow::Result<String> {
    let width = panels.iter().map(Plot::width).max().unwrap_or(640);
    let height = TITLE_HEIGHT + PANEL_HEIGHT * panels.len() as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let root = root.titled(title, ("sans-serif", 24))?;
        for (area, panel) in root.split_evenly((panels.len(), 1)).iter().zip(panels) {
            panel.draw(area)?;
        }
        root.present()?;
    }
    Ok(svg)
}

/// A panel's chart: its subtitle above, `x_labels` pixels below for the x
/// axis's labels, room on the left for the y axis's.
pub fn chart_builder<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    subtitle: &str,
    x_labels: u32,
) -> ChartBuilder<'a, 'static, SVGBackend<'b>> {
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(subtitle, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(x_labels)
        .y_label_area_size(70);
    builder
}

/// The legend of every series labelled so far, at the upper right.
pub fn draw_legend<'a, 'b: 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, CT>,
) -> anyhow::Result<()> {
    chart
        .configure_series_labels()
        .label_font(("sans-serif", 13))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperRight)
        .draw()?;
    Ok(())
}

/// A count in few characters, for a bar's label or an axis: `987`,
/// `12.3k`, `4.56M`.
pub fn compact(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{:.2}G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.2}M", v / 1e6)
    } else if a >= 1e4 {
        format!("{:.1}k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

/// What the studies' figure tests read back.
#[cfg(test)]
pub mod svg_text {
    use std::path::Path;

    use anyhow::Context;

    /// The SVG `file` written into `dir`.
    pub fn svg(dir: &Path, file: &str) -> anyhow::Result<String> {
        let path = dir.join(file);
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
    }

    /// Whether `svg` shows `text`: plotters writes each text on a line of
    /// its own.
    pub fn has(svg: &str, text: &str) -> bool {
        svg.contains(&format!("\n{text}\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::compact;

    #[test]
    fn compact_counts() {
        assert_eq!(compact(987.0), "987");
        assert_eq!(compact(12_345.0), "12.3k");
        assert_eq!(compact(700_000.0), "700.0k");
        assert_eq!(compact(4_560_000.0), "4.56M");
        assert_eq!(compact(-2.5e9), "-2.50G");
    }
}
