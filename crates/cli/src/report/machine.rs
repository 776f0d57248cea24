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

/// How the fragment processors issue shader operations, in a sentence.
pub fn issue_sentence(
    issue: Option<gfxcache_machine::IssueModel>,
    machine: Option<&str>,
) -> String {
    let Some(m) = issue else {
        return "shading takes no time;".into();
    };
    let on = machine.map_or(String::new(), |n| format!(" (machine {n})"));
    format!(
        "a fragment processor{on} issues {} ALU operation(s) of up to {} component(s){} a cycle, \
         {} special function(s) a cycle, the classes {};",
        m.alu_per_cycle,
        m.vector_width,
        if m.scalar_per_cycle > 0.0 {
            format!(
                " with {} scalar operation(s) beside them",
                m.scalar_per_cycle
            )
        } else {
            String::new()
        },
        m.special_per_cycle,
        if m.parallel {
            "side by side"
        } else {
            "in turn"
        }
    )
}
