//! The pieces of a study's `index.html`: one self-contained page (inline
//! CSS, no script, no external asset but the SVG plots beside it) of
//! headed tables, the paper's values in grey italics beside ours.
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
figure{margin:1.5em 0}img{max-width:100%}figcaption{color:#444}";

/// The page up to and including its `<h1>`; `title` is already escaped.
/// The head of a study's page on a suite: `<study> study: the <suite>
/// suite (<n> scenes)`.
pub fn suite_head<R: gfxcache_cache::suite::SuiteMean>(
    study: &str,
    r: &gfxcache_cache::suite::SuiteReport<R>,
) -> String {
    head(&format!(
        "{study} study: the {} suite ({} scenes)",
        esc(&r.suite),
        r.scenes.len()
    ))
}

pub fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
    )
}

/// What closes the page [`head`] opened.
pub const TAIL: &str = "</body>\n</html>\n";

/// A `<td>`, already escaped.
#[derive(Clone)]
pub struct Cell(String);

pub fn text(s: &str) -> Cell {
    Cell(format!("<td>{}</td>", esc(s)))
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
    format!(
        "<h2>{}</h2>\n<table>\n<tr>{head}</tr>\n{body}</table>\n",
        esc(title)
    )
}

/// The figures written (`figures`), each as an `<img>` with its title and
/// caption from `about` (by file name); a file `about` does not know is
/// left out.
pub fn figures_section<'a>(
    figures: &[PathBuf],
    about: impl Fn(&str) -> Option<(&'a str, &'a str)>,
) -> String {
    let mut h = String::from("<h2>Figures</h2>\n");
    for path in figures {
        let Some(file) = path.file_name().and_then(|f| f.to_str()) else {
            continue;
        };
        let Some((title, caption)) = about(file) else {
            continue;
        };
        let _ = writeln!(
            h,
            "<figure><img src=\"{}\" alt=\"{}\"><figcaption>{}: {}</figcaption></figure>",
            esc(file),
            esc(title),
            esc(title),
            esc(caption)
        );
    }
    h
}

/// The scene (or the trace, without one) and the resolution, for a title.
pub fn scene(scene: Option<&str>, trace: &str, resolution: Option<(u32, u32)>) -> String {
    let scene = scene.unwrap_or(trace);
    let res = resolution
        .map(|(w, h)| format!(" at {w}x{h}"))
        .unwrap_or_default();
    format!("{scene}{res}")
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
        assert!(one.contains("<h2>t&amp;</h2>"));
        assert!(one.contains("<th>b&lt;</th>"));
        assert!(one.contains("<tr><td>x&lt;</td><td>–</td></tr>"));
    }
}
