//! Miss-ratio curves: a value per cache size, one line per policy, sizes on
//! a log2 axis labelled as the papers name them (`48KiB`), with bounds
//! drawn as dashed black lines, and the legend beside the plot rather than
//! over its lines.

use std::ops::Range;

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::bars::OURS;
use super::figure::{chart_builder, compact, Plot};
use super::legend::{Legend, Marker, Swatch};
use gfxcache_cache::format_size;

/// How a line is drawn: solid with dots, or dashed with triangles, so two
/// policies of one colour (e.g. OPT and LRU at one associativity) read
/// apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stroke {
    Solid,
    Dashed,
}

struct Line {
    name: String,
    /// (bytes, value), by increasing size.
    points: Vec<(u64, f64)>,
    /// Index into the palette; `None` for a bound (black).
    colour: Option<usize>,
    stroke: Stroke,
}

/// One chart of lines over sizes.
pub struct CurvePanel {
    subtitle: String,
    y_label: String,
    lines: Vec<Line>,
    /// The y axis's top when fixed ([`same_y`]).
    y_top: Option<f64>,
}

/// At most this many sizes are labelled on the x axis; more are thinned.
const MAX_TICKS: usize = 10;

impl CurvePanel {
    pub fn new(subtitle: &str, y_label: &str) -> CurvePanel {
        CurvePanel {
            subtitle: subtitle.into(),
            y_label: y_label.into(),
            lines: Vec::new(),
            y_top: None,
        }
    }

    /// A line in palette colour `colour`; an empty one is not kept.
    pub fn line(
        mut self,
        name: impl Into<String>,
        colour: usize,
        stroke: Stroke,
        points: Vec<(u64, f64)>,
    ) -> CurvePanel {
        self.push(name.into(), Some(colour), stroke, points);
        self
    }

    /// A bound: a dashed black line without markers.
    pub fn bound(mut self, name: impl Into<String>, points: Vec<(u64, f64)>) -> CurvePanel {
        self.push(name.into(), None, Stroke::Dashed, points);
        self
    }

    fn push(
        &mut self,
        name: String,
        colour: Option<usize>,
        stroke: Stroke,
        points: Vec<(u64, f64)>,
    ) {
        let mut points: Vec<(u64, f64)> = points
            .into_iter()
            .filter(|&(b, v)| b > 0 && v.is_finite())
            .collect();
        points.sort_by_key(|&(b, _)| b);
        if !points.is_empty() {
            self.lines.push(Line {
                name,
                points,
                colour,
                stroke,
            });
        }
    }

    /// Every size any line has, once, in order.
    fn sizes(&self) -> Vec<u64> {
        let mut s: Vec<u64> = self
            .lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.0))
            .collect();
        s.sort_unstable();
        s.dedup();
        s
    }

    /// The sizes labelled on the x axis: all of them, or every k-th (the
    /// largest always) when there are more than [`MAX_TICKS`].
    fn ticks(&self) -> Vec<u64> {
        let sizes = self.sizes();
        let step = sizes.len().div_ceil(MAX_TICKS).max(1);
        let last = sizes.len().saturating_sub(1);
        sizes
            .iter()
            .enumerate()
            .filter(|&(i, _)| (last - i).is_multiple_of(step))
            .map(|(_, &s)| s)
            .collect()
    }

    /// From 0 to a little past the largest value: the legend is beside.
    fn y_range(&self) -> Range<f64> {
        if let Some(top) = self.y_top {
            return 0.0..top;
        }
        let hi = self
            .lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.1))
            .fold(0.0f64, f64::max);
        let hi = if hi > 0.0 { hi } else { 1.0 };
        0.0..hi * 1.08
    }
}

/// `panels` on one y axis, the highest's, so that their lines compare.
pub fn same_y<'a>(panels: impl IntoIterator<Item = &'a mut CurvePanel>) {
    let mut panels: Vec<&mut CurvePanel> = panels.into_iter().collect();
    let top = panels
        .iter()
        .filter(|p| !p.lines.is_empty())
        .map(|p| p.y_range().end)
        .fold(0.0f64, f64::max);
    for p in &mut panels {
        p.y_top = Some(top);
    }
}

impl Plot for CurvePanel {
    /// A panel of bounds alone shows nothing measured: dropped.
    fn prune(&mut self) -> bool {
        self.lines.iter().any(|l| l.colour.is_some())
    }

    fn width(&self) -> u32 {
        (160 + 64 * self.ticks().len() as u32).max(600)
    }

    /// Each line's stroke and marker, and its name.
    fn legend(&self) -> Legend {
        let mut legend = Legend::new();
        for line in &self.lines {
            let (colour, _) = style(line, 0);
            let (dashed, marker) = match (line.stroke, line.colour) {
                (Stroke::Solid, _) => (false, Marker::Dot),
                (Stroke::Dashed, Some(_)) => (true, Marker::Triangle),
                (Stroke::Dashed, None) => (true, Marker::None),
            };
            legend.entry(
                line.name.clone(),
                Swatch::Line {
                    colour,
                    dashed,
                    marker,
                },
            );
        }
        legend
    }

    fn draw(&self, area: &DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()> {
        self.draw_plot(area)
    }
}

impl CurvePanel {
    fn draw_plot(&self, area: &DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()> {
        let sizes = self.sizes();
        let (lo, hi) = match (sizes.first(), sizes.last()) {
            (Some(&lo), Some(&hi)) => (log2(lo), log2(hi)),
            _ => (0.0, 1.0),
        };
        let pad = ((hi - lo) * 0.04).max(0.3);
        let x = SizeAxis {
            range: lo - pad..hi + pad,
            ticks: self.ticks(),
        };
        let y = self.y_range();
        // Counts (not ratios) get short labels, so that they fit beside
        // the axis's name.
        let counts = y.end >= 1e4;
        let mut chart = chart_builder(area, &self.subtitle, 40).build_cartesian_2d(x, y)?;
        let label = |v: &f64| compact(*v);
        let mut mesh = chart.configure_mesh();
        mesh.x_desc("size")
            .y_desc(self.y_label.as_str())
            .max_light_lines(1)
            .label_style(("sans-serif", 14));
        if counts {
            mesh.y_label_formatter(&label);
        }
        mesh.draw()?;
        // Solid lines drawn widest first, each after a wider one: where
        // two have the same values (two policies of one miss ratio) the
        // one below shows as a border of the one above, not hidden.
        let solid = self
            .lines
            .iter()
            .filter(|l| l.stroke == Stroke::Solid)
            .count();
        let mut k = 0;
        for line in &self.lines {
            let extra = match line.stroke {
                Stroke::Solid => {
                    k += 1;
                    (solid - k).min(MAX_EXTRA) as u32
                }
                Stroke::Dashed => 0,
            };
            draw_line(&mut chart, line, extra)?;
        }
        Ok(())
    }
}

/// The most pixels a solid line is drawn wider than the last (and its
/// dots larger), so that one under another still shows.
const MAX_EXTRA: usize = 4;

/// A line's colour and width, `extra` pixels wider than the thinnest.
fn style(line: &Line, extra: u32) -> (RGBColor, ShapeStyle) {
    let colour = line.colour.map_or(BLACK, |k| OURS[k % OURS.len()]);
    (colour, colour.stroke_width(2 + extra))
}

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<SizeAxis, RangedCoordf64>>;

fn draw_line(chart: &mut Chart, line: &Line, extra: u32) -> anyhow::Result<()> {
    let (colour, style) = style(line, extra);
    let xy: Vec<(f64, f64)> = line.points.iter().map(|&(b, v)| (log2(b), v)).collect();
    match line.stroke {
        Stroke::Solid => {
            chart.draw_series(std::iter::once(PathElement::new(xy.clone(), style)))?;
            let r = 3 + extra as i32;
            chart.draw_series(xy.iter().map(|&p| Circle::new(p, r, colour.filled())))?;
        }
        Stroke::Dashed => {
            chart.draw_series(std::iter::once(DashedPathElement::new(
                xy.clone(),
                7,
                4,
                style,
            )))?;
            if line.colour.is_some() {
                chart.draw_series(
                    xy.iter()
                        .map(|&p| TriangleMarker::new(p, 4, colour.filled())),
                )?;
            }
        }
    }
    Ok(())
}

fn log2(bytes: u64) -> f64 {
    (bytes as f64).log2()
}

/// An x axis of sizes in bytes, spaced by log2 and labelled at `ticks`.
struct SizeAxis {
    range: Range<f64>,
    ticks: Vec<u64>,
}

impl Ranged for SizeAxis {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.range.end - self.range.start;
        let t = (value - self.range.start) / span;
        limit.0 + (t * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        self.ticks.iter().map(|&b| log2(b)).collect()
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

impl ValueFormatter<f64> for SizeAxis {
    /// The label of the tick nearest `value`.
    fn format_ext(&self, value: &f64) -> String {
        let nearest = self.ticks.iter().min_by(|a, b| {
            let (da, db) = ((log2(**a) - value).abs(), (log2(**b) - value).abs());
            da.total_cmp(&db)
        });
        nearest.map(|&b| format_size(b)).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::figure::render;

    const KIB: u64 = 1024;

    fn doubling(from_kib: u64, n: u32, ratio: f64) -> Vec<(u64, f64)> {
        (0..n)
            .map(|i| ((from_kib * KIB) << i, ratio / f64::from(i + 1)))
            .collect()
    }

    #[test]
    fn draws_lines_bound_and_size_labels() -> anyhow::Result<()> {
        let mut p = CurvePanel::new("Miss ratio", "miss ratio")
            .line("OPT", 0, Stroke::Solid, doubling(4, 4, 0.8))
            .line("LRU", 1, Stroke::Dashed, doubling(4, 4, 0.9))
            .bound("LB", doubling(4, 4, 0.5));
        assert!(p.prune());
        let svg = render("Figure", &[p])?;
        assert!(svg.starts_with("<svg"));
        for label in ["4KiB", "8KiB", "32KiB", "\nOPT\n", "\nLRU\n", "\nLB\n"] {
            assert!(svg.contains(label), "{label:?} missing");
        }
        Ok(())
    }

    #[test]
    fn thins_ticks_but_keeps_the_largest() {
        let p = CurvePanel::new("t", "y").line("a", 0, Stroke::Solid, doubling(1, 25, 1.0));
        let ticks = p.ticks();
        assert!(ticks.len() <= MAX_TICKS, "{} ticks", ticks.len());
        assert_eq!(ticks.last(), Some(&(KIB << 24)));
        let few = CurvePanel::new("t", "y").line("a", 0, Stroke::Solid, doubling(1, 3, 1.0));
        assert_eq!(few.ticks().len(), 3);
    }

    #[test]
    fn a_panel_of_bounds_or_nothing_is_dropped() {
        assert!(!CurvePanel::new("t", "y").prune());
        assert!(!CurvePanel::new("t", "y")
            .bound("LB", doubling(1, 3, 1.0))
            .prune());
        let empty_line = CurvePanel::new("t", "y").line("a", 0, Stroke::Solid, Vec::new());
        assert!(empty_line.lines.is_empty());
    }

    /// Eight lines leave the y axis where the data is (the legend is
    /// beside the plot, not over it), and panels on one axis share it.
    #[test]
    fn the_legend_takes_no_room_from_the_lines() -> anyhow::Result<()> {
        let mut p = CurvePanel::new("t", "y");
        for k in 0..8 {
            p = p.line(format!("line {k}"), k, Stroke::Solid, doubling(4, 6, 0.9));
        }
        let top = p.y_range().end;
        assert!((0.9..=1.0).contains(&top), "top {top}");
        assert!(p.width() >= 600 && p.legend().width() > 0);
        let svg = render("t", &[p])?;
        assert!(svg.contains("\nline 7\n"));
        let low = CurvePanel::new("low", "y").line("a", 0, Stroke::Solid, doubling(4, 3, 0.3));
        let high = CurvePanel::new("high", "y").line("b", 0, Stroke::Solid, doubling(4, 3, 0.6));
        let empty = CurvePanel::new("none", "y");
        let mut shared = [low, high, empty];
        same_y(&mut shared);
        assert_eq!(shared[0].y_range(), shared[1].y_range());
        assert!((shared[0].y_range().end - 0.6 * 1.08).abs() < 1e-9);
        Ok(())
    }
}
