//! A panel's legend in a strip of its own right of the plot, so that it
//! never covers a bar or a line and the y axis needs no room for it: a
//! sample of each series (a filled box, or a stroke with its marker) and
//! its name, top down in the series' order.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// How a legend entry's sample is drawn.
#[derive(Clone, Copy)]
pub enum Swatch {
    /// A filled box: a bar or a stacked segment.
    Fill(RGBColor),
    /// A stroke, solid or dashed, with a marker at its middle.
    Line {
        colour: RGBColor,
        dashed: bool,
        marker: Marker,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    None,
    Dot,
    Triangle,
}

/// The entries of a panel's legend.
#[derive(Default)]
pub struct Legend(Vec<(String, Swatch)>);

/// The length of a sample, in pixels.
const SAMPLE: i32 = 28;
/// Level with the top of the plot: below the panel's margin and subtitle.
const TOP: i32 = 46;
/// From one entry to the next.
const STEP: i32 = 20;

impl Legend {
    pub fn new() -> Legend {
        Legend::default()
    }

    pub fn entry(&mut self, name: impl Into<String>, swatch: Swatch) {
        self.0.push((name.into(), swatch));
    }

    /// The entries' names, in order.
    #[cfg(test)]
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(n, _)| n.as_str())
    }

    /// The strip's width: the longest name beside its sample; none for no
    /// entry.
    pub fn width(&self) -> u32 {
        let chars = self.0.iter().map(|(n, _)| n.chars().count()).max();
        chars.map_or(0, |c| c as u32 * 7 + SAMPLE as u32 + 24)
    }

    /// Draws the entries into `area`, a strip right of the plot.
    pub fn draw(&self, area: &DrawingArea<SVGBackend, Shift>) -> anyhow::Result<()> {
        let (x0, x1) = (6, 6 + SAMPLE);
        let text =
            TextStyle::from(("sans-serif", 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        for (i, (name, swatch)) in self.0.iter().enumerate() {
            let y = TOP + STEP * i as i32;
            draw_swatch(area, *swatch, (x0, x1), y)?;
            area.draw(&Text::new(name.clone(), (x1 + 8, y), text.clone()))?;
        }
        Ok(())
    }
}

fn draw_swatch(
    area: &DrawingArea<SVGBackend, Shift>,
    swatch: Swatch,
    (x0, x1): (i32, i32),
    y: i32,
) -> anyhow::Result<()> {
    match swatch {
        Swatch::Fill(colour) => {
            let mid = (x0 + x1) / 2;
            area.draw(&Rectangle::new(
                [(mid - 7, y - 6), (mid + 7, y + 6)],
                colour.filled(),
            ))?;
        }
        Swatch::Line {
            colour,
            dashed,
            marker,
        } => {
            let style = colour.stroke_width(2);
            let stroke = vec![(x0, y), (x1, y)];
            if dashed {
                area.draw(&DashedPathElement::new(stroke, 5, 3, style))?;
            } else {
                area.draw(&PathElement::new(stroke, style))?;
            }
            let mid = ((x0 + x1) / 2, y);
            match marker {
                Marker::None => {}
                Marker::Dot => area.draw(&Circle::new(mid, 3, colour.filled()))?,
                Marker::Triangle => area.draw(&TriangleMarker::new(mid, 4, colour.filled()))?,
            }
        }
    }
    Ok(())
}
