//! A machine ([`Machine`]): the GPU a study runs on, section by section,
//! every value [`Sourced`]. What each study takes from it is the study's
//! business (`nuca`, `nbtc` and `tcor` say so in their configs).

use std::fmt;
use std::path::Path;

use gfxcache_cache::{format_size, parse_size};
use gfxcache_mem::DramPreset;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::issue::IssueModel;
use crate::sourced::{SourceKind, Sourced};
use crate::MachineError;

/// A size in bytes: `16KiB`, `1MiB`, or a plain number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size(pub u64);

impl Serialize for Size {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_size(self.0))
    }
}

impl<'de> Deserialize<'de> for Size {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Size, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Bytes(u64),
            Text(String),
        }
        match Raw::deserialize(d)? {
            Raw::Bytes(b) => Ok(Size(b)),
            Raw::Text(t) => parse_size(&t)
                .map(Size)
                .map_err(|e| serde::de::Error::custom(format!("{e}"))),
        }
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_size(self.0))
    }
}

/// The whole GPU.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gpu {
    /// The GPU's clock: what a cycle is.
    pub clock_mhz: Sourced<u32>,
    /// The screen the frames are rendered at, width and height.
    pub screen: Sourced<[u32; 2]>,
    /// The side of a tile of a tile-based GPU, in pixels; none on an
    /// immediate-mode GPU ([`Machine::tile`] names it when a tile-based
    /// study needs it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile: Option<Sourced<u32>>,
    /// Whether a tile-based GPU removes hidden surfaces before shading (a
    /// TBDR's HSR phase: only the fragments left visible by every opaque
    /// draw of the tile are shaded); none: no, an early Z-test only
    /// ([`Machine::hidden_surface_removal`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_surface_removal: Option<Sourced<bool>>,
}

/// The fragment processors' issue rates ([`IssueModel`]'s fields, each
/// with its source).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Issue {
    pub vector_width: Sourced<u32>,
    pub alu_per_cycle: Sourced<f64>,
    pub scalar_per_cycle: Sourced<f64>,
    pub special_per_cycle: Sourced<f64>,
    pub branch_per_cycle: Sourced<f64>,
    pub parallel: Sourced<bool>,
}

/// The fragment processors (shader cores, pixel processors).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fragment {
    /// How many.
    pub processors: Sourced<u16>,
    /// Fragments (threads) in flight per processor.
    pub threads: Sourced<u32>,
    /// The texture unit's filtering, cycles from a request's texels to its
    /// result.
    pub filter_cycles: Sourced<u32>,
    /// Texture samplers the processors share (GSPC: twelve for 96
    /// cores); none: a texture unit a processor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samplers: Option<Sourced<u32>>,
    /// What a processor's texture unit takes as one request: a pixel's
    /// sample, or a quad's texture instruction.
    pub request_unit: Sourced<RequestUnit>,
    /// How each issues shader operations.
    pub issue: Issue,
}

/// What a fragment processor's texture unit takes as one request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestUnit {
    /// Each pixel's sample or texel fetch on its own, a fragment a pixel:
    /// a pixel processor that shades one fragment at a time (the NBTC
    /// slides' machine).
    #[default]
    Sample,
    /// A quad's texture instruction: its pixels' blocks together, a
    /// fragment a quad of four lanes, as a processor that shades 2x2
    /// quads in lockstep issues it (Bifrost's quad-wide warps).
    Quad,
}

impl RequestUnit {
    pub fn name(self) -> &'static str {
        match self {
            RequestUnit::Sample => "sample",
            RequestUnit::Quad => "quad",
        }
    }

    /// The pixels a request covers.
    pub fn pixels(self) -> u32 {
        match self {
            RequestUnit::Sample => 1,
            RequestUnit::Quad => 4,
        }
    }
}

/// A cache: the texture caches (one per fragment processor), the tile
/// cache, the vertex cache.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cache {
    pub bytes: Sourced<Size>,
    pub ways: Sourced<u32>,
    pub block: Sourced<u32>,
    /// Cycles of a hit.
    pub hit_cycles: Sourced<u32>,
}

/// The shared L2.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct L2 {
    pub bytes: Sourced<Size>,
    pub ways: Sourced<u32>,
    pub block: Sourced<u32>,
    pub banks: Sourced<u32>,
    /// The round trip of a hit (load to use), in the L2's cycles.
    pub hit_cycles: Sourced<u32>,
    /// The L2's own clock, where it runs apart from the GPU's (GSPC's LLC
    /// at 4 GHz beside a 1.6 GHz GPU); none: the GPU's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_mhz: Option<Sourced<u32>>,
    /// The part of the round trip before a miss goes on to memory, in the
    /// L2's cycles (the GSPC study's banked LLC timing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag_cycles: Option<Sourced<u32>>,
    /// How long a lookup keeps its bank, in the L2's cycles (the GSPC
    /// study's banked LLC timing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub busy_cycles: Option<Sourced<u32>>,
    /// The replacement policy, a spec of the cache engine's registry
    /// (`gfxcache policies`), for the studies whose L2 is the mobile
    /// machine's (`crates/gpu`: DTM-NUCA's, the composed machine's); none:
    /// LRU. The GSPC study's LLC policy is what it compares, never the
    /// machine's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<Sourced<String>>,
}

/// A cache the timing of which no study takes: a size and ways (the
/// render caches of an immediate-mode GPU, whose misses make the LLC's
/// access stream).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shape {
    pub bytes: Sourced<Size>,
    pub ways: Sourced<u32>,
}

/// The render caches of an immediate-mode GPU between its pipeline and
/// its LLC (GSPC Section 4), each stream's; the texture hierarchy's first
/// level is the machine's `texture_cache`, one a sampler.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenderCaches {
    /// Every render cache's block, in bytes.
    pub block: Sourced<u32>,
    pub vertex_index: Shape,
    pub vertex: Shape,
    pub hiz: Shape,
    pub depth: Shape,
    pub stencil: Shape,
    pub render_target: Shape,
    /// The texture hierarchy's second level, shared by the samplers.
    pub texture_l2: Shape,
    /// Its third, shared, in front of the LLC.
    pub texture_l3: Shape,
}

impl RenderCaches {
    /// Each cache by its key, in the file's order.
    pub fn shapes(&self) -> [(&'static str, &Shape); 8] {
        [
            ("vertex_index", &self.vertex_index),
            ("vertex", &self.vertex),
            ("hiz", &self.hiz),
            ("depth", &self.depth),
            ("stencil", &self.stencil),
            ("render_target", &self.render_target),
            ("texture_l2", &self.texture_l2),
            ("texture_l3", &self.texture_l3),
        ]
    }
}

/// How a trace-driven LLC study turns a frame's LLC accesses into time
/// (`mem::GpuFront`, the GSPC study's frame rate): the trace carries no
/// instruction counts, so these are the model's, not the paper's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameTime {
    /// Shader cycles a thread context works between two of its LLC
    /// accesses.
    pub work_cycles: Sourced<u32>,
    /// LLC requests the whole GPU can issue a GPU cycle.
    pub requests_per_cycle: Sourced<u32>,
}

/// Main memory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Memory {
    /// The latencies the machine is studied at, in GPU cycles (one, or a
    /// range's ends, or the points of a sweep).
    pub latency_cycles: Sourced<Vec<u32>>,
    /// The DRAM behind it, where its timing is modelled.
    pub dram: Sourced<DramPreset>,
}

/// What joins the caches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Interconnect {
    /// A router's cycles per hop.
    pub hop_cycles: Sourced<u32>,
    /// The width of a bus beat and a network flit.
    pub bus_width_bits: Sourced<u32>,
}

/// A GPU machine: a named preset or a user's file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// What `--machine` calls it.
    pub name: String,
    /// One sentence: what it is and where it comes from.
    pub about: String,
    pub gpu: Gpu,
    pub fragment: Fragment,
    pub texture_cache: Cache,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2: Option<L2>,
    pub memory: Memory,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interconnect: Option<Interconnect>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tile_cache: Option<Cache>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vertex_cache: Option<Cache>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub render_caches: Option<RenderCaches>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frame_time: Option<FrameTime>,
}

/// One value of a machine, for listings: where it is, what it is, where
/// it comes from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Value {
    /// Section and key, `fragment.issue.alu_per_cycle`.
    pub key: String,
    pub value: String,
    pub source: String,
    pub kind: SourceKind,
}

impl Machine {
    /// The fragment processors' issue model.
    pub fn issue_model(&self) -> IssueModel {
        let i = &self.fragment.issue;
        IssueModel {
            vector_width: i.vector_width.value,
            alu_per_cycle: i.alu_per_cycle.value,
            scalar_per_cycle: i.scalar_per_cycle.value,
            special_per_cycle: i.special_per_cycle.value,
            branch_per_cycle: i.branch_per_cycle.value,
            parallel: i.parallel.value,
        }
    }

    /// The texture samplers: `fragment.samplers`, or one a fragment
    /// processor where the machine gives none.
    pub fn samplers(&self) -> u32 {
        let f = &self.fragment;
        f.samplers
            .as_ref()
            .map_or(u32::from(f.processors.value), |s| s.value)
    }

    /// The side of a tile, for a study that renders tile by tile; an error
    /// naming the key on an immediate-mode machine.
    pub fn tile(&self) -> Result<u32, MachineError> {
        self.require(
            self.gpu.tile.as_ref(),
            "gpu.tile",
            "a tile-based study needs the tile side",
        )
        .map(|t| t.value)
    }

    /// Whether the machine's tile-based frames are rendered with
    /// hidden-surface removal (`gpu.hidden_surface_removal`; absent: no).
    pub fn hidden_surface_removal(&self) -> bool {
        self.gpu
            .hidden_surface_removal
            .as_ref()
            .is_some_and(|h| h.value)
    }

    /// `value`, or an error naming `key`, absent from this machine, and
    /// `why` it is needed.
    pub fn require<'a, T>(
        &self,
        value: Option<&'a T>,
        key: &'static str,
        why: &str,
    ) -> Result<&'a T, MachineError> {
        value.ok_or_else(|| MachineError::Missing {
            machine: self.name.clone(),
            key,
            why: why.to_string(),
        })
    }

    /// Every value, by key, each with its source.
    pub fn values(&self) -> Vec<Value> {
        let json = serde_json::to_value(self).expect("a machine serializes");
        let mut out = Vec::new();
        walk(&json, String::new(), &mut out);
        out
    }

    /// Every value as a table (`machine.csv`): a row per key, with its
    /// value, the kind of its source and the source.
    pub fn table(&self) -> Result<gfxcache_report::Table, gfxcache_report::TableError> {
        use gfxcache_report::{Mean, TableBuilder};
        let values = self.values();
        let text = |of: fn(&Value) -> String| values.iter().map(move |v| Some(of(v)));
        TableBuilder::new(
            "machine",
            "a value of the machine's description, with its source",
        )
        .key("machine", values.iter().map(|_| self.name.clone()))
        .key("key", values.iter().map(|v| v.key.clone()))
        .text("value", Mean::Same, text(|v| v.value.clone()))
        .text("kind", Mean::Same, text(|v| v.kind.name().to_string()))
        .text("source", Mean::Same, text(|v| v.source.clone()))
        .build()
    }

    /// The page's section on the machine: its name and what it is, then a
    /// row a value with its source (the [`Machine::table`]).
    pub fn section(&self) -> gfxcache_report::Section {
        use gfxcache_report::{Format, Section, View};
        Section::new(&format!("The machine: {}", self.name))
            .lead(format!(
                "{}. Every value comes from the paper (paper:), a hardware document where \
                 the paper is silent (hardware:) or is our choice (ours:); `gfxcache machines \
                 {}` prints them.",
                self.about, self.name
            ))
            .view(
                View::of("machine")
                    .column("key", "key", Format::Plain)
                    .column("value", "value", Format::Plain)
                    .column("source", "source", Format::Plain),
            )
    }

    /// Whether every value has a source of a known kind and is in range;
    /// the first that is not, named by its key.
    pub fn check(&self, file: &Path) -> Result<(), MachineError> {
        let bad = |key: &str, msg: String| MachineError::Invalid {
            file: file.to_path_buf(),
            key: key.to_string(),
            message: msg,
        };
        if self.name.trim().is_empty() {
            return Err(bad(
                "name",
                "an empty name: expected the machine's name".into(),
            ));
        }
        for v in self.values() {
            if SourceKind::of(&v.source).is_none() {
                return Err(bad(
                    &v.key,
                    format!(
                        "source {:?}: expected \"paper: ...\", \"hardware: ...\" or \"ours: ...\" saying which table, document or reason",
                        v.source
                    ),
                ));
            }
        }
        self.issue_model()
            .check()
            .map_err(|m| bad("fragment.issue", m))?;
        let f = &self.fragment;
        in_range("fragment.processors", u64::from(f.processors.value), 1, 256)
            .map_err(&bad_at(&bad))?;
        in_range("fragment.threads", u64::from(f.threads.value), 1, 1024).map_err(&bad_at(&bad))?;
        in_range(
            "fragment.filter_cycles",
            u64::from(f.filter_cycles.value),
            0,
            1000,
        )
        .map_err(&bad_at(&bad))?;
        let g = &self.gpu;
        in_range("gpu.clock_mhz", u64::from(g.clock_mhz.value), 1, 10_000)
            .map_err(&bad_at(&bad))?;
        for (k, v) in ["width", "height"].iter().zip(g.screen.value) {
            in_range(&format!("gpu.screen ({k})"), u64::from(v), 1, 16384)
                .map_err(&bad_at(&bad))?;
        }
        if let Some(t) = &g.tile {
            in_range("gpu.tile", u64::from(t.value), 4, 256).map_err(&bad_at(&bad))?;
        }
        if let Some(s) = &f.samplers {
            in_range("fragment.samplers", u64::from(s.value), 1, 256).map_err(&bad_at(&bad))?;
        }
        let caches = [
            ("texture_cache", Some(&self.texture_cache)),
            ("tile_cache", self.tile_cache.as_ref()),
            ("vertex_cache", self.vertex_cache.as_ref()),
        ];
        for (name, c) in caches {
            if let Some(c) = c {
                check_cache(
                    name,
                    c.bytes.value.0,
                    c.ways.value,
                    c.block.value,
                    c.hit_cycles.value,
                )
                .map_err(&bad_at(&bad))?;
            }
        }
        if let Some(l2) = &self.l2 {
            check_cache(
                "l2",
                l2.bytes.value.0,
                l2.ways.value,
                l2.block.value,
                l2.hit_cycles.value,
            )
            .map_err(&bad_at(&bad))?;
            in_range("l2.banks", u64::from(l2.banks.value), 1, 64).map_err(&bad_at(&bad))?;
            if let Some(c) = &l2.clock_mhz {
                in_range("l2.clock_mhz", u64::from(c.value), 1, 10_000).map_err(&bad_at(&bad))?;
            }
            if let Some(t) = &l2.tag_cycles {
                in_range(
                    "l2.tag_cycles",
                    u64::from(t.value),
                    0,
                    u64::from(l2.hit_cycles.value),
                )
                .map_err(&bad_at(&bad))?;
            }
            if let Some(b) = &l2.busy_cycles {
                in_range("l2.busy_cycles", u64::from(b.value), 1, 1000).map_err(&bad_at(&bad))?;
            }
            if l2
                .policy
                .as_ref()
                .is_some_and(|p| p.value.trim().is_empty())
            {
                return Err(bad(
                    "l2.policy",
                    "an empty spec: expected a policy of the cache engine's registry, e.g. lru"
                        .into(),
                ));
            }
        }
        if let Some(r) = &self.render_caches {
            let block = r.block.value;
            if !(8..=4096).contains(&block) || !block.is_power_of_two() {
                return Err(bad(
                    "render_caches.block",
                    format!("{block}: expected a power of two from 8 to 4096 bytes"),
                ));
            }
            for (name, c) in r.shapes() {
                check_cache(
                    &format!("render_caches.{name}"),
                    c.bytes.value.0,
                    c.ways.value,
                    block,
                    0,
                )
                .map_err(&bad_at(&bad))?;
            }
        }
        if let Some(t) = &self.frame_time {
            in_range(
                "frame_time.work_cycles",
                u64::from(t.work_cycles.value),
                0,
                1_000_000,
            )
            .map_err(&bad_at(&bad))?;
            in_range(
                "frame_time.requests_per_cycle",
                u64::from(t.requests_per_cycle.value),
                1,
                1024,
            )
            .map_err(&bad_at(&bad))?;
        }
        let lat = &self.memory.latency_cycles.value;
        if lat.is_empty() {
            return Err(bad(
                "memory.latency_cycles",
                "no latency: expected at least one".into(),
            ));
        }
        for &l in lat {
            in_range("memory.latency_cycles", u64::from(l), 0, 10_000).map_err(&bad_at(&bad))?;
        }
        if let Some(i) = &self.interconnect {
            in_range(
                "interconnect.hop_cycles",
                u64::from(i.hop_cycles.value),
                0,
                100,
            )
            .map_err(&bad_at(&bad))?;
            let w = i.bus_width_bits.value;
            if !(8..=1024).contains(&w) || !w.is_power_of_two() {
                return Err(bad(
                    "interconnect.bus_width_bits",
                    format!("{w}: expected a power of two from 8 to 1024 bits"),
                ));
            }
        }
        Ok(())
    }
}

/// `(key, message)` of a value out of range.
type Bad = (String, String);

fn bad_at<'a>(bad: &'a impl Fn(&str, String) -> MachineError) -> impl Fn(Bad) -> MachineError + 'a {
    move |(key, msg)| bad(&key, msg)
}

fn in_range(key: &str, v: u64, lo: u64, hi: u64) -> Result<(), Bad> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err((key.to_string(), format!("{v}: expected {lo} to {hi}")))
    }
}

fn check_cache(name: &str, bytes: u64, ways: u32, block: u32, hit: u32) -> Result<(), Bad> {
    let key = |k: &str| format!("{name}.{k}");
    if !(8..=4096).contains(&block) || !block.is_power_of_two() {
        return Err((
            key("block"),
            format!("{block}: expected a power of two from 8 to 4096 bytes"),
        ));
    }
    in_range(&key("ways"), u64::from(ways), 1, 1024)?;
    let set = u64::from(block) * u64::from(ways);
    if bytes == 0
        || bytes > 1 << 30
        || !bytes.is_multiple_of(set)
        || !(bytes / set).is_power_of_two()
    {
        return Err((
            key("bytes"),
            format!(
                "{}: expected a power-of-two number of sets of {ways} ways of {block} bytes, at most 1GiB",
                format_size(bytes)
            ),
        ));
    }
    in_range(&key("hit_cycles"), u64::from(hit), 0, 1000)
}

/// Collects every `{value, source}` leaf of `v` under `key`.
fn walk(v: &serde_json::Value, key: String, out: &mut Vec<Value>) {
    let Some(map) = v.as_object() else { return };
    if let (Some(value), Some(serde_json::Value::String(source))) =
        (map.get("value"), map.get("source"))
    {
        let value = match value {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        out.push(Value {
            key,
            value,
            source: source.clone(),
            kind: SourceKind::of(source).unwrap_or(SourceKind::Ours),
        });
        return;
    }
    for (k, child) in map {
        let key = if key.is_empty() {
            k.clone()
        } else {
            format!("{key}.{k}")
        };
        walk(child, key, out);
    }
}
