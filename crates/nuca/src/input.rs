//! A rendered frame as replay input: the renderer's texture requests (a
//! `.gtq`, before any texture cache) and, optionally, its trace of L2
//! traffic (a tile-based `.gtr`), merged tile by tile into
//! [`ReplayEvent`]s.
//!
//! - **Texture accesses.** What the texture cache sees as one request is
//!   the [`RequestUnit`]: by default a quad's (a shader's texture
//!   instruction for the quad's live pixels, issued together, as a GPU's
//!   texture unit takes quads); or a pixel's, with a quad's texel fetches
//!   still one request, which is how the renderer's own texture caches
//!   count. The request's taps fall in one or more blocks; the cache sees
//!   each distinct block once per request, in the order the taps first
//!   touch them. The first block carries the request's shader work, the
//!   others follow it (`more`).
//! - **Shader work.** A request's shader operations since the fragment's
//!   previous request, timed by the machine's issue model
//!   ([`IssueModel::cycles`]): a quad's request takes the time of four
//!   times its slowest pixel's operations (its four lanes run the slowest
//!   path, helper lanes included), a pixel's its own (a fetch's pixels
//!   one after another). A fragment's first request also carries the
//!   time of the operations after the last request of the fragment
//!   processor's previous fragment (its `tail`); the others say that they
//!   continue their fragment (`follows`). A fragment is a processor's
//!   requests up to a pixel's `FragmentEnd` (a quad's, as the NBTC units
//!   read them), and never spans tiles. What is still carried at a tile's
//!   end is a [`ReplayEvent::Work`] before the `TileEnd`. No issue model:
//!   shading takes no time.
//! - **Other L2 traffic.** The trace's accesses of every stream but `tex`
//!   (whose L2 traffic the organizations make themselves) become
//!   [`ReplayEvent::Other`]: those between tiles (the binning pass,
//!   [`OtherPhase::Binning`]) as they come; inside a tile, each is placed among the tile's texture
//!   accesses at the same fraction of the way through as it stood among
//!   the trace's `tex` records (a tile's loads before its first texture
//!   access, its stores after its last).
//!
//! The two files must hold the same frame: their headers agree on every
//! field they share (the resolution, the frames, the fragment processors
//! and the tile size, and the trace's mode is `tbr`) and they list the
//! same tiles in the same order; where they do not, the error names both
//! files and the field or the tile. The requests are whole only once their
//! reader has checked their footer: an error there (a file cut short, a
//! count or checksum that disagrees) is an error of [`FrameInput::next_tile`],
//! never a shorter frame.

use std::io::Read;
use std::path::{Path, PathBuf};

use gfxcache_gpu::OtherPhase;
use gfxcache_machine::IssueModel;
use gfxcache_trace::texreq::{FilterKind, TexReqReader, TexReqRecord, TexRequest};
use gfxcache_trace::{Access, Op, ShaderOps, TraceError};
use serde::{Deserialize, Serialize};

use crate::replay::{ReplayEvent, TextureAccess};
use crate::tile_trace::{each_block, TileTrace};

/// What a texture cache sees as one request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RequestUnit {
    /// A quad's texture instruction: its live pixels' taps together, the
    /// work of the slowest pixel (a SIMD quad per fragment processor:
    /// the dtm-nuca machine's `fragment.request_unit`, Bifrost's
    /// quad-wide warps; a study takes its machine's).
    #[default]
    Quad,
    /// Each pixel's sample on its own, a quad's texel fetch as one (the
    /// renderer's texture caches' count), the pixels' work one after
    /// another (a scalar core).
    Pixel,
    /// Each record of the requests on its own, a texel fetch too: one
    /// pixel's sample or fetch, as the NBTC's pixel processors take them
    /// (`gfxcache nbtc` and the composed machine), the pixels' work one
    /// after another.
    Sample,
}

/// The machine's request unit (`fragment.request_unit`) as the replay's.
impl From<gfxcache_machine::RequestUnit> for RequestUnit {
    fn from(unit: gfxcache_machine::RequestUnit) -> RequestUnit {
        match unit {
            gfxcache_machine::RequestUnit::Quad => RequestUnit::Quad,
            gfxcache_machine::RequestUnit::Sample => RequestUnit::Sample,
        }
    }
}

impl RequestUnit {
    /// The pixels a request covers (a quad's four, else one): a
    /// context's share of the machine's threads.
    pub fn pixels(self) -> u32 {
        match self {
            RequestUnit::Quad => 4,
            RequestUnit::Pixel | RequestUnit::Sample => 1,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            RequestUnit::Quad => "quad",
            RequestUnit::Pixel => "pixel",
            RequestUnit::Sample => "sample",
        }
    }
}

/// The request being gathered: later records of the same fragment
/// processor, request index and quad (or pixel) join it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Gathering {
    fp: u16,
    index: u8,
    /// The quad's (or, per pixel, the pixel's) coordinates.
    at: (u16, u16),
    fetch: bool,
    /// Its first block's place in the tile's accesses.
    start: usize,
}

/// What stops reading a frame's input.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error(transparent)]
    Trace(#[from] TraceError),
    /// The texture requests and the trace disagree about a header field
    /// or the tiles.
    #[error("{} and {} do not hold the same frame: {what}", requests.display(), trace.display())]
    Mismatch {
        requests: PathBuf,
        trace: PathBuf,
        what: String,
    },
    /// The texture requests disagree with themselves about the tiles (no
    /// trace beside them).
    #[error("{}: {what}", path.display())]
    Tiles { path: PathBuf, what: String },
    /// A texture request outside any tile: not a tile-based frame's.
    #[error("{}: texture request {index} is outside any tile: expected the requests of a tile-based frame (render --mode tbr)", path.display())]
    OutsideTile { path: PathBuf, index: u64 },
}

/// A frame's input, read tile by tile.
pub struct FrameInput<R: Read> {
    requests: TexReqReader<R>,
    requests_path: PathBuf,
    trace: Option<TileTrace>,
    issue: Option<IssueModel>,
    unit: RequestUnit,
    /// Shader operations of every record read (each once), all pixels.
    instructions: u64,
    /// The byte address bits above a block.
    block_mask: u64,
    /// Per fragment processor, cycles of shader work not yet charged.
    carry: Vec<u64>,
    /// Per fragment processor, whether it has made a request since its
    /// last fragment's end (its next request continues that fragment).
    open: Vec<bool>,
    /// Per fragment processor, the quad whose fragment ends are being
    /// read, and the most work after their last requests so far (a quad's
    /// pixels finish together).
    tail: Vec<(Option<(u16, u16)>, u64)>,
    gathering: Option<Gathering>,
    /// Requests read so far.
    request_count: u64,
    /// The current tile's texture accesses and other accesses (with the
    /// `tex` records before each in the trace).
    textures: Vec<TextureAccess>,
    others: Vec<(u64, Access)>,
    finished: bool,
}

impl FrameInput<gfxcache_trace::texreq::TexReqSource> {
    /// Bytes of the `.gtq` file read so far (compressed, for a `.zst`
    /// file), for progress against its length.
    pub fn file_bytes_read(&self) -> u64 {
        self.requests.file_bytes_read()
    }
}

impl<R: Read> FrameInput<R> {
    /// The frame of `requests` (read from `requests_path`) with the other
    /// L2 traffic of the trace at `trace`, if given; shader work timed by
    /// `issue` (none: no time), requests of `unit`, blocks of
    /// `block_bytes` (a power of two).
    pub fn new(
        requests: TexReqReader<R>,
        requests_path: &Path,
        trace: Option<&Path>,
        issue: Option<IssueModel>,
        unit: RequestUnit,
        block_bytes: u32,
    ) -> Result<FrameInput<R>, InputError> {
        let trace = match trace {
            None => None,
            Some(path) => Some(TileTrace::open(path, requests.header(), requests_path)?),
        };
        Ok(FrameInput {
            requests,
            requests_path: requests_path.to_path_buf(),
            trace,
            issue,
            unit,
            instructions: 0,
            block_mask: !(u64::from(block_bytes.max(1)) - 1),
            carry: Vec::new(),
            open: Vec::new(),
            tail: Vec::new(),
            gathering: None,
            request_count: 0,
            textures: Vec::new(),
            others: Vec::new(),
            finished: false,
        })
    }

    /// Appends the events up to the end of the next tile (the geometry
    /// phase's other traffic before it, then the tile) to `out`; at the
    /// end of the input, whatever other traffic is left. False once
    /// nothing is left.
    pub fn next_tile(&mut self, out: &mut Vec<ReplayEvent>) -> Result<bool, InputError> {
        if self.finished {
            return Ok(false);
        }
        let Some(tile) = self.next_tile_begin()? else {
            self.finished = true;
            self.others_until_tile(out, None)?;
            return Ok(!out.is_empty());
        };
        self.others_until_tile(out, Some(tile))?;
        let tex_in_trace = self.trace_tile(tile)?;
        self.request_tile(tile)?;
        self.gathering = None;
        self.merge(tex_in_trace, out);
        Ok(true)
    }

    /// Texture accesses and requests read so far.
    pub fn requests(&self) -> u64 {
        self.request_count
    }

    /// The next `TileBegin` of the requests, `None` at their end.
    fn next_tile_begin(&mut self) -> Result<Option<u32>, InputError> {
        while let Some(r) = self.requests.read_record()? {
            match r {
                TexReqRecord::TileBegin { tile } => return Ok(Some(tile)),
                TexReqRecord::Request(_) | TexReqRecord::FragmentEnd { .. } => {
                    return Err(InputError::OutsideTile {
                        path: self.requests_path.clone(),
                        index: self.request_count,
                    })
                }
                TexReqRecord::TileEnd { tile } => {
                    return Err(
                        self.mismatch(format!("tile {tile} ends in the requests before it begins"))
                    )
                }
                TexReqRecord::PassBegin { .. } | TexReqRecord::FrameEnd { .. } => {}
            }
        }
        Ok(None)
    }

    /// The trace's accesses up to the `TileBegin` of `tile` (or its end,
    /// for `None`) as other traffic.
    fn others_until_tile(
        &mut self,
        out: &mut Vec<ReplayEvent>,
        tile: Option<u32>,
    ) -> Result<(), InputError> {
        let mask = self.block_mask;
        match self.trace.as_mut() {
            Some(trace) => {
                trace.until_tile(tile, |a| push_other(out, a, mask, OtherPhase::Binning))
            }
            None => Ok(()),
        }
    }

    /// The trace's records of `tile` up to its `TileEnd`: the other
    /// accesses, each with the `tex` records before it, into `others`.
    /// Returns the tile's `tex` records.
    fn trace_tile(&mut self, tile: u32) -> Result<u64, InputError> {
        self.others.clear();
        match self.trace.as_mut() {
            Some(trace) => trace.tile(tile, &mut self.others),
            None => Ok(0),
        }
    }

    /// The requests of `tile` up to its `TileEnd`, into `textures`.
    fn request_tile(&mut self, tile: u32) -> Result<(), InputError> {
        self.textures.clear();
        while let Some(r) = self.requests.read_record()? {
            if !matches!(r, TexReqRecord::Request(_)) {
                self.gathering = None;
            }
            match r {
                TexReqRecord::Request(q) => {
                    self.request_count += 1;
                    self.request(&q);
                }
                TexReqRecord::FragmentEnd { fp, x, y, ops } => {
                    self.instructions += ops.instructions();
                    let cycles = self.cycles(&ops);
                    self.fragment_end(fp, (x, y), cycles)
                }
                TexReqRecord::TileEnd { tile: t } if t == tile => return Ok(()),
                TexReqRecord::PassBegin { .. } => {}
                TexReqRecord::TileEnd { tile: t } | TexReqRecord::TileBegin { tile: t } => {
                    return Err(
                        self.mismatch(format!("tile {t} inside tile {tile} in the requests"))
                    )
                }
                TexReqRecord::FrameEnd { .. } => {
                    return Err(
                        self.mismatch(format!("the frame ends inside tile {tile} in the requests"))
                    )
                }
            }
        }
        Err(self.mismatch(format!("the requests end inside tile {tile}")))
    }

    /// Fragment processor `fp`'s state, grown to hold it.
    fn grow(&mut self, fp: u16) -> usize {
        let fp = fp as usize;
        if self.carry.len() <= fp {
            self.carry.resize(fp + 1, 0);
            self.open.resize(fp + 1, false);
            self.tail.resize(fp + 1, (None, 0));
        }
        fp
    }

    /// The time of a pixel's `ops` on its fragment processor: a quad's
    /// lanes run four times the slowest pixel's (that maximum is taken by
    /// the caller), a pixel's its own.
    fn cycles(&self, ops: &ShaderOps) -> u64 {
        let lanes = match self.unit {
            RequestUnit::Quad => ops.times(4),
            RequestUnit::Pixel | RequestUnit::Sample => *ops,
        };
        self.issue.map_or(0, |m| m.cycles(&lanes))
    }

    /// Shader operations of every record read so far (each once).
    pub fn instructions(&self) -> u64 {
        self.instructions
    }

    /// A fragment's work after its last request, at pixel `at`.
    fn fragment_end(&mut self, fp: u16, at: (u16, u16), alu: u64) {
        let fp = self.grow(fp);
        self.open[fp] = false;
        match self.unit {
            RequestUnit::Pixel | RequestUnit::Sample => self.carry[fp] += alu,
            RequestUnit::Quad => {
                let quad = Some((at.0 / 2, at.1 / 2));
                let (q, most) = &mut self.tail[fp];
                if *q == quad {
                    *most = (*most).max(alu);
                } else {
                    self.carry[fp] += std::mem::replace(most, alu);
                    *q = quad;
                }
            }
        }
    }

    /// The work `fp` has run since its last request, taken.
    fn take_carry(&mut self, fp: usize) -> u64 {
        let (_, most) = std::mem::take(&mut self.tail[fp]);
        std::mem::take(&mut self.carry[fp]) + most
    }

    /// One request record: a request of its own, or part of the one being
    /// gathered.
    fn request(&mut self, q: &TexRequest) {
        let fp = self.grow(q.fp);
        let fetch = q.filter == FilterKind::Fetch;
        let at = match (self.unit, fetch) {
            (RequestUnit::Pixel, false) => (q.x, q.y),
            _ => (q.x / 2, q.y / 2),
        };
        self.instructions += q.ops.instructions();
        let cycles = |c: u64| u32::try_from(c).unwrap_or(u32::MAX);
        let work_of = self.cycles(&q.ops);
        let start = match self.gathering {
            Some(g)
                if self.unit != RequestUnit::Sample
                    && g.fp == q.fp
                    && g.index == q.index
                    && g.at == at
                    && g.fetch == fetch =>
            {
                let work = cycles(work_of);
                let head = &mut self.textures[g.start].work;
                *head = match self.unit {
                    RequestUnit::Quad => (*head).max(work),
                    RequestUnit::Pixel | RequestUnit::Sample => head.saturating_add(work),
                };
                g.start
            }
            _ => {
                let first = TextureAccess {
                    fp: u32::from(q.fp),
                    addr: 0,
                    work: cycles(work_of),
                    tail: cycles(self.take_carry(fp)),
                    follows: std::mem::replace(&mut self.open[fp], true),
                    more: false,
                };
                let start = self.textures.len();
                self.gathering = Some(Gathering {
                    fp: q.fp,
                    index: q.index,
                    at,
                    fetch,
                    start,
                });
                self.push_blocks(q, start, first);
                return;
            }
        };
        self.push_blocks(q, start, TextureAccess::new(u32::from(q.fp), 0, 0));
    }

    /// The blocks of `q`'s taps not yet among the request's from `start`,
    /// the first (if the request has none yet) as `first` says.
    fn push_blocks(&mut self, q: &TexRequest, start: usize, first: TextureAccess) {
        for &addr in q.addresses() {
            let block = addr & self.block_mask;
            if self.textures[start..].iter().any(|a| a.addr == block) {
                continue;
            }
            let access = match self.textures.len() > start {
                false => TextureAccess {
                    addr: block,
                    ..first
                },
                true => TextureAccess {
                    more: true,
                    ..TextureAccess::new(u32::from(q.fp), block, 0)
                },
            };
            self.textures.push(access);
        }
    }

    /// The tile's texture accesses with its other accesses placed among
    /// them, its trailing work, and its end, into `out`.
    fn merge(&mut self, tex_in_trace: u64, out: &mut Vec<ReplayEvent>) {
        let k = self.textures.len() as u64;
        // Where other access j goes: before texture access `at`.
        let at = |before: u64| match tex_in_trace {
            0 => 0,
            n => before * k / n,
        };
        let mut others = self.others.iter().peekable();
        for (i, a) in self.textures.iter().enumerate() {
            // A request's blocks stay together.
            if !a.more {
                while let Some((_, o)) = others.next_if(|(j, _)| at(*j) <= i as u64) {
                    push_other(out, o, self.block_mask, OtherPhase::Tile);
                }
            }
            out.push(ReplayEvent::Texture(*a));
        }
        for (_, o) in others {
            push_other(out, o, self.block_mask, OtherPhase::Tile);
        }
        for fp in 0..self.carry.len() {
            let carry = self.take_carry(fp);
            if carry > 0 {
                let work = carry.min(u64::from(u32::MAX)) as u32;
                out.push(ReplayEvent::Work {
                    fp: fp as u32,
                    work,
                });
            }
        }
        // A fragment never spans tiles.
        self.open.fill(false);
        out.push(ReplayEvent::TileEnd);
    }

    /// The files disagree (or, with no trace, the requests themselves).
    fn mismatch(&self, what: String) -> InputError {
        match &self.trace {
            Some(trace) => trace.mismatch(what),
            None => InputError::Tiles {
                path: self.requests_path.clone(),
                what,
            },
        }
    }
}

/// A trace access of `phase` as other L2 traffic: one event per block
/// (`mask` keeps a block's bits) it touches.
fn push_other(out: &mut Vec<ReplayEvent>, a: &Access, mask: u64, phase: OtherPhase) {
    let write = a.op == Op::Write;
    each_block(a, mask, |addr| {
        out.push(ReplayEvent::Other {
            addr,
            stream: a.stream,
            write,
            phase,
        })
    });
}
