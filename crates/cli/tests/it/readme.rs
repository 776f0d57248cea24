//! The examples of the README and of the book's chapters (`docs/src/`)
//! cannot go stale: every `console` block's `$ ` lines are run, in
//! order, in one scratch directory per file (with the repository's
//! `examples/` in it), and what each prints on stdout must be what the
//! file shows after it.
//!
//! `gfxcache ARGS` and `cargo run --release -p gfxcache-cli -- ARGS` run
//! this build's binary; `scripts/test` (the tests themselves) is not run.
//! A line `...` stands for any number of lines, and a duration such as
//! `(1.07 s)` for any duration. `GFXCACHE_BLESS=1` rewrites each block's
//! output from the run where it differs, keeping its first `...` where
//! it is (the same number of lines before and after it); a block whose
//! output matches stays as written.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BLESS: &str = "GFXCACHE_BLESS";
const ELIDED: &str = "...";
const BINARY_PREFIXES: [&str; 2] = ["gfxcache ", "cargo run --release -p gfxcache-cli -- "];
const NOT_RUN: [&str; 1] = ["scripts/test"];

pub(crate) fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crates/cli sits two levels below the root")
        .to_path_buf()
}

/// A `console` block: where its body starts and ends (line indices into
/// the file, the fences excluded) and its commands, each with the index
/// of its `$ ` line and its expected output lines.
struct Block {
    body: std::ops::Range<usize>,
    commands: Vec<(usize, String, Vec<String>)>,
}

fn console_blocks(name: &str, lines: &[&str]) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() != "```console" {
            i += 1;
            continue;
        }
        let start = i + 1;
        let mut end = start;
        while end < lines.len() && !lines[end].starts_with("```") {
            end += 1;
        }
        assert!(
            end < lines.len(),
            "{name}:{}: a console block never closes",
            i + 1
        );
        let mut commands: Vec<(usize, String, Vec<String>)> = Vec::new();
        for (k, line) in lines[start..end].iter().enumerate() {
            if let Some(cmd) = line.strip_prefix("$ ") {
                commands.push((start + k, cmd.to_string(), Vec::new()));
            } else {
                let (at, _, out) = commands.last_mut().unwrap_or_else(|| {
                    panic!(
                        "{name}:{}: a console block's first line is a `$ ` command",
                        start + k + 1
                    )
                });
                assert!(*at < start + k);
                out.push(line.to_string());
            }
        }
        blocks.push(Block {
            body: start..end,
            commands,
        });
        i = end + 1;
    }
    blocks
}

/// A command line split into words, with '...' and "..." quoting.
pub(crate) fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), _) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            _ => {
                word.push(c);
                any = true;
            }
        }
    }
    assert!(quote.is_none(), "an unclosed quote in `{line}`");
    if any {
        words.push(word);
    }
    words
}

/// Durations, which change from run to run: `(1.07 s)` becomes `(… s)`.
fn mask_durations(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('(') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let digits = after
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(after.len());
        if digits > 0 && after[digits..].starts_with(" s)") {
            out.push_str("(… s)");
            rest = &after[digits + 3..];
        } else {
            out.push('(');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Whether `actual` is what `expected` shows: line by line after masking
/// durations, a `...` line matching any run of lines (tried shortest
/// first).
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((e, rest)) if e.trim() == ELIDED => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((e, rest)) => actual
            .split_first()
            .is_some_and(|(a, tail)| mask_durations(e) == mask_durations(a) && matches(rest, tail)),
    }
}

/// `actual` abridged as `expected` is: each `...` keeps its place, with
/// as many of the run's lines before and after it as the README shows.
fn abridge(expected: &[String], actual: &[String]) -> Vec<String> {
    let Some(gap) = expected.iter().position(|l| l.trim() == ELIDED) else {
        return actual.to_vec();
    };
    let tail = expected.len() - gap - 1;
    if gap + tail >= actual.len() {
        return actual.to_vec();
    }
    let mut out = actual[..gap].to_vec();
    out.push(ELIDED.to_string());
    out.extend_from_slice(&actual[actual.len() - tail..]);
    out
}

fn run(dir: &Path, at: &str, command: &str) -> Vec<String> {
    let args = BINARY_PREFIXES
        .iter()
        .find_map(|p| command.strip_prefix(p))
        .unwrap_or_else(|| {
            panic!("{at}: `{command}`: a console block runs gfxcache (or `cargo run ... --`)")
        });
    let output = Command::new(env!("CARGO_BIN_EXE_gfxcache"))
        .args(words(args))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert!(
        output.status.success(),
        "{at}: `{command}` failed ({}):\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).expect("stdout is UTF-8");
    text.lines().map(str::to_string).collect()
}

/// Runs the console blocks of the file `name` (relative to the
/// repository) in a scratch directory of its own: the blocks whose output
/// differs, with what their commands print (rewritten into the file under
/// `GFXCACHE_BLESS`), and how many blocks it has.
fn check(name: &str) -> (Vec<String>, usize) {
    let path = repo_root().join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let blocks = console_blocks(name, &lines);
    let bless = std::env::var_os(BLESS).is_some_and(|v| v != "0");

    let scratch = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(
        repo_root().join("examples"),
        scratch.path().join("examples"),
    )
    .unwrap();

    let mut rewritten: Vec<String> = Vec::new();
    let mut copied = 0;
    let mut stale = Vec::new();
    for block in &blocks {
        rewritten.extend(
            lines[copied..block.body.start]
                .iter()
                .map(|l| l.to_string()),
        );
        for (at, command, expected) in &block.commands {
            rewritten.push(lines[*at].to_string());
            if NOT_RUN.contains(&command.as_str()) {
                assert!(
                    expected.is_empty(),
                    "{name}:{}: `{command}` is not run, so it shows no output",
                    at + 1
                );
                continue;
            }
            let actual = run(scratch.path(), &format!("{name}:{}", at + 1), command);
            if matches(expected, &actual) {
                // As written: its elisions and durations stay.
                rewritten.extend(expected.iter().cloned());
            } else {
                stale.push(format!(
                    "{name}:{}: `{command}` prints\n{}\n",
                    at + 1,
                    actual.join("\n")
                ));
                rewritten.extend(abridge(expected, &actual));
            }
        }
        copied = block.body.end;
    }
    rewritten.extend(lines[copied..].iter().map(|l| l.to_string()));

    if bless {
        let mut new = rewritten.join("\n");
        new.push('\n');
        if new != text {
            std::fs::write(&path, new).unwrap();
        }
        stale.clear();
    }
    (stale, blocks.len())
}

fn assert_current(stale: &[String]) {
    assert!(
        stale.is_empty(),
        "the documentation shows other output than its commands print; run \
         `{BLESS}=1 cargo test -p gfxcache-cli --test it readme` to rewrite it, \
         and read the difference:\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_readmes_console_blocks_print_what_they_show() {
    let (stale, blocks) = check("README.md");
    assert!(blocks > 0, "the README has console blocks");
    assert_current(&stale);
}

/// The book's chapters (`docs/src/`), each in a scratch directory of its
/// own, so that a chapter's examples make the files they read.
#[test]
fn the_books_console_blocks_print_what_they_show() {
    let mut chapters: Vec<String> = std::fs::read_dir(repo_root().join("docs/src"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/src/{n}"))
        .collect();
    chapters.sort();
    let mut stale = Vec::new();
    let mut blocks = 0;
    for chapter in &chapters {
        let (s, b) = check(chapter);
        stale.extend(s);
        blocks += b;
    }
    assert!(blocks > 0, "the book has console blocks");
    assert_current(&stale);
}

#[test]
fn elisions_and_durations_match_as_documented() {
    let s = |v: &[&str]| v.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(matches(&s(&["a", "...", "z"]), &s(&["a", "b", "c", "z"])));
    assert!(matches(&s(&["a", "...", "z"]), &s(&["a", "z"])));
    assert!(!matches(&s(&["a", "...", "z"]), &s(&["a", "b"])));
    assert!(!matches(&s(&["a"]), &s(&["a", "b"])));
    assert!(matches(
        &s(&["took (1.07 s) here"]),
        &s(&["took (18.60 s) here"])
    ));
    assert!(!matches(&s(&["took (1.07 s)"]), &s(&["took (1.07 ms)"])));
    assert_eq!(mask_durations("(x) (3 s) (2.5 s"), "(x) (… s) (2.5 s");
    assert_eq!(
        abridge(&s(&["a", "...", "y"]), &s(&["1", "2", "3", "4"])),
        s(&["1", "...", "4"])
    );
    assert_eq!(words("a 'b c' \"d\" e"), s(&["a", "b c", "d", "e"]));
}
