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
