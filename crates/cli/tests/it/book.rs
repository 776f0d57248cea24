//! The book (`docs/`, built with mdBook) holds together: every chapter is
//! in `SUMMARY.md` and every entry there is a file, every relative link
//! of the book and the README leads to a file, and every `gfxcache`
//! command line in a `sh` or `console` block parses. (The console blocks'
//! outputs are `readme.rs`'s.)

use std::path::{Path, PathBuf};

use clap::Parser;
use gfxcache_cli::Cli;

use crate::readme::{repo_root, words};

fn book() -> PathBuf {
    repo_root().join("docs/src")
}

/// The chapters, as paths relative to `docs/src`.
fn chapters() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(book())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md") && n != "SUMMARY.md")
        .collect();
    out.sort();
    out
}

/// The targets of the Markdown links `[text](target)` of `text`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let Some(end) = after.find(')') else { break };
        out.push(after[..end].to_string());
        rest = &after[end..];
    }
    out
}

/// Whether `target`, a link in the file `from`, leads to a file: web
/// addresses and anchors within the page are not checked.
fn resolves(from: &Path, target: &str) -> bool {
    if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
        return true;
    }
    let path = target.split('#').next().unwrap_or(target);
    from.parent().unwrap().join(path).exists()
}

#[test]
fn every_chapter_is_in_the_summary_and_every_entry_is_a_chapter() {
    let summary = std::fs::read_to_string(book().join("SUMMARY.md")).unwrap();
    let listed = links(&summary);
    for chapter in chapters() {
        assert!(
            listed.contains(&chapter),
            "docs/src/{chapter} is not in SUMMARY.md"
        );
    }
    for entry in &listed {
        assert!(book().join(entry).is_file(), "SUMMARY.md lists {entry}");
    }
}

#[test]
fn every_relative_link_leads_to_a_file() {
    let mut files: Vec<PathBuf> = chapters().iter().map(|c| book().join(c)).collect();
    files.push(book().join("SUMMARY.md"));
    files.push(repo_root().join("README.md"));
    files.push(repo_root().join("ARCHITECTURE.md"));
    let mut broken = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for target in links(&text) {
            if !resolves(file, &target) {
                broken.push(format!("{}: ({target})", file.display()));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "links to nothing:\n{}",
        broken.join("\n")
    );
}

/// The `gfxcache` command lines of a file's `sh` and `console` blocks,
/// with the line each starts on; a line ending in `\` goes on.
fn command_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    let mut open: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        if let Some(lang) = line.strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(lang.trim().to_string()),
            };
            continue;
        }
        if !matches!(fence.as_deref(), Some("sh" | "console")) {
            continue;
        }
        let line = line.strip_prefix("$ ").unwrap_or(line);
        let (start, mut command) = match open.take() {
            Some((start, so_far)) => (start, so_far + " " + line),
            None if line.starts_with("gfxcache ") => (n + 1, line.to_string()),
            None => continue,
        };
        if command.ends_with('\\') {
            command.pop();
            open = Some((start, command));
        } else {
            out.push((start, command));
        }
    }
    out
}

#[test]
fn every_command_line_of_the_book_and_the_readme_parses() {
    let mut files: Vec<PathBuf> = chapters().iter().map(|c| book().join(c)).collect();
    files.push(repo_root().join("README.md"));
    let mut bad = Vec::new();
    let mut seen = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (line, command) in command_lines(&text) {
            seen += 1;
            if let Err(e) = Cli::try_parse_from(words(&command)) {
                let first = e.to_string().lines().next().unwrap_or_default().to_string();
                bad.push(format!("{}:{line}: `{command}`: {first}", file.display()));
            }
        }
    }
    assert!(seen > 20, "only {seen} command lines found");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn command_lines_go_on_after_a_backslash() {
    let text = "```sh\ngfxcache shaders a.glsl \\\n  b.glsl\nls\n```\n```\ngfxcache no\n```\n";
    assert_eq!(
        command_lines(text),
        [(2, "gfxcache shaders a.glsl    b.glsl".to_string())]
    );
}
