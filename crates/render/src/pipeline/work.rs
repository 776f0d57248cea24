//! A fragment program's code as data: the typed operations it runs and
//! the texture requests it makes, in order, with the branches, loops and
//! discards between them ([`ShaderCode`], a list of [`Step`]s). The
//! programs themselves are `frame`'s (`Program::code`); a draw carries
//! its own ([`super::Draw::work`]) and a draw of no program (tests,
//! tools) carries [`ShaderWork::NONE`].
//!
//! **The path each fragment takes.** A shaded pixel walks its draw's
//! steps as its shader runs (`path.rs`): the operations of every step it
//! reaches are charged to it ([`gfxcache_trace::ShaderOps`], by class);
//! a block under [`When::Requested`] runs only where the shader makes its
//! request (a texture it has, a reflection, a shadow cascade holding the
//! pixel, an edge to smooth), and costs nothing where the shader skips it
//! ([`super::Fragments::skip_request`]) or never makes it; a block under
//! [`When::Option`] runs only in the draws whose program variant has the
//! option ([`super::FragmentShader::options`]); a pixel the shader
//! discards at a [`Step::Discard`] ([`super::Fragments::discard`]) runs
//! nothing after it. So a fragment's operations are those of the code it
//! ran, and what they cost in cycles is a machine's business (its issue
//! model), never this crate's.

use gfxcache_trace::{OpCounts, ShaderOps};

/// A per-draw option of a program: which variant of it a draw runs (what
/// a `#define` selects in a real engine's shader).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Opt {
    /// The material is cut out: its alpha is tested (and the pixel
    /// discarded below the threshold).
    AlphaTest = 0,
    /// The colour goes out gamma-encoded (a pass drawing into the
    /// display).
    Encode = 1,
    /// Normals are packed into (or unpacked from) a unorm target.
    PackNormal = 2,
    /// The pass has a shadow map: the pixel's shadow is looked up.
    Shadowed = 3,
    /// The shadow map is cascaded: a pixel's cascade is chosen by its
    /// depth.
    Cascades = 4,
}

impl Opt {
    pub const ALL: [Opt; 5] = [
        Opt::AlphaTest,
        Opt::Encode,
        Opt::PackNormal,
        Opt::Shadowed,
        Opt::Cascades,
    ];

    /// The option's name in summaries.
    pub const fn name(self) -> &'static str {
        match self {
            Opt::AlphaTest => "alpha-test",
            Opt::Encode => "encode",
            Opt::PackNormal => "pack-normal",
            Opt::Shadowed => "shadowed",
            Opt::Cascades => "cascades",
        }
    }
}

/// A draw's options: a set of [`Opt`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options(u8);

impl Options {
    pub const NONE: Options = Options(0);

    /// These options, with `opt` as `on` says.
    #[must_use]
    pub const fn with(self, opt: Opt, on: bool) -> Options {
        let bit = 1 << opt as u8;
        Options(if on { self.0 | bit } else { self.0 & !bit })
    }

    pub const fn has(self, opt: Opt) -> bool {
        self.0 & (1 << opt as u8) != 0
    }
}

/// When a block of steps runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Where the shader makes the block's request (an optional one): it
    /// makes it or skips it, pixel by pixel.
    Requested,
    /// In the draws whose options have this one.
    Option(Opt),
}

/// One step of a fragment program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Operations every fragment that reaches this step runs.
    Ops(ShaderOps),
    /// A filtered texture request (a shader's `sample`).
    Sample,
    /// A texel load (a shader's `load`): one texel, no filtering.
    Load,
    /// The next `len` steps run only where `when` holds (their test, a
    /// branch where it is one, is an [`Step::Ops`] before it).
    If { when: When, len: u8 },
    /// The next `len` steps run once per tap of the draw's pass
    /// ([`ShaderWork::taps`]); no loop inside.
    Loop { len: u8 },
    /// A discard: a pixel the shader discards here runs nothing after it
    /// and makes no further request (its test is an [`Step::Ops`] before
    /// it).
    Discard,
}

/// A fragment program's code.
#[derive(Debug, PartialEq, Eq)]
pub struct ShaderCode {
    /// The program's name, as summaries and reports name it.
    pub name: &'static str,
    pub steps: &'static [Step],
}

/// What a path through a program adds up to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathCost {
    pub ops: ShaderOps,
    /// Filtered requests and texel loads made.
    pub samples: u32,
    pub loads: u32,
}

impl PathCost {
    /// Texture requests of either kind.
    pub fn requests(&self) -> u32 {
        self.samples + self.loads
    }
}

impl ShaderCode {
    /// The code of no program: no operation, no request.
    pub const NONE: ShaderCode = ShaderCode {
        name: "none",
        steps: &[],
    };

    /// The cost of the path with `taps` taps and `options`, every optional
    /// request made (`requested`) or none, no pixel discarded: the longest
    /// and the shortest paths of a variant.
    pub fn path(&self, taps: u32, options: Options, requested: bool) -> PathCost {
        self.path_where(taps, options, |_| requested)
    }

    /// The cost of the path with `taps` taps and `options` where the
    /// optional requests made are those whose block's `If` step `k`
    /// (its index in [`ShaderCode::steps`]) has `requested(k)`.
    pub fn path_where(
        &self,
        taps: u32,
        options: Options,
        requested: impl Fn(usize) -> bool,
    ) -> PathCost {
        let mut cost = PathCost::default();
        self.add_path(0, self.steps.len(), taps, options, &requested, &mut cost);
        cost
    }

    /// The optional requests' blocks: the index of each `If` step under
    /// [`When::Requested`].
    pub fn optional_requests(&self) -> Vec<usize> {
        let requested = |s: &Step| {
            matches!(
                s,
                Step::If {
                    when: When::Requested,
                    ..
                }
            )
        };
        (0..self.steps.len())
            .filter(|&k| requested(&self.steps[k]))
            .collect()
    }

    fn add_path(
        &self,
        from: usize,
        to: usize,
        taps: u32,
        options: Options,
        requested: &dyn Fn(usize) -> bool,
        cost: &mut PathCost,
    ) {
        let steps = self.steps;
        let mut k = from;
        while k < to {
            match steps[k] {
                Step::Ops(o) => cost.ops += o,
                Step::Sample => cost.samples += 1,
                Step::Load => cost.loads += 1,
                Step::Discard => {}
                Step::If { when, len } => {
                    let end = k + 1 + len as usize;
                    let taken = match when {
                        When::Requested => requested(k),
                        When::Option(o) => options.has(o),
                    };
                    if taken {
                        self.add_path(k + 1, end, taps, options, requested, cost);
                    }
                    k += len as usize;
                }
                Step::Loop { len } => {
                    let end = k + 1 + len as usize;
                    for _ in 0..taps {
                        self.add_path(k + 1, end, taps, options, requested, cost);
                    }
                    k += len as usize;
                }
            }
            k += 1;
        }
    }

    /// Why the steps are not a program the walk can follow, if they are
    /// not: a block running past the end, a loop inside a loop, a
    /// discard inside a loop.
    pub fn check(&self) -> Result<(), String> {
        fn block(steps: &[Step], in_loop: bool, name: &str) -> Result<(), String> {
            let mut k = 0;
            while k < steps.len() {
                match steps[k] {
                    Step::If { len, .. } | Step::Loop { len } => {
                        let end = k + 1 + len as usize;
                        if end > steps.len() {
                            return Err(format!("{name}: the block at step {k} runs past its end"));
                        }
                        let is_loop = matches!(steps[k], Step::Loop { .. });
                        if is_loop && in_loop {
                            return Err(format!("{name}: a loop inside a loop at step {k}"));
                        }
                        block(&steps[k + 1..end], in_loop || is_loop, name)?;
                        k = end;
                        continue;
                    }
                    Step::Discard if in_loop => {
                        return Err(format!("{name}: a discard inside a loop at step {k}"))
                    }
                    _ => {}
                }
                k += 1;
            }
            Ok(())
        }
        block(self.steps, false, self.name)
    }
}

/// A draw's fragment work: its program's code with the tap count of its
/// pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaderWork {
    pub code: &'static ShaderCode,
    pub taps: u32,
}

impl ShaderWork {
    /// No program: draws of no program (tests, tools).
    pub const NONE: ShaderWork = ShaderWork {
        code: &ShaderCode::NONE,
        taps: 0,
    };
}

/// What the fragments of one program ran, summed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgramTally {
    /// The program's [`ShaderCode::name`].
    pub program: &'static str,
    /// Fragments (pixels) shaded.
    pub fragments: u64,
    /// Texture requests made (filtered samples and loads; an anisotropic
    /// sample is one).
    pub requests: u64,
    /// Requests a shader made where its program's code has none: a
    /// program that does not describe its shader (0 for every program of
    /// the frame; tests hold them to it).
    pub off_program: u64,
    /// Operations on the paths the fragments took.
    pub ops: OpCounts,
}

impl ProgramTally {
    fn new(program: &'static str) -> ProgramTally {
        ProgramTally {
            program,
            fragments: 0,
            requests: 0,
            off_program: 0,
            ops: OpCounts::default(),
        }
    }

    fn add(&mut self, o: &ProgramTally) {
        self.fragments += o.fragments;
        self.requests += o.requests;
        self.off_program += o.off_program;
        self.ops.add_counts(&o.ops);
    }
}

/// What every program ran, one [`ProgramTally`] each, in the order they
/// were first seen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProgramTallies {
    pub programs: Vec<ProgramTally>,
}

impl ProgramTallies {
    /// The tally of `program`, made if new. Programs are told apart by
    /// their name.
    pub fn of(&mut self, program: &'static str) -> &mut ProgramTally {
        let k = match self.programs.iter().position(|t| t.program == program) {
            Some(k) => k,
            None => {
                self.programs.push(ProgramTally::new(program));
                self.programs.len() - 1
            }
        };
        &mut self.programs[k]
    }

    /// Adds `other`'s tallies to these.
    pub fn add(&mut self, other: &ProgramTallies) {
        for t in &other.programs {
            self.of(t.program).add(t);
        }
    }

    /// What was counted since `before` (an earlier copy of these): the
    /// programs that ran since, in this order.
    pub fn since(&self, before: &ProgramTallies) -> ProgramTallies {
        let programs = self
            .programs
            .iter()
            .filter_map(|t| {
                let b = before.programs.iter().find(|b| b.program == t.program);
                let d = match b {
                    None => *t,
                    Some(b) => ProgramTally {
                        program: t.program,
                        fragments: t.fragments - b.fragments,
                        requests: t.requests - b.requests,
                        off_program: t.off_program - b.off_program,
                        ops: t.ops.since(&b.ops),
                    },
                };
                (d.fragments > 0).then_some(d)
            })
            .collect();
        ProgramTallies { programs }
    }

    /// Every program together, named `all`.
    pub fn total(&self) -> ProgramTally {
        let mut t = ProgramTally::new("all");
        for p in &self.programs {
            t.add(p);
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINT: ShaderOps = ShaderOps::alu(4, 1);
    const TEST: ShaderOps = ShaderOps::alu(1, 1).plus(ShaderOps::branch(1));

    static CODE: ShaderCode = ShaderCode {
        name: "test",
        steps: &[
            Step::If {
                when: When::Requested,
                len: 2,
            },
            Step::Sample,
            Step::Ops(TINT),
            Step::If {
                when: When::Option(Opt::AlphaTest),
                len: 2,
            },
            Step::Ops(TEST),
            Step::Discard,
            Step::Loop { len: 2 },
            Step::Load,
            Step::Ops(ShaderOps::alu(2, 1)),
        ],
    };

    #[test]
    fn paths_add_what_they_run() {
        assert_eq!(CODE.check(), Ok(()));
        let none = CODE.path(0, Options::NONE, false);
        assert_eq!(none, PathCost::default());
        let all = CODE.path(3, Options::NONE.with(Opt::AlphaTest, true), true);
        assert_eq!(all.samples, 1);
        assert_eq!(all.loads, 3);
        assert_eq!(all.ops, TINT + TEST + ShaderOps::alu(2, 3));
        let no_test = CODE.path(1, Options::NONE, true);
        assert_eq!(no_test.ops, TINT + ShaderOps::alu(2, 1));
    }

    #[test]
    fn checks_refuse_what_the_walk_cannot_follow() {
        static PAST: ShaderCode = ShaderCode {
            name: "past",
            steps: &[Step::Loop { len: 2 }, Step::Load],
        };
        assert!(PAST.check().unwrap_err().contains("past its end"));
        static NESTED: ShaderCode = ShaderCode {
            name: "nested",
            steps: &[Step::Loop { len: 2 }, Step::Loop { len: 1 }, Step::Load],
        };
        assert!(NESTED.check().unwrap_err().contains("loop inside a loop"));
        static DISCARD: ShaderCode = ShaderCode {
            name: "discard",
            steps: &[Step::Loop { len: 1 }, Step::Discard],
        };
        assert!(DISCARD
            .check()
            .unwrap_err()
            .contains("discard inside a loop"));
    }

    #[test]
    fn options_set_and_clear() {
        let o = Options::NONE
            .with(Opt::Encode, true)
            .with(Opt::PackNormal, true);
        assert!(o.has(Opt::Encode) && o.has(Opt::PackNormal) && !o.has(Opt::AlphaTest));
        assert!(!o.with(Opt::Encode, false).has(Opt::Encode));
    }

    #[test]
    fn tallies_add_and_subtract_by_program() {
        let mut a = ProgramTallies::default();
        a.of("x").fragments = 2;
        let before = a.clone();
        a.of("y").fragments = 1;
        a.of("x").fragments += 3;
        let d = a.since(&before);
        assert_eq!(d.programs.len(), 2);
        assert_eq!(d.programs[0].fragments, 3);
        assert_eq!(d.total().fragments, 4);
        let mut b = ProgramTallies::default();
        b.add(&a);
        b.add(&a);
        assert_eq!(b.of("x").fragments, 10);
    }
}
