//! The named machines: each reads and checks, every value has a source of
//! a known kind, the papers' stated values are marked as the paper's; a
//! user's file is read the same way and its errors name the key or line.

use std::path::Path;

use gfxcache_machine::{presets, IssueModel, Machine, MachineError, SourceKind};
use gfxcache_trace::ShaderOps;

#[test]
fn every_preset_reads_and_every_value_has_its_source() {
    assert!(presets().len() >= 4);
    for p in presets() {
        let m = Machine::preset(p.name).expect("a preset");
        assert_eq!(m.name, p.name, "a preset's name is its file's");
        let values = m.values();
        assert!(values.len() >= 18, "{}: {} values", p.name, values.len());
        for v in &values {
            assert_eq!(
                SourceKind::of(&v.source),
                Some(v.kind),
                "{} {}",
                p.name,
                v.key
            );
        }
        // The paper's machines state some of their values.
        let papers = values
            .iter()
            .filter(|v| v.kind == SourceKind::Paper)
            .count();
        assert_eq!(
            papers > 0,
            p.name != "mali-g78",
            "{}: {papers} paper values",
            p.name
        );
    }
}

#[test]
fn the_papers_values_are_the_papers() {
    let d = Machine::preset("dtm-nuca").unwrap();
    assert_eq!(d.fragment.processors.value, 32);
    assert_eq!(d.texture_cache.bytes.value.0, 16 * 1024);
    let l2 = d.l2.as_ref().unwrap();
    assert_eq!((l2.banks.value, l2.hit_cycles.value), (8, 18));
    assert_eq!(d.interconnect.as_ref().unwrap().hop_cycles.value, 1);
    let n = Machine::preset("nbtc").unwrap();
    assert_eq!(n.fragment.processors.value, 8);
    assert_eq!(n.texture_cache.block.value, 32);
    assert_eq!(n.memory.latency_cycles.value, [50, 100, 200, 300]);
    let t = Machine::preset("tcor").unwrap();
    assert_eq!(t.gpu.screen.value, [1960, 768]);
    assert_eq!(t.l2.as_ref().unwrap().hit_cycles.value, 12);
    assert_eq!(t.tile_cache.as_ref().unwrap().bytes.value.0, 64 * 1024);
}

#[test]
fn issue_models_time_a_hand_counted_mix() {
    // 4 scalar, 2 vec3, 3 vec4 operations, 1 special function.
    let mix = ShaderOps {
        alu: [4, 0, 2, 3],
        special: 1,
        branch: 0,
    };
    // Mali-400: vectors 5 issues over 2 units, scalars 4 over 2, one
    // special: 2.5 -> 3 cycles.
    let utgard = Machine::preset("nbtc").unwrap().issue_model();
    assert_eq!(utgard.cycles(&mix), 3);
    // Bifrost: 4 + 6 + 12 = 22 components over 12 lanes, then one special
    // function at 3 a cycle: 22/12 + 1/3 = 2.17 -> 3.
    let bifrost = Machine::preset("dtm-nuca").unwrap().issue_model();
    assert_eq!(bifrost.cycles(&mix), 3);
    // Valhall: 22/32 + 1/8 -> 1.
    let valhall = Machine::preset("mali-g78").unwrap().issue_model();
    assert_eq!(valhall.cycles(&mix), 1);
    assert_eq!(IssueModel::SCALAR.cycles(&mix), 23);
}

const GOOD: &str = r#"
name = "mine"
about = "a test machine"
[gpu]
clock_mhz = { value = 500, source = "ours: a test" }
screen = { value = [64, 32], source = "ours: a test" }
tile = { value = 16, source = "ours: a test" }
[fragment]
processors = { value = 2, source = "ours: a test" }
threads = { value = 4, source = "ours: a test" }
filter_cycles = { value = 4, source = "ours: a test" }
request_unit = { value = "sample", source = "ours: a test" }
[fragment.issue]
vector_width = { value = 4, source = "ours: a test" }
alu_per_cycle = { value = 1.0, source = "ours: a test" }
scalar_per_cycle = { value = 0.0, source = "ours: a test" }
special_per_cycle = { value = 1.0, source = "ours: a test" }
branch_per_cycle = { value = 0.0, source = "ours: a test" }
parallel = { value = false, source = "ours: a test" }
[texture_cache]
bytes = { value = "4KiB", source = "ours: a test" }
ways = { value = 4, source = "ours: a test" }
block = { value = 64, source = "ours: a test" }
hit_cycles = { value = 1, source = "ours: a test" }
[memory]
latency_cycles = { value = [100], source = "ours: a test" }
dram = { value = "ddr3-1600", source = "ours: a test" }
"#;

fn parse(text: &str) -> Result<Machine, MachineError> {
    Machine::parse(text, Path::new("mine.toml"))
}

#[test]
fn a_users_file_reads_as_a_preset_does() {
    let m = parse(GOOD).unwrap();
    assert_eq!(m.fragment.processors.value, 2);
    assert!(m.l2.is_none() && m.tile_cache.is_none());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.toml");
    std::fs::write(&path, GOOD).unwrap();
    assert_eq!(Machine::resolve(path.to_str().unwrap()).unwrap(), m);
}

#[test]
fn bad_machines_are_refused_naming_the_key_or_line() {
    let cases = [
        // A value without its source.
        (
            GOOD.replace(
                r#"tile = { value = 16, source = "ours: a test" }"#,
                "tile = { value = 16 }",
            ),
            "source",
        ),
        // A source of no known kind.
        (
            GOOD.replace(
                "source = \"ours: a test\" }\n[fragment]",
                "source = \"a guess\" }\n[fragment]",
            ),
            "gpu.tile",
        ),
        // A key nobody reads.
        (
            GOOD.replace(
                "[memory]",
                "[memory]\nbandwidth = { value = 1, source = \"ours: x\" }",
            ),
            "bandwidth",
        ),
        // Out of range.
        (
            GOOD.replace("value = [64, 32]", "value = [0, 32]"),
            "gpu.screen",
        ),
        (
            GOOD.replace("value = \"4KiB\"", "value = \"3KiB\""),
            "texture_cache.bytes",
        ),
        (
            GOOD.replace(
                "alu_per_cycle = { value = 1.0",
                "alu_per_cycle = { value = 0.0",
            ),
            "alu_per_cycle",
        ),
        (
            GOOD.replace("value = [100]", "value = []"),
            "memory.latency_cycles",
        ),
        (GOOD.replace("\"ddr3-1600\"", "\"ddr9\""), "ddr9"),
        // What a texture unit takes as a request: one of the two, and
        // never left out.
        (
            GOOD.replace("value = \"sample\"", "value = \"warp\""),
            "expected `sample` or `quad`",
        ),
        (
            GOOD.replace(
                "request_unit = { value = \"sample\", source = \"ours: a test\" }\n",
                "",
            ),
            "request_unit",
        ),
    ];
    for (text, says) in cases {
        let e = parse(&text).expect_err(says).to_string();
        assert!(e.starts_with("mine.toml: "), "{e}");
        assert!(e.contains(says), "{says}: {e}");
    }
    let e = parse("name = \n").unwrap_err().to_string();
    assert!(e.contains("line 1"), "{e}");
}

#[test]
fn an_unknown_name_lists_the_presets_and_a_huge_file_is_refused() {
    let e = Machine::resolve("nosuch").unwrap_err().to_string();
    assert!(e.contains("dtm-nuca") && e.contains("mali-g78"), "{e}");
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.toml");
    std::fs::write(&big, vec![b'#'; 2 << 20]).unwrap();
    let e = Machine::resolve(big.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("larger than"), "{e}");
    let missing = dir.path().join("missing.toml");
    assert!(Machine::resolve(missing.to_str().unwrap()).is_err());
    // A device or a pipe is not read (a pipe is not even opened: that
    // would wait for a writer).
    #[cfg(unix)]
    {
        let e = Machine::resolve("/dev/zero").unwrap_err().to_string();
        assert!(e.contains("not a regular file"), "{e}");
        let fifo = dir.path().join("pipe.toml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        if made {
            let e = Machine::resolve(fifo.to_str().unwrap())
                .unwrap_err()
                .to_string();
            assert!(e.contains("not a regular file"), "{e}");
        }
    }
}

#[test]
fn the_gspc_machine_is_section_4s() {
    let g = Machine::preset("gspc").unwrap();
    let f = &g.fragment;
    assert_eq!((f.processors.value, f.threads.value), (96, 8));
    assert_eq!(f.samplers.as_ref().unwrap().value, 12);
    assert_eq!(g.gpu.clock_mhz.value, 1600);
    let l2 = g.l2.as_ref().unwrap();
    assert_eq!(l2.bytes.value.0, 8 << 20);
    assert_eq!(
        (l2.ways.value, l2.banks.value, l2.hit_cycles.value),
        (16, 4, 20)
    );
    assert_eq!(l2.clock_mhz.as_ref().unwrap().value, 4000);
    assert_eq!(g.memory.dram.value, gfxcache_mem::DramPreset::Ddr3_1600);
    let r = g.render_caches.as_ref().unwrap();
    assert_eq!(r.texture_l3.bytes.value.0, 384 << 10);
    assert_eq!(r.texture_l3.ways.value, 48);
    assert_eq!(r.vertex.ways.value, 128);
    // An immediate-mode GPU: a tile-based study is told what is missing.
    assert!(g.gpu.tile.is_none());
    let e = g.tile().unwrap_err().to_string();
    assert!(e.contains("gspc") && e.contains("gpu.tile"), "{e}");
}

/// The preset's fixed latencies are what `mem`'s DDR3-1600 model takes for
/// one read alone: a row hit and a row conflict, in 1.6 GHz cycles.
#[test]
fn the_gspc_latencies_are_the_dram_models_unloaded_reads() {
    use gfxcache_mem::{Dram, DramConfig};
    let g = Machine::preset("gspc").unwrap();
    let ghz = f64::from(g.gpu.clock_mhz.value) / 1000.0;
    let cycles = |ps: u64| (ps as f64 * ghz / 1000.0).round() as u32;
    let mut d = Dram::new(&DramConfig::ddr3_1600()).unwrap();
    let open = d.access(0, 0, false);
    let later = 1_000_000;
    let hit = d.access(later, 0, false) - later;
    // The same bank and channel, another row.
    let conflict = d.access(2 * later, 1 << 24, false) - 2 * later;
    assert!(open > hit && conflict > open);
    assert_eq!(
        g.memory.latency_cycles.value,
        [cycles(hit), cycles(conflict)]
    );
}

#[test]
fn the_immediate_mode_sections_are_checked_by_key() {
    let with = |extra: &str| format!("{GOOD}{extra}");
    let l2 = "[l2]\nbytes = { value = \"64KiB\", source = \"ours: t\" }\nways = { value = 4, source = \"ours: t\" }\nblock = { value = 64, source = \"ours: t\" }\nbanks = { value = 2, source = \"ours: t\" }\nhit_cycles = { value = 8, source = \"ours: t\" }\n";
    let ok = with(&format!(
        "{l2}tag_cycles = {{ value = 4, source = \"ours: t\" }}\nclock_mhz = {{ value = 2000, source = \"ours: t\" }}\n"
    ));
    parse(&ok).unwrap();
    let cases = [
        (with(&format!("{l2}tag_cycles = {{ value = 9, source = \"ours: t\" }}\n")), "l2.tag_cycles"),
        (with(&format!("{l2}clock_mhz = {{ value = 0, source = \"ours: t\" }}\n")), "l2.clock_mhz"),
        (
            GOOD.replace(
                "filter_cycles = { value = 4, source = \"ours: a test\" }",
                "filter_cycles = { value = 4, source = \"ours: a test\" }\nsamplers = { value = 0, source = \"ours: t\" }",
            ),
            "fragment.samplers",
        ),
        (
            with("[frame_time]\nwork_cycles = { value = 10, source = \"ours: t\" }\nrequests_per_cycle = { value = 0, source = \"ours: t\" }\n"),
            "frame_time.requests_per_cycle",
        ),
    ];
    for (text, says) in cases {
        let e = parse(&text).expect_err(says).to_string();
        assert!(e.contains(says), "{says}: {e}");
    }
    // A render cache of a shape the engine cannot make, named by its key.
    let g = Machine::preset("gspc").unwrap();
    let mut text = toml::to_string(&g).unwrap();
    text = text.replacen("value = \"12KiB\"", "value = \"11KiB\"", 1);
    let e = parse(&text).unwrap_err().to_string();
    assert!(e.contains("render_caches.hiz.bytes"), "{e}");
}
