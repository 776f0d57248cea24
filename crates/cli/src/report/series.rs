//! Series over time: values sampled along a trace (a point every few
//! thousand accesses), one line per series, with the moments the trace
//! changes phase (pass starts, frame ends) marked as numbered vertical
//! lines so that a reader can look each number up in the page's table.
//! A figure's specification of kind series ([`gfxcache_report::Kind`])
//! becomes one of these in [`super::panels`].

use std::ops::Range;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::bars::OURS;
use super::curves::Stroke;
use super::figure::{chart_builder, Plot};
use super::legend::{Legend, Marker, Swatch};

struct Series {
    name: String,
    /// Index into the palette; `None` for a bound (black).
    colour: Option<usize>,
    stroke: Stroke,
    /// (x, y), by increasing x.
    points: Vec<(f64, f64)>,
}

impl Series {
    /// Its colour and whether it is dashed: a bound is black and dashed.
    fn look(&self) -> (RGBColor, bool) {
        match self.colour {
            Some(k) => (OURS[k % OURS.len()], self.stroke == Stroke::Dashed),
            None => (BLACK, true),
        }
    }
}

/// One chart of series over a common x axis.
pub struct SeriesPanel {
    subtitle: String,
    x_label: String,
    y_label: String,
    series: Vec<Series>,
    /// Where a phase begins, and its label (short: a number).
    marks: Vec<(f64, String)>,
    /// Where a bigger phase (a frame) ends.
    strong_marks: Vec<f64>,
}

/// The plot's width: wide enough to tell a few hundred points and a few
/// dozen marks apart, narrow enough for a page with the legend beside.
const WIDTH: u32 = 900;

impl SeriesPanel {
    pub fn new(subtitle: &str, x_label: &str, y_label: &str) -> SeriesPanel {
        SeriesPanel {
            subtitle: subtitle.into(),
            x_label: x_label.into(),
            y_label: y_label.into(),
            series: Vec::new(),
            marks: Vec::new(),
            strong_marks: Vec::new(),
        }
    }

    /// A line in palette colour `colour`, solid or dashed, without
    /// markers (too many points to mark); non-finite values are left out,
    /// and a series with no point is not kept.
    pub fn line(
        mut self,
        name: impl Into<String>,
        colour: usize,
        stroke: Stroke,
        points: Vec<(f64, f64)>,
    ) -> SeriesPanel {
        self.push(name.into(), Some(colour), stroke, points);
        self
    }

    /// A bound: a dashed black line.
    pub fn bound(mut self, name: impl Into<String>, points: Vec<(f64, f64)>) -> SeriesPanel {
        self.push(name.into(), None, Stroke::Dashed, points);
        self
    }

    fn push(
        &mut self,
        name: String,
        colour: Option<usize>,
        stroke: Stroke,
        points: Vec<(f64, f64)>,
    ) {
        let points: Vec<(f64, f64)> = points
            .into_iter()
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        if !points.is_empty() {
            self.series.push(Series {
                name,
                colour,
                stroke,
                points,
            });
        }
    }

    /// Numbered phase starts at `marks`, and frame ends at `strong`.
    pub fn marks(mut self, marks: Vec<(f64, String)>, strong: Vec<f64>) -> SeriesPanel {
        self.marks = marks;
        self.strong_marks = strong;
        self
    }

    /// The largest x (`axis` 0) or y (1) of any point, or 1 when none is
    /// above 0.
    fn largest(&self, axis: usize) -> f64 {
        let values = self.series.iter().flat_map(|s| {
            s.points
                .iter()
                .map(move |p| if axis == 0 { p.0 } else { p.1 })
        });
        let hi = values.fold(0.0f64, f64::max);
        if hi > 0.0 {
            hi
        } else {
            1.0
        }
    }

    fn x_range(&self) -> Range<f64> {
        0.0..self.largest(0)
    }

    /// From 0 to past the largest value, with room for the marks' labels
    /// (the legend is beside).
    fn y_range(&self) -> Range<f64> {
        let hi = self.largest(1);
        0.0..hi * 1.12
    }
}

/// What the specifications' tests read back.
#[cfg(test)]
impl SeriesPanel {
    /// The points of the line named `name`, if it has any.
    pub fn points_of(&self, name: &str) -> Option<&[(f64, f64)]> {
        let s = self.series.iter().find(|s| s.name == name)?;
        Some(&s.points)
    }

    /// The phase starts with their labels, and the frame ends.
    pub fn marked(&self) -> (&[(f64, String)], &[f64]) {
        (&self.marks, &self.strong_marks)
    }
}

impl Plot for SeriesPanel {
    /// A panel of bounds alone shows nothing measured: dropped.
    fn prune(&mut self) -> bool {
        self.series.iter().any(|s| s.colour.is_some())
    }

    fn width(&self) -> u32 {
        WIDTH
    }

    /// Each series' colour and stroke, and its name.
    fn legend(&self) -> Legend {
        let mut legend = Legend::new();
        for s in &self.series {
            let (colour, dashed) = s.look();
            let swatch = Swatch::Line {
                colour,
                dashed,
                marker: Marker::None,
            };
            legend.entry(s.name.clone(), swatch);
        }
        legend
    }

    fn draw(&self, area: &DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()> {
        let (xr, yr) = (self.x_range(), self.y_range());
        let mut chart =
            chart_builder(area, &self.subtitle, 40).build_cartesian_2d(xr.clone(), yr.clone())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_desc(self.x_label.as_str())
            .y_desc(self.y_label.as_str())
            .max_light_lines(1)
            .label_style(("sans-serif", 14))
            .draw()?;
        let top = yr.end;
        let light = RGBColor(200, 200, 200);
        chart.draw_series(
            self.marks
                .iter()
                .map(|(x, _)| PathElement::new(vec![(*x, 0.0), (*x, top)], light.stroke_width(1))),
        )?;
        chart.draw_series(
            self.strong_marks
                .iter()
                .map(|x| PathElement::new(vec![(*x, 0.0), (*x, top)], BLACK.stroke_width(2))),
        )?;
        // A label per mark, just right of its line near the top, unless it
        // would sit on the previous one.
        let min_gap = (xr.end - xr.start) * 14.0 / f64::from(WIDTH);
        let mut last = f64::NEG_INFINITY;
        let font = ("sans-serif", 11).into_font().color(&RGBColor(90, 90, 90));
        let mut labels = Vec::new();
        for (x, label) in &self.marks {
            if *x - last >= min_gap {
                labels.push(Text::new(label.clone(), (*x, top * 0.985), font.clone()));
                last = *x;
            }
        }
        chart.draw_series(labels)?;
        for s in &self.series {
            let (colour, dashed) = s.look();
            let style = colour.stroke_width(2);
            if dashed {
                let line = DashedPathElement::new(s.points.clone(), 7, 4, style);
                chart.draw_series(std::iter::once(line))?;
            } else {
                chart.draw_series(std::iter::once(PathElement::new(s.points.clone(), style)))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::figure::render;

    #[test]
    fn draws_series_marks_and_legend() -> anyhow::Result<()> {
        let up: Vec<(f64, f64)> = (0..50).map(|i| (f64::from(i), f64::from(i))).collect();
        let half = up.iter().map(|&(x, y)| (x, y / 2.0)).collect();
        let mut p = SeriesPanel::new("Counters", "accesses", "value")
            .line("PROD", 0, Stroke::Solid, up.clone())
            .line("CONS", 1, Stroke::Dashed, half)
            .line("empty", 2, Stroke::Solid, vec![(f64::NAN, 1.0)])
            .marks(
                vec![(0.0, "1".into()), (0.1, "2".into()), (25.0, "3".into())],
                vec![49.0],
            );
        assert!(p.prune());
        assert_eq!(
            p.series.len(),
            2,
            "a series without a finite point is dropped"
        );
        let svg = render("Timeline", &[p])?;
        for text in ["\nPROD\n", "\nCONS\n", "\n1\n", "\n3\n"] {
            assert!(svg.contains(text), "{text:?} missing");
        }
        // Mark 2 is too close to mark 1 to be labelled.
        assert!(!svg.contains("\n2\n"));
        Ok(())
    }

    #[test]
    fn a_panel_without_series_or_of_bounds_alone_is_dropped() {
        assert!(!SeriesPanel::new("t", "x", "y").prune());
        let mut bound = SeriesPanel::new("t", "x", "y").bound("at most", vec![(0.0, 1.0)]);
        assert!(!bound.prune());
    }
}
