//! One pass over a trace: the sample to the mini-cache of every policy and
//! size, and the whole trace to what the curves are compared with (the
//! one-pass LRU curve, full-size caches); then the curves.

use gfxcache_trace::{Access, Stream, TraceRead, BATCH_RECORDS};

use super::report::{Exact, ExactSource, Sampling, ShardsCurve, ShardsPoint, ShardsReport};
use super::sample::SpatialSampler;
use super::scale::mini_cache;
use super::{ShardsConfig, ShardsError};
use crate::geometry::{format_size, Geometry, IndexFn};
use crate::mrc::{MrcBuilder, StreamPoint};
use crate::next_use::{NextUse, NextUseBuilder};
use crate::policy::Env;
use crate::registry::{lookup, PolicyInfo};
use crate::run::{for_each_batch, for_each_consumer, Threads};
use crate::sim::CacheSim;
use crate::spec::PolicySpec;
use crate::stats::ratio;

/// What a pass computes: the curves of `specs` at `sizes`.
#[derive(Clone, Debug)]
pub struct ShardsPlan {
    pub config: ShardsConfig,
    /// The caches of the curve at full size, all of one block size, in the
    /// order the curve lists them.
    pub sizes: Vec<Geometry>,
    pub specs: Vec<PolicySpec>,
    /// Also simulate every size at full size, for the error of the curve,
    /// where the one-pass LRU curve does not give it.
    pub exact: bool,
}

/// The one-pass LRU curve the sizes of a plan allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnePass {
    FullyAssociative,
    Sets { sets: u32, max_ways: u32 },
}

impl ShardsPlan {
    fn block(&self) -> u32 {
        self.sizes.first().map_or(64, |g| g.block)
    }

    /// The one-pass curve that gives plain `lru`'s exact misses at every
    /// size: fully associative sizes, or one set count (modulo index).
    fn one_pass(&self) -> Option<OnePass> {
        if self.sizes.iter().any(|g| g.index != IndexFn::Modulo) {
            return None;
        }
        if self.sizes.iter().all(|g| g.sets == 1) {
            return Some(OnePass::FullyAssociative);
        }
        let sets = self.sizes.first()?.sets;
        self.sizes
            .iter()
            .all(|g| g.sets == sets)
            .then(|| OnePass::Sets {
                sets,
                max_ways: self.sizes.iter().map(|g| g.ways).max().unwrap_or(1),
            })
    }

    /// Whether the one-pass curve gives `spec`'s exact misses.
    fn exact_in_one_pass(&self, spec: &PolicySpec) -> bool {
        spec.name == "lru" && !spec.ucd && spec.params.is_empty() && self.one_pass().is_some()
    }

    fn sampler(&self) -> Result<SpatialSampler, ShardsError> {
        SpatialSampler::new(self.config.rate, self.config.modulus)
    }

    /// The mini-caches, by size (`None`: a size the sample cannot resolve).
    fn minis(&self) -> Result<Vec<Option<Geometry>>, ShardsError> {
        let rate = self.sampler()?.rate();
        Ok(self.sizes.iter().map(|g| mini_cache(g, rate)).collect())
    }

    /// Whether the pass would run, before any trace is read or cache
    /// built: the rate, the sizes, and every spec on every mini-cache
    /// (and, with `exact`, full-size cache) as building would say.
    pub fn check<'a>(
        &self,
        registry: impl Iterator<Item = &'a PolicyInfo> + Clone,
    ) -> Result<(), ShardsError> {
        let minis = self.minis()?;
        let Some(first) = self.sizes.first() else {
            return Err(ShardsError::Config(
                "no cache size: expected at least one".into(),
            ));
        };
        if let Some(g) = self.sizes.iter().find(|g| g.block != first.block) {
            return Err(ShardsError::Config(format!(
                "block sizes {} and {}: expected one block size for a curve",
                first.block, g.block
            )));
        }
        if minis.iter().all(Option::is_none) {
            return Err(ShardsError::Config(format!(
                "at sampling rate {} every size's mini-cache rounds to nothing: expected \
                 a larger rate or larger sizes",
                self.config.rate
            )));
        }
        if self.specs.is_empty() {
            return Err(ShardsError::Config(
                "no policy: expected at least one".into(),
            ));
        }
        for spec in &self.specs {
            let info = lookup(registry.clone(), spec)?;
            for (full, mini) in self.sizes.iter().zip(&minis) {
                if let Some(m) = mini {
                    info.check(spec, m)?;
                }
                if self.exact && !self.exact_in_one_pass(spec) {
                    info.check(spec, full)?;
                }
            }
        }
        Ok(())
    }

    /// Whether a policy of the plan needs next uses ([`next_uses`]).
    pub fn needs_next_use<'a>(
        &self,
        registry: impl Iterator<Item = &'a PolicyInfo> + Clone,
    ) -> bool {
        self.specs
            .iter()
            .any(|s| lookup(registry.clone(), s).is_ok_and(|p| p.needs_next_use))
    }
}

/// The next uses of the sample (what a policy that needs them reads in a
/// mini-cache, whose accesses are the sample's) and, with `full`, of the
/// whole trace, from one pass over `reader`.
pub fn next_uses(
    reader: &mut dyn TraceRead,
    plan: &ShardsPlan,
    threads: Threads,
    progress: impl FnMut(u64, u64),
) -> Result<(NextUse, Option<NextUse>), ShardsError> {
    let sampler = plan.sampler()?;
    let block = plan.block();
    let mut sampled = NextUseBuilder::new(block);
    let mut whole = plan.exact.then(|| {
        let mut b = NextUseBuilder::new(block);
        b.expect_announced(reader);
        b
    });
    let mut buffer = Vec::with_capacity(BATCH_RECORDS);
    let mut totals = [0; Stream::COUNT];
    for_each_batch(
        reader,
        threads,
        |batch| {
            buffer.clear();
            sampler.filter(
                &batch.accesses,
                block.trailing_zeros(),
                &mut buffer,
                &mut totals,
            );
            sampled.push_all(&buffer)?;
            if let Some(w) = &mut whole {
                w.push_all(&batch.accesses)?;
            }
            Ok::<(), ShardsError>(())
        },
        progress,
    )?;
    Ok((sampled.finish(), whole.map(NextUseBuilder::finish)))
}

/// What a pass feeds each batch.
enum Job {
    /// The mini-cache of policy `spec` at size `size`: the sample.
    Mini {
        spec: usize,
        size: usize,
        cache: Box<dyn CacheSim>,
    },
    /// The same at full size: the trace.
    Full {
        spec: usize,
        size: usize,
        cache: Box<dyn CacheSim>,
    },
    /// The one-pass LRU curve: the trace.
    Curve(Box<MrcBuilder>),
}

/// Sampled accesses gathered before the mini-caches run them: each batch
/// of the trace leaves about R of its accesses, too few to be worth a
/// fan-out of their own.
const GATHER: usize = BATCH_RECORDS;

/// A SHARDS pass under way: [`ShardsPass::push`] every batch of the trace
/// in order, then [`ShardsPass::finish`].
pub struct ShardsPass {
    plan: ShardsPlan,
    sampler: SpatialSampler,
    minis: Vec<Option<Geometry>>,
    jobs: Vec<Job>,
    sampled: Vec<Access>,
    /// Block accesses of the trace, by stream: N.
    totals: [u64; Stream::COUNT],
    trace_accesses: u64,
}

impl ShardsPass {
    /// Builds every cache of `plan` from `registry`: mini-caches with
    /// `sampled` (next uses of the sample, for a policy that needs them),
    /// full-size ones with `whole`.
    pub fn new<'a>(
        plan: ShardsPlan,
        registry: impl Iterator<Item = &'a PolicyInfo> + Clone,
        sampled: &Env,
        whole: &Env,
    ) -> Result<ShardsPass, ShardsError> {
        plan.check(registry.clone())?;
        let sampler = plan.sampler()?;
        let minis = plan.minis()?;
        let mut jobs = Vec::new();
        for (s, spec) in plan.specs.iter().enumerate() {
            let info = lookup(registry.clone(), spec)?;
            for (z, (full, mini)) in plan.sizes.iter().zip(&minis).enumerate() {
                if let Some(m) = mini {
                    jobs.push(Job::Mini {
                        spec: s,
                        size: z,
                        cache: info.build(spec, m, sampled)?,
                    });
                }
                if plan.exact && !plan.exact_in_one_pass(spec) {
                    jobs.push(Job::Full {
                        spec: s,
                        size: z,
                        cache: info.build(spec, full, whole)?,
                    });
                }
            }
        }
        if plan.specs.iter().any(|s| plan.exact_in_one_pass(s)) {
            let mut b = MrcBuilder::new(plan.block())?;
            if let Some(OnePass::Sets { sets, max_ways }) = plan.one_pass() {
                b = b.with_sets(sets, max_ways)?;
            }
            jobs.push(Job::Curve(Box::new(b)));
        }
        Ok(ShardsPass {
            plan,
            sampler,
            minis,
            jobs,
            sampled: Vec::with_capacity(GATHER * 2),
            totals: [0; Stream::COUNT],
            trace_accesses: 0,
        })
    }

    /// The next batch of the trace.
    pub fn push(&mut self, accesses: &[Access], threads: Threads) -> Result<(), ShardsError> {
        self.trace_accesses += accesses.len() as u64;
        let shift = self.plan.block().trailing_zeros();
        self.sampler
            .filter(accesses, shift, &mut self.sampled, &mut self.totals);
        let flush = self.sampled.len() >= GATHER;
        self.run(accesses, flush, threads)
    }

    /// Runs every job on its share: the trace's `accesses` for the exact
    /// ones, the gathered sample for the mini-caches when `flush`.
    fn run(
        &mut self,
        accesses: &[Access],
        flush: bool,
        threads: Threads,
    ) -> Result<(), ShardsError> {
        let sampled = &self.sampled;
        for_each_consumer(&mut self.jobs, threads, |job| {
            match job {
                Job::Mini { cache, .. } if flush => cache.access_batch(sampled),
                Job::Mini { .. } => {}
                Job::Full { cache, .. } => cache.access_batch(accesses),
                Job::Curve(b) => b.push_all(accesses)?,
            }
            Ok::<(), ShardsError>(())
        })?;
        if flush {
            self.sampled.clear();
        }
        Ok(())
    }

    /// The curves, once every batch is in.
    pub fn finish(mut self, threads: Threads) -> Result<ShardsReport, ShardsError> {
        self.run(&[], true, threads)?;
        let curve = match self.jobs.iter().position(|j| matches!(j, Job::Curve(_))) {
            Some(i) => match self.jobs.swap_remove(i) {
                Job::Curve(b) => Some(b.finish()?),
                _ => unreachable!("the job found is the curve"),
            },
            None => None,
        };
        let mut minis: Vec<Vec<Option<&dyn CacheSim>>> =
            vec![vec![None; self.plan.sizes.len()]; self.plan.specs.len()];
        let mut fulls = minis.clone();
        for job in &self.jobs {
            match job {
                Job::Mini { spec, size, cache } => minis[*spec][*size] = Some(cache.as_ref()),
                Job::Full { spec, size, cache } => fulls[*spec][*size] = Some(cache.as_ref()),
                Job::Curve(_) => {}
            }
        }
        let rate = self.sampler.rate();
        let n: u64 = self.totals.iter().sum();
        let sampled: u64 = minis
            .iter()
            .flatten()
            .flatten()
            .next()
            .map_or(0, |c| c.stats().total().accesses);
        let curves = self
            .plan
            .specs
            .iter()
            .enumerate()
            .map(|(s, spec)| {
                let mut warnings = Vec::new();
                let points = self
                    .plan
                    .sizes
                    .iter()
                    .zip(&self.minis)
                    .enumerate()
                    .filter_map(|(z, (full, mini))| {
                        let mini = (*mini)?;
                        let cache = minis[s][z]?;
                        for note in cache.notes() {
                            warnings.push(format!(
                                "{} (mini-cache of {} sets x {} ways): {note}",
                                format_size(full.size()),
                                mini.sets,
                                mini.ways
                            ));
                        }
                        let exact = if self.plan.exact_in_one_pass(spec) {
                            curve.as_ref().map(|c| {
                                let misses = if full.sets == 1 {
                                    c.misses_at_blocks(u64::from(full.ways))
                                } else {
                                    c.misses_at_ways(full.ways).unwrap_or(c.accesses())
                                };
                                (ExactSource::OnePass, misses, c.accesses())
                            })
                        } else {
                            fulls[s][z].map(|c| {
                                let t = c.stats().total();
                                (ExactSource::Simulation, t.misses, t.accesses)
                            })
                        };
                        Some(self.point(full, &mini, cache, exact))
                    })
                    .collect::<Vec<_>>();
                let omitted = self
                    .plan
                    .sizes
                    .iter()
                    .zip(&self.minis)
                    .filter(|(_, m)| m.is_none())
                    .map(|(g, _)| g.size())
                    .collect();
                ShardsCurve {
                    policy: spec.to_string(),
                    points,
                    omitted,
                    warnings,
                }
            })
            .collect();
        let c = &self.plan.config;
        Ok(ShardsReport {
            sampling: Sampling {
                rate: c.rate,
                modulus: self.sampler.modulus,
                threshold: self.sampler.threshold,
                effective_rate: rate,
                hash: super::HASH,
                adjust: c.adjust,
                min_scaled_blocks: c.min_scaled_blocks,
            },
            trace_accesses: self.trace_accesses,
            block_accesses: n,
            sampled_block_accesses: sampled,
            expected_sampled: rate * n as f64,
            curves,
        })
    }

    /// One point: the mini-cache's misses as a miss ratio of the sample
    /// (or, with SHARDS-adj, of the sample's expected size), beside the
    /// exact `(source, misses, accesses)` if known.
    fn point(
        &self,
        full: &Geometry,
        mini: &Geometry,
        cache: &dyn CacheSim,
        exact: Option<(ExactSource, u64, u64)>,
    ) -> ShardsPoint {
        let rate = self.sampler.rate();
        let adjust = self.plan.config.adjust;
        let miss_ratio = |misses: u64, sampled: u64, n: u64| {
            if adjust {
                // SHARDS-adj: E - S more hits at distance 0, so that the
                // sample counts as many accesses as expected, E = R * N.
                let expected = rate * n as f64;
                if expected > 0.0 {
                    (misses as f64 / expected).min(1.0)
                } else {
                    0.0
                }
            } else {
                ratio(misses, sampled)
            }
        };
        let stats = cache.stats();
        let total = stats.total();
        let n: u64 = self.totals.iter().sum();
        let m = miss_ratio(total.misses, total.accesses, n);
        ShardsPoint {
            size: full.size(),
            blocks: full.blocks() as u64,
            sets: full.sets,
            ways: full.ways,
            scaled_sets: mini.sets,
            scaled_ways: mini.ways,
            scaled_blocks: mini.blocks() as u64,
            resolved: mini.blocks() as u64 >= self.plan.config.min_scaled_blocks,
            size_band: size_band(full.size(), mini.blocks() as u64),
            sampled_accesses: total.accesses,
            misses: total.misses,
            miss_ratio: m,
            per_stream: Stream::ALL
                .iter()
                .filter(|s| self.totals[s.index()] > 0)
                .map(|&s| {
                    let c = stats.stream(s);
                    StreamPoint {
                        stream: s,
                        accesses: c.accesses,
                        misses: c.misses,
                        miss_ratio: miss_ratio(c.misses, c.accesses, self.totals[s.index()]),
                    }
                })
                .collect(),
            exact: exact.map(|(source, misses, accesses)| {
                let exact = ratio(misses, accesses);
                Exact {
                    source,
                    misses,
                    miss_ratio: exact,
                    abs_error: (m - exact).abs(),
                }
            }),
        }
    }
}

/// [`ShardsPoint::size_band`] of a cache of `size` bytes whose mini-cache
/// holds `blocks` blocks: the sample holds a share of the `D` distinct
/// blocks a reuse spans that is binomial, `R * D` give or take
/// `sqrt(R * D)`, so the mini-cache's `b` blocks stand for `b / R` blocks
/// give or take a factor `1 / sqrt(b)`.
fn size_band(size: u64, blocks: u64) -> (u64, u64) {
    let delta = super::SIZE_BAND_SIGMAS / (blocks.max(1) as f64).sqrt();
    let lo = (size as f64 / (1.0 + delta)).round() as u64;
    let hi = (size as f64 * (1.0 + delta)).round() as u64;
    (lo, hi)
}
