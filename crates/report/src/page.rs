//! A study's page as data: its title, the paragraphs that set it up, the
//! rendered frame, and sections, each a heading, a view of one table
//! (which rows, which columns, each under its heading and in its
//! [`Format`], the paper's columns set apart), notes, and the figures
//! shown after it. The writer (`crates/cli/src/report/page.rs`) lays it
//! out through one template; a study writes no HTML.

use serde::{Deserialize, Serialize};

/// A whole page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Page {
    pub title: String,
    /// Paragraphs before the sections (plain text, escaped by the writer).
    pub intro: Vec<String>,
    /// The rendered frame: shown only if the report's directory holds it.
    pub picture: Option<Picture>,
    pub sections: Vec<Section>,
}

impl Page {
    /// A page of `title` with a section per table, every column as the CSV
    /// has it, each figure after the table its first panel draws (the
    /// page of a study that states no page of its own).
    pub fn plain(title: &str, tables: &[crate::Table], figures: &[crate::Figure]) -> Page {
        let sections = tables
            .iter()
            .map(|t| {
                let mut view = View::of(t.name());
                for c in t.columns() {
                    view = view.column(c, c, Format::Plain);
                }
                let drawn: Vec<&str> = figures
                    .iter()
                    .filter(|f| f.panels.first().is_some_and(|p| p.table == t.name()))
                    .map(|f| f.file.as_str())
                    .collect();
                Section::new(t.name())
                    .lead(t.about())
                    .view(view)
                    .figures(&drawn)
            })
            .collect();
        Page {
            title: title.into(),
            intro: Vec::new(),
            picture: None,
            sections,
        }
    }
}

/// A picture in the report's directory, under its own heading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Picture {
    pub file: String,
    pub caption: String,
}

/// A heading, a table, words and figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Section {
    pub title: String,
    /// Paragraphs before the table.
    pub lead: Vec<String>,
    pub view: Option<View>,
    /// Paragraphs after the table.
    pub notes: Vec<String>,
    /// Preformatted blocks (a configuration as JSON).
    pub code: Vec<String>,
    /// The figures shown after it: a file, or every figure whose file
    /// starts with a prefix ending in `*` (`sweep_*`), in the order
    /// written; a figure not written is left out.
    pub figures: Vec<String>,
}

impl Section {
    pub fn new(title: &str) -> Section {
        Section {
            title: title.into(),
            lead: Vec::new(),
            view: None,
            notes: Vec::new(),
            code: Vec::new(),
            figures: Vec::new(),
        }
    }

    pub fn lead(mut self, text: impl Into<String>) -> Section {
        self.lead.push(text.into());
        self
    }

    pub fn view(mut self, view: View) -> Section {
        self.view = Some(view);
        self
    }

    pub fn note(mut self, text: impl Into<String>) -> Section {
        self.notes.push(text.into());
        self
    }

    pub fn code(mut self, text: impl Into<String>) -> Section {
        self.code.push(text.into());
        self
    }

    pub fn figures(mut self, files: &[&str]) -> Section {
        self.figures.extend(files.iter().map(|f| f.to_string()));
        self
    }
}

/// How a cell's value is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// As the CSV has it.
    Plain,
    /// A count with thousands separators: `1,234,567`.
    Thousands,
    /// A signed percentage, one decimal: `-41.6%`, `+3.0%`.
    Signed,
    /// A percentage, two decimals: `6.25%`.
    Share,
    /// A fraction (0 to 1) as a percentage, two decimals: `0.0625` is
    /// `6.25%`.
    Fraction,
    /// Bytes in binary units: `68.0 KiB`.
    Bytes,
    /// A number with two decimals.
    Fixed2,
    /// A number over `divisor`, with `decimals` decimals: nJ as µJ
    /// (`divisor` 1000), bytes as MiB (1048576); [`Format::decimals`]
    /// for the number itself.
    Scaled { divisor: u64, decimals: u8 },
    /// A size as the command line writes one: `64KiB`, `1MiB`, `100B`.
    Size,
}

impl Format {
    /// A number with `decimals` decimals (`0.130`, `93750.9`).
    pub const fn decimals(decimals: u8) -> Format {
        Format::Scaled {
            divisor: 1,
            decimals,
        }
    }
}

/// Which rows of a table, which columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub table: String,
    /// Only the rows whose column reads as the value.
    pub rows: Vec<(String, String)>,
    /// Not the rows whose column reads as the value.
    pub except: Vec<(String, String)>,
    pub columns: Vec<Column>,
}

impl View {
    pub fn of(table: &str) -> View {
        View {
            table: table.into(),
            rows: Vec::new(),
            except: Vec::new(),
            columns: Vec::new(),
        }
    }

    pub fn rows(mut self, column: &str, value: &str) -> View {
        self.rows.push((column.into(), value.into()));
        self
    }

    pub fn except(mut self, column: &str, value: &str) -> View {
        self.except.push((column.into(), value.into()));
        self
    }

    /// A column under `heading`, written in `format`.
    pub fn column(mut self, column: &str, heading: &str, format: Format) -> View {
        self.columns.push(Column::new(column, heading, format));
        self
    }

    /// A column set up beyond its format ([`Column`]'s builders).
    pub fn with(mut self, column: Column) -> View {
        self.columns.push(column);
        self
    }
}

/// One column of a view.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Column {
    pub column: String,
    pub heading: String,
    pub format: Format,
    /// The paper's values: set apart (grey italics).
    pub paper: bool,
    /// The formatted value written through this (`at most {}`).
    pub template: String,
    /// Values shown under another name (a knob's title).
    pub labels: Vec<(String, String)>,
    /// Written through `marked` instead where the row's `mark` column is
    /// true (`{} (main)`).
    pub mark: Option<(String, String)>,
    /// A link to this (`{}/index.html`: a suite's scene's page), except
    /// for the values of `unlinked`.
    pub link: Option<String>,
    pub unlinked: Vec<String>,
    /// What an empty cell reads as (a dash unless set).
    #[serde(default)]
    pub blank: Option<String>,
}

impl Column {
    pub fn new(column: &str, heading: &str, format: Format) -> Column {
        Column {
            column: column.into(),
            heading: heading.into(),
            format,
            paper: false,
            template: "{}".into(),
            labels: Vec::new(),
            mark: None,
            link: None,
            unlinked: Vec::new(),
            blank: None,
        }
    }

    /// An empty cell written as `text` (`not within the sweep`).
    pub fn blank(mut self, text: &str) -> Column {
        self.blank = Some(text.into());
        self
    }

    /// The paper's value, written through `template`.
    pub fn paper(mut self, template: &str) -> Column {
        self.paper = true;
        self.template = template.into();
        self
    }

    pub fn labels(mut self, labels: impl IntoIterator<Item = (String, String)>) -> Column {
        self.labels.extend(labels);
        self
    }

    pub fn mark(mut self, column: &str, template: &str) -> Column {
        self.mark = Some((column.into(), template.into()));
        self
    }

    /// Each value a link to `template` (`{}` is the value), but `except`.
    pub fn link(mut self, template: &str, except: &[&str]) -> Column {
        self.link = Some(template.into());
        self.unlinked = except.iter().map(|s| s.to_string()).collect();
        self
    }
}

/// Wall-clock seconds of each phase, in words: `render 0.34 s, l2 0.06 s`.
pub fn seconds_words(seconds: &std::collections::BTreeMap<String, f64>) -> String {
    let phases: Vec<String> = seconds
        .iter()
        .map(|(phase, s)| format!("{phase} {s:.2} s"))
        .collect();
    phases.join(", ")
}

/// A suite page's last section: each scene's seconds of each phase.
pub fn seconds_per_scene<'a>(
    scenes: impl IntoIterator<Item = (&'a str, &'a std::collections::BTreeMap<String, f64>)>,
) -> Section {
    let mut section = Section::new("Wall-clock seconds per scene and phase");
    section.notes = scenes
        .into_iter()
        .map(|(n, seconds)| format!("{n}: {}.", seconds_words(seconds)))
        .collect();
    section
}

/// The scene (or the trace, without one) and the resolution, for a
/// page's title: `city at 1280x720`.
pub fn scene_words(scene: Option<&str>, trace: &str, resolution: Option<(u32, u32)>) -> String {
    let scene = scene.unwrap_or(trace);
    let res = resolution
        .map(|(w, h)| format!(" at {w}x{h}"))
        .unwrap_or_default();
    format!("{scene}{res}")
}

/// A configuration as pretty JSON, for a page's code block.
pub fn pretty_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

/// `1234567` -> `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}
