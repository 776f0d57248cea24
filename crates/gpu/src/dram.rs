//! DRAM behind the shared L2: what an L2 miss waits for besides DRAM's
//! latency.
//!
//! Every L2 miss takes the machine's DRAM latency
//! ([`crate::MachineConfig::dram_cycles`]: the unloaded latency of a
//! read, a paper's number such as DTM-NUCA's "50-100 cycles"). With
//! [`DramBanks`] it waits besides for the DRAM's banks and its channels'
//! data buses, by `gfxcache-mem`'s DRAM rules ([`gfxcache_mem::Dram`]:
//! its mapping of a line to channel, bank and row, its open-row policy,
//! its timings) on calendars, as the NBTC study's shared DRAM adds its
//! waits to its memory latency:
//!
//! - A read of a line finds its bank's row open (a row hit: no
//!   preparation), the bank idle (a row miss: tRCD) or another row open (a
//!   row conflict: tRP + tRCD). The open row is the one the last read
//!   called for that bank left, in the order the machine serves its
//!   accesses, as the L2's contents are.
//! - The bank is held for its preparation and the block's transfer (a
//!   line's, tCCD, for each 64 bytes of the block or part of them), the
//!   first such run of free cycles at or after the read reaches it; the
//!   data then takes the channel's bus for the block's transfer, the
//!   first free run at or after tCAS past the bank's column command. A
//!   block is read from its first line's bank and row.
//! - The read waits the cycles its data comes later than its own service
//!   (preparation, tCAS) would have it: that wait is added to the
//!   latency. A read alone waits 0, whatever its row's state; so the
//!   latency stays the stated one unloaded, and the banks and buses add
//!   only their contention.
//! - The stated latency covers a read's own service: a configuration
//!   whose latency is shorter than the longest, a row conflict's
//!   ([`DramTiming::service_cycles`]), is refused by the studies, since
//!   its blocks would be back before their banks let them go.
//! - Times are the GPU's cycles: each DRAM timing is converted from the
//!   DRAM's clock and rounded up ([`DramTiming::of`]).
//! - Calendars, not "free at" counters, because the machine serves
//!   accesses in its fragment processors' clock order, not time order
//!   ([`crate::calendar`]): a read waits only for reads placed before it
//!   that hold the cycles it wants.
//!
//! Not modelled: tRAS (a row's least open time), refresh, writes (the
//! texture reads never dirty the L2; the frame's other L2 traffic, whose
//! write-backs these would be, takes no time on the machine,
//! [`crate::l2`]), the command bus, tRRD and tFAW.

use gfxcache_mem::{DramConfig, DramPreset, LINE_BYTES};
use serde::{Deserialize, Serialize};

use crate::calendar::Calendar;

/// A DRAM's timing in the GPU's cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DramTiming {
    /// The DRAM whose rules these are (its mapping of lines to channels,
    /// banks and rows).
    pub dram: DramPreset,
    /// Activate to column command.
    pub t_rcd: u32,
    /// Precharge to activate.
    pub t_rp: u32,
    /// Column command to data.
    pub t_cas: u32,
    /// A 64-byte line's transfer on a channel's bus, and the bank's time
    /// between two column commands (tCCD).
    pub line_cycles: u32,
}

impl DramTiming {
    /// `dram`'s timing on a GPU clocked at `gpu_mhz`: each of its
    /// timings in picoseconds, rounded up to whole GPU cycles (a line's
    /// transfer at least 1).
    pub fn of(dram: DramPreset, gpu_mhz: u32) -> DramTiming {
        let config = dram.config();
        // ps x MHz / 10^6, rounded up: exact where the periods divide
        // (15 ns at 600 MHz is 9 cycles, not 9.0036 of a 1,666 ps cycle).
        let mhz = u64::from(gpu_mhz.max(1));
        let cycles = |ps: u64| u32::try_from((ps * mhz).div_ceil(1_000_000)).unwrap_or(u32::MAX);
        DramTiming {
            t_rcd: cycles(config.clocks_ps(config.t_rcd)),
            t_rp: cycles(config.clocks_ps(config.t_rp)),
            t_cas: cycles(config.clocks_ps(config.t_cas)),
            line_cycles: cycles(config.line_ps()).max(1),
            dram,
        }
    }
}

impl DramTiming {
    /// The longest a read of a `block_bytes` block alone takes at the
    /// DRAM: a row conflict's tRP + tRCD, then tCAS and the block's lines.
    pub fn service_cycles(&self, block_bytes: u32) -> u64 {
        let lines = u64::from(block_bytes).div_ceil(LINE_BYTES).max(1);
        u64::from(self.t_rp)
            + u64::from(self.t_rcd)
            + u64::from(self.t_cas)
            + lines * u64::from(self.line_cycles)
    }
}

/// What the DRAM's banks and buses did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DramStats {
    /// Texture requests' L2 misses read from DRAM.
    pub reads: u64,
    /// Reads and writes that found their row open, the bank idle,
    /// another row open.
    pub row_hits: u64,
    pub row_misses: u64,
    pub row_conflicts: u64,
    /// Cycles the texture reads waited for banks and buses beyond their
    /// service.
    pub wait_cycles: u64,
    /// The frame's other traffic's read misses, when it is timed
    /// (`OtherTraffic::Tiles`), and the cycles they waited.
    #[serde(default)]
    pub other_reads: u64,
    #[serde(default)]
    pub other_wait_cycles: u64,
    /// The L2's write-backs of dirty victims, when they are timed
    /// (`MachineConfig::dram_writes`), and the cycles they waited.
    #[serde(default)]
    pub writes: u64,
    #[serde(default)]
    pub write_wait_cycles: u64,
    /// Reservations more than a calendar's window behind the latest
    /// ([`Calendar::late`]).
    pub late_reservations: u64,
}

impl DramStats {
    /// Mean cycles a texture read waited for its bank and bus (0 with no
    /// read).
    pub fn mean_wait_cycles(&self) -> f64 {
        if self.reads == 0 {
            0.0
        } else {
            self.wait_cycles as f64 / self.reads as f64
        }
    }
}

/// What a DRAM access is for, which [`DramStats`] counts apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DramUse {
    /// A texture request's L2 miss.
    TextureRead,
    /// A read miss of the frame's other traffic.
    OtherRead,
    /// The L2's write-back of a dirty victim.
    WriteBack,
}

/// No row open in a bank.
const NO_ROW: u64 = u64::MAX;

/// The DRAM's banks and channel buses, reserved on calendars.
#[derive(Clone, Debug)]
pub struct DramBanks {
    timing: DramTiming,
    /// `timing.dram`'s configuration, for its mapping.
    config: DramConfig,
    /// Per bank, in the DRAM mapping's order: its reserved cycles and its
    /// open row.
    banks: Vec<Calendar>,
    open_rows: Vec<u64>,
    /// Per channel, its data bus.
    buses: Vec<Calendar>,
    stats: DramStats,
}

impl DramBanks {
    /// The banks and buses of `timing`'s DRAM, every bank idle.
    pub fn new(timing: &DramTiming) -> DramBanks {
        let d = timing.dram.config();
        let banks = (d.channels * d.banks_per_channel) as usize;
        DramBanks {
            timing: *timing,
            banks: vec![Calendar::new(); banks],
            open_rows: vec![NO_ROW; banks],
            buses: vec![Calendar::new(); d.channels as usize],
            config: d,
            stats: DramStats::default(),
        }
    }

    /// A texture request's read of the `block_bytes` block `block` that
    /// reaches the DRAM at cycle `t`: the cycles it waits for its bank and
    /// its channel's bus beyond its own service.
    #[inline]
    pub fn read(&mut self, block: u64, block_bytes: u32, t: u64) -> u64 {
        self.access(DramUse::TextureRead, block, block_bytes, t)
    }

    /// [`DramBanks::read`] for `what`: every access is served alike (a
    /// write-back's row opened, its lines on the channel's bus from tCAS
    /// after, tCWL taken as tCAS), and counted by what it is for.
    #[inline]
    pub fn access(&mut self, what: DramUse, block: u64, block_bytes: u32, t: u64) -> u64 {
        let wait = self.serve(block, block_bytes, t);
        let s = &mut self.stats;
        let (count, waits) = match what {
            DramUse::TextureRead => (&mut s.reads, &mut s.wait_cycles),
            DramUse::OtherRead => (&mut s.other_reads, &mut s.other_wait_cycles),
            DramUse::WriteBack => (&mut s.writes, &mut s.write_wait_cycles),
        };
        *count += 1;
        *waits += wait;
        wait
    }

    /// Reserves the read's bank and bus; returns its wait.
    #[inline]
    fn serve(&mut self, block: u64, block_bytes: u32, t: u64) -> u64 {
        let line = block * u64::from(block_bytes) / LINE_BYTES;
        let at = self.config.map(line);
        let open = &mut self.open_rows[at.bank];
        let prepare = if *open == at.row {
            self.stats.row_hits += 1;
            0
        } else if *open == NO_ROW {
            self.stats.row_misses += 1;
            u64::from(self.timing.t_rcd)
        } else {
            self.stats.row_conflicts += 1;
            u64::from(self.timing.t_rp + self.timing.t_rcd)
        };
        *open = at.row;
        let lines = u64::from(block_bytes).div_ceil(LINE_BYTES).max(1);
        // A block's lines and a bank's preparation are tens of cycles, far
        // below a calendar's longest run.
        let transfer = (lines * u64::from(self.timing.line_cycles)) as u32;
        let bank = &mut self.banks[at.bank];
        let late = bank.late();
        let held = prepare as u32 + transfer;
        let start = bank.reserve(t, held);
        self.stats.late_reservations += bank.late() - late;
        let ready = start + prepare + u64::from(self.timing.t_cas);
        let bus = &mut self.buses[at.channel];
        let late = bus.late();
        let data = bus.reserve(ready, transfer);
        self.stats.late_reservations += bus.late() - late;
        data - (t + prepare + u64::from(self.timing.t_cas))
    }

    pub fn stats(&self) -> &DramStats {
        &self.stats
    }

    pub fn timing(&self) -> &DramTiming {
        &self.timing
    }
}
