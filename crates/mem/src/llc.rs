//! LLC timing: banks that take one request per LLC cycle, and the
//! load-to-use latency around a hit or a miss.
//!
//! The GSPC paper (section 4): 4 banks of 2 MB, a 4 GHz clock, a minimum
//! round-trip load-to-use latency of 20 cycles. Whether an access hits is
//! the cache engine's business (crates/cache); this file only times it.
//!
//! - A line's bank is `line % banks`: the cache engine's `set % banks`
//!   under modulo indexing.
//! - A bank takes one request per `bank_busy_cycles` (one LLC cycle);
//!   requests arriving while it is busy wait in order.
//! - A hit completes `load_to_use_cycles` after its bank takes it.
//! - A miss is known after `tag_cycles` (the tag lookup): it goes to DRAM
//!   then, and completes `load_to_use_cycles - tag_cycles` after DRAM
//!   returns the line (fill and the way back). So a miss costs the LLC
//!   round trip once plus the DRAM time; the paper states only the
//!   round trip, the split is our assumption.
//! - Fills and write-backs do not occupy the bank: its data array and tag
//!   ports are assumed separate enough that only lookups contend.

use serde::{Deserialize, Serialize};

use crate::error::MemError;

/// The LLC's timing parameters; `Default` is the GSPC paper's LLC.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LlcTiming {
    pub banks: u32,
    /// Capacity of one bank. Not used for timing (capacity decides hits,
    /// which the cache engine does); kept so a configuration says what LLC
    /// it times.
    pub bank_bytes: u64,
    pub clock_ghz: f64,
    /// Minimum round-trip latency of a hit, LLC cycles.
    pub load_to_use_cycles: u32,
    /// Part of the round trip before a miss is sent to DRAM, LLC cycles.
    pub tag_cycles: u32,
    /// How long a lookup keeps its bank, LLC cycles.
    pub bank_busy_cycles: u32,
}

impl LlcTiming {
    /// The GSPC paper's 8 MB LLC: 4 banks of 2 MB at 4 GHz, 20 cycles.
    pub fn gspc() -> LlcTiming {
        LlcTiming {
            banks: 4,
            bank_bytes: 2 << 20,
            clock_ghz: 4.0,
            load_to_use_cycles: 20,
            tag_cycles: 10,
            bank_busy_cycles: 1,
        }
    }

    /// Picoseconds in `cycles` LLC cycles, rounded to nearest.
    pub fn cycles_ps(&self, cycles: u32) -> u64 {
        (f64::from(cycles) * 1000.0 / self.clock_ghz).round() as u64
    }

    pub fn validate(&self) -> Result<(), MemError> {
        let bad = |what: &str, why: String| {
            Err(MemError::Config {
                part: "llc",
                what: what.to_string(),
                why,
            })
        };
        if !self.banks.is_power_of_two() {
            return bad("banks", format!("{} is not a power of two", self.banks));
        }
        if !(self.clock_ghz.is_finite() && self.clock_ghz > 0.0) {
            return bad("clock_ghz", format!("{} is not a clock", self.clock_ghz));
        }
        if self.tag_cycles > self.load_to_use_cycles {
            return bad(
                "tag_cycles",
                format!(
                    "{} exceeds load_to_use_cycles {}",
                    self.tag_cycles, self.load_to_use_cycles
                ),
            );
        }
        Ok(())
    }
}

impl Default for LlcTiming {
    fn default() -> LlcTiming {
        LlcTiming::gspc()
    }
}

/// The LLC banks' state: when each is next free.
#[derive(Clone, Debug)]
pub struct Llc {
    bank_free_ps: Vec<u64>,
    bank_mask: u64,
    busy_ps: u64,
    load_to_use_ps: u64,
    tag_ps: u64,
}

impl Llc {
    pub fn new(timing: &LlcTiming) -> Result<Llc, MemError> {
        timing.validate()?;
        Ok(Llc {
            bank_free_ps: vec![0; timing.banks as usize],
            bank_mask: u64::from(timing.banks) - 1,
            busy_ps: timing.cycles_ps(timing.bank_busy_cycles),
            load_to_use_ps: timing.cycles_ps(timing.load_to_use_cycles),
            tag_ps: timing.cycles_ps(timing.tag_cycles),
        })
    }

    /// A request for `line` arriving at `at_ps`: returns when its bank takes
    /// it, and keeps the bank busy from then on for one lookup.
    #[inline]
    pub fn lookup(&mut self, at_ps: u64, line: u64) -> u64 {
        let free = &mut self.bank_free_ps[(line & self.bank_mask) as usize];
        let start = at_ps.max(*free);
        *free = start + self.busy_ps;
        start
    }

    /// Round trip of a hit, from the bank taking it, in ps.
    pub fn load_to_use_ps(&self) -> u64 {
        self.load_to_use_ps
    }

    /// From the bank taking a miss to the miss leaving for DRAM, in ps.
    pub fn tag_ps(&self) -> u64 {
        self.tag_ps
    }

    /// From DRAM returning a miss's line to the requester having it, in ps.
    pub fn return_ps(&self) -> u64 {
        self.load_to_use_ps - self.tag_ps
    }
}
