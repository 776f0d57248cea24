//! The pieces of a study's `index.html`: one self-contained page (inline
//! CSS, no script, no external asset but the SVG plots and the rendered
//! frame beside it) of headed tables, the paper's values in grey italics
//! beside ours, each figure right after the table it plots ([`Figures`]),
//! and a table of contents at the top linking every section and figure
//! ([`page`]).
//!
//! Every string from a report goes through [`esc`]: scene and policy names
//! come from files and command lines.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:80em;color:#222}\
table{border-collapse:collapse;margin:0.5em 0 1.5em}\
th,td{border:1px solid #bbb;padding:0.2em 0.6em}\
td{text-align:right}td:first-child{text-align:left}\
th{background:#eee}td.paper{color:#666;font-style:italic}\
figure{margin:1.5em 0}img{max-width:100%}figcaption{color:#444}\
nav.toc{background:#f6f6f6;border:1px solid #ddd;padding:0.5em 1em;margin:1em 0 2em}\
nav.toc ul{margin:0.2em 0;padding-left:1.4em}nav.toc h2{margin:0.2em 0;font-size:1.1em}";

/// The title of a study's page on a suite, escaped: `<study> study: the
/// <suite> suite (<n> scenes)`.
pub fn suite_title<R: gfxcache_cache::suite::SuiteMean>(
    study: &str,
    r: &gfxcache_cache::suite::SuiteReport<R>,
) -> String {
    format!(
        "{study} study: the {} suite ({} scenes)",
        esc(&r.suite),
        r.scenes.len()
    )
}

/// The whole page: `title` (already escaped) as its `<h1>`, a table of
/// contents of `body`'s sections and figures, then `body`, each of whose
/// ids is made unique.
pub fn page(title: &str, body: &str) -> String {
    let body = unique_ids(body);
    head(title) + &contents(&body) + &body + TAIL
}

/// The page up to and including its `<h1>`; `title` is already escaped.
pub fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
    )
}

/// What closes the page [`head`] opened.
pub const TAIL: &str = "</body>\n</html>\n";

/// What marks an entry of the table of contents: a section's heading
/// ([`h2`]) or a figure ([`Figures`]).
const HEADING: &str = "<h2 id=\"";
const FIGURE: &str = "<figure id=\"";

/// A section's heading, with an id made from its title for the table of
/// contents.
pub fn h2(title: &str) -> String {
    format!("{HEADING}{}\">{}</h2>\n", slug(title), esc(title))
}

/// An id from `title`: its letters and digits in lower case, each run of
/// anything else one `-`, at most about 60 characters, cut at a `-`.
pub fn slug(title: &str) -> String {
    let mut id = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    if id.len() > 60 {
        let cut = id[..60].rfind('-').unwrap_or(60);
        id.truncate(cut);
    }
    let id = id.trim_end_matches('-');
    if id.is_empty() {
        "section".to_string()
    } else {
        id.to_string()
    }
}

/// The id at the start of `s` (just after `id="`), and the rest after
/// its closing quote.
fn id_at(s: &str) -> Option<(&str, &str)> {
    let end = s.find('"')?;
    Some((&s[..end], &s[end + 1..]))
}

/// `body` with each id of a heading or figure that an earlier one already
/// has suffixed `-2`, `-3`, ...
fn unique_ids(body: &str) -> String {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while let Some((at, mark)) = next_entry(rest) {
        out.push_str(&rest[..at + mark.len()]);
        let Some((id, after)) = id_at(&rest[at + mark.len()..]) else {
            break;
        };
        let n = seen.entry(id.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 {
            out.push_str(id);
        } else {
            let _ = write!(out, "{id}-{n}");
        }
        out.push('"');
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Where in `s` the next heading or figure starts, and which it is.
fn next_entry(s: &str) -> Option<(usize, &'static str)> {
    let h = s.find(HEADING).map(|i| (i, HEADING));
    let f = s.find(FIGURE).map(|i| (i, FIGURE));
    match (h, f) {
        (Some(a), Some(b)) => Some(if a.0 < b.0 { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// The table of contents of `body`: a link to each section, and under it
/// to each figure that follows it; nothing if `body` has no section.
fn contents(body: &str) -> String {
    let mut items: Vec<(String, Vec<String>)> = Vec::new();
    let mut loose: Vec<String> = Vec::new();
    let mut rest = body;
    while let Some((at, mark)) = next_entry(rest) {
        let Some((id, after)) = id_at(&rest[at + mark.len()..]) else {
            break;
        };
        let (open, close) = if mark == HEADING {
            (">", "</h2>")
        } else {
            ("<figcaption><b>", "</b>")
        };
        let text = after
            .find(open)
            .map(|i| &after[i + open.len()..])
            .and_then(|t| t.find(close).map(|j| &t[..j]))
            .unwrap_or(id);
        let link = format!("<a href=\"#{id}\">{text}</a>");
        match (mark == HEADING, items.last_mut()) {
            (true, _) => items.push((link, Vec::new())),
            (false, Some(last)) => last.1.push(link),
            (false, None) => loose.push(link),
        }
        rest = after;
    }
    if items.is_empty() && loose.is_empty() {
        return String::new();
    }
    let mut h = String::from("<nav class=\"toc\">\n<h2>Contents</h2>\n<ul>\n");
    for link in loose {
        let _ = writeln!(h, "<li>{link}</li>");
    }
    for (link, figures) in items {
        if figures.is_empty() {
            let _ = writeln!(h, "<li>{link}</li>");
        } else {
            let inner: String = figures.iter().map(|f| format!("<li>{f}</li>")).collect();
            let _ = writeln!(h, "<li>{link}<ul>{inner}</ul></li>");
        }
    }
    h + "</ul>\n</nav>\n"
}

/// The rendered frame `src` (a picture in the report), shown whole under
/// its own heading, linked to itself, with `caption` (already escaped).
pub fn frame(src: &str, caption: &str) -> String {
    let src = esc(src);
    format!(
        "{}<figure><a href=\"{src}\"><img src=\"{src}\" alt=\"the rendered frame\"></a>\
         <figcaption>{caption}</figcaption></figure>\n",
        h2("The rendered frame")
    )
}

/// A `<td>`, already escaped.
#[derive(Clone)]
pub struct Cell(String);

pub fn text(s: &str) -> Cell {
    Cell(format!("<td>{}</td>", esc(s)))
}

/// Words that wrap, set left (cells but the first are set right, for
/// numbers).
pub fn prose(s: &str) -> Cell {
    Cell(format!("<td style=\"text-align:left\">{}</td>", esc(s)))
}

/// A number, or a dash for a value the study did not measure.
pub fn cell(v: Option<String>) -> Cell {
    Cell(format!("<td>{}</td>", esc(v.as_deref().unwrap_or("–"))))
}

/// A cell linking to `href` (a path in the report) with `label`.
pub fn link(href: &str, label: &str) -> Cell {
    Cell(format!(
        "<td><a href=\"{}\">{}</a></td>",
        esc(href),
        esc(label)
    ))
}

/// A cell showing the picture `src` (a path in the report) small, linked
/// to itself at full size.
pub fn thumbnail(src: &str, alt: &str) -> Cell {
    Cell(format!(
        "<td><a href=\"{0}\"><img src=\"{0}\" alt=\"{1}\" style=\"width:16em\"></a></td>",
        esc(src),
        esc(alt)
    ))
}

pub fn paper_cell(v: Option<String>) -> Cell {
    Cell(format!(
        "<td class=\"paper\">{}</td>",
        esc(v.as_deref().unwrap_or("–"))
    ))
}

/// A heading and a table; nothing if there are no rows.
pub fn section(title: &str, head: &[String], rows: impl Iterator<Item = Vec<Cell>>) -> String {
    let body: String = rows
        .map(|row| {
            let cells: String = row.into_iter().map(|c| c.0).collect();
            format!("<tr>{cells}</tr>\n")
        })
        .collect();
    if body.is_empty() {
        return String::new();
    }
    let head: String = head
        .iter()
        .map(|h| format!("<th>{}</th>", esc(h)))
        .collect();
    format!("{}<table>\n<tr>{head}</tr>\n{body}</table>\n", h2(title))
}

/// The figures a page shows, each once: each figure right after the table
/// it plots ([`Figures::take`]), the rest at the end ([`Figures::rest`]).
/// A figure not written (nothing to show) is nothing.
pub struct Figures<'a> {
    /// The file names written, in order, and whether each is shown yet.
    written: Vec<(String, bool)>,
    about: About<'a>,
}

/// The title and caption of the figure in a file.
type About<'a> = Box<dyn Fn(&str) -> Option<(String, String)> + 'a>;

impl<'a> Figures<'a> {
    pub fn new(
        written: &[PathBuf],
        about: impl Fn(&str) -> Option<(String, String)> + 'a,
    ) -> Figures<'a> {
        let written = written
            .iter()
            .filter_map(|p| p.file_name()?.to_str())
            .map(|f| (f.to_string(), false))
            .collect();
        Figures {
            written,
            about: Box::new(about),
        }
    }

    /// The figure of `file` as a `<figure>`, if it was written and is not
    /// shown yet; its title and caption from `about`.
    pub fn take(&mut self, file: &str) -> String {
        let Some(k) = self
            .written
            .iter()
            .position(|(f, shown)| f == file && !shown)
        else {
            return String::new();
        };
        self.written[k].1 = true;
        let Some((title, caption)) = (self.about)(file) else {
            return String::new();
        };
        let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
        format!(
            "{FIGURE}{}\"><img src=\"{}\" alt=\"{}\"><figcaption><b>{}</b>: {}</figcaption>\
             </figure>\n",
            slug(stem),
            esc(file),
            esc(&title),
            esc(&title),
            esc(&caption)
        )
    }

    /// Every figure not shown yet whose file starts with `prefix`, in the
    /// order written.
    pub fn take_all(&mut self, prefix: &str) -> String {
        let files: Vec<String> = self
            .written
            .iter()
            .filter(|(f, shown)| !shown && f.starts_with(prefix))
            .map(|(f, _)| f.clone())
            .collect();
        files.iter().map(|f| self.take(f)).collect()
    }

    /// The figures not shown yet, under the heading `title`; nothing if
    /// every figure is shown.
    pub fn rest(&mut self, title: &str) -> String {
        let figures = self.take_all("");
        if figures.is_empty() {
            return figures;
        }
        h2(title) + &figures
    }
}

/// The wall-clock seconds of each phase of a study.
pub fn seconds_table(seconds: &BTreeMap<String, f64>) -> String {
    let rows = seconds
        .iter()
        .map(|(phase, s)| vec![text(phase), cell(Some(format!("{s:.2}")))]);
    section(
        "Wall-clock seconds per phase",
        &strings(&["phase", "seconds"]),
        rows,
    )
}

/// A suite's scene's frame `picture` (`<scene>/<picture>`) small, linked
/// to itself, if the report holds it; a dash if not.
pub fn scene_frame(shown: &crate::report::Shown, scene: &str, picture: &str) -> Cell {
    let src = format!("{scene}/{picture}");
    if shown.holds(&src) {
        thumbnail(&src, &format!("{scene}'s frame"))
    } else {
        cell(None)
    }
}

/// The link to a suite's scene's own page, `<scene>/index.html`.
pub fn scene_link(scene: &str) -> Cell {
    link(&format!("{scene}/index.html"), scene)
}

/// The wall-clock seconds of each phase (columns, in the order first met)
/// of each scene of a suite (rows).
pub fn scene_seconds_table<'a>(
    scenes: impl Iterator<Item = (&'a str, &'a BTreeMap<String, f64>)> + Clone,
) -> String {
    let mut phases: Vec<&str> = Vec::new();
    for (_, seconds) in scenes.clone() {
        for p in seconds.keys() {
            if !phases.contains(&p.as_str()) {
                phases.push(p);
            }
        }
    }
    let mut head = vec!["scene".to_string()];
    head.extend(phases.iter().map(|p| p.to_string()));
    let rows = scenes.map(|(scene, seconds)| {
        let mut row = vec![text(scene)];
        row.extend(
            phases
                .iter()
                .map(|p| cell(seconds.get(*p).map(|x| format!("{x:.2}")))),
        );
        row
    });
    section("Wall-clock seconds per scene and phase", &head, rows)
}

/// A study's warnings, a paragraph each.
pub fn warnings(list: &[String]) -> String {
    list.iter()
        .map(|w| format!("<p><strong>Warning:</strong> {}</p>\n", esc(w)))
        .collect()
}

pub fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

pub fn ratio(v: f64) -> String {
    format!("{v:.3}")
}

/// What the studies' page tests check of a page.
#[cfg(test)]
pub mod check {
    /// The ids of the sections and figures of `page` that its table of
    /// contents does not link to.
    pub fn unlinked(page: &str) -> Vec<String> {
        let nav_end = page.find("</nav>").unwrap_or(0);
        let (nav, body) = page.split_at(nav_end);
        let mut missing = Vec::new();
        for mark in [super::HEADING, super::FIGURE] {
            for (at, _) in body.match_indices(mark) {
                let rest = &body[at + mark.len()..];
                let id = &rest[..rest.find('"').unwrap_or(0)];
                if !nav.contains(&format!("href=\"#{id}\"")) {
                    missing.push(id.to_string());
                }
            }
        }
        missing
    }

    /// Whether the figure of `file` comes after the (last) heading that
    /// starts with `title` with no other heading between: right after its
    /// table.
    pub fn follows(page: &str, title: &str, file: &str) -> bool {
        let body = &page[page.find("</nav>").unwrap_or(0)..];
        let (Some(table), Some(figure)) = (
            body.rfind(&format!("\">{title}")),
            body.find(&format!("<img src=\"{file}\"")),
        ) else {
            return false;
        };
        table < figure && !body[table..figure].contains("<h2")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_escapes() {
        assert_eq!(ratio(0.8691), "0.869");
        assert_eq!(
            esc("a<b&c \"d\" 'e'"),
            "a&lt;b&amp;c &quot;d&quot; &#39;e&#39;"
        );
    }

    #[test]
    fn a_section_without_rows_is_nothing() {
        let head = strings(&["a", "b<"]);
        assert_eq!(section("t", &head, std::iter::empty()), "");
        let one = section("t&", &head, std::iter::once(vec![text("x<"), cell(None)]));
        let linked = section(
            "l",
            &head,
            std::iter::once(vec![link("a&b/index.html", "a<")]),
        );
        assert!(linked.contains("<td><a href=\"a&amp;b/index.html\">a&lt;</a></td>"));
        assert!(one.contains("<h2 id=\"t\">t&amp;</h2>"));
        assert!(one.contains("<th>b&lt;</th>"));
        assert!(one.contains("<tr><td>x&lt;</td><td>–</td></tr>"));
    }

    #[test]
    fn slugs_are_short_lower_case_words() {
        assert_eq!(
            slug("LLC misses (Figures 12 & 14)"),
            "llc-misses-figures-12-14"
        );
        assert_eq!(slug("é?"), "section");
        let long = slug(&"word ".repeat(30));
        assert!(long.len() <= 60 && !long.ends_with('-'), "{long}");
    }

    /// Each figure once, after the table it is taken for; a figure not
    /// written is nothing; the rest go last under their heading.
    #[test]
    fn figures_are_taken_once_and_the_rest_go_last() {
        let written: Vec<PathBuf> = ["a.svg", "sweep_x.svg", "sweep_y.svg", "z.svg"]
            .iter()
            .map(|f| PathBuf::from("/r").join(f))
            .collect();
        let mut figs = Figures::new(&written, |f| Some(("T<".to_string(), format!("about {f}"))));
        let a = figs.take("a.svg");
        assert!(
            a.starts_with("<figure id=\"a\"><img src=\"a.svg\" alt=\"T&lt;\">"),
            "{a}"
        );
        assert!(a.contains("<figcaption><b>T&lt;</b>: about a.svg</figcaption>"));
        assert_eq!(figs.take("a.svg"), "", "shown once");
        assert_eq!(figs.take("b.svg"), "", "not written");
        let sweeps = figs.take_all("sweep_");
        assert!(sweeps.contains("sweep_x.svg") && sweeps.contains("sweep_y.svg"));
        let rest = figs.rest("Other figures");
        assert!(rest.starts_with("<h2 id=\"other-figures\">Other figures</h2>"));
        assert!(rest.contains("z.svg") && !rest.contains("a.svg"));
        assert_eq!(figs.rest("Other figures"), "", "nothing left");
    }

    /// The table of contents links every section and, under it, its
    /// figures, in the page's order; a repeated id is made unique, in the
    /// body and in the link.
    #[test]
    fn the_contents_link_every_section_and_figure() {
        let written = vec![PathBuf::from("fig1.svg")];
        let mut figs = Figures::new(&written, |_| {
            Some(("Figure 1: x".to_string(), "c".to_string()))
        });
        let mut body = frame("frame.png", "the city");
        body += &section("Misses", &strings(&["a"]), std::iter::once(vec![text("1")]));
        body += &figs.take("fig1.svg");
        body += &section("Misses", &strings(&["a"]), std::iter::once(vec![text("2")]));
        let html = page("Study &amp; more", &body);
        let toc = &html[html.find("<nav").unwrap()..html.find("</nav>").unwrap()];
        let order = [
            "<li><a href=\"#the-rendered-frame\">The rendered frame</a></li>",
            "<li><a href=\"#misses\">Misses</a><ul><li><a href=\"#fig1\">Figure 1: x</a></li></ul></li>",
            "<li><a href=\"#misses-2\">Misses</a></li>",
        ];
        let mut at = 0;
        for item in order {
            let k = toc[at..]
                .find(item)
                .unwrap_or_else(|| panic!("{item} in {toc}"));
            at += k + item.len();
        }
        assert!(html.contains("<h2 id=\"misses-2\">Misses</h2>"));
        assert!(html.find("<nav").unwrap() < html.find("<h2 id=\"the-rendered-frame\"").unwrap());
        assert!(html.contains("<img src=\"frame.png\" alt=\"the rendered frame\">"));
        assert!(html.starts_with("<!DOCTYPE html>") && html.ends_with("</html>\n"));
        assert!(!page("t", "<p>no section</p>").contains("<nav"));
    }
}
