//! Running the `gfxcache` binary from the tests, as a user would.

#![allow(dead_code)] // each test file uses its own part

use std::path::Path;
use std::process::{Command, Output};

pub fn gfxcache(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gfxcache"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Stdout of a run that must succeed.
pub fn ok(args: &[&str]) -> String {
    let out = gfxcache(args);
    assert!(
        out.status.success(),
        "gfxcache {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

/// Stderr of a run that must fail, naming `named` in its error.
pub fn refused(args: &[&str], named: &str) -> String {
    let out = gfxcache(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        !out.status.success() && err.contains(named),
        "gfxcache {args:?} was not refused naming {named:?}: {err}"
    );
    err
}

/// Stdout of a run that must succeed and print one JSON document.
pub fn json(args: &[&str]) -> serde_json::Value {
    let text = ok(args);
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("stdout of {args:?} is not one JSON document: {e}\n{text}"))
}

/// A scene small enough for a whole TCOR study in seconds: a shadowless
/// terrain at 128x64.
pub const SMALL_TBR_SCENE: &[&str] = &[
    "--scene",
    "terrain",
    "--width",
    "128",
    "--height",
    "64",
    "--no-shadow",
];

/// Every SVG figure under `dir` (a report, its scenes' directories too)
/// wider than the page shows at its own size, with its width.
pub fn too_wide(dir: &Path) -> Vec<(String, u32)> {
    let mut wide = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a report directory") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            wide.extend(too_wide(&path));
        } else if path.extension().is_some_and(|e| e == "svg") {
            let text = std::fs::read_to_string(&path).expect("an SVG");
            let at = text.find(" width=\"").expect("a width") + " width=\"".len();
            let width: u32 = text[at..].split('"').next().unwrap().parse().unwrap();
            if width > gfxcache_cli::report::figure::PAGE_WIDTH {
                wide.push((path.display().to_string(), width));
            }
        }
    }
    wide
}

/// Checks a study's `index.html` in `dir`: a table of contents linking
/// each section, and the frame `picture` shown under its heading.
pub fn check_page(dir: &Path, picture: &str) {
    let page = std::fs::read_to_string(dir.join("index.html")).expect("index.html");
    let nav = &page[page
        .find("<nav class=\"toc\">")
        .expect("a table of contents")..];
    let nav = &nav[..nav.find("</nav>").expect("its end")];
    for (at, _) in page.match_indices("<h2 id=\"") {
        let id = page[at + 8..].split('"').next().unwrap();
        assert!(
            nav.contains(&format!("href=\"#{id}\"")),
            "{id} not in the contents"
        );
    }
    assert!(
        nav.contains("href=\"#the-rendered-frame\""),
        "no frame in the contents"
    );
    assert!(
        page.contains(&format!(
            "<img src=\"{picture}\" alt=\"the rendered frame\">"
        )),
        "{picture} not shown"
    );
    assert!(dir.join(picture).is_file(), "{picture} not in the report");
}
