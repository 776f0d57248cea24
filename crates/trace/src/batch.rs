//! A batch: a run of accesses with the markers that fall between them.
//!
//! Readers fill batches and simulators consume them, so the hot loop sees a
//! plain `&[Access]` while the markers stay in order beside it.

use crate::record::{Access, Marker, Record};

/// Accesses in trace order, with markers placed by position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    pub accesses: Vec<Access>,
    /// `(i, m)`: marker `m` comes right before `accesses[i]` (or after the
    /// last access when `i == accesses.len()`). Sorted by `i`, stable.
    pub markers: Vec<(usize, Marker)>,
}

impl Batch {
    pub fn with_capacity(n: usize) -> Batch {
        Batch {
            accesses: Vec::with_capacity(n),
            markers: Vec::new(),
        }
    }

    pub fn clear(&mut self) {
        self.accesses.clear();
        self.markers.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.accesses.is_empty() && self.markers.is_empty()
    }

    /// Records in this batch, accesses and markers together.
    pub fn len(&self) -> usize {
        self.accesses.len() + self.markers.len()
    }

    pub fn push(&mut self, record: Record) {
        match record {
            Record::Access(a) => self.accesses.push(a),
            Record::Marker(m) => self.markers.push((self.accesses.len(), m)),
        }
    }

    /// The accesses cut at every marker `cut` selects, in order: each
    /// piece with the marker that ends it. Every access is in exactly one
    /// piece; the last piece (possibly empty) ends with no marker, since
    /// the next batch may continue it.
    pub fn pieces<F>(&self, cut: F) -> impl Iterator<Item = (&[Access], Option<&Marker>)> + '_
    where
        F: Fn(&Marker) -> bool + 'static,
    {
        let ends = self
            .markers
            .iter()
            .filter(move |(_, m)| cut(m))
            .map(|(i, m)| (*i, Some(m)));
        let mut from = 0;
        ends.chain(std::iter::once((self.accesses.len(), None)))
            .map(move |(to, marker)| {
                let piece = &self.accesses[from..to];
                from = to;
                (piece, marker)
            })
    }

    /// The accesses cut at every `FrameEnd` marker ([`Batch::pieces`]):
    /// each piece with whether a frame ends right after it.
    pub fn frame_pieces(&self) -> impl Iterator<Item = (&[Access], bool)> + '_ {
        self.pieces(|m| matches!(m, Marker::FrameEnd { .. }))
            .map(|(piece, end)| (piece, end.is_some()))
    }

    /// The records in trace order.
    pub fn records(&self) -> impl Iterator<Item = Record> + '_ {
        let mut markers = self.markers.iter().peekable();
        let mut accesses = self.accesses.iter().enumerate().peekable();
        std::iter::from_fn(move || {
            let next_access = accesses.peek().map(|(i, _)| *i).unwrap_or(usize::MAX);
            match markers.peek() {
                Some((i, _)) if *i <= next_access => {
                    markers.next().map(|(_, m)| Record::Marker(m.clone()))
                }
                _ => accesses.next().map(|(_, a)| Record::Access(*a)),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Op, Stream};

    fn access(addr: u64) -> Record {
        Record::Access(Access {
            addr,
            size: 1,
            unit: 0,
            stream: Stream::Tex,
            op: Op::Read,
        })
    }

    #[test]
    fn frame_pieces_cut_at_frame_ends() {
        let mut b = Batch::default();
        let end = |frame| Record::Marker(Marker::FrameEnd { frame });
        for r in [
            access(0),
            access(1),
            end(0),
            Record::Marker(Marker::FrameBegin { frame: 1 }),
            access(2),
            end(1),
            end(2),
            access(3),
        ] {
            b.push(r);
        }
        let pieces: Vec<(Vec<u64>, bool)> = b
            .frame_pieces()
            .map(|(p, e)| (p.iter().map(|a| a.addr).collect(), e))
            .collect();
        assert_eq!(
            pieces,
            vec![
                (vec![0, 1], true),
                (vec![2], true),
                (vec![], true),
                (vec![3], false)
            ]
        );
        assert_eq!(Batch::default().frame_pieces().count(), 1);
    }

    #[test]
    fn pieces_end_at_the_markers_chosen() {
        let mut b = Batch::default();
        let pass = Marker::PassBegin {
            name: "p".into(),
            kind: crate::record::PassKind::GBuffer,
        };
        for r in [
            access(0),
            Record::Marker(pass.clone()),
            access(1),
            Record::Marker(Marker::DrawBegin { draw: 0 }),
            access(2),
            Record::Marker(Marker::FrameEnd { frame: 0 }),
        ] {
            b.push(r);
        }
        let cut = |m: &Marker| matches!(m, Marker::PassBegin { .. } | Marker::FrameEnd { .. });
        let pieces: Vec<(Vec<u64>, Option<Marker>)> = b
            .pieces(cut)
            .map(|(p, m)| (p.iter().map(|a| a.addr).collect(), m.cloned()))
            .collect();
        assert_eq!(
            pieces,
            vec![
                (vec![0], Some(pass)),
                (vec![1, 2], Some(Marker::FrameEnd { frame: 0 })),
                (vec![], None),
            ]
        );
    }
}
