//! The fragment processors' clocks: a hand-worked sequence under each
//! context unit, and the clocks against the rules written out plainly on
//! random input.

use std::collections::BTreeSet;

use gfxcache_gpu::{ContextUnit, FpClocks, RequestWork};
use proptest::prelude::*;

/// One step of a processor's input.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// A request after `w`, of `blocks` blocks whose data takes
    /// `latency` cycles each.
    Request {
        fp: usize,
        w: RequestWork,
        blocks: u32,
        latency: u64,
    },
    Work {
        fp: usize,
        work: u32,
    },
    TileEnd {
        sync: bool,
    },
}

/// What [`play`] drives: the clocks, or the rules written out plainly.
trait Clocks {
    fn issue(&mut self, fp: usize, w: RequestWork) -> u64;
    fn issue_more(&mut self, fp: usize) -> u64;
    fn complete(&mut self, fp: usize, issued: u64, done: u64);
    fn work(&mut self, fp: usize, work: u32);
    fn tile_end(&mut self, sync: bool);
}

/// Each request's issue is the one [`FpClocks::next_issue`] foretold.
impl Clocks for FpClocks {
    fn issue(&mut self, fp: usize, w: RequestWork) -> u64 {
        let foretold = self.next_issue(fp, w);
        let t = FpClocks::issue(self, fp, w);
        assert_eq!(t, foretold);
        t
    }
    fn issue_more(&mut self, fp: usize) -> u64 {
        FpClocks::issue_more(self, fp)
    }
    fn complete(&mut self, fp: usize, issued: u64, done: u64) {
        FpClocks::complete(self, fp, issued, done)
    }
    fn work(&mut self, fp: usize, work: u32) {
        FpClocks::work(self, fp, work)
    }
    fn tile_end(&mut self, sync: bool) {
        FpClocks::tile_end(self, sync)
    }
}

/// Plays `steps`, each block's data `latency` after its issue; the issue
/// cycles of every block.
fn play(clocks: &mut impl Clocks, steps: &[Step]) -> Vec<u64> {
    let mut issued = Vec::new();
    for &step in steps {
        match step {
            Step::Request {
                fp,
                w,
                blocks,
                latency,
            } => {
                for b in 0..blocks {
                    let t = match b {
                        0 => clocks.issue(fp, w),
                        _ => clocks.issue_more(fp),
                    };
                    clocks.complete(fp, t, t + latency);
                    issued.push(t);
                }
            }
            Step::Work { fp, work } => clocks.work(fp, work),
            Step::TileEnd { sync } => clocks.tile_end(sync),
        }
    }
    issued
}

fn request(work: u32, tail: u32, follows: bool) -> Step {
    Step::Request {
        fp: 0,
        w: RequestWork {
            tail,
            work,
            follows,
        },
        blocks: 1,
        latency: 10,
    }
}

/// Two contexts, data 10 cycles after each issue. Fragment A asks at
/// work 2 and again, after its data, at work 3; B (after A's tail of 4)
/// at work 1; C at once.
///
/// - A fragment a context: A's first request issues at 2 (data 12), its
///   second after 12 + 3 = 15 (data 25). B takes the other context, free
///   since 0: its work takes the core's first free cycle, 3, and it
///   issues at 4, while A waits. A's tail runs 25..29 on its context. C
///   takes B's context, free at 14 (before A's at 29): 14 and 15 are A's,
///   so it issues at 16.
/// - A request a context: A's requests overlap (2, and 3 + 3 = 6 on the
///   other context), B waits for the first context's data and runs A's
///   tail and its work, 12 + 5 = 17, C the second's, at the core's next
///   cycle 18.
#[test]
fn fragments_chain_their_requests_and_requests_overlap() {
    let steps = [
        request(2, 0, false),
        request(3, 0, true),
        request(1, 4, false),
        request(0, 0, false),
    ];
    let mut fragment = FpClocks::new(1, 2, ContextUnit::Fragment);
    assert_eq!(play(&mut fragment, &steps), [2, 15, 4, 16]);
    assert_eq!(fragment.stats().cycles, 28);
    assert_eq!(fragment.stats().work_cycles, 10);
    let mut request = FpClocks::new(1, 2, ContextUnit::Request);
    assert_eq!(play(&mut request, &steps), [2, 6, 17, 18]);
    assert_eq!(request.stats().cycles, 28);
}

/// The rules written out plainly: per processor a set of the core's taken
/// cycles and each context's ready cycle; a fragment's tail and a
/// request's work take the first free cycles after the data they need,
/// a new fragment the context free first (the lowest on a tie); a request
/// per context takes the contexts in turn and the core as a cursor.
struct Reference {
    unit: ContextUnit,
    ready: Vec<Vec<u64>>,
    current: Vec<usize>,
    taken: Vec<BTreeSet<u64>>,
    core_free: Vec<u64>,
    last_issue: Vec<u64>,
    latest: u64,
}

impl Reference {
    fn new(fps: usize, contexts: usize, unit: ContextUnit) -> Reference {
        Reference {
            unit,
            ready: vec![vec![0; contexts]; fps],
            current: vec![0; fps],
            taken: vec![BTreeSet::new(); fps],
            core_free: vec![0; fps],
            last_issue: vec![0; fps],
            latest: 0,
        }
    }

    /// Takes the core's first `n` free cycles from `from`; the last.
    fn take(&mut self, fp: usize, from: u64, n: u64) -> u64 {
        let cycles: Vec<u64> = (from..)
            .filter(|c| !self.taken[fp].contains(c))
            .take(n as usize)
            .collect();
        let last = *cycles.last().unwrap();
        self.taken[fp].extend(cycles);
        self.core_free[fp] = self.core_free[fp].max(last + 1);
        last
    }

    fn now(&self) -> u64 {
        let free = self.core_free.iter().map(|&c| c.saturating_sub(1));
        free.fold(self.latest, u64::max)
    }
}

impl Clocks for Reference {
    fn issue(&mut self, fp: usize, w: RequestWork) -> u64 {
        let contexts = self.ready[fp].len();
        let t = match self.unit {
            ContextUnit::Request => {
                let c = (self.current[fp] + 1) % contexts;
                let t = self.ready[fp][c].max(self.core_free[fp])
                    + u64::from(w.tail)
                    + u64::from(w.work);
                self.current[fp] = c;
                self.core_free[fp] = t + 1;
                t
            }
            ContextUnit::Fragment => {
                let mut work = u64::from(w.work);
                if w.follows {
                    work += u64::from(w.tail);
                } else {
                    if w.tail > 0 {
                        let c = self.current[fp];
                        let end = self.take(fp, self.ready[fp][c], u64::from(w.tail)) + 1;
                        self.ready[fp][c] = end;
                    }
                    let first = (0..contexts).min_by_key(|&c| (self.ready[fp][c], c));
                    self.current[fp] = first.unwrap();
                }
                let from = self.ready[fp][self.current[fp]];
                self.take(fp, from, work + 1)
            }
        };
        self.ready[fp][self.current[fp]] = t;
        self.last_issue[fp] = t;
        t
    }

    fn issue_more(&mut self, fp: usize) -> u64 {
        let t = match self.unit {
            ContextUnit::Request => self.core_free[fp],
            ContextUnit::Fragment => self.take(fp, self.last_issue[fp] + 1, 1),
        };
        self.core_free[fp] = self.core_free[fp].max(t + 1);
        self.last_issue[fp] = t;
        t
    }

    fn complete(&mut self, fp: usize, _issued: u64, done: u64) {
        let c = self.current[fp];
        self.ready[fp][c] = self.ready[fp][c].max(done);
        self.latest = self.latest.max(done);
    }

    fn work(&mut self, fp: usize, work: u32) {
        if work == 0 {
            return;
        }
        let c = self.current[fp];
        let end = match self.unit {
            ContextUnit::Request => {
                let data = *self.ready[fp].iter().max().unwrap();
                let end = data.max(self.core_free[fp]) + u64::from(work);
                self.core_free[fp] = end;
                end
            }
            ContextUnit::Fragment => self.take(fp, self.ready[fp][c], u64::from(work)) + 1,
        };
        if self.unit == ContextUnit::Fragment {
            self.ready[fp][c] = end;
        }
        self.latest = self.latest.max(end);
    }

    fn tile_end(&mut self, sync: bool) {
        if sync {
            let t = self.now();
            for ready in &mut self.ready {
                ready.fill(t);
            }
            self.core_free.fill(t);
            for taken in &mut self.taken {
                taken.clear();
            }
        }
    }
}

fn step(fps: usize) -> impl Strategy<Value = Step> {
    let w = (
        prop_oneof![1 => Just(0u32), 3 => 0u32..40],
        prop_oneof![2 => Just(0u32), 1 => 0u32..30],
        any::<bool>(),
    )
        .prop_map(|(work, tail, follows)| RequestWork {
            tail,
            work,
            follows,
        });
    let latency = prop_oneof![3 => 0u64..30, 1 => 0u64..400];
    prop_oneof![
        12 => (0..fps, w, 1u32..=3, latency).prop_map(|(fp, w, blocks, latency)| Step::Request {
            fp,
            w,
            blocks,
            latency
        }),
        1 => (0..fps, 0u32..50).prop_map(|(fp, work)| Step::Work { fp, work }),
        1 => any::<bool>().prop_map(|sync| Step::TileEnd { sync }),
    ]
}

fn unit() -> impl Strategy<Value = ContextUnit> {
    prop_oneof![Just(ContextUnit::Fragment), Just(ContextUnit::Request)]
}

proptest! {
    /// Every block's issue cycle and the frame's cycles are the plain
    /// rules', under either unit.
    #[test]
    fn the_clocks_follow_the_plain_rules(
        unit in unit(),
        contexts in 1usize..6,
        steps in proptest::collection::vec(step(3), 1..200),
    ) {
        let mut clocks = FpClocks::new(3, contexts as u32, unit);
        let mut reference = Reference::new(3, contexts, unit);
        prop_assert_eq!(play(&mut clocks, &steps), play(&mut reference, &steps));
        prop_assert_eq!(clocks.stats().cycles, reference.now());
    }

    /// With one context a fragment and a request are the same thing:
    /// every time is the same under both units.
    #[test]
    fn one_context_holds_a_fragment_as_it_holds_a_request(
        steps in proptest::collection::vec(step(2), 1..200),
    ) {
        let mut fragment = FpClocks::new(2, 1, ContextUnit::Fragment);
        let mut request = FpClocks::new(2, 1, ContextUnit::Request);
        prop_assert_eq!(play(&mut fragment, &steps), play(&mut request, &steps));
        prop_assert_eq!(fragment.stats(), request.stats());
    }
}
