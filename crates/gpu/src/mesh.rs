//! The 2D mesh that connects the fragment processors' texture caches
//! (Section IV-A, Figure 5): one router per node, X-Y routing, one cycle
//! per hop (the paper's Table I). Everything else here is ours, each a knob of
//! [`MeshConfig`]: the shape, the flit width, the message sizes, link
//! contention and the broadcast tree.
//!
//! Node n sits at column n % cols, row n / cols. The Affinity Table (and
//! D-NUCA's directory) sits at the centre router ((cols-1)/2, (rows-1)/2),
//! as in Figure 5(a). A message of F flits over H hops arrives, tail
//! included, H x hop + F - 1 cycles after it leaves (wormhole: the tail
//! follows the head one cycle per flit); a message to its own router takes
//! no time and no link. With contention, a packet reserves F consecutive
//! cycles on each link of its route (a [`Calendar`] per link) and waits in
//! the router before a busy link (virtual cut-through, buffers unbounded).
//! Routers' ejection and injection ports are not modelled.

use serde::{Deserialize, Serialize};

use crate::calendar::Calendar;

/// Which messages reserve links. (ours): the spec reserves data packets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Contention {
    /// No message ever waits for a link.
    Off,
    /// Data packets (64-byte replies) reserve links and wait for each
    /// other; control messages and broadcasts pass freely.
    #[default]
    Data,
    /// Every message reserves its links.
    All,
}

/// The mesh's knobs. Only `hop_cycles` is the paper's (1 cycle per hop);
/// every other field is ours.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MeshConfig {
    /// Columns of the mesh; rows = ceil(P / cols). 0 (the default) picks
    /// [`default_shape`]: 2x2 for P = 4, 4x2 for 8, 4x4 for 16, 8x4 for 32
    /// (ours: the paper shows a 3x3 mesh and gives no shape for 32 nodes).
    pub cols: u32,
    /// Cycles per hop. Paper: 1.
    pub hop_cycles: u32,
    /// Bits per flit (link width). (ours): 128, gem5 Garnet's 16-byte flit.
    pub flit_bits: u32,
    /// Header bits of an epoch broadcast packet; each owned bucket adds
    /// ceil(log2 buckets) + counter bits (9 for 32 buckets of 4-bit
    /// counters). (ours): 16.
    pub broadcast_header_bits: u32,
    /// Which messages reserve links. (ours): data.
    pub contention: Contention,
}

impl Default for MeshConfig {
    fn default() -> MeshConfig {
        MeshConfig {
            cols: 0,
            hop_cycles: 1,
            flit_bits: 128,
            broadcast_header_bits: 16,
            contention: Contention::Data,
        }
    }
}

/// The default (columns, rows) for `fps` nodes: rows the largest power of
/// two whose square is at most `fps`, columns enough for every node. 2x2,
/// 4x2, 4x4, 8x4 for 4, 8, 16, 32 (ours).
pub fn default_shape(fps: usize) -> (u32, u32) {
    let fps = fps.max(1) as u32;
    let mut rows = 1u32;
    while (rows * 2) * (rows * 2) <= fps {
        rows *= 2;
    }
    (fps.div_ceil(rows), rows)
}

/// What a message carries: a request, a grant or a notice in one flit, or
/// a block in a header flit and the block's payload flits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Message {
    Control,
    Data,
}

/// What the mesh carried.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeshStats {
    /// Messages between different routers, by kind.
    pub control_messages: u64,
    pub data_messages: u64,
    /// Epoch broadcast packets (one per broadcasting node) and their flits.
    pub broadcast_packets: u64,
    pub broadcast_flits: u64,
    /// Flits times the links each crossed: what the network's dynamic
    /// energy is proportional to.
    pub flit_hops: u64,
    /// Cycles messages waited for busy links, all links together.
    pub contention_cycles: u64,
    /// Link reservations held to a calendar's window start (see
    /// [`crate::calendar`]).
    pub late_reservations: u64,
}

/// Output ports of a router, in the order of its links.
const EAST: usize = 0;
const WEST: usize = 1;
const NORTH: usize = 2;
const SOUTH: usize = 3;

/// The mesh of one organization: its shape, its links' calendars and what
/// it carried.
#[derive(Clone, Debug)]
pub struct Mesh {
    cols: u32,
    rows: u32,
    nodes: usize,
    hop: u64,
    control_flits: u32,
    data_flits: u32,
    flit_bits: u32,
    broadcast_header_bits: u32,
    contention: Contention,
    /// Per router, one calendar per output port; empty without contention.
    links: Vec<Calendar>,
    stats: MeshStats,
}

impl Mesh {
    /// The mesh of `nodes` nodes carrying blocks of `block_bytes`. The
    /// caller has checked `config` (no packet over
    /// [`crate::calendar::MAX_PACKET_FLITS`] flits, a hop of at least a
    /// cycle: the design crate's configuration check).
    pub fn new(config: &MeshConfig, nodes: usize, block_bytes: u32) -> Mesh {
        let (cols, rows) = match config.cols {
            0 => default_shape(nodes),
            c => (c, (nodes as u32).div_ceil(c)),
        };
        let routers = (cols * rows) as usize;
        let links = match config.contention {
            Contention::Off => Vec::new(),
            _ => vec![Calendar::new(); routers * 4],
        };
        Mesh {
            cols,
            rows,
            nodes,
            hop: u64::from(config.hop_cycles),
            control_flits: 1,
            data_flits: 1 + (block_bytes * 8).div_ceil(config.flit_bits),
            flit_bits: config.flit_bits,
            broadcast_header_bits: config.broadcast_header_bits,
            contention: config.contention,
            links,
            stats: MeshStats::default(),
        }
    }

    /// (columns, rows).
    pub fn shape(&self) -> (u32, u32) {
        (self.cols, self.rows)
    }

    /// The (column, row) of router `r`.
    pub fn position(&self, r: usize) -> (u32, u32) {
        (r as u32 % self.cols, r as u32 / self.cols)
    }

    /// The router at (column, row).
    pub fn router_at(&self, x: u32, y: u32) -> usize {
        (y * self.cols + x) as usize
    }

    /// The centre router, where the Affinity Table and the directory sit.
    pub fn centre(&self) -> usize {
        self.router_at((self.cols - 1) / 2, (self.rows - 1) / 2)
    }

    /// Flits of a message of kind `m`.
    pub fn flits(&self, m: Message) -> u32 {
        match m {
            Message::Control => self.control_flits,
            Message::Data => self.data_flits,
        }
    }

    /// Links between routers `a` and `b` on the X-Y route.
    pub fn hops(&self, a: usize, b: usize) -> u32 {
        let ((ax, ay), (bx, by)) = (self.position(a), self.position(b));
        ax.abs_diff(bx) + ay.abs_diff(by)
    }

    /// The X-Y route from `a` to `b`: the routers it passes, `a` and `b`
    /// included (X first, then Y).
    pub fn route(&self, a: usize, b: usize) -> Vec<usize> {
        let mut at = a;
        let mut path = vec![a];
        while at != b {
            at = self.neighbour(at, self.port_towards(at, b));
            path.push(at);
        }
        path
    }

    /// The output port of router `at` on the X-Y route to `to` (`at != to`).
    #[inline]
    fn port_towards(&self, at: usize, to: usize) -> usize {
        let ((x, y), (tx, ty)) = (self.position(at), self.position(to));
        match (x.cmp(&tx), y.cmp(&ty)) {
            (std::cmp::Ordering::Less, _) => EAST,
            (std::cmp::Ordering::Greater, _) => WEST,
            (_, std::cmp::Ordering::Less) => NORTH,
            _ => SOUTH,
        }
    }

    #[inline]
    fn neighbour(&self, r: usize, port: usize) -> usize {
        let cols = self.cols as usize;
        match port {
            EAST => r + 1,
            WEST => r - 1,
            NORTH => r + cols,
            _ => r - cols,
        }
    }

    /// Sends a message of kind `m` from router `from` to router `to`,
    /// leaving at cycle `t`; returns the cycle its tail arrives.
    #[inline]
    pub fn send(&mut self, from: usize, to: usize, m: Message, t: u64) -> u64 {
        if from == to {
            return t;
        }
        let flits = self.flits(m);
        match m {
            Message::Control => self.stats.control_messages += 1,
            Message::Data => self.stats.data_messages += 1,
        }
        let reserve = match self.contention {
            Contention::Off => false,
            Contention::Data => m == Message::Data,
            Contention::All => true,
        };
        let hops = self.hops(from, to);
        self.stats.flit_hops += u64::from(flits) * u64::from(hops);
        if !reserve {
            return t + u64::from(hops) * self.hop + u64::from(flits) - 1;
        }
        let (mut at, mut head) = (from, t);
        while at != to {
            let port = self.port_towards(at, to);
            head = self.cross(at, port, head, flits) + self.hop;
            at = self.neighbour(at, port);
        }
        head + u64::from(flits) - 1
    }

    /// Reserves `flits` cycles on router `at`'s link `port` from `head` on;
    /// returns when the head enters the link.
    #[inline]
    fn cross(&mut self, at: usize, port: usize, head: u64, flits: u32) -> u64 {
        let link = &mut self.links[at * 4 + port];
        let late = link.late();
        let start = link.reserve(head, flits);
        self.stats.late_reservations += link.late() - late;
        self.stats.contention_cycles += start.saturating_sub(head);
        start
    }

    /// The links of an X-Y broadcast tree from router `from` to every node:
    /// along `from`'s row to every column, then along every column to each
    /// row holding a node. Each link as (router, next router), parents
    /// before children.
    pub fn broadcast_tree(&self, from: usize) -> Vec<(usize, usize)> {
        let (sx, sy) = self.position(from);
        let mut edges = Vec::new();
        for dir in [EAST, WEST] {
            let mut at = from;
            let mut x = sx;
            while (dir == EAST && x + 1 < self.cols) || (dir == WEST && x > 0) {
                let next = self.neighbour(at, dir);
                edges.push((at, next));
                at = next;
                x = self.position(at).0;
            }
        }
        for x in 0..self.cols {
            // Rows 0..=top hold nodes in column x.
            let Some(top) = (0..self.rows)
                .rev()
                .find(|&y| (self.router_at(x, y)) < self.nodes)
            else {
                continue;
            };
            let root = self.router_at(x, sy);
            let mut at = root;
            for _ in sy..top {
                let next = self.neighbour(at, NORTH);
                edges.push((at, next));
                at = next;
            }
            at = root;
            for _ in 0..sy {
                let next = self.neighbour(at, SOUTH);
                edges.push((at, next));
                at = next;
            }
        }
        edges
    }

    /// Flits of an epoch broadcast announcing `owned` buckets of
    /// `entry_bits` each (a bucket id and a count): ceil((header + entry x
    /// owned) / flit bits).
    pub fn broadcast_flits(&self, owned: u32, entry_bits: u32) -> u32 {
        (self.broadcast_header_bits + entry_bits * owned).div_ceil(self.flit_bits)
    }

    /// Broadcasts a packet of `flits` from router `from` at cycle `t` over
    /// the X-Y tree; returns when the last node has it. Reserves links
    /// only under [`Contention::All`].
    pub fn broadcast(&mut self, from: usize, flits: u32, t: u64) -> u64 {
        let edges = self.broadcast_tree(from);
        self.stats.broadcast_packets += 1;
        self.stats.broadcast_flits += u64::from(flits);
        self.stats.flit_hops += u64::from(flits) * edges.len() as u64;
        let mut head = vec![t; (self.cols * self.rows) as usize];
        let mut last = t;
        for (a, b) in edges {
            let start = if self.contention == Contention::All {
                let port = self.port_towards(a, b);
                self.cross(a, port, head[a], flits)
            } else {
                head[a]
            };
            head[b] = start + self.hop;
            last = last.max(head[b] + u64::from(flits) - 1);
        }
        last
    }

    /// What the mesh carried so far.
    pub fn stats(&self) -> &MeshStats {
        &self.stats
    }
}
