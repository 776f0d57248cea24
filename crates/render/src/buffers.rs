//! Vertex and index buffers at driver-given addresses, and the
//! post-transform vertex cache.
//!
//! Why it looks like this: the vertex-index (`vidx`) and vertex (`vtx`)
//! streams of the GSPC paper are what a GPU's input assembler reads, so
//! buffers live at [`Allocator`] addresses and every fetch is reported:
//!
//! - **Index fetch.** Indices are `u16` or `u32`; the input assembler reads
//!   them in whole 64-byte blocks, in order, so [`IndexFetch`] reports one
//!   [`Stream::Vidx`] read per block the draw's index range enters (a block
//!   re-entered later, which a linear walk never does, would be read again).
//! - **Vertex fetch.** A vertex occupies `stride` bytes at
//!   `base + index * stride`; fetching one reports a single
//!   [`Stream::Vtx`] read of `stride` bytes (consumers split it into their
//!   blocks).
//! - **Post-transform cache.** GPUs keep the last transformed vertices in a
//!   small FIFO keyed by index ([`VCACHE_ENTRIES`] = 32 entries here), so a
//!   vertex shared by neighbouring triangles is neither fetched nor
//!   transformed again while it is in the FIFO. Hits and misses are counted.

use gfxcache_trace::{Access, Op, Stream};

use crate::math::{Vec3, Vec4};
use crate::surface::{Allocator, BLOCK_BYTES};

/// Most per-vertex attributes besides the position (uv, normal, colour...).
pub const MAX_ATTRS: usize = 8;
/// Entries of the post-transform vertex cache.
pub const VCACHE_ENTRIES: usize = 32;

/// Width of an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IndexFormat {
    U16,
    U32,
}

impl IndexFormat {
    pub const fn bytes(self) -> u64 {
        match self {
            IndexFormat::U16 => 2,
            IndexFormat::U32 => 4,
        }
    }
}

/// Indices of a triangle list, at an allocator-given address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexBuffer {
    pub base: u64,
    pub format: IndexFormat,
    indices: Vec<u32>,
}

impl IndexBuffer {
    /// An index buffer holding `indices`; panics if a `u16` buffer gets an
    /// index above 65535.
    pub fn new(indices: Vec<u32>, format: IndexFormat, alloc: &mut Allocator) -> IndexBuffer {
        if format == IndexFormat::U16 {
            assert!(
                indices.iter().all(|&i| i <= u16::MAX as u32),
                "index above 65535 in a u16 index buffer"
            );
        }
        let base = alloc.alloc(indices.len() as u64 * format.bytes(), BLOCK_BYTES);
        IndexBuffer {
            base,
            format,
            indices,
        }
    }

    pub fn len(&self) -> usize {
        self.indices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.indices.is_empty()
    }

    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// Address of index number `i`.
    pub fn addr_of(&self, i: usize) -> u64 {
        self.base + i as u64 * self.format.bytes()
    }
}

/// One vertex as the application supplies it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vertex {
    pub pos: Vec3,
    /// Attributes; only the buffer's first `attr_count` are meaningful.
    pub attrs: [f32; MAX_ATTRS],
}

impl Vertex {
    /// A vertex at `pos` with the leading attributes `attrs` (the rest 0).
    pub fn new(pos: Vec3, attrs: &[f32]) -> Vertex {
        assert!(attrs.len() <= MAX_ATTRS, "more than {MAX_ATTRS} attributes");
        let mut a = [0.0; MAX_ATTRS];
        a[..attrs.len()].copy_from_slice(attrs);
        Vertex { pos, attrs: a }
    }
}

/// Vertices at an allocator-given address, `stride` bytes apart.
#[derive(Clone, Debug, PartialEq)]
pub struct VertexBuffer {
    pub base: u64,
    /// Bytes per vertex in memory.
    pub stride: u32,
    /// Attributes per vertex besides the position.
    pub attr_count: u32,
    vertices: Vec<Vertex>,
}

impl VertexBuffer {
    /// A tightly packed buffer: stride = 12 bytes of position + 4 per attribute.
    pub fn new(vertices: Vec<Vertex>, attr_count: u32, alloc: &mut Allocator) -> VertexBuffer {
        VertexBuffer::with_stride(vertices, attr_count, 12 + 4 * attr_count, alloc)
    }

    /// A buffer with an explicit `stride` in bytes (at least the packed size).
    pub fn with_stride(
        vertices: Vec<Vertex>,
        attr_count: u32,
        stride: u32,
        alloc: &mut Allocator,
    ) -> VertexBuffer {
        assert!(
            attr_count as usize <= MAX_ATTRS,
            "more than {MAX_ATTRS} attributes"
        );
        assert!(
            stride >= 12 + 4 * attr_count,
            "stride {stride} smaller than the vertex"
        );
        let base = alloc.alloc(vertices.len() as u64 * stride as u64, BLOCK_BYTES);
        VertexBuffer {
            base,
            stride,
            attr_count,
            vertices,
        }
    }

    pub fn len(&self) -> usize {
        self.vertices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    pub fn vertex(&self, i: u32) -> &Vertex {
        &self.vertices[i as usize]
    }

    /// Address of vertex `i`.
    pub fn addr_of(&self, i: u32) -> u64 {
        self.base + i as u64 * self.stride as u64
    }
}

/// Reports the index blocks a draw reads, in order, each time the index
/// walk enters a new 64-byte block.
#[derive(Clone, Debug, Default)]
pub struct IndexFetch {
    last_block: Option<u64>,
}

impl IndexFetch {
    /// Read index `i` of `ib`, reporting its block if it is a new one.
    pub fn fetch(&mut self, ib: &IndexBuffer, i: usize, mut sink: impl FnMut(Access)) -> u32 {
        let block = ib.addr_of(i) & !(BLOCK_BYTES - 1);
        if self.last_block != Some(block) {
            self.last_block = Some(block);
            sink(Access {
                addr: block,
                size: BLOCK_BYTES as u32,
                unit: 0,
                stream: Stream::Vidx,
                op: Op::Read,
            });
        }
        ib.indices[i]
    }
}

/// A vertex after transformation: clip position and attributes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Transformed {
    pub clip: Vec4,
    pub attrs: [f32; MAX_ATTRS],
}

// A hit is found in a mask of the slots below 64.
const _: () = assert!(VCACHE_ENTRIES < 64);

/// The post-transform vertex cache: a FIFO of [`VCACHE_ENTRIES`]
/// transformed vertices keyed by index.
#[derive(Clone, Debug)]
pub struct VertexCache {
    keys: [u32; VCACHE_ENTRIES],
    values: [Transformed; VCACHE_ENTRIES],
    len: usize,
    /// Next slot to replace once full.
    head: usize,
    pub hits: u64,
    pub misses: u64,
}

impl Default for VertexCache {
    fn default() -> VertexCache {
        VertexCache {
            keys: [0; VCACHE_ENTRIES],
            values: [Transformed::default(); VCACHE_ENTRIES],
            len: 0,
            head: 0,
            hits: 0,
            misses: 0,
        }
    }
}

impl VertexCache {
    /// Forget every entry (a new draw starts with an empty cache); the
    /// counters are kept.
    pub fn invalidate(&mut self) {
        self.len = 0;
        self.head = 0;
    }

    /// The transformed vertex `index`: from the cache on a hit, otherwise
    /// `transform(index)` after reporting the fetch of its `stride` bytes as
    /// a [`Stream::Vtx`] read, and inserted in FIFO order.
    pub fn get(
        &mut self,
        vb: &VertexBuffer,
        index: u32,
        transform: impl FnOnce(&Vertex) -> Transformed,
        mut sink: impl FnMut(Access),
    ) -> Transformed {
        // Every slot compared at once (no early exit, so the compiler
        // compares them as vectors); a key is in at most one valid slot.
        let mut found = 0u64;
        for (k, &key) in self.keys.iter().enumerate() {
            found |= u64::from(key == index) << k;
        }
        let valid = (1u64 << self.len) - 1;
        if found & valid != 0 {
            self.hits += 1;
            return self.values[(found & valid).trailing_zeros() as usize];
        }
        self.misses += 1;
        sink(Access {
            addr: vb.addr_of(index),
            size: vb.stride,
            unit: 0,
            stream: Stream::Vtx,
            op: Op::Read,
        });
        let t = transform(vb.vertex(index));
        let slot = if self.len < VCACHE_ENTRIES {
            self.len += 1;
            self.len - 1
        } else {
            let s = self.head;
            self.head = (self.head + 1) % VCACHE_ENTRIES;
            s
        };
        self.keys[slot] = index;
        self.values[slot] = t;
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifo_evicts_oldest_and_counts() {
        let mut alloc = Allocator::default();
        let verts = (0..40)
            .map(|i| Vertex::new(Vec3::new(i as f32, 0.0, 0.0), &[]))
            .collect();
        let vb = VertexBuffer::new(verts, 0, &mut alloc);
        let mut vc = VertexCache::default();
        let mut reads = vec![];
        let tf = |v: &Vertex| Transformed {
            clip: v.pos.extend(1.0),
            attrs: [0.0; MAX_ATTRS],
        };
        for i in 0..33 {
            vc.get(&vb, i, tf, |a| reads.push(a));
        }
        // 0 was the oldest and was replaced by 32; 1 is still there.
        vc.get(&vb, 1, tf, |a| reads.push(a));
        assert_eq!((vc.hits, vc.misses), (1, 33));
        vc.get(&vb, 0, tf, |a| reads.push(a));
        assert_eq!((vc.hits, vc.misses), (1, 34));
        assert_eq!(reads.len(), 34);
        assert_eq!(reads[5].addr, vb.base + 5 * 12);
        assert!(reads
            .iter()
            .all(|a| a.stream == Stream::Vtx && a.size == 12));
    }

    #[test]
    fn index_blocks_reported_once_each() {
        let mut alloc = Allocator::default();
        let ib = IndexBuffer::new((0..100).collect(), IndexFormat::U16, &mut alloc);
        let mut f = IndexFetch::default();
        let mut reads = vec![];
        for i in 0..ib.len() {
            f.fetch(&ib, i, |a| reads.push(a));
        }
        // 200 bytes from a page-aligned base: 4 blocks.
        assert_eq!(reads.len(), 4);
        assert_eq!(reads[3].addr, ib.base + 192);
    }
}
