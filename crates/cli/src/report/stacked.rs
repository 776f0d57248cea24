//! Stacked bar charts: a group per category, a bar per design within it,
//! each bar cut into segments (the parts of a whole, e.g. a cycle count's
//! run, stall and wait cycles), its total above it and its name up its
//! foot (the bars of a group are alike in height, none too short for it).

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;

use super::bars::{bar_x, Categories, OURS};
use super::figure::{chart_builder, compact, Plot};
use super::legend::{Legend, Swatch};

/// One part of every bar: its name and, per group and bar, its value
/// (`None` where the bar is not there).
struct Segment {
    name: String,
    values: Vec<Vec<Option<f64>>>,
}

/// One chart of stacked bars: groups along the x axis, the same bars in
/// each, every bar the sum of its segments.
pub struct StackedPanel {
    subtitle: String,
    y_label: String,
    groups: Vec<String>,
    bars: Vec<String>,
    segments: Vec<Segment>,
    /// The y axis's top when fixed: the parts of a split panel share the
    /// whole's.
    top: Option<f64>,
}

impl StackedPanel {
    pub fn new(
        subtitle: &str,
        y_label: &str,
        groups: Vec<String>,
        bars: Vec<String>,
    ) -> StackedPanel {
        StackedPanel {
            subtitle: subtitle.into(),
            y_label: y_label.into(),
            groups,
            bars,
            segments: Vec::new(),
            top: None,
        }
    }

    /// A segment of every bar, `values[group][bar]`, stacked on the ones
    /// added before it. A segment that is zero or absent everywhere is not
    /// kept: its legend entry would name nothing drawn.
    pub fn segment(mut self, name: impl Into<String>, values: Vec<Vec<Option<f64>>>) -> Self {
        let drawn = values.iter().flatten().flatten().any(|&v| v != 0.0);
        if drawn {
            self.segments.push(Segment {
                name: name.into(),
                values,
            });
        }
        self
    }

    fn value(&self, s: &Segment, g: usize, b: usize) -> Option<f64> {
        s.values
            .get(g)
            .and_then(|row| row.get(b))
            .copied()
            .flatten()
    }

    /// The total of bar `b` in group `g`, if any segment has it.
    fn total(&self, g: usize, b: usize) -> Option<f64> {
        let parts: Vec<f64> = self
            .segments
            .iter()
            .filter_map(|s| self.value(s, g, b))
            .collect();
        (!parts.is_empty()).then(|| parts.iter().sum())
    }

    fn label(&self, g: usize, b: usize) -> Option<String> {
        self.total(g, b).map(compact)
    }

    /// The pixels a group needs: every bar's total side by side.
    fn group_width(&self) -> u32 {
        let label = (0..self.groups.len())
            .flat_map(|g| (0..self.bars.len()).filter_map(move |b| self.label(g, b)))
            .map(|l| l.chars().count() as u32)
            .max()
            .unwrap_or(0);
        (self.bars.len() as u32 * (label * 7 + 8) + 24).max(120)
    }

    /// The y axis's top: past the highest bar, with room for its total
    /// (the legend is beside).
    fn y_top(&self) -> f64 {
        if let Some(top) = self.top {
            return top;
        }
        let highest = (0..self.groups.len())
            .flat_map(|g| (0..self.bars.len()).filter_map(move |b| self.total(g, b)))
            .fold(0.0f64, f64::max);
        let span = if highest > 0.0 { highest } else { 1.0 };
        span * 1.12
    }

    /// Groups `range` of this panel under the y axis's top `top`.
    fn part(&self, range: std::ops::Range<usize>, top: f64, subtitle: String) -> StackedPanel {
        let segments = self
            .segments
            .iter()
            .map(|s| Segment {
                name: s.name.clone(),
                values: s
                    .values
                    .get(range.clone())
                    .map_or(Vec::new(), <[_]>::to_vec),
            })
            .collect();
        StackedPanel {
            subtitle,
            y_label: self.y_label.clone(),
            groups: self.groups[range].to_vec(),
            bars: self.bars.clone(),
            segments,
            top: Some(top),
        }
    }
}

/// The room beside the groups: the y axis and its labels (70 px) and the
/// margins (12 px a side), and a little more.
const MARGIN: u32 = 100;

impl Plot for StackedPanel {
    /// Drops groups and bars with no segment; false if nothing is left.
    fn prune(&mut self) -> bool {
        let keep_group: Vec<bool> = (0..self.groups.len())
            .map(|g| (0..self.bars.len()).any(|b| self.total(g, b).is_some()))
            .collect();
        let keep_bar: Vec<bool> = (0..self.bars.len())
            .map(|b| (0..self.groups.len()).any(|g| self.total(g, b).is_some()))
            .collect();
        for s in &mut self.segments {
            let mut g = 0;
            s.values.retain(|_| {
                g += 1;
                keep_group[g - 1]
            });
            for row in &mut s.values {
                let mut b = 0;
                row.retain(|_| {
                    b += 1;
                    keep_bar[b - 1]
                });
            }
        }
        let mut g = 0;
        self.groups.retain(|_| {
            g += 1;
            keep_group[g - 1]
        });
        let mut b = 0;
        self.bars.retain(|_| {
            b += 1;
            keep_bar[b - 1]
        });
        !self.groups.is_empty() && !self.bars.is_empty()
    }

    /// Wide enough for every bar's total side by side.
    fn width(&self) -> u32 {
        (MARGIN + self.group_width() * self.groups.len() as u32).max(640)
    }

    /// Consecutive groups per part, as few parts as fit in `max` pixels,
    /// on the whole panel's y axis; every part keeps every segment, so
    /// their colours and legends agree.
    fn fit(self, max: u32) -> Vec<StackedPanel> {
        let n = self.groups.len();
        if self.width() <= max || n <= 1 {
            return vec![self];
        }
        let fits = (max.saturating_sub(MARGIN) / self.group_width()).max(1) as usize;
        let parts = n.div_ceil(fits);
        let each = n.div_ceil(parts);
        let top = self.y_top();
        (0..n)
            .step_by(each)
            .enumerate()
            .map(|(k, from)| {
                let subtitle = format!("{} ({} of {parts})", self.subtitle, k + 1);
                self.part(from..(from + each).min(n), top, subtitle)
            })
            .collect()
    }

    /// Each segment's colour and name.
    fn legend(&self) -> Legend {
        let mut legend = Legend::new();
        for (k, s) in self.segments.iter().enumerate() {
            legend.entry(s.name.clone(), Swatch::Fill(OURS[k % OURS.len()]));
        }
        legend
    }

    fn draw(&self, area: &DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()> {
        let top = self.y_top();
        let x = Categories(self.groups.clone());
        let mut chart = chart_builder(area, &self.subtitle, 30).build_cartesian_2d(x, 0.0..top)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_desc(self.y_label.as_str())
            .y_label_formatter(&|v| compact(*v))
            .max_light_lines(1)
            .label_style(("sans-serif", 14))
            .draw()?;
        let m = self.bars.len();
        let mut base = vec![vec![0.0f64; m]; self.groups.len()];
        for (k, s) in self.segments.iter().enumerate() {
            let color = OURS[k % OURS.len()];
            let mut rects = Vec::new();
            for (g, row) in base.iter_mut().enumerate() {
                for (b, at) in row.iter_mut().enumerate() {
                    let Some(v) = self.value(s, g, b) else {
                        continue;
                    };
                    let (x0, x1) = bar_x(g, b, m);
                    rects.push(Rectangle::new([(x0, *at), (x1, *at + v)], color.filled()));
                    *at += v;
                }
            }
            chart.draw_series(rects)?;
        }
        let above = TextStyle::from(("sans-serif", 12).into_font())
            .pos(Pos::new(HPos::Center, VPos::Bottom));
        let up = TextStyle::from(
            ("sans-serif", 12)
                .into_font()
                .transform(FontTransform::Rotate270),
        )
        .color(&WHITE)
        .pos(Pos::new(HPos::Left, VPos::Center));
        let mut labels = Vec::new();
        for g in 0..self.groups.len() {
            for b in 0..m {
                let (Some(total), Some(text)) = (self.total(g, b), self.label(g, b)) else {
                    continue;
                };
                let (x0, x1) = bar_x(g, b, m);
                let x = (x0 + x1) / 2.0;
                labels.push(Text::new(text, (x, total), above.clone()));
                labels.push(Text::new(self.bars[b].clone(), (x, top * 0.02), up.clone()));
            }
        }
        chart.draw_series(labels)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::figure::render;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn bars_stack_their_segments_and_carry_their_totals() -> anyhow::Result<()> {
        let mut p = StackedPanel::new(
            "t",
            "cycles",
            names(&["50", "300"]),
            names(&["btc", "nbtc"]),
        )
        .segment(
            "run",
            vec![vec![Some(100.0), Some(100.0)], vec![Some(100.0), None]],
        )
        .segment(
            "stall",
            vec![vec![Some(50.0), Some(20.0)], vec![Some(400.0), None]],
        )
        .segment("never", vec![vec![Some(0.0), None], vec![None, None]]);
        assert_eq!(p.segments.len(), 2, "an all-zero segment is dropped");
        assert_eq!(p.total(0, 0), Some(150.0));
        assert_eq!(p.total(1, 1), None);
        assert!(p.prune());
        assert_eq!(p.bars, ["btc", "nbtc"]);
        let svg = render("Stacked", &[p])?;
        for text in [
            "\n150\n",
            "\n120\n",
            "\n500\n",
            "\nbtc\n",
            "\nnbtc\n",
            "\nrun\n",
            "\nstall\n",
        ] {
            assert!(svg.contains(text), "{text:?} missing");
        }
        assert!(!svg.contains("\nnever\n"));
        Ok(())
    }

    #[test]
    fn prune_drops_empty_groups_and_bars() {
        let mut p = StackedPanel::new("t", "y", names(&["a", "b"]), names(&["x", "y"]))
            .segment("s", vec![vec![Some(1.0), None], vec![None, None]]);
        assert!(p.prune());
        assert_eq!(p.groups, ["a"]);
        assert_eq!(p.bars, ["x"]);
        assert_eq!(p.segments[0].values, vec![vec![Some(1.0)]]);
        let mut empty = StackedPanel::new("t", "y", names(&["a"]), names(&["x"]));
        assert!(!empty.prune());
    }

    #[test]
    fn a_wide_panel_is_cut_into_parts_on_one_axis() {
        let n = 12;
        let groups: Vec<String> = (0..n).map(|g| format!("{g}")).collect();
        let bars = names(&["btc", "nbtc", "mshr", "prefetch"]);
        let values = |scale: f64| {
            (0..n)
                .map(|g| {
                    (0..4)
                        .map(|b| Some(1e6 * scale * (g * 4 + b + 1) as f64))
                        .collect()
                })
                .collect()
        };
        let p = StackedPanel::new("t", "cycles", groups.clone(), bars)
            .segment("run", values(1.0))
            .segment("stall", values(0.5));
        let top = p.y_top();
        let totals: Vec<Option<f64>> = (0..n).map(|g| p.total(g, 1)).collect();
        assert!(p.width() > 1100);
        let parts = p.fit(1100);
        assert!(parts.len() >= 2);
        let joined: Vec<String> = parts.iter().flat_map(|q| q.groups.clone()).collect();
        assert_eq!(joined, groups);
        let cut: Vec<Option<f64>> = parts
            .iter()
            .flat_map(|q| (0..q.groups.len()).map(|g| q.total(g, 1)))
            .collect();
        assert_eq!(cut, totals, "each bar keeps its segments");
        for q in &parts {
            assert!(q.width() <= 1100);
            assert_eq!(q.y_top(), top);
            assert_eq!(q.segments.len(), 2);
        }
    }
}
