//! A figure: an SVG file of one or more panels under a title, drawn with
//! plotters' SVG backend. Text is SVG `<text>`, so no font is loaded or
//! needed.
//!
//! A study states its figures as data ([`gfxcache_report::Figure`]);
//! [`super::panels`] makes each into panels, and [`write_panels`] writes
//! those with something to show and skips the rest.

use std::path::{Path, PathBuf};

use anyhow::Context;
use plotters::coord::Shift;
use plotters::prelude::*;

pub use super::legend::Legend;

/// One panel of a figure: a chart drawn into its share of the SVG.
pub trait Plot {
    /// Drops what has nothing to show; false if nothing is left, and the
    /// panel is then not drawn.
    fn prune(&mut self) -> bool;
    /// The width, in pixels, the panel's plot needs to be read (its
    /// legend is beside, in a strip as wide as the figure's widest).
    fn width(&self) -> u32;
    /// What the panel's colours and strokes stand for.
    fn legend(&self) -> Legend;
    /// The panel as panels whose plots are no wider than `max` pixels
    /// each, read top to bottom as one (the same axes, the same colours);
    /// itself if it fits or cannot be cut.
    fn fit(self, _max: u32) -> Vec<Self>
    where
        Self: Sized,
    {
        vec![self]
    }
    /// Draws the plot into `area` (the legend is drawn beside it).
    fn draw(&self, area: &DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()>;
}

/// Writes the figure `file` of `panels` under `title` into `dir`, those
/// with nothing to show left out and those too wide cut to fit; nothing
/// if no panel is left. Returns the path written.
pub fn write_panels<P: Plot>(
    dir: &Path,
    file: &str,
    title: &str,
    panels: Vec<P>,
) -> anyhow::Result<Option<PathBuf>> {
    let panels: Vec<P> = panels
        .into_iter()
        .filter_map(|mut p| p.prune().then_some(p))
        .collect();
    let room = PAGE_WIDTH.saturating_sub(legend_strip(&panels));
    let panels: Vec<P> = panels.into_iter().flat_map(|p| p.fit(room)).collect();
    if panels.is_empty() {
        return Ok(None);
    }
    let path = dir.join(file);
    let svg = render(title, &panels).with_context(|| format!("plotting {file}"))?;
    crate::output::write_bytes(&path, svg.as_bytes())?;
    Ok(Some(path))
}

/// The widest a figure is drawn, in pixels; a wider panel is cut
/// ([`Plot::fit`]). The page shows a figure at its own size up to its text
/// column's width (80em, about 1280 px) and scales a wider one down: at
/// this width a figure's smallest text (a bar's value, 12 px) stays above
/// 10 px in a window down to about 1000 px across.
pub const PAGE_WIDTH: u32 = 1100;

pub const PANEL_HEIGHT: u32 = 380;
const TITLE_HEIGHT: u32 = 40;

/// The width of the strip right of every panel of a figure for its
/// legend: the widest legend's, so that the panels' plots line up.
fn legend_strip<P: Plot>(panels: &[P]) -> u32 {
    panels.iter().map(|p| p.legend().width()).max().unwrap_or(0)
}

/// The SVG text of a figure: its title above its panels, each with its
/// legend beside.
pub fn render<P: Plot>(title: &str, panels: &[P]) -> anyhow::Result<String> {
    let strip = legend_strip(panels);
    let plot = panels.iter().map(Plot::width).max().unwrap_or(640);
    let width = plot + strip;
    let height = TITLE_HEIGHT + PANEL_HEIGHT * panels.len() as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let root = root.titled(title, ("sans-serif", 24))?;
        for (area, panel) in root.split_evenly((panels.len(), 1)).iter().zip(panels) {
            let (plot, side) = area.split_horizontally(width - strip);
            panel.legend().draw(&side)?;
            panel.draw(&plot)?;
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

    /// The width `svg` is drawn at, in pixels: its root's `width`.
    pub fn width(svg: &str) -> Option<u32> {
        let root = &svg[svg.find("<svg")?..];
        let at = root.find(" width=\"")? + " width=\"".len();
        let digits = root[at..].split('"').next()?;
        digits.parse().ok()
    }

    /// Every SVG figure in `dir` wider than [`super::PAGE_WIDTH`], with its
    /// width.
    pub fn too_wide(dir: &Path) -> anyhow::Result<Vec<(String, u32)>> {
        let mut wide = Vec::new();
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "svg") {
                let text = std::fs::read_to_string(&path)?;
                let w = width(&text).with_context(|| format!("no width in {}", path.display()))?;
                if w > super::PAGE_WIDTH {
                    wide.push((path.display().to_string(), w));
                }
            }
        }
        Ok(wide)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::bars::{Panel, Unit};

    /// A figure whose panel would be too wide is drawn as parts that fit,
    /// top to bottom, under the one title.
    #[test]
    fn a_wide_figure_is_drawn_within_the_page() -> anyhow::Result<()> {
        let cats: Vec<String> = (0..40).map(|i| format!("c{i}")).collect();
        let panels = vec![Panel::new("wide", "x", Unit::Ratio, cats.clone())
            .series("a", (0..40).map(|i| Some(f64::from(i))).collect())
            .series("b", (0..40).map(|i| Some(f64::from(40 - i))).collect())];
        let dir = tempfile::tempdir()?;
        write_panels(dir.path(), "wide.svg", "Wide", panels)?;
        let text = svg_text::svg(dir.path(), "wide.svg")?;
        let width = svg_text::width(&text);
        assert!(width.is_some_and(|w| w <= PAGE_WIDTH), "{width:?}");
        assert!(svg_text::too_wide(dir.path())?.is_empty());
        for c in &cats {
            assert!(svg_text::has(&text, c), "{c} missing");
        }
        assert!(text.contains("wide (1 of "));
        Ok(())
    }

    #[test]
    fn compact_counts() {
        assert_eq!(compact(987.0), "987");
        assert_eq!(compact(12_345.0), "12.3k");
        assert_eq!(compact(700_000.0), "700.0k");
        assert_eq!(compact(4_560_000.0), "4.56M");
        assert_eq!(compact(-2.5e9), "-2.50G");
    }
}
