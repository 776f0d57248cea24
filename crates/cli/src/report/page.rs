//! A study's `index.html` from its page as data ([`gfxcache_report::Page`]):
//! one self-contained page (inline CSS, no script, no external asset but
//! the SVG figures and the rendered frames beside it) laid out by one
//! template (`page.html`, minijinja, every value escaped): a table of
//! contents linking every section and figure, the setup, the warnings,
//! the rendered frame, then each section's table (the paper's values in
//! grey italics beside ours, in a box that scrolls sideways when wider
//! than the page, and down, under its fixed header, when longer than 30
//! rows: a suite's every scene's rows do not bury the figures) with its
//! figures after it, and the figures no section placed at the end.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use gfxcache_report::{Column, Figure, Format, Page, Picture, Section, Table, View};
use serde::Serialize;

use super::html::slug;
use crate::table::{human_bytes, thousands};

const TEMPLATE: &str = include_str!("page.html");

/// No text under 11 px: the body at 16 px, tables and captions at 14 px.
const STYLE: &str =
    "body{font-family:sans-serif;font-size:16px;margin:2em;max-width:80em;color:#222}\
div.table{overflow-x:auto;max-width:100%;margin:0.5em 0 1.5em}\
div.table.long{max-height:32em;overflow-y:auto;border-bottom:1px solid #bbb}\
table{border-collapse:collapse;font-size:14px}\
th,td{border:1px solid #bbb;padding:0.2em 0.6em;white-space:nowrap}\
td{text-align:right}td:first-child{text-align:left}\
th{background:#eee;position:sticky;top:0}td.paper{color:#555;font-style:italic}\
figure{margin:1.5em 0}img{max-width:100%}img.thumb{width:16em}\
figcaption{color:#444;font-size:14px}p.warning{color:#8a4b00}\
pre{font-size:13px;overflow-x:auto}\
nav.toc{background:#f6f6f6;border:1px solid #ddd;padding:0.5em 1em;margin:1em 0 2em}\
nav.toc ul{margin:0.2em 0;padding-left:1.4em}nav.toc h2{margin:0.2em 0;font-size:1.1em}";

#[derive(Serialize)]
struct OutPage<'a> {
    title: &'a str,
    style: &'static str,
    intro: &'a [String],
    warnings: &'a [String],
    sections: Vec<OutSection>,
}

/// A section as the template lays it out.
#[derive(Serialize, Default)]
pub struct OutSection {
    id: String,
    title: String,
    picture: Option<Picture>,
    lead: Vec<String>,
    table: Option<OutTable>,
    notes: Vec<String>,
    code: Vec<String>,
    figures: Vec<OutFigure>,
}

#[derive(Serialize)]
pub struct OutTable {
    head: Vec<String>,
    rows: Vec<Vec<OutCell>>,
    /// More than [`LONG_TABLE`] rows: it scrolls in its own box.
    long: bool,
}

#[derive(Serialize)]
pub struct OutCell {
    text: String,
    class: Option<&'static str>,
    href: Option<String>,
    image: Option<String>,
}

impl OutCell {
    pub fn text(text: String) -> OutCell {
        OutCell {
            text,
            class: None,
            href: None,
            image: None,
        }
    }

    /// `text` linking to `href`.
    pub fn link(href: String, text: String) -> OutCell {
        OutCell {
            href: Some(href),
            ..OutCell::text(text)
        }
    }

    /// The picture `src` small, linked to itself, `alt` its words.
    pub fn image(src: String, alt: String) -> OutCell {
        OutCell {
            image: Some(src),
            ..OutCell::text(alt)
        }
    }

    /// Nothing to show: a dash.
    pub fn none() -> OutCell {
        OutCell::text("–".into())
    }
}

/// A section the writer lays out itself (a suite's scenes, a sweep's
/// frames) rather than from a [`Section`] over a table.
impl OutSection {
    pub fn new(title: &str) -> OutSection {
        OutSection {
            title: title.into(),
            ..OutSection::default()
        }
    }

    pub fn lead(mut self, text: impl Into<String>) -> OutSection {
        self.lead.push(text.into());
        self
    }

    /// A table of `head` and `rows`, scrolling in its box when long.
    pub fn table(mut self, head: Vec<String>, rows: Vec<Vec<OutCell>>) -> OutSection {
        self.table = Some(OutTable {
            head,
            long: rows.len() > LONG_TABLE,
            rows,
        });
        self
    }

    /// The figure `file` (in the page's directory) under `title`, `words`
    /// its caption.
    pub fn figure(mut self, file: &str, title: &str, words: &str) -> OutSection {
        self.figures.push(OutFigure::new(file, title, words.into()));
        self
    }
}

#[derive(Serialize)]
struct OutFigure {
    id: String,
    file: String,
    title: String,
    words: String,
}

/// What the page of a report shows beside its data.
pub struct Context<'a> {
    /// The report's directory (a picture is shown only if it holds it).
    pub dir: &'a Path,
    /// The figures written, in order.
    pub written: &'a [PathBuf],
    pub warnings: &'a [String],
    /// Sections the writer adds after the page's own (a suite's scenes).
    pub extra: Vec<OutSection>,
}

/// The HTML of `page` over `tables` and `figures`.
pub fn render(page: &Page, tables: &[Table], figures: &[Figure], cx: Context) -> Result<String> {
    let mut sections = Vec::new();
    if let Some(p) = &page.picture {
        if cx.dir.join(&p.file).is_file() {
            sections.push(OutSection {
                title: "The rendered frame".into(),
                picture: Some(p.clone()),
                ..OutSection::default()
            });
        }
    }
    sections.extend(layout(page, tables, figures, cx.written, cx.extra)?);
    unique_ids(&mut sections);
    let out = OutPage {
        title: &page.title,
        style: STYLE,
        intro: &page.intro,
        warnings: cx.warnings,
        sections,
    };
    let mut env = minijinja::Environment::new();
    // Every value escaped as the rest of the report's HTML is (`html::esc`:
    // `&<>"'`, not minijinja's `/` too, so paths read as paths).
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::None);
    env.set_formatter(|out, _, value| {
        let text = value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string);
        write!(out, "{}", super::html::esc(&text)).map_err(minijinja::Error::from)
    });
    env.add_template("page.html", TEMPLATE)
        .context("the page's template")?;
    let t = env.get_template("page.html")?;
    t.render(minijinja::value::Serde(&out))
        .context("laying out the page")
}

/// Rows past which a table scrolls in its own box (on the page and in the
/// book).
const LONG_TABLE: usize = 30;

/// The book's box of a long table.
const LONG_BOX: &str = r#"<div style="max-height:32em;overflow:auto">"#;

/// `page` as markdown for the book: its intro, then each section's
/// heading (level 3), lead, table (each cell as the HTML page writes it,
/// without links), notes, code and figures (images under `images/`, each
/// with its caption and reading). No frame and no scene links: the
/// book's chapter is about the suite, its pages are the report's.
pub fn markdown(
    page: &Page,
    tables: &[Table],
    figures: &[Figure],
    written: &[PathBuf],
    images: &str,
) -> Result<String> {
    use std::fmt::Write as _;
    let mut out = String::new();
    for p in &page.intro {
        let _ = writeln!(out, "{}\n", md_text(p));
    }
    for s in layout(page, tables, figures, written, Vec::new())? {
        let _ = writeln!(out, "### {}\n", md_text(&s.title));
        for p in &s.lead {
            let _ = writeln!(out, "{}\n", md_text(p));
        }
        if let Some(t) = &s.table {
            // A long table scrolls in its own box, as on the page (the
            // blank lines keep the table markdown inside the HTML block).
            if t.long {
                out.push_str(LONG_BOX);
                out.push_str("\n\n");
            }
            let row = |cells: Vec<String>| format!("| {} |", cells.join(" | "));
            let _ = writeln!(out, "{}", row(t.head.iter().map(|h| md_text(h)).collect()));
            let _ = writeln!(out, "{}", row(vec!["---".into(); t.head.len()]));
            for r in &t.rows {
                let _ = writeln!(out, "{}", row(r.iter().map(|c| md_text(&c.text)).collect()));
            }
            out.push('\n');
            if t.long {
                out.push_str("</div>\n\n");
            }
        }
        for n in &s.notes {
            let _ = writeln!(out, "{}\n", md_text(n));
        }
        for c in &s.code {
            let _ = writeln!(out, "```text\n{}\n```\n", c.trim_end());
        }
        for f in &s.figures {
            let _ = writeln!(
                out,
                "![{}]({images}/{})\n\n*{}*\n",
                md_text(&f.title),
                f.file,
                md_text(&f.words)
            );
        }
    }
    Ok(out)
}

/// `text` as literal markdown: the characters markdown or HTML would
/// read as markup escaped (a `|` would end a table's cell, a `<scene>` be
/// taken for a tag), one line.
fn md_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// The page's own sections, then `extra`, then the figures of `written`
/// (in order) that no section placed: what every rendering of a page
/// (HTML, the book's markdown) lays out alike.
fn layout(
    page: &Page,
    tables: &[Table],
    figures: &[Figure],
    written: &[PathBuf],
    extra: Vec<OutSection>,
) -> Result<Vec<OutSection>> {
    let mut written: Vec<(String, bool)> = written
        .iter()
        .filter_map(|p| Some((p.file_name()?.to_str()?.to_string(), false)))
        .collect();
    let mut sections = Vec::new();
    for s in &page.sections {
        sections.push(section(s, tables, figures, &mut written)?);
    }
    sections.extend(extra);
    let rest: Vec<String> = written
        .iter()
        .filter(|(_, shown)| !shown)
        .map(|(f, _)| f.clone())
        .collect();
    if !rest.is_empty() {
        sections.push(OutSection {
            title: "Other figures".into(),
            figures: rest.iter().filter_map(|f| figure(f, figures)).collect(),
            ..OutSection::default()
        });
    }
    Ok(sections)
}

/// The figure written to `file`, as the page shows it.
fn figure(file: &str, figures: &[Figure]) -> Option<OutFigure> {
    let f = figures.iter().find(|f| f.file == file)?;
    Some(OutFigure::new(file, &f.title, f.words()))
}

impl OutFigure {
    /// The figure `file`, its id from the file's name (made unique with
    /// the page's).
    fn new(file: &str, title: &str, words: String) -> OutFigure {
        let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
        OutFigure {
            id: slug(stem),
            file: file.into(),
            title: title.into(),
            words,
        }
    }
}

fn section(
    s: &Section,
    tables: &[Table],
    figures: &[Figure],
    written: &mut [(String, bool)],
) -> Result<OutSection> {
    let table = s.view.as_ref().map(|v| view(v, tables)).transpose()?;
    let mut placed = Vec::new();
    for want in &s.figures {
        let prefix = want.strip_suffix('*');
        for (file, shown) in written.iter_mut() {
            let hit = match prefix {
                Some(p) => file.starts_with(p),
                None => file == want,
            };
            if hit && !*shown {
                *shown = true;
                placed.extend(figure(file, figures));
            }
        }
    }
    Ok(OutSection {
        id: String::new(),
        title: s.title.clone(),
        picture: None,
        lead: s.lead.clone(),
        table: table.filter(|t| !t.rows.is_empty()),
        notes: s.notes.clone(),
        code: s.code.clone(),
        figures: placed,
    })
}

/// Each section's and figure's id from its title, made unique.
fn unique_ids(sections: &mut [OutSection]) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut unique = |id: String| {
        let n = seen.entry(id.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            id
        } else {
            format!("{id}-{n}")
        }
    };
    for s in sections {
        s.id = unique(slug(&s.title));
        for f in &mut s.figures {
            f.id = unique(std::mem::take(&mut f.id));
        }
    }
}

/// The rows and columns of `v`, each cell written as its column says.
fn view(v: &View, tables: &[Table]) -> Result<OutTable> {
    let t = tables
        .iter()
        .find(|t| t.name() == v.table)
        .with_context(|| format!("the page shows table {}, which the report lacks", v.table))?;
    let on: Vec<(&str, &str)> = v
        .rows
        .iter()
        .map(|(c, x)| (c.as_str(), x.as_str()))
        .collect();
    let except: Vec<(usize, &str)> = v
        .except
        .iter()
        .filter_map(|(c, x)| Some((t.index(c)?, x.as_str())))
        .collect();
    let rows: Vec<usize> = t
        .rows_where(&on)
        .into_iter()
        .filter(|&r| except.iter().all(|(c, x)| t.cell(r, *c) != *x))
        .collect();
    let cols = v
        .columns
        .iter()
        .map(|c| {
            let i = t.index(&c.column).with_context(|| {
                format!(
                    "the page shows column {} of table {}, which it lacks",
                    c.column, v.table
                )
            })?;
            let mark = c
                .mark
                .as_ref()
                .map(|(m, _)| {
                    t.index(m)
                        .with_context(|| format!("no column {m} in {}", v.table))
                })
                .transpose()?;
            Ok((c, i, mark))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(OutTable {
        head: v.columns.iter().map(|c| c.heading.clone()).collect(),
        long: rows.len() > LONG_TABLE,
        rows: rows
            .iter()
            .map(|&r| {
                cols.iter()
                    .map(|&(c, i, mark)| {
                        let marked = mark.is_some_and(|m| t.cell(r, m) == "true");
                        cell(c, &t.cell(r, i), marked)
                    })
                    .collect()
            })
            .collect(),
    })
}

/// The cell of value `raw` (as the CSV has it) in column `c`.
fn cell(c: &Column, raw: &str, marked: bool) -> OutCell {
    let mut text = match (c.labels.iter().find(|(v, _)| v == raw), &c.blank) {
        (Some((_, label)), _) => label.clone(),
        (None, Some(blank)) if raw.is_empty() => blank.clone(),
        (None, _) => format(c.format, raw),
    };
    if !raw.is_empty() {
        text = c.template.replace("{}", &text);
        if let (true, Some((_, template))) = (marked, &c.mark) {
            text = template.replace("{}", &text);
        }
    }
    let href = c
        .link
        .as_ref()
        .filter(|_| !raw.is_empty() && !c.unlinked.iter().any(|u| u == raw))
        .map(|l| l.replace("{}", raw));
    OutCell {
        text,
        class: c.paper.then_some("paper"),
        href,
        image: None,
    }
}

/// `raw` written in `format`; a dash for an empty cell.
pub fn format(format: Format, raw: &str) -> String {
    if raw.is_empty() {
        return "–".into();
    }
    let number = raw.parse::<f64>().ok();
    let whole = raw.parse::<u64>().ok();
    match (format, number, whole) {
        (Format::Thousands, _, Some(n)) => thousands(n),
        (Format::Thousands, Some(x), None) => thousands(x.round().max(0.0) as u64),
        (Format::Signed, Some(x), _) => format!("{:+.1}%", x + 0.0),
        (Format::Share, Some(x), _) => format!("{x:.2}%"),
        (Format::Fraction, Some(x), _) => crate::table::percent(x),
        (Format::Bytes, _, Some(n)) => human_bytes(n),
        (Format::Bytes, Some(x), None) => human_bytes(x.round().max(0.0) as u64),
        (Format::Fixed2, Some(x), _) => format!("{x:.2}"),
        (Format::Scaled { divisor, decimals }, Some(x), _) => {
            format!("{:.*}", usize::from(decimals), x / divisor.max(1) as f64)
        }
        (Format::Size, _, Some(n)) => gfxcache_cache::format_size(n),
        (Format::Size, Some(x), None) => gfxcache_cache::format_size(x.round().max(0.0) as u64),
        _ => raw.to_string(),
    }
}

/// A suite's section linking each scene's own page (`<scene>/index.html`),
/// with its frame small where the report holds it (`<scene>/<picture>`)
/// and its warnings counted.
pub fn scenes_section(dir: &Path, scenes: &[(&str, Option<&str>, usize)]) -> OutSection {
    let rows = scenes
        .iter()
        .map(|&(scene, picture, warnings)| {
            let link = OutCell::link(format!("{scene}/index.html"), scene.to_string());
            let frame = match picture.map(|p| format!("{scene}/{p}")) {
                Some(src) if dir.join(&src).is_file() => {
                    OutCell::image(src, format!("{scene}'s frame"))
                }
                _ => OutCell::none(),
            };
            vec![link, frame, OutCell::text(warnings.to_string())]
        })
        .collect();
    OutSection::new("Scenes (each links to its own report)").table(
        ["scene", "frame", "warnings"].map(String::from).to_vec(),
        rows,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfxcache_report::{Axis, Mean, Panel, Report, TableBuilder, TableError, Unit};

    /// A study of our own: a table, a figure over it, and no page, writer
    /// or drawing code of its own.
    struct Toy;

    impl Report for Toy {
        fn tables(&self) -> Result<Vec<Table>, TableError> {
            Ok(vec![TableBuilder::new("runs", "a design's misses")
                .key("design", ["lru", "opt<"])
                .u64(
                    "misses",
                    Unit::Count,
                    Mean::Average,
                    [Some(1200), Some(900)],
                )
                .build()?])
        }

        fn figures(&self) -> Vec<Figure> {
            vec![Figure::new(
                "misses.svg",
                "Misses",
                "Each design's misses.",
                vec![Panel::bars("runs", Axis::of("design"), "design", "misses")],
            )]
        }
    }

    /// The page of a study given only as specifications: its table, its
    /// figure after it, every name escaped.
    #[test]
    fn a_toy_studys_page_from_specifications_alone() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let tables = Toy.tables()?;
        let figures = Toy.figures();
        let mut written = super::super::data::write_tables(dir.path(), &tables)?;
        let drawn = super::super::data::write_figures(dir.path(), &tables, &figures)?;
        written.extend(drawn.iter().cloned());
        let cx = Context {
            dir: dir.path(),
            written: &drawn,
            warnings: &["a <warning>".to_string()],
            extra: Vec::new(),
        };
        let html = render(&Toy.page()?, &tables, &figures, cx)?;
        assert!(html.contains("<td>opt&lt;</td><td>900</td>"), "{html}");
        let table = html.find("<table>").unwrap();
        let fig = html
            .find("<figure id=\"misses\"><img src=\"misses.svg\"")
            .unwrap();
        assert!(table < fig, "the figure follows its table");
        assert!(html.contains("<a href=\"#misses\">Misses</a>"));
        assert!(html.contains("Warning:</strong> a &lt;warning&gt;"));
        let names: Vec<String> = written
            .iter()
            .filter_map(|p| Some(p.file_name()?.to_str()?.to_string()))
            .collect();
        assert_eq!(names, ["runs.csv", "runs.parquet", "misses.svg"]);
        Ok(())
    }

    /// The book's markdown of the same page: the section's table row by
    /// row, then its figure under the images' directory with its words;
    /// what markdown would read as markup escaped.
    #[test]
    fn a_toy_studys_page_as_markdown() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let tables = Toy.tables()?;
        let figures = Toy.figures();
        let drawn = super::super::data::write_figures(dir.path(), &tables, &figures)?;
        let md = markdown(&Toy.page()?, &tables, &figures, &drawn, "results/toy")?;
        let table =
            md.find("| design | misses |\n| --- | --- |\n| lru | 1200 |\n| opt&lt; | 900 |");
        let figure = md.find("![Misses](results/toy/misses.svg)\n\n*Each design's misses.*");
        assert!(table.is_some() && figure.is_some(), "{md}");
        assert!(table < figure, "the figure follows its table: {md}");
        assert_eq!(
            md_text("a|b *c* <d> #1_2"),
            "a\\|b \\*c\\* &lt;d&gt; \\#1\\_2"
        );
        Ok(())
    }

    /// A table of more than [`LONG_TABLE`] rows scrolls in its own box
    /// on the page and in the book; a short one does not.
    #[test]
    fn a_long_table_scrolls_in_its_box() -> Result<()> {
        let dir = tempfile::tempdir()?;
        let table = |rows: u64| -> Result<Vec<Table>> {
            Ok(vec![TableBuilder::new("runs", "a run")
                .key_u64("run", Unit::None, 0..rows)
                .build()?])
        };
        for (rows, long) in [(LONG_TABLE as u64, false), (LONG_TABLE as u64 + 1, true)] {
            let tables = table(rows)?;
            let page = Page::plain("p", &tables, &[]);
            let cx = Context {
                dir: dir.path(),
                written: &[],
                warnings: &[],
                extra: Vec::new(),
            };
            let html = render(&page, &tables, &[], cx)?;
            assert_eq!(
                html.contains(r#"<div class="table long">"#),
                long,
                "{rows} rows"
            );
            let md = markdown(&page, &tables, &[], &[], "r")?;
            let boxed = md.find(LONG_BOX).zip(md.find("| run |"));
            assert_eq!(boxed.is_some_and(|(b, t)| b < t), long, "{md}");
            assert_eq!(md.contains("</div>"), long);
        }
        Ok(())
    }

    #[test]
    fn cells_are_formatted_marked_labelled_and_linked() {
        let c = Column::new("x", "x", Format::Signed);
        assert_eq!(cell(&c, "-41.64", false).text, "-41.6%");
        assert_eq!(cell(&c, "", false).text, "–");
        let paper = Column::new("x", "x", Format::Signed).paper("at most {}");
        let p = cell(&paper, "11", false);
        assert_eq!(
            (p.text.as_str(), p.class),
            ("at most +11.0%", Some("paper"))
        );
        let main = Column::new("v", "v", Format::Plain).mark("main", "{} (main)");
        assert_eq!(cell(&main, "32", true).text, "32 (main)");
        let knob = Column::new("k", "k", Format::Plain)
            .labels([("wlb_entries".to_string(), "WLB entries".to_string())]);
        assert_eq!(cell(&knob, "wlb_entries", false).text, "WLB entries");
        let scene = Column::new("scene", "scene", Format::Plain).link("{}/index.html", &["mean"]);
        assert_eq!(
            cell(&scene, "a", false).href.as_deref(),
            Some("a/index.html")
        );
        assert_eq!(cell(&scene, "mean", false).href, None);
        assert_eq!(format(Format::Thousands, "1234567"), "1,234,567");
        assert_eq!(format(Format::Bytes, "69600"), "68.0 KiB");
        assert_eq!(format(Format::Share, "93.8232421875"), "93.82%");
        assert_eq!(format(Format::Fraction, "0.5346"), "53.46%");
        assert_eq!(format(Format::decimals(3), "0.13"), "0.130");
        let micro = Format::Scaled {
            divisor: 1000,
            decimals: 2,
        };
        assert_eq!(format(micro, "93750.94"), "93.75");
        assert_eq!(format(Format::Size, "65536"), "64KiB");
        let reach = Column::new("b", "b", Format::Size).blank("not within the sweep");
        assert_eq!(cell(&reach, "", false).text, "not within the sweep");
        assert_eq!(cell(&reach, "8192", false).text, "8KiB");
    }
}
