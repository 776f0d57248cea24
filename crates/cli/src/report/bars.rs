//! Grouped bar charts: a group per category, a bar per series, each bar
//! labelled with its value; the papers' values in light tones beside ours.

use std::ops::Range;

use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::figure::{chart_builder, Plot};
use super::legend::{Legend, Marker, Swatch};

/// How a panel's values read: ratios (3 decimals) or percentages (1 decimal).
#[derive(Clone, Copy)]
pub enum Unit {
    Ratio,
    Percent,
}

impl Unit {
    /// The decimals of a panel's labels whose largest value (in
    /// magnitude) is `largest`: a ratio's 3; a percentage's 1, or 2 or 3
    /// where every value is under 1 or 0.1 (a change of 0.04 % is not
    /// written "0.0").
    fn decimals(self, largest: f64) -> usize {
        match self {
            Unit::Ratio => 3,
            Unit::Percent if largest < 0.1 => 3,
            Unit::Percent if largest < 1.0 => 2,
            Unit::Percent => 1,
        }
    }
}

/// One bar per category; `None` where there is nothing to show.
struct Series {
    name: String,
    values: Vec<Option<f64>>,
    /// Written after a bar's value, in parentheses (e.g. the absolute count
    /// behind a normalised bar); empty for none.
    notes: Vec<Option<String>>,
    /// The paper's values, drawn in light tones so they read as reference.
    paper: bool,
    /// Its place among the series of its kind (ours or the paper's): its
    /// colour, kept when a split panel leaves out a series with no bar.
    slot: usize,
    /// The colour its name has in every figure of the study, if the
    /// study lists it ([`Panel::ours`]).
    key: Option<usize>,
}

/// One grouped bar chart: a group per category, a bar per series.
pub struct Panel {
    subtitle: String,
    y_label: String,
    unit: Unit,
    categories: Vec<String>,
    /// Per category: whether its bars are the paper's values of each of
    /// our series (a suite's chart ends with the paper's average beside
    /// the mean), drawn in light tones of the series' colours.
    paper_category: Vec<bool>,
    series: Vec<Series>,
    /// A horizontal line, e.g. at 1.0 for DRRIP on normalised charts.
    reference: Option<f64>,
    /// Where the bars start: 0, or a ratio's 1 so that they rise or fall
    /// from it on an axis fit to the values.
    base: f64,
    /// The y axis's range when fixed: the parts of a split panel share
    /// the whole's, so that their bars compare.
    y_span: Option<Range<f64>>,
    /// The labels' decimals when fixed: a split panel's parts write the
    /// whole's.
    decimals: Option<usize>,
    /// Values a paper states only as bounds, drawn as dashed lines across
    /// a category's group, and the legend's name for them.
    marks: Vec<Mark>,
    marks_name: String,
}

/// A dashed line across the group of `category` at `value`, with `label`.
#[derive(Clone)]
struct Mark {
    category: String,
    value: f64,
    label: String,
}

impl Panel {
    pub fn new(subtitle: &str, y_label: &str, unit: Unit, categories: Vec<String>) -> Panel {
        Panel {
            subtitle: subtitle.into(),
            y_label: y_label.into(),
            unit,
            paper_category: vec![false; categories.len()],
            categories,
            series: Vec::new(),
            reference: None,
            base: 0.0,
            y_span: None,
            decimals: None,
            marks: Vec::new(),
            marks_name: String::new(),
        }
    }

    pub fn series(self, name: impl Into<String>, values: Vec<Option<f64>>) -> Panel {
        self.ours(name, values, Vec::new(), None)
    }

    /// A series of ours whose bars also show `notes` after their values.
    pub fn noted(
        self,
        name: impl Into<String>,
        values: Vec<Option<f64>>,
        notes: Vec<Option<String>>,
    ) -> Panel {
        self.ours(name, values, notes, None)
    }

    /// A series of ours, its bars noted with `notes` if any, in palette
    /// colour `key` if given (its design's in every figure); the series
    /// without one take, in order, the colours no keyed series has.
    pub fn ours(
        mut self,
        name: impl Into<String>,
        values: Vec<Option<f64>>,
        notes: Vec<Option<String>>,
        key: Option<usize>,
    ) -> Panel {
        self.push(name.into(), values, notes, false, key);
        self
    }

    pub fn paper(mut self, name: impl Into<String>, values: Vec<Option<f64>>) -> Panel {
        self.push(name.into(), values, Vec::new(), true, None);
        self
    }

    /// A last category `name` holding the paper's value of each series of
    /// ours (`value`, by the series' name), drawn in light tones of the
    /// series' colours; call it after the series.
    pub fn paper_group(mut self, name: &str, value: impl Fn(&str) -> Option<f64>) -> Panel {
        self.categories.push(name.to_string());
        self.paper_category.push(true);
        for s in &mut self.series {
            s.values.push(if s.paper { None } else { value(&s.name) });
            if !s.notes.is_empty() {
                s.notes.push(None);
            }
        }
        self
    }

    pub fn reference(mut self, at: f64) -> Panel {
        self.reference = Some(at);
        self
    }

    /// Bars from `base` rather than 0, up or down, with a line at it.
    pub fn from_base(mut self, base: f64) -> Panel {
        self.base = base;
        self.reference = Some(base);
        self
    }

    /// Values a paper gives only as bounds (a category, a value, a label
    /// for each), drawn as dashed lines across their categories' groups and
    /// named `name` in the legend; a mark of a category the panel lacks is
    /// not drawn.
    pub fn marks(mut self, name: &str, marks: Vec<(String, f64, String)>) -> Panel {
        self.marks_name = name.to_string();
        self.marks = marks
            .into_iter()
            .filter(|(c, v, _)| self.categories.contains(c) && v.is_finite())
            .map(|(category, value, label)| Mark {
                category,
                value,
                label,
            })
            .collect();
        self
    }

    /// Keeps a series only if it has a value: an all-empty "paper" series
    /// would put a legend entry on a chart with nothing behind it.
    fn push(
        &mut self,
        name: String,
        values: Vec<Option<f64>>,
        notes: Vec<Option<String>>,
        paper: bool,
        key: Option<usize>,
    ) {
        if values.iter().any(Option::is_some) {
            let slot = self.series.iter().filter(|s| s.paper == paper).count();
            self.series.push(Series {
                name,
                values,
                notes,
                paper,
                slot,
                key,
            });
            self.settle_colours();
        }
    }

    /// Each keyed series of ours in its key's colour, the others in turn
    /// in the lowest colours no keyed one has: done again after each
    /// series, as a later keyed one may take a colour given before.
    fn settle_colours(&mut self) {
        let keyed: Vec<usize> = self
            .series
            .iter()
            .filter(|s| !s.paper)
            .filter_map(|s| s.key.map(|k| k % OURS.len()))
            .collect();
        let mut free = (0..).filter(|k| !keyed.contains(&(k % OURS.len())));
        for s in self.series.iter_mut().filter(|s| !s.paper) {
            s.slot = match s.key {
                Some(k) => k,
                None => free.next().unwrap_or(0),
            };
        }
    }
}

/// The room beside the groups: the y axis and its labels (70 px) and the
/// margins (12 px a side), and a little more.
const MARGIN: u32 = 100;

/// The width of `groups` groups of `group` pixels each, and never less
/// than a chart with room for its legend.
fn width_of(groups: usize, group: u32) -> u32 {
    (MARGIN + group * groups as u32).max(640)
}

impl Panel {
    /// The pixels a category's group needs: each bar its value, the
    /// category its label.
    fn group_width(&self) -> u32 {
        let label = self
            .categories
            .iter()
            .map(|c| c.chars().count())
            .max()
            .unwrap_or(0) as u32;
        let bars = self.series.len() as u32;
        // The bars share 80 % of a group (`bar_x`), each at least 36 px
        // and as wide as its longest value at 12 px (a digit 6.5 px).
        let decimals = self.decimals();
        let values = self.series.iter().flat_map(|s| s.values.iter().flatten());
        let longest = values
            .map(|v| format!("{v:.decimals$}").len() as u32)
            .max()
            .unwrap_or(0);
        let bar = (longest * 13 / 2 + 3).max(36);
        let mut group = (bars * bar + 16).max(label * 7 + 16);
        // A noted bar's label, value and note, is wider than its value.
        let noted = self.series.iter().flat_map(|s| s.notes.iter().flatten());
        if let Some(chars) = noted.map(|n| n.chars().count() as u32 + 9).max() {
            group = group.max(bars * (chars * 7 + 6) + 24);
        }
        let marked = self.marks.iter().map(|m| m.label.chars().count() as u32);
        if let Some(chars) = marked.max() {
            group = group.max(chars * 6 + 12);
        }
        group
    }

    /// The decimals of its values' labels ([`Unit::decimals`]).
    fn decimals(&self) -> usize {
        let values = self.series.iter().flat_map(|s| s.values.iter().flatten());
        let largest = values.fold(0.0f64, |m, v| m.max(v.abs()));
        self.decimals.unwrap_or_else(|| self.unit.decimals(largest))
    }

    /// Categories `range` of this panel on the y axis `span`, without the
    /// series that have no bar there.
    fn part(&self, range: std::ops::Range<usize>, span: Range<f64>) -> Panel {
        let series = self
            .series
            .iter()
            .filter(|s| s.values[range.clone()].iter().any(Option::is_some))
            .map(|s| Series {
                name: s.name.clone(),
                values: s.values[range.clone()].to_vec(),
                notes: s.notes.get(range.clone()).map_or(Vec::new(), <[_]>::to_vec),
                paper: s.paper,
                slot: s.slot,
                key: s.key,
            })
            .collect();
        Panel {
            subtitle: self.subtitle.clone(),
            y_label: self.y_label.clone(),
            unit: self.unit,
            categories: self.categories[range.clone()].to_vec(),
            paper_category: self.paper_category[range.clone()].to_vec(),
            series,
            reference: self.reference,
            base: self.base,
            y_span: Some(span),
            decimals: Some(self.decimals()),
            marks: self
                .marks
                .iter()
                .filter(|m| self.categories[range.clone()].contains(&m.category))
                .cloned()
                .collect(),
            marks_name: self.marks_name.clone(),
        }
    }
}

impl Plot for Panel {
    /// Drops categories no series has a value for; false if nothing is left.
    fn prune(&mut self) -> bool {
        let keep: Vec<bool> = (0..self.categories.len())
            .map(|i| self.series.iter().any(|s| s.values[i].is_some()))
            .collect();
        let mut k = keep.iter();
        self.categories.retain(|_| *k.next().unwrap_or(&false));
        let mut k = keep.iter();
        self.paper_category.retain(|_| *k.next().unwrap_or(&false));
        for s in &mut self.series {
            let mut k = keep.iter();
            s.values.retain(|_| *k.next().unwrap_or(&false));
            if !s.notes.is_empty() {
                let mut k = keep.iter();
                s.notes.retain(|_| *k.next().unwrap_or(&false));
            }
        }
        let categories = &self.categories;
        self.marks.retain(|m| categories.contains(&m.category));
        !self.categories.is_empty()
    }

    /// Wide enough for every bar to carry its value and every category its
    /// label, horizontally: rotated labels are hard to read.
    fn width(&self) -> u32 {
        width_of(self.categories.len(), self.group_width())
    }

    /// Consecutive categories per part, as few parts as fit in `max`
    /// pixels and as even as can be, on the whole panel's y axis; a
    /// series with no bar in a part is left out of it (its legend entry
    /// would name nothing drawn) and the others keep their colours.
    fn fit(self, max: u32) -> Vec<Panel> {
        let n = self.categories.len();
        let fits = (max.saturating_sub(MARGIN) / self.group_width()).max(1) as usize;
        if self.width() <= max || n <= 1 {
            return vec![self];
        }
        let parts = n.div_ceil(fits);
        let each = n.div_ceil(parts);
        let span = y_range(&self);
        (0..n)
            .step_by(each)
            .enumerate()
            .map(|(k, from)| {
                let to = (from + each).min(n);
                let part = self.part(from..to, span.clone());
                let subtitle = format!("{} ({} of {parts})", self.subtitle, k + 1);
                Panel { subtitle, ..part }
            })
            .collect()
    }

    /// Each series' colour and name, and the marks' if any.
    fn legend(&self) -> Legend {
        let mut legend = Legend::new();
        for (j, s) in self.series.iter().enumerate() {
            legend.entry(s.name.clone(), Swatch::Fill(series_color(self, j)));
        }
        // The paper's group is named on the axis; the legend says its
        // light bars are the paper's too.
        if let Some(i) = self.paper_category.iter().position(|&p| p) {
            if let Some(j) = self.series.iter().position(|s| s.values[i].is_some()) {
                let swatch = Swatch::Fill(light(series_color(self, j)));
                legend.entry(self.categories[i].clone(), swatch);
            }
        }
        if !self.marks.is_empty() {
            let swatch = Swatch::Line {
                colour: MARK,
                dashed: true,
                marker: Marker::None,
            };
            legend.entry(self.marks_name.clone(), swatch);
        }
        legend
    }

    fn draw(&self, area: &DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()> {
        draw_panel(area, self)
    }
}

/// Colours of our series (a suite's charts may have nine policies; a
/// study's list of designs, [`gfxcache_report::Panel::colours`], up to
/// twelve), and light ones for the paper's.
pub const OURS: [RGBColor; 12] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(70, 70, 70),
    RGBColor(0, 110, 100),
    RGBColor(160, 110, 0),
];
const PAPER: [RGBColor; 4] = [
    RGBColor(170, 170, 170),
    RGBColor(240, 170, 170),
    RGBColor(170, 220, 170),
    RGBColor(210, 190, 230),
];

fn draw_panel(area: &DrawingArea<SVGBackend, Shift>, p: &Panel) -> anyhow::Result<()> {
    let x = Categories(p.categories.clone());
    let mut chart = chart_builder(area, &p.subtitle, 30).build_cartesian_2d(x, y_range(p))?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_desc(p.y_label.as_str())
        .max_light_lines(1)
        .label_style(("sans-serif", 14))
        .draw()?;
    let m = p.series.len();
    let decimals = p.decimals();
    for (j, s) in p.series.iter().enumerate() {
        let color = series_color(p, j);
        let bars: Vec<(usize, f64, f64, f64, Option<&str>)> = s
            .values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| (i, bar_x(i, j, m), v)))
            .map(|(i, (x0, x1), v)| (i, x0, x1, v, s.notes.get(i).and_then(|n| n.as_deref())))
            .collect();
        let style = |i: usize| match p.paper_category[i] {
            true => (light(color), true),
            false => (color, s.paper),
        };
        chart.draw_series(bars.iter().map(|&(i, x0, x1, v, _)| {
            let (color, paper) = style(i);
            bar(x0, x1, p.base, v, color, paper)
        }))?;
        chart.draw_series(
            bars.iter()
                .map(|&(_, x0, x1, v, note)| value_label(x0, x1, v, p.base, decimals, note)),
        )?;
    }
    if let Some(at) = p.reference {
        let line = vec![(0.0, at), (p.categories.len() as f64, at)];
        chart.draw_series(std::iter::once(PathElement::new(line, BLACK.mix(0.6))))?;
    }
    draw_marks(&mut chart, p)?;
    Ok(())
}

/// The colour of the marks of bounds.
const MARK: RGBColor = RGBColor(90, 90, 90);

/// Each mark as a dashed line across its group, its label above it (below
/// a negative one).
fn draw_marks<'a, 'b: 'a>(
    chart: &mut ChartContext<'a, SVGBackend<'b>, Cartesian2d<Categories, RangedCoordf64>>,
    p: &Panel,
) -> anyhow::Result<()> {
    if p.marks.is_empty() {
        return Ok(());
    }
    let style = MARK.stroke_width(2);
    let mut lines = Vec::new();
    let mut labels = Vec::new();
    for m in &p.marks {
        let Some(i) = p.categories.iter().position(|c| *c == m.category) else {
            continue;
        };
        let (x0, x1) = (i as f64 + 0.05, i as f64 + 0.95);
        lines.push(DashedPathElement::new(
            vec![(x0, m.value), (x1, m.value)],
            6,
            4,
            style,
        ));
        // A few pixels off the line, above it (below a negative one).
        let (v_pos, dy) = if m.value >= 0.0 {
            (VPos::Bottom, -3)
        } else {
            (VPos::Top, 3)
        };
        let font = TextStyle::from(("sans-serif", 11).into_font())
            .color(&MARK)
            .pos(Pos::new(HPos::Right, v_pos));
        labels.push(EmptyElement::at((x1, m.value)) + Text::new(m.label.clone(), (0, dy), font));
    }
    chart.draw_series(lines)?;
    chart.draw_series(labels)?;
    Ok(())
}

/// The paper's bars get an outline so they read apart from ours in grey.
fn bar(x0: f64, x1: f64, base: f64, v: f64, color: RGBColor, paper: bool) -> Rectangle<(f64, f64)> {
    let style = if paper {
        color.filled().stroke_width(1)
    } else {
        color.filled()
    };
    Rectangle::new([(x0, base), (x1, v)], style)
}

fn value_label(
    x0: f64,
    x1: f64,
    v: f64,
    base: f64,
    decimals: usize,
    note: Option<&str>,
) -> Text<'static, (f64, f64), String> {
    // Above a bar that rises from the base, below one that falls.
    let v_pos = if v >= base { VPos::Bottom } else { VPos::Top };
    let style = TextStyle::from(("sans-serif", 12).into_font()).pos(Pos::new(HPos::Center, v_pos));
    let text = match note {
        Some(note) => format!("{v:.decimals$} ({note})"),
        None => format!("{v:.decimals$}"),
    };
    Text::new(text, ((x0 + x1) / 2.0, v), style)
}

/// Ours in strong colours, the paper's in light ones, each counted apart so
/// the first paper series pairs with the first of ours.
fn series_color(p: &Panel, j: usize) -> RGBColor {
    let s = &p.series[j];
    if s.paper {
        PAPER[s.slot % PAPER.len()]
    } else {
        OURS[s.slot % OURS.len()]
    }
}

/// `c` halfway to white: the paper's bar of a series of ours.
fn light(c: RGBColor) -> RGBColor {
    let half = |x: u8| x + (255 - x) / 2;
    RGBColor(half(c.0), half(c.1), half(c.2))
}

/// The x extent of series `j` of `m` in category `i`: the bars of a group
/// share 80% of its width, leaving a gap between groups.
pub(super) fn bar_x(i: usize, j: usize, m: usize) -> (f64, f64) {
    let w = 0.8 / m as f64;
    let x0 = i as f64 + 0.1 + j as f64 * w;
    (x0, x0 + w)
}

/// From 0 (bars start there) to past the largest value, with room above
/// for the value labels.
fn y_range(p: &Panel) -> Range<f64> {
    if let Some(span) = &p.y_span {
        return span.clone();
    }
    let values = p.series.iter().flat_map(|s| s.values.iter().flatten());
    let marks = p.marks.iter().map(|m| &m.value);
    let (lo, hi) = values
        .chain(marks)
        .chain(p.reference.iter())
        .fold((p.base, p.base), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let span = if hi - lo > 0.0 { hi - lo } else { 1.0 };
    let lo = if lo < p.base {
        lo - 0.15 * span
    } else {
        p.base
    };
    // Room for the value labels above the bars; the legend is beside.
    lo..hi + 0.12 * span
}

/// An x axis of named categories: category `i` spans `i..i+1`, and its label
/// sits at the centre.
pub(super) struct Categories(pub(super) Vec<String>);

impl Ranged for Categories {
    type FormatOption = NoDefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = f64::from(limit.1 - limit.0);
        limit.0 + (value / self.0.len().max(1) as f64 * span).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, _hint: Hint) -> Vec<f64> {
        (0..self.0.len()).map(|i| i as f64 + 0.5).collect()
    }

    fn range(&self) -> Range<f64> {
        0.0..self.0.len() as f64
    }
}

impl ValueFormatter<f64> for Categories {
    fn format_ext(&self, value: &f64) -> String {
        let i = value.floor();
        if i >= 0.0 && (i as usize) < self.0.len() {
            self.0[i as usize].clone()
        } else {
            String::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn y_range_holds_negative_bars_and_zero() {
        let cats = names(&["t=2", "t=4"]);
        let p =
            Panel::new("t", "%", Unit::Percent, cats).series("ours", vec![Some(-4.0), Some(2.0)]);
        let r = y_range(&p);
        assert!(r.start < -4.0 && r.end > 2.0);
        let flat =
            Panel::new("t", "%", Unit::Percent, names(&["t=16"])).series("ours", vec![Some(0.0)]);
        assert!(
            y_range(&flat).end > 0.0,
            "an all-zero chart still has a height"
        );
    }

    /// Bars around a ratio's 1: the axis spans the values and the line,
    /// not 0; with every value at or above it, it starts at the line.
    #[test]
    fn bars_around_a_base_fit_the_axis_to_the_values() {
        let cats = names(&["a", "b"]);
        let p = Panel::new("t", "x", Unit::Ratio, cats.clone())
            .series("ours", vec![Some(0.95), Some(1.08)])
            .from_base(1.0);
        let r = y_range(&p);
        assert!(r.start > 0.9 && r.start < 0.95, "{r:?}");
        assert!(r.end > 1.08 && r.end < 1.1, "{r:?}");
        assert_eq!(p.reference, Some(1.0));
        let above = Panel::new("t", "x", Unit::Ratio, cats)
            .series("ours", vec![Some(1.01), Some(1.02)])
            .from_base(1.0);
        assert_eq!(y_range(&above).start, 1.0);
    }

    /// A keyed series keeps its design's colour whatever else the panel
    /// draws; the others take the colours no keyed one has, in turn, even
    /// when a keyed one comes after them.
    #[test]
    fn keyed_series_keep_their_colours() {
        let p = Panel::new("t", "x", Unit::Ratio, names(&["a"]))
            .series("other", vec![Some(1.0)])
            .ours("nbtc", vec![Some(2.0)], Vec::new(), Some(0))
            .paper("paper", vec![Some(3.0)])
            .ours("mshr", vec![Some(2.0)], Vec::new(), Some(3))
            .series("another", vec![Some(1.0)]);
        let slots: Vec<usize> = p.series.iter().map(|s| s.slot).collect();
        assert_eq!(slots, [1, 0, 0, 3, 2]);
        assert_eq!(series_color(&p, 1), OURS[0]);
        assert_eq!(series_color(&p, 2), PAPER[0], "the paper's count apart");
    }

    /// A percentage's labels carry the decimals its largest value needs;
    /// a ratio's always 3.
    #[test]
    fn small_percentages_keep_their_digits() {
        let cats = names(&["a", "b"]);
        let panel = |unit, values| Panel::new("t", "x", unit, cats.clone()).series("s", values);
        assert_eq!(
            panel(Unit::Percent, vec![Some(0.04), Some(-0.02)]).decimals(),
            3
        );
        assert_eq!(panel(Unit::Percent, vec![Some(0.4), None]).decimals(), 2);
        assert_eq!(
            panel(Unit::Percent, vec![Some(-12.5), Some(0.01)]).decimals(),
            1
        );
        assert_eq!(panel(Unit::Ratio, vec![Some(0.001), None]).decimals(), 3);
        let small = panel(Unit::Percent, vec![Some(0.04), Some(-0.02)]);
        let svg = super::super::figure::render("t", &[small]).expect("drawn");
        use super::super::figure::svg_text::has;
        assert!(has(&svg, "0.040") && has(&svg, "-0.020"), "{svg}");
    }

    #[test]
    fn bars_of_a_group_stay_inside_it() {
        let (x0, _) = bar_x(2, 0, 3);
        let (_, x1) = bar_x(2, 2, 3);
        assert!(x0 > 2.0 && x1 < 3.0);
        assert!((x1 - x0 - 0.8).abs() < 1e-9);
    }

    /// The paper's group holds each series' paper value, drawn light, and
    /// goes with prune like any category.
    #[test]
    fn a_paper_group_is_a_light_last_category() -> anyhow::Result<()> {
        let mut p = Panel::new("g", "x", Unit::Ratio, names(&["a", "b", "mean"]))
            .series("gspc", vec![Some(0.9), None, Some(0.8)])
            .series("nru", vec![Some(1.1), None, Some(1.05)])
            .paper_group("paper", |s| (s == "gspc").then_some(0.882));
        assert_eq!(p.categories.len(), 4);
        assert_eq!(p.series[0].values[3], Some(0.882));
        assert_eq!(p.series[1].values[3], None);
        assert!(p.prune());
        assert_eq!(p.categories, ["a", "mean", "paper"]);
        assert_eq!(p.paper_category, [false, false, true]);
        let legend: Vec<String> = p.legend().names().map(str::to_string).collect();
        assert_eq!(legend, ["gspc", "nru", "paper"], "the paper's group named");
        let svg = super::super::figure::render("t", &[p])?;
        assert!(svg.contains("0.882"));
        let light = light(OURS[0]);
        let fill = format!("#{:02X}{:02X}{:02X}", light.0, light.1, light.2);
        assert!(svg.to_uppercase().contains(&fill), "no bar in {fill}");
        Ok(())
    }

    /// Pruning a category drops its note too, so notes stay beside their
    /// bars; an empty series is not kept at all.
    #[test]
    fn notes_follow_their_bars_through_prune() -> anyhow::Result<()> {
        let mut p = Panel::new("n", "x", Unit::Ratio, names(&["a", "b", "c"]))
            .noted(
                "ours",
                vec![Some(1.0), None, Some(0.5)],
                vec![Some("10".into()), Some("gone".into()), Some("5".into())],
            )
            .paper("paper", vec![None, None, None]);
        assert!(p.prune());
        assert_eq!(p.categories, ["a", "c"]);
        assert_eq!(p.series.len(), 1);
        assert_eq!(p.series[0].notes, [Some("10".into()), Some("5".into())]);
        let svg = super::super::figure::render("t", &[p])?;
        assert!(svg.contains("0.500 (5)"));
        assert!(!svg.contains("gone"));
        Ok(())
    }

    /// A chart too wide for the page is cut into consecutive categories,
    /// each part within the width, on the whole's y axis, every series in
    /// its colour and only where it has a bar.
    #[test]
    fn a_wide_panel_is_cut_into_parts_that_fit() {
        let n = 30;
        let cats: Vec<String> = (0..n).map(|i| format!("scene{i}")).collect();
        let p = Panel::new("wide", "x", Unit::Ratio, cats.clone())
            .series("a", (0..n).map(|i| Some(i as f64)).collect())
            .series("b", (0..n).map(|i| (i >= 20).then_some(1.0)).collect())
            .paper("paper", (0..n).map(|i| (i == 0).then_some(0.5)).collect());
        let whole = y_range(&p);
        let b_colour = series_color(&p, 1);
        assert!(p.width() > 1100);
        let parts = p.fit(1100);
        assert!(parts.len() >= 2);
        let joined: Vec<String> = parts.iter().flat_map(|q| q.categories.clone()).collect();
        assert_eq!(joined, cats, "every category once, in order");
        for (k, q) in parts.iter().enumerate() {
            assert!(q.width() <= 1100, "part {k} is {} wide", q.width());
            assert_eq!(y_range(q), whole, "part {k} has its own y axis");
            assert!(q
                .subtitle
                .ends_with(&format!("({} of {})", k + 1, parts.len())));
            if let Some(j) = q.series.iter().position(|s| s.name == "b") {
                assert_eq!(series_color(q, j), b_colour, "b changed colour");
            }
        }
        let first = &parts[0];
        assert!(first.series.iter().any(|s| s.paper));
        assert!(
            !first.series.iter().any(|s| s.name == "b"),
            "b has no bar there"
        );
        let last = parts.last().unwrap();
        assert!(!last.series.iter().any(|s| s.paper));
    }

    #[test]
    fn a_panel_that_fits_is_itself() {
        let p = Panel::new("t", "x", Unit::Ratio, names(&["a", "b"]))
            .series("s", vec![Some(1.0), Some(2.0)]);
        let parts = p.fit(1100);
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].subtitle, "t");
        assert!(parts[0].y_span.is_none());
    }

    /// Bounds stated in words are dashed marks on their categories, in the
    /// y range and the legend; a mark of a pruned category goes with it.
    #[test]
    fn marks_sit_on_their_categories_and_go_with_them() -> anyhow::Result<()> {
        let mut p = Panel::new("t", "%", Unit::Percent, names(&["t=2", "t=4", "t=8"]))
            .series("ours", vec![Some(0.5), Some(0.2), None])
            .marks(
                "paper (bounds)",
                vec![
                    ("t=2".into(), -4.0, "below -4 %".into()),
                    ("t=8".into(), 3.0, "gone".into()),
                    ("t=64".into(), 9.0, "no such".into()),
                ],
            );
        assert_eq!(p.marks.len(), 2, "a mark of no category is not kept");
        assert!(y_range(&p).start < -4.0 && y_range(&p).end > 3.0);
        assert!(p.prune());
        assert_eq!(p.marks.len(), 1, "t=8 has no bar and goes");
        assert!(y_range(&p).end < 3.0);
        let svg = super::super::figure::render("t", &[p])?;
        assert!(svg.contains("\nbelow -4 %\n"));
        assert!(svg.contains("\npaper (bounds)\n"));
        assert!(!svg.contains("gone"));
        Ok(())
    }
}
