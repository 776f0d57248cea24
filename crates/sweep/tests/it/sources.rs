//! The hash of the sources in every job's key is the hash of the tree the
//! build was made from, and it changes with what the simulator is built
//! from and only with that.

use std::path::{Path, PathBuf};

#[path = "../../sources.rs"]
mod built;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Cargo builds again on any edit of the sources (`build.rs` watches
/// them): the hash the build holds is the tree's as it is now.
#[test]
fn the_build_holds_the_hash_of_the_tree_it_was_built_from() {
    let (hash, tops) = built::hash_sources(&workspace()).unwrap();
    assert_eq!(hash, gfxcache_sweep::SOURCES);
    assert!(tops.iter().any(|t| t.ends_with("crates/sweep/src")));
    assert!(tops.iter().any(|t| t.ends_with("Cargo.lock")));
    assert!(!tops.iter().any(|t| t.ends_with("tests")), "{tops:?}");
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn hash(root: &Path) -> String {
    built::hash_sources(root).unwrap().0
}

#[test]
fn an_edit_of_what_is_built_changes_the_hash_and_of_a_test_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "Cargo.toml", "[workspace]");
    write(root, "Cargo.lock", "# lock");
    write(root, "crates/a/Cargo.toml", "[package]");
    write(root, "crates/a/src/lib.rs", "pub fn f() -> u32 { 1 }");
    write(root, "crates/a/presets/m.toml", "latency = 100");
    write(root, "crates/a/tests/it.rs", "#[test] fn t() {}");
    write(root, "crates/a/benches/b.rs", "fn main() {}");
    write(root, "python/src/lib.rs", "");
    write(root, "python/tests/test_a.py", "");
    let first = hash(root);
    assert_eq!(first.len(), 16);
    assert_eq!(hash(root), first, "the same tree, the same hash");

    // Tests, benchmarks and the Python tests are not built into it.
    write(
        root,
        "crates/a/tests/it.rs",
        "#[test] fn t() { assert!(true) }",
    );
    write(root, "crates/a/benches/b.rs", "fn main() { }");
    write(root, "python/tests/test_a.py", "x = 1");
    assert_eq!(hash(root), first);

    // Every file that is built into it changes it.
    let edits = [
        ("crates/a/src/lib.rs", "pub fn f() -> u32 { 2 }"),
        ("crates/a/presets/m.toml", "latency = 50"),
        ("crates/a/Cargo.toml", "[package]\n"),
        ("Cargo.lock", "# lock 2"),
        ("Cargo.toml", "[workspace]\n"),
        ("python/src/lib.rs", "//"),
        ("crates/a/src/new.rs", ""),
        ("crates/b/src/lib.rs", ""),
    ];
    let mut seen = vec![first];
    for (path, text) in edits {
        write(root, path, text);
        let now = hash(root);
        assert!(!seen.contains(&now), "{path}: the hash did not change");
        seen.push(now);
    }

    // The same bytes under another name are another tree.
    let before = hash(root);
    std::fs::rename(
        root.join("crates/a/src/new.rs"),
        root.join("crates/a/src/old.rs"),
    )
    .unwrap();
    assert_ne!(hash(root), before);
}
