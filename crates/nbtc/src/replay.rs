//! Many runs of the texture units over one frame's requests, streamed:
//! each run is a configuration, each has one [`TextureUnit`] per pixel
//! processor, and every unit of every run reads the same window of its
//! processor's input ([`UnitInput`]). The units are independent (each has
//! its own L1 and memory path), so they run in parallel; the window keeps
//! only what some unit still needs, so a frame is never held whole.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use gfxcache_cache::run::Threads;
use gfxcache_trace::texreq::TexReqRecord;

use crate::config::NbtcConfig;
use crate::error::NbtcError;
use crate::event::{UnitEvent, UnitInput};
use crate::stats::UnitStats;
use crate::texture_unit::TextureUnit;

/// One configuration over a frame: each pixel processor's unit, and
/// their sum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub config: NbtcConfig,
    /// Per pixel processor, by its number in the input.
    pub units: Vec<UnitStats>,
    /// Every count summed over the units (`cycles` too: the processors'
    /// cycles together, the figure the stall breakdown divides).
    pub total: UnitStats,
    /// The slowest unit's cycles: the frame's pixel-shading time when the
    /// processors start together and nothing else waits.
    pub frame_cycles: u64,
}

struct Slot {
    fp: usize,
    unit: TextureUnit,
    done: bool,
}

/// The runs, fed a frame's records in order.
pub struct Replay {
    configs: Vec<NbtcConfig>,
    inputs: Vec<UnitInput>,
    /// Every (processor, run) unit, processor-major.
    slots: Vec<Slot>,
    records: u64,
}

impl Replay {
    /// Runs of `configs` (at least one, each usable).
    pub fn new(configs: &[NbtcConfig]) -> Result<Replay, NbtcError> {
        if configs.is_empty() {
            return Err(NbtcError::Config {
                field: "runs",
                value: "none".into(),
                expected: "at least one configuration to replay".into(),
            });
        }
        for c in configs {
            c.check()?;
        }
        Ok(Replay {
            configs: configs.to_vec(),
            inputs: Vec::new(),
            slots: Vec::new(),
            records: 0,
        })
    }

    /// Records read so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    fn add_processors(&mut self, fps: usize) -> Result<(), NbtcError> {
        while self.inputs.len() < fps {
            let fp = self.inputs.len();
            self.inputs.push(UnitInput::new());
            for c in &self.configs {
                let unit = TextureUnit::new(c)?;
                self.slots.push(Slot {
                    fp,
                    unit,
                    done: false,
                });
            }
        }
        Ok(())
    }

    /// Runs the next `records` of the frame as far as they allow. A
    /// request with no texel or more than 8 is an error naming its
    /// record's index in the whole input.
    pub fn feed(&mut self, records: &[TexReqRecord], threads: Threads) -> Result<(), NbtcError> {
        for (i, record) in records.iter().enumerate() {
            let Some((fp, event)) = UnitEvent::of_record(record) else {
                continue;
            };
            self.add_processors(fp + 1)?;
            let index = self.records + i as u64;
            self.inputs[fp].push(event).map_err(|e| match e {
                NbtcError::Texels { len, .. } => NbtcError::RecordTexels { record: index, len },
                other => other,
            })?;
        }
        self.records += records.len() as u64;
        self.advance(threads);
        self.discard();
        Ok(())
    }

    fn advance(&mut self, threads: Threads) {
        let inputs = &self.inputs;
        let step = |s: &mut Slot| {
            if !s.done {
                s.done = s.unit.advance(&inputs[s.fp]);
            }
        };
        match threads {
            Threads::Many => self.slots.par_iter_mut().with_max_len(1).for_each(step),
            Threads::One => self.slots.iter_mut().for_each(step),
        }
    }

    /// Forgets the input no unit needs any more.
    fn discard(&mut self) {
        let runs = self.configs.len();
        for (fp, input) in self.inputs.iter_mut().enumerate() {
            let units = &self.slots[fp * runs..(fp + 1) * runs];
            let (event, fragment) = units
                .iter()
                .map(|s| s.unit.first_needed())
                .fold((usize::MAX, usize::MAX), |(e, f), (ue, uf)| {
                    (e.min(ue), f.min(uf))
                });
            input.discard_before(event, fragment);
        }
    }

    /// Runs what is left of the frame and gives each configuration's
    /// result, in the order of `configs`.
    pub fn finish(mut self, threads: Threads) -> Vec<RunResult> {
        for input in &mut self.inputs {
            input.finish();
        }
        self.advance(threads);
        let runs = self.configs.len();
        self.configs
            .iter()
            .enumerate()
            .map(|(run, config)| {
                let units: Vec<UnitStats> = self
                    .slots
                    .iter()
                    .skip(run)
                    .step_by(runs)
                    .map(|s| {
                        debug_assert!(s.done, "a finished input runs to its end");
                        s.unit.stats()
                    })
                    .collect();
                let mut total = UnitStats::default();
                for u in &units {
                    total.add(u);
                }
                RunResult {
                    config: *config,
                    frame_cycles: units.iter().map(|u| u.cycles).max().unwrap_or(0),
                    units,
                    total,
                }
            })
            .collect()
    }
}
