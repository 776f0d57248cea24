//! `render` depends on `gfxcache-trace` and `gfxcache-cache` only (house
//! rules, ARCHITECTURE.md): the design crates (tcor, llc, mem, ...) consume
//! what it emits and are put together with it by the command line. This
//! reads the manifest, so adding another gfxcache crate in any dependency
//! table (normal, dev or build) fails here.

const MANIFEST: &str = include_str!("../../Cargo.toml");
const ALLOWED: [&str; 2] = ["gfxcache-trace", "gfxcache-cache"];

/// Every `gfxcache-*` / `gfxcache_*` name in the manifest's dependency
/// tables, with its line.
fn our_dependencies(manifest: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut in_dependencies = false;
    for (n, line) in manifest.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            // [dependencies], [dev-dependencies], [build-dependencies],
            // [target.'...'.dependencies], [dependencies.gfxcache-x]
            in_dependencies = line.contains("dependencies");
        }
        if !in_dependencies {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("gfxcache") {
            let name: String = rest[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            found.push((n + 1, name.replace('_', "-")));
            rest = &rest[at + name.len()..];
        }
    }
    found
}

#[test]
fn render_depends_on_trace_and_cache_only() {
    let deps = our_dependencies(MANIFEST);
    for name in ALLOWED {
        assert!(
            deps.iter().any(|(_, d)| d == name),
            "render no longer depends on {name}? update this test"
        );
    }
    for (line, name) in &deps {
        assert!(
            ALLOWED.contains(&name.as_str()),
            "Cargo.toml line {line}: render must not depend on {name}"
        );
    }
}

#[test]
fn the_check_sees_every_kind_of_table() {
    let bad =
        "[package]\nname = \"gfxcache-render\"\n[dependencies]\ngfxcache-trace.workspace = true\n\
               [dev-dependencies]\ngfxcache-tcor = { path = \"../tcor\" }\n\
               [dependencies.gfxcache_llc]\npath = \"../llc\"\n";
    let names: Vec<String> = our_dependencies(bad).into_iter().map(|d| d.1).collect();
    assert_eq!(names, ["gfxcache-trace", "gfxcache-tcor", "gfxcache-llc"]);
}
