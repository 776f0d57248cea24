//! The hierarchy itself: how a block access travels between levels (the
//! rules are in [`crate::hierarchy`]'s documentation).

use gfxcache_trace::{Access, Stream};

use super::config::{HierarchyConfig, HierarchyError, Inclusion};
use super::level::LevelCache;
use super::report::{HierarchyReport, LevelCounts, LevelReport, MemoryCounts};
use crate::engine::Cursor;
use crate::outcome::{Line, Placed};
use crate::policy::Env;
use crate::registry::{lookup, PolicyInfo};
use crate::stats::ratio;

/// Per stream, what only the hierarchy sees of a level.
#[derive(Clone, Debug, Default)]
struct Tally {
    /// Demand misses of an exclusive level that the level above takes
    /// (not filled here, so not counted by the cache).
    passed: [u64; Stream::COUNT],
    received: [u64; Stream::COUNT],
    /// Write-backs of clean evictions made dirty by a back-invalidated copy.
    merged: [u64; Stream::COUNT],
    back_invalidations: [u64; Stream::COUNT],
}

struct Level {
    name: String,
    inclusion: Option<Inclusion>,
    cache: Box<dyn LevelCache>,
    tally: Tally,
}

impl Level {
    fn is(&self, inclusion: Inclusion) -> bool {
        self.inclusion == Some(inclusion)
    }
}

/// A demand block access on its way down.
#[derive(Clone, Copy, Debug)]
struct Demand {
    block: u64,
    stream: Stream,
    /// A write that no level above keeps: its data goes with it.
    write: bool,
    unit: u16,
}

/// What the levels below answered a demand.
#[derive(Clone, Copy, Debug, Default)]
struct Reply {
    /// An exclusive level gave the block up to the levels above.
    handed: bool,
    /// ... and it was dirty there.
    dirty: bool,
}

/// Levels of caches between a trace and memory, each with its policy and
/// inclusion policy. Build one with [`Hierarchy::build`], feed it batches
/// ([`Hierarchy::access_all`]), read [`Hierarchy::report`].
pub struct Hierarchy {
    levels: Vec<Level>,
    memory: [MemoryCounts; Stream::COUNT],
    policy: String,
}

impl Hierarchy {
    /// Whether `config` builds from `registry`, without building a cache:
    /// each level's policy spec on its geometry ([`PolicyInfo::check`]), and
    /// the hierarchy's rules: a policy that needs next uses (OPT) only at
    /// the first level, the one level whose access stream is the trace; no
    /// `+ucd` at an inclusive level, which must hold every block above it.
    pub fn check<'a>(
        config: &HierarchyConfig,
        registry: impl Iterator<Item = &'a PolicyInfo> + Clone,
    ) -> Result<(), HierarchyError> {
        for (i, l) in config.levels.iter().enumerate() {
            let fail = |what: String| HierarchyError::Level {
                level: l.name.clone(),
                what,
            };
            let info = lookup(registry.clone(), &l.policy).map_err(|e| fail(e.to_string()))?;
            if i > 0 && info.needs_next_use {
                return Err(fail(format!(
                    "{}: needs the next uses of its level's accesses, which only the first \
                     level knows (they are the trace's): expected it at the first level only",
                    l.policy
                )));
            }
            if l.policy.ucd && l.inclusion == Some(Inclusion::Inclusive) {
                return Err(fail(format!(
                    "{}: an inclusive level holds every block of the levels above, so it \
                     cannot leave the display stream out: expected no +ucd here",
                    l.policy
                )));
            }
            info.check(&l.policy, &l.geometry)
                .map_err(|e| fail(e.to_string()))?;
        }
        Ok(())
    }

    /// Whether the first level's policy needs the trace's next uses
    /// ([`Env::next_use`]) at the hierarchy's block size.
    pub fn needs_next_use<'a>(
        config: &HierarchyConfig,
        registry: impl Iterator<Item = &'a PolicyInfo> + Clone,
    ) -> bool {
        config
            .levels
            .first()
            .and_then(|l| lookup(registry, &l.policy).ok())
            .is_some_and(|p| p.needs_next_use)
    }

    /// The hierarchy `config` describes, its policies from `registry`;
    /// `env` is for the first level's policy.
    pub fn build<'a>(
        config: &HierarchyConfig,
        registry: impl Iterator<Item = &'a PolicyInfo> + Clone,
        env: &Env,
    ) -> Result<Hierarchy, HierarchyError> {
        Hierarchy::check(config, registry.clone())?;
        let levels = config
            .levels
            .iter()
            .map(|l| {
                let fail = |source| HierarchyError::Cache {
                    level: l.name.clone(),
                    source,
                };
                let info = lookup(registry.clone(), &l.policy).map_err(fail)?;
                Ok(Level {
                    name: l.name.clone(),
                    inclusion: l.inclusion,
                    cache: info
                        .build_level(&l.policy, &l.geometry, env)
                        .map_err(fail)?,
                    tally: Tally::default(),
                })
            })
            .collect::<Result<Vec<_>, HierarchyError>>()?;
        Ok(Hierarchy {
            levels,
            memory: Default::default(),
            policy: config.label(),
        })
    }

    /// Every access of `accesses`, in order, split into blocks as the
    /// engine splits them. The first level runs the batch in its own loop
    /// and returns at each miss.
    pub fn access_all(&mut self, accesses: &[Access]) {
        let mut cursor = Cursor::default();
        while let Some((block, a)) = self.levels[0].cache.probe_run(accesses, &mut cursor) {
            let d = Demand {
                block,
                stream: a.stream,
                write: a.op.is_write(),
                unit: a.unit,
            };
            self.missed(0, d, false);
        }
    }

    /// A demand arriving at level `i` (memory past the last); `up`: a
    /// level above will keep the block.
    fn demand(&mut self, i: usize, d: Demand, up: bool) -> Reply {
        let Some(level) = self.levels.get_mut(i) else {
            let m = &mut self.memory[d.stream.index()];
            if d.write {
                m.writes += 1;
            } else {
                m.reads += 1;
            }
            return Reply::default();
        };
        if level.cache.probe(d.block, d.stream, d.write, d.unit) {
            if up && level.is(Inclusion::Exclusive) {
                let line = level
                    .cache
                    .invalidate(d.block)
                    .expect("a block that hit is resident");
                return Reply {
                    handed: true,
                    dirty: line.dirty,
                };
            }
            return Reply::default();
        }
        self.missed(i, d, up)
    }

    /// The rest of a demand that missed at level `i`: the levels below
    /// answer first, then this level fills (or not) and its victim goes
    /// down, as a cache that handles its misses does.
    fn missed(&mut self, i: usize, d: Demand, up: bool) -> Reply {
        let level = &mut self.levels[i];
        if up && level.is(Inclusion::Exclusive) {
            level.tally.passed[d.stream.index()] += 1;
            return self.demand(i + 1, d, true);
        }
        let allocates = level.cache.allocates(d.stream);
        let keeps = up || allocates;
        let below = Demand {
            write: d.write && !keeps,
            ..d
        };
        let reply = self.demand(i + 1, below, keeps);
        let placed = self.levels[i]
            .cache
            .fill(d.block, d.stream, d.write || reply.dirty, d.unit);
        match placed {
            Placed::Filled { victim } => {
                if let Some(v) = victim {
                    self.evicted(i, v);
                }
                Reply::default()
            }
            Placed::Bypassed if up => reply,
            Placed::Bypassed => {
                // Not kept here nor above: what it carries goes back down,
                // as a victim would.
                let dirty = reply.dirty || (d.write && allocates);
                if reply.handed || dirty {
                    self.send_down(
                        i,
                        Line {
                            block: d.block,
                            dirty,
                            stream: d.stream,
                        },
                    );
                }
                Reply::default()
            }
            Placed::Present => unreachable!("a block that missed was resident at its fill"),
        }
    }

    /// Level `i` evicted `v`: an inclusive level invalidates the copies
    /// above, taking their dirt; then the victim goes down.
    fn evicted(&mut self, i: usize, mut v: Line) {
        if self.levels[i].is(Inclusion::Inclusive) {
            for j in 0..i {
                if let Some(copy) = self.levels[j].cache.invalidate(v.block) {
                    let t = &mut self.levels[i].tally;
                    t.back_invalidations[copy.stream.index()] += 1;
                    if copy.dirty && !v.dirty {
                        t.merged[v.stream.index()] += 1;
                    }
                    v.dirty |= copy.dirty;
                }
            }
        }
        self.send_down(i, v);
    }

    /// A victim of level `i` (or a block it did not keep) to the level
    /// below: every victim to an exclusive level, else dirty ones only; to
    /// memory, dirty ones.
    fn send_down(&mut self, i: usize, v: Line) {
        match self.levels.get(i + 1) {
            None => {
                if v.dirty {
                    self.memory[v.stream.index()].writes += 1;
                }
            }
            Some(below) => {
                if v.dirty || below.is(Inclusion::Exclusive) {
                    self.absorb(i + 1, v);
                }
            }
        }
    }

    /// Level `k` receives `v` from the level above.
    fn absorb(&mut self, k: usize, mut v: Line) {
        self.levels[k].tally.received[v.stream.index()] += 1;
        if !self.levels[k].cache.contains(v.block) {
            // About to be allocated here (or, not kept, to go down): the
            // exclusive levels right below give up their older copy.
            for m in k + 1..self.levels.len() {
                if !self.levels[m].is(Inclusion::Exclusive) {
                    break;
                }
                if let Some(copy) = self.levels[m].cache.invalidate(v.block) {
                    v.dirty |= copy.dirty;
                }
            }
        }
        let level = &mut self.levels[k];
        // A victim carries no issuing unit.
        match level.cache.absorb(v.block, v.stream, v.dirty, 0) {
            Placed::Present | Placed::Filled { victim: None } => {}
            Placed::Filled { victim: Some(x) } => self.evicted(k, x),
            Placed::Bypassed => self.send_down(k, v),
        }
    }

    /// Levels, from the first.
    pub fn len(&self) -> usize {
        self.levels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }

    /// Whether level `i` holds `block`.
    pub fn contains(&self, i: usize, block: u64) -> bool {
        self.levels[i].cache.contains(block)
    }

    /// Every block level `i` holds, with its dirty bit (for checks).
    pub fn lines(&self, i: usize) -> Vec<(u64, bool)> {
        self.levels[i].cache.lines()
    }

    /// Level `i`'s counts of stream `s`.
    fn counts(&self, i: usize, s: Stream) -> LevelCounts {
        let level = &self.levels[i];
        let c = level.cache.stats().stream(s);
        let t = &level.tally;
        let x = s.index();
        LevelCounts {
            accesses: c.hits + c.misses + t.passed[x],
            hits: c.hits,
            misses: c.misses + t.passed[x],
            fills: c.fills,
            bypasses: c.bypasses,
            evictions: c.evictions,
            writebacks: c.writebacks + t.merged[x],
            received: t.received[x],
            back_invalidations: t.back_invalidations[x],
        }
    }

    /// What every level and memory counted so far.
    pub fn report(&self) -> HierarchyReport {
        let levels = self
            .levels
            .iter()
            .enumerate()
            .map(|(i, level)| {
                let mut total = LevelCounts::default();
                let mut per_stream = std::collections::BTreeMap::new();
                for s in Stream::ALL {
                    let c = self.counts(i, s);
                    if !c.is_empty() {
                        total.add(&c);
                        per_stream.insert(s.name(), c);
                    }
                }
                let g = level.cache.geometry();
                LevelReport {
                    name: level.name.clone(),
                    size: g.size(),
                    ways: g.ways,
                    sets: g.sets,
                    block: g.block,
                    policy: level.cache.label().to_string(),
                    inclusion: level.inclusion,
                    counts: total,
                    miss_ratio: ratio(total.misses, total.accesses),
                    per_stream,
                    report: level.cache.report().into_iter().collect(),
                    warnings: level.cache.notes().to_vec(),
                }
            })
            .collect();
        let mut memory = MemoryCounts::default();
        let mut memory_per_stream = std::collections::BTreeMap::new();
        for s in Stream::ALL {
            let m = self.memory[s.index()];
            if m != MemoryCounts::default() {
                memory.reads += m.reads;
                memory.writes += m.writes;
                memory_per_stream.insert(s.name(), m);
            }
        }
        HierarchyReport {
            policy: self.policy.clone(),
            levels,
            memory,
            memory_per_stream,
        }
    }
}
