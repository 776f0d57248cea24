//! The command reference of the book (`docs/src/reference.md`), made from
//! the command line's own definitions so that it cannot go stale: every
//! command, its usage, and every option a person sees in its `--help`
//! with its value, default, choices and help. A test compares the file
//! with what this makes; `GFXCACHE_BLESS=1` rewrites it.

use clap::CommandFactory;

/// The whole reference, as Markdown.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Command reference\n\n\
         Every command and option, made from the command line's definitions \
         (`crates/cli/src/reference.rs`; `gfxcache help COMMAND` prints the same \
         help). Sizes take `KiB`, `MiB`, `GiB` (and `KB`, `MB`, `GB`, also powers \
         of 1024) or plain bytes.\n",
    );
    let mut root = crate::Cli::command();
    root.build();
    let mut commands = Vec::new();
    walk("gfxcache".into(), &root, &mut commands);
    out.push_str("\n| command | what it does |\n| --- | --- |\n");
    for (path, c) in &commands {
        let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
        out.push_str(&format!("| `{path}` | {} |\n", cell(&about)));
    }
    for (path, c) in &commands {
        out.push_str(&command(path, c));
    }
    out
}

/// Every visible command below `c` (not `c` itself), depth first, those
/// with subcommands of their own before them.
fn walk(path: String, c: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
    for s in c.get_subcommands() {
        if s.is_hide_set() || s.get_name() == "help" {
            continue;
        }
        let p = format!("{path} {}", s.get_name());
        if s.has_subcommands() {
            walk(p, s, out);
        } else {
            out.push((p, s.clone()));
        }
    }
}

/// A command's section: what it does, its usage and its options.
fn command(path: &str, c: &clap::Command) -> String {
    let mut c = c.clone();
    let mut s = format!("\n## {path}\n\n");
    let about = c
        .get_long_about()
        .or(c.get_about())
        .map(|a| a.to_string())
        .unwrap_or_default();
    s.push_str(&format!("{}\n\n", about.trim()));
    let usage = c.render_usage().to_string();
    let usage = usage.trim().trim_start_matches("Usage: ");
    s.push_str(&format!("```text\n{usage}\n```\n"));
    let positionals: Vec<&clap::Arg> = c
        .get_arguments()
        .filter(|a| a.is_positional() && !a.is_hide_set())
        .collect();
    if !positionals.is_empty() {
        s.push_str("\n| argument | what it is |\n| --- | --- |\n");
        for a in positionals {
            let name = value_name(a);
            s.push_str(&format!("| `{name}` | {} |\n", cell(&help(a))));
        }
    }
    let options: Vec<&clap::Arg> = options(&c).collect();
    if !options.is_empty() {
        s.push_str("\n| option | default | what it does |\n| --- | --- | --- |\n");
        for a in options {
            s.push_str(&format!(
                "| {} | {} | {} |\n",
                flag(a),
                default(a),
                cell(&help(a))
            ));
        }
    }
    s
}

/// `--name VALUE` (and `-n`), as typed.
fn flag(a: &clap::Arg) -> String {
    let mut names = Vec::new();
    if let Some(short) = a.get_short() {
        names.push(format!("-{short}"));
    }
    if let Some(long) = a.get_long() {
        names.push(format!("--{long}"));
    }
    let value = if a.get_action().takes_values() {
        format!(" {}", value_name(a))
    } else {
        String::new()
    };
    format!("`{}{value}`", names.join(", ")).replace('|', "\\|")
}

fn value_name(a: &clap::Arg) -> String {
    a.get_value_names()
        .and_then(|v| v.first())
        .map(|n| n.to_string())
        .unwrap_or_else(|| a.get_id().as_str().to_uppercase())
}

/// The default shown in `--help`, if any.
fn default(a: &clap::Arg) -> String {
    // A flag's `false` is no default a reader needs.
    if a.is_hide_default_value_set() || !a.get_action().takes_values() {
        return String::new();
    }
    let d: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if d.is_empty() {
        String::new()
    } else {
        format!("`{}`", d.join(","))
    }
}

/// The options a person sees in a command's `--help`.
pub(crate) fn options(c: &clap::Command) -> impl Iterator<Item = &clap::Arg> {
    c.get_arguments()
        .filter(|a| !a.is_positional() && !a.is_hide_set())
        .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"))
}

/// What `--help` says of `a` (its long text where it has one).
pub(crate) fn help_text(a: &clap::Arg) -> String {
    a.get_long_help()
        .or(a.get_help())
        .map(|h| h.to_string())
        .unwrap_or_default()
}

/// [`help_text`], with the choices of an enumerated value.
fn help(a: &clap::Arg) -> String {
    let mut h = help_text(a);
    let choices: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| format!("`{}`", v.get_name()))
        .collect();
    if !choices.is_empty() && a.get_action().takes_values() {
        let end = if h.trim_end().ends_with('.') { "" } else { "." };
        h = format!("{}{end} One of {}.", h.trim_end(), choices.join(", "));
    }
    h
}

/// `text` fit for a table cell: one line, `|` escaped, and `<`, `>` and
/// `&` as entities (Markdown would read `<scene>` as an HTML tag).
fn cell(text: &str) -> String {
    let one: Vec<&str> = text.split_whitespace().collect();
    one.join(" ")
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn the_books_reference_is_the_command_lines() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/src/reference.md");
        let now = super::markdown();
        if std::env::var_os("GFXCACHE_BLESS").is_some_and(|v| v != "0") {
            std::fs::write(&path, &now).unwrap();
            return;
        }
        let written = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            written == now,
            "docs/src/reference.md is not what the command line defines; rewrite it with \
             GFXCACHE_BLESS=1 cargo test -p gfxcache-cli --lib reference"
        );
    }

    #[test]
    fn every_visible_command_has_a_section() {
        let md = super::markdown();
        for c in [
            "sim", "mrc", "render", "gspc", "tcor", "nuca", "nbtc", "sweep",
        ] {
            assert!(md.contains(&format!("\n## gfxcache {c}\n")), "{c}");
        }
        assert!(md.contains("\n## gfxcache trace info\n"));
        assert!(md.contains("`--levels LEVELS`"));
        assert!(!md.contains("sweep-worker"), "hidden commands stay out");
        assert!(!md.contains("`--fps "), "hidden options stay out");
    }
}
