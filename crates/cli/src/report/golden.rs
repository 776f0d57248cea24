//! The four studies' report files, pinned: everything [`write_all`]
//! writes for each study's scene and suite fixtures is compared with a
//! golden file under `crates/cli/tests/golden/`: CSV whole (a changed
//! value shows in the diff), JSON, SVG and HTML by SHA-256 (a failing
//! check keeps the files it wrote and names their directory). Moving the
//! writers must leave every value as it was; a change that means to
//! alter a report rewrites the goldens with `GFXCACHE_BLESS=1` and shows
//! the difference in its commit.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{write_all, StudyFiles};

const BLESS: &str = "GFXCACHE_BLESS";

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// Every file under `dir`, relative, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    super::staged::list_files(dir, "", &mut found).unwrap();
    let mut out: Vec<PathBuf> = found.into_iter().map(|(name, _)| name.into()).collect();
    out.sort();
    out
}

/// What the golden file holds for the files of `dir`.
fn digest(dir: &Path) -> String {
    let mut out = String::new();
    for rel in files(dir) {
        let bytes = std::fs::read(dir.join(&rel)).unwrap();
        let name = rel.display();
        match rel.extension().and_then(|e| e.to_str()) {
            Some("csv") => {
                let text = String::from_utf8(bytes).expect("CSV is UTF-8");
                writeln!(out, "== {name}").unwrap();
                out.push_str(&text);
                if !text.ends_with('\n') {
                    out.push('\n');
                }
            }
            _ => {
                let hash = Sha256::digest(&bytes);
                let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
                writeln!(out, "== {name} sha256 {hex}").unwrap();
            }
        }
    }
    out
}

/// Writes `report` and compares its files with the golden file `name`.
fn check<R: StudyFiles>(name: &str, report: &R) {
    let dir = tempfile::tempdir().unwrap();
    write_all(report, dir.path()).unwrap();
    let got = digest(dir.path());
    let path = golden_dir().join(format!("{name}.txt"));
    if std::env::var_os(BLESS).is_some_and(|v| v != "0") {
        std::fs::create_dir_all(golden_dir()).unwrap();
        std::fs::write(&path, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (write it with {BLESS}=1)", path.display()));
    if got != want {
        let kept = dir.keep();
        let first = got
            .lines()
            .zip(want.lines())
            .position(|(g, w)| g != w)
            .unwrap_or(got.lines().count().min(want.lines().count()));
        let at = |s: &str| s.lines().nth(first).unwrap_or("(end)").to_string();
        panic!(
            "{name}: the report's files (kept in {}) differ from {} from line {}:\n  \
             golden: {}\n  now:    {}\n(run with {BLESS}=1 to rewrite it if the change is meant)",
            kept.display(),
            path.display(),
            first + 1,
            at(&want),
            at(&got)
        );
    }
}

#[test]
fn gspc_reports_are_as_pinned() {
    check("gspc-scene", &crate::gspc::test_report::report());
    check("gspc-suite", &crate::gspc::suite::test_suite::suite());
}

#[test]
fn tcor_reports_are_as_pinned() {
    check("tcor-scene", &crate::tcor::test_report::report());
    check("tcor-suite", &crate::tcor::suite::test_suite::suite());
}

#[test]
fn nuca_reports_are_as_pinned() {
    check("nuca-scene", &crate::nuca::test_report::report());
    check("nuca-suite", &crate::nuca::suite::test_suite::suite());
}

#[test]
fn nbtc_reports_are_as_pinned() {
    check("nbtc-scene", &crate::nbtc::test_report::report());
    check("nbtc-suite", &crate::nbtc::suite::test_suite::suite());
}

#[test]
fn compose_reports_are_as_pinned() {
    check("compose-scene", &crate::compose::test_report::report());
    check("compose-suite", &crate::compose::test_report::suite());
}
