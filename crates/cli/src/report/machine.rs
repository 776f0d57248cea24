//! A study's machine where its reader sees it: `machine.csv` and a table
//! on the page, every value with its source (the paper's table, a hardware
//! document, or ours) and what kind of source that is.

use gfxcache_machine::Machine;

use super::html::{self, prose, text, Cell};

/// `machine.csv`'s rows, the header first: key, value, kind, source.
pub fn rows(m: &Machine) -> Vec<Vec<String>> {
    let mut out = vec![["machine", "key", "value", "kind", "source"]
        .map(String::from)
        .to_vec()];
    out.extend(m.values().into_iter().map(|v| {
        vec![
            m.name.clone(),
            v.key,
            v.value,
            v.kind.name().to_string(),
            v.source,
        ]
    }));
    out
}

/// The page's section: the machine's name and what it is, then a row a
/// value.
pub fn section(m: &Machine) -> String {
    let title = format!("The machine: {}", m.name);
    let head = html::strings(&["key", "value", "source"]);
    let rows = m
        .values()
        .into_iter()
        .map(|v| -> Vec<Cell> { vec![text(&v.key), text(&v.value), prose(&v.source)] });
    let table = html::section(&title, &head, rows);
    // The table's heading first, then the sentence, then the table.
    match table.split_once("<table>") {
        Some((heading, rest)) => format!(
            "{heading}<p>{}. Every value comes from the paper (paper:), a hardware \
             document where the paper is silent (hardware:) or is our choice (ours:); \
             <code>gfxcache machines {}</code> prints them.</p>\n<table>{rest}",
            html::esc(&m.about),
            html::esc(&m.name)
        ),
        None => table,
    }
}

pub use gfxcache_machine::issue_sentence;
