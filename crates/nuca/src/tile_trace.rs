//! A frame's trace of L2 traffic (a tile-based `.gtr`) read a tile at a
//! time against its texture requests' tiles ([`TileTrace`]): the binning
//! pass's accesses between tiles and each tile's other accesses, for
//! DTM-NUCA's replay input ([`crate::FrameInput`], which places them
//! among a tile's texture accesses) and for the composed machine
//! ([`TileTrace::tile_traffic`], a tile's traffic at its start and end).
//! The trace's header must agree with the requests' on every field both
//! have, and its tiles with theirs; where they do not, the error names
//! both files.

use std::path::{Path, PathBuf};

use gfxcache_gpu::{OtherAccess, TileTraffic};
use gfxcache_trace::texreq::TexReqHeader;
use gfxcache_trace::{Access, Batch, Marker, Op, Stream, TraceError, TraceMeta, TraceRead};

use crate::input::InputError;

/// The frame's trace, record by record: accesses and tile markers.
struct TraceCursor {
    reader: Box<dyn TraceRead>,
    path: PathBuf,
    batch: Batch,
    access: usize,
    marker: usize,
    done: bool,
}

/// A frame's trace of L2 traffic (a tile-based `.gtr`) read a tile at a
/// time against its texture requests' tiles: the other accesses (every
/// stream but `tex`) between tiles, the binning pass's, and in each tile,
/// each with the tile's `tex` records before it. Where the trace and the
/// requests disagree (a header field, a tile), the error names both
/// files.
pub struct TileTrace {
    cursor: TraceCursor,
    requests_path: PathBuf,
}

impl TileTrace {
    /// The trace at `path` of the frame whose requests' header is
    /// `requests` (read from `requests_path`).
    pub fn open(
        path: &Path,
        requests: &TexReqHeader,
        requests_path: &Path,
    ) -> Result<TileTrace, InputError> {
        let reader = gfxcache_trace::open(path)?;
        if let Some(what) = header_mismatch(requests, reader.meta()) {
            return Err(InputError::Mismatch {
                requests: requests_path.to_path_buf(),
                trace: path.to_path_buf(),
                what,
            });
        }
        Ok(TileTrace {
            cursor: TraceCursor {
                reader,
                path: path.to_path_buf(),
                batch: Batch::default(),
                access: 0,
                marker: 0,
                done: false,
            },
            requests_path: requests_path.to_path_buf(),
        })
    }

    /// The trace's accesses up to the `TileBegin` of `tile` (or its end,
    /// for `None`), each given to `binning`.
    pub fn until_tile(
        &mut self,
        tile: Option<u32>,
        mut binning: impl FnMut(&Access),
    ) -> Result<(), InputError> {
        while let Some(item) = self.cursor.next()? {
            match item {
                TraceItem::Access(a) => binning(&a),
                TraceItem::TileBegin(t) if Some(t) == tile => return Ok(()),
                TraceItem::TileBegin(t) => {
                    let what = match tile {
                        Some(want) => {
                            format!("the trace's next tile is tile {t}, the requests' tile {want}")
                        }
                        None => format!("the trace has tile {t} after the requests' last"),
                    };
                    return Err(self.mismatch(what));
                }
                TraceItem::TileEnd(t) => {
                    return Err(
                        self.mismatch(format!("tile {t} ends in the trace before it begins"))
                    )
                }
            }
        }
        match tile {
            None => Ok(()),
            Some(t) => Err(self.mismatch(format!("the trace ends before tile {t}"))),
        }
    }

    /// The trace's records of `tile` up to its `TileEnd`: the other
    /// accesses, each with the `tex` records before it, into `others`.
    /// Returns the tile's `tex` records.
    pub fn tile(&mut self, tile: u32, others: &mut Vec<(u64, Access)>) -> Result<u64, InputError> {
        let mut tex = 0u64;
        while let Some(item) = self.cursor.next()? {
            match item {
                TraceItem::Access(a) if a.stream == Stream::Tex => tex += 1,
                TraceItem::Access(a) => others.push((tex, a)),
                TraceItem::TileEnd(t) if t == tile => return Ok(tex),
                TraceItem::TileEnd(t) | TraceItem::TileBegin(t) => {
                    return Err(self.mismatch(format!("tile {t} inside tile {tile} in the trace")))
                }
            }
        }
        Err(self.mismatch(format!("the trace ends inside tile {tile}")))
    }

    /// The other traffic of `tile` and of the binning pass before it (or,
    /// for `None`, the binning traffic after the last tile), in blocks of
    /// `block_bytes` (a power of two), for texture units that keep their
    /// own time ([`TileTraffic`]): the tile's accesses up to its last
    /// `tex` record in the trace at its start, those after it at its end
    /// (all at its end in a tile with no `tex` record).
    pub fn tile_traffic(
        &mut self,
        tile: Option<u32>,
        block_bytes: u32,
    ) -> Result<TileTraffic, InputError> {
        let mask = !(u64::from(block_bytes.max(1)) - 1);
        let shift = block_bytes.max(1).trailing_zeros();
        let mut traffic = TileTraffic::default();
        let blocks = |to: &mut Vec<OtherAccess>, a: &Access| {
            each_block(a, mask, |addr| {
                to.push(OtherAccess {
                    block: addr >> shift,
                    stream: a.stream,
                    write: a.op == Op::Write,
                })
            })
        };
        self.until_tile(tile, |a| blocks(&mut traffic.binning, a))?;
        let Some(tile) = tile else {
            return Ok(traffic);
        };
        let mut others = Vec::new();
        let tex = self.tile(tile, &mut others)?;
        for (before, a) in &others {
            match *before < tex {
                true => blocks(&mut traffic.start, a),
                false => blocks(&mut traffic.end, a),
            }
        }
        Ok(traffic)
    }

    /// The trace and the requests disagree about `what`.
    pub(crate) fn mismatch(&self, what: String) -> InputError {
        InputError::Mismatch {
            requests: self.requests_path.clone(),
            trace: self.cursor.path.clone(),
            what,
        }
    }
}

/// A record of the trace the merge needs.
enum TraceItem {
    Access(Access),
    TileBegin(u32),
    TileEnd(u32),
}

impl TraceCursor {
    fn next(&mut self) -> Result<Option<TraceItem>, TraceError> {
        loop {
            let next_marker = self.batch.markers.get(self.marker);
            match next_marker {
                Some((i, m)) if *i <= self.access => {
                    self.marker += 1;
                    match *m {
                        Marker::TileBegin { tile } => return Ok(Some(TraceItem::TileBegin(tile))),
                        Marker::TileEnd { tile } => return Ok(Some(TraceItem::TileEnd(tile))),
                        _ => continue,
                    }
                }
                _ => {}
            }
            if let Some(a) = self.batch.accesses.get(self.access) {
                self.access += 1;
                return Ok(Some(TraceItem::Access(*a)));
            }
            if self.done {
                return Ok(None);
            }
            self.batch.clear();
            (self.access, self.marker) = (0, 0);
            self.done = !self.reader.read_batch(&mut self.batch)?;
        }
    }
}

/// Where the requests' header and the trace's disagree, on a field both
/// have (a trace's header may leave a field out: then it is not
/// compared): the field and both values.
fn header_mismatch(q: &TexReqHeader, meta: &TraceMeta) -> Option<String> {
    let differ = |field: &str, requests: String, trace: String| {
        Some(format!(
            "{field}: {requests} in the requests' header, {trace} in the trace's"
        ))
    };
    if let Some([w, h]) = meta.resolution {
        if [w, h] != [q.width, q.height] {
            return differ(
                "resolution",
                format!("{}x{}", q.width, q.height),
                format!("{w}x{h}"),
            );
        }
    }
    if let Some(frames) = meta.frames {
        if frames != q.frames {
            return differ("frames", q.frames.to_string(), frames.to_string());
        }
    }
    if let Some(mode) = meta.mode.as_deref() {
        if mode != "tbr" {
            return differ("mode", "tbr".into(), mode.to_string());
        }
    }
    for (field, value) in [
        ("fps", u64::from(q.fps)),
        ("tile_size", u64::from(q.tile_size)),
    ] {
        if let Some(v) = meta.extra.get(field) {
            if v.as_u64() != Some(value) {
                return differ(field, value.to_string(), v.to_string());
            }
        }
    }
    None
}

/// The byte address of each block (`mask` keeps a block's bits) that
/// access `a` touches, in order.
pub(crate) fn each_block(a: &Access, mask: u64, mut f: impl FnMut(u64)) {
    let last = a.addr.saturating_add(u64::from(a.size.max(1)) - 1) & mask;
    let mut block = a.addr & mask;
    loop {
        f(block);
        if block >= last {
            break;
        }
        block += !mask + 1;
    }
}
