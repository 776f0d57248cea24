//! Shader operations by class: the vocabulary in which shader work is
//! counted, between texture requests (the `.gtq` file, [`crate::texreq`]),
//! per program (the renderer's programs) and per real shader (the shader
//! census). A machine's issue model turns a [`ShaderOps`] into cycles; the
//! count itself says nothing about time.
//!
//! **Counting rules** (one set for our programs and for the census, so
//! that the two compare):
//!
//! - An **ALU operation** computes `w` components at once (`w` = 1 to 4,
//!   its width): add, subtract, multiply, multiply-add, min, max, abs,
//!   floor, fract, sign, step, compare, select, a conversion, each once
//!   per operation of its result's width. A dot product of `w`-vectors is
//!   one operation of width `w` (a DP3 on a vector unit; `w` multiply-adds
//!   on a scalar one); `mix` is two (a subtract and a multiply-add), a
//!   `clamp` one (a min-max pair, or a saturate modifier), `smoothstep`
//!   four. A matrix times a vector is one operation of the vector's width
//!   per column. Moves, swizzles, negation and constants are free (operand
//!   modifiers and register reads).
//! - A **special-function operation** is one component of a reciprocal,
//!   reciprocal square root, square root, exponential, logarithm, sine or
//!   cosine: the operations a GPU's transcendental unit computes, one
//!   component at a time. A division is a reciprocal per component and a
//!   multiply; `normalize` a dot product, a reciprocal square root and a
//!   multiply; `length` a dot product and a square root; `pow` a
//!   logarithm, a multiply and an exponential.
//! - A **branch** is one flow-control operation: a conditional, a loop's
//!   test per iteration, a `discard`.
//!
//! Interpolating varyings (the interpolator's work), texture addressing
//! and filtering (the texture unit's) and output writes are not counted;
//! a texture request is a request, not an operation.

use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

/// Operations of shader code by class ([`crate::ops`]'s rules).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ShaderOps {
    /// ALU operations by width: `alu[0]` scalar, `alu[1]` two components,
    /// `alu[2]` three, `alu[3]` four.
    pub alu: [u32; 4],
    /// Special-function operations, one per component.
    pub special: u32,
    /// Flow-control operations.
    pub branch: u32,
}

impl ShaderOps {
    /// No operation.
    pub const NONE: ShaderOps = ShaderOps {
        alu: [0; 4],
        special: 0,
        branch: 0,
    };

    /// `n` ALU operations of width `w` (1-4).
    pub const fn alu(w: usize, n: u32) -> ShaderOps {
        let mut alu = [0; 4];
        alu[w - 1] = n;
        ShaderOps {
            alu,
            special: 0,
            branch: 0,
        }
    }

    /// `n` special-function operations (components).
    pub const fn special(n: u32) -> ShaderOps {
        ShaderOps {
            alu: [0; 4],
            special: n,
            branch: 0,
        }
    }

    /// `n` flow-control operations.
    pub const fn branch(n: u32) -> ShaderOps {
        ShaderOps {
            alu: [0; 4],
            special: 0,
            branch: n,
        }
    }

    /// The two together, saturating (usable in constants).
    pub const fn plus(self, o: ShaderOps) -> ShaderOps {
        ShaderOps {
            alu: [
                self.alu[0].saturating_add(o.alu[0]),
                self.alu[1].saturating_add(o.alu[1]),
                self.alu[2].saturating_add(o.alu[2]),
                self.alu[3].saturating_add(o.alu[3]),
            ],
            special: self.special.saturating_add(o.special),
            branch: self.branch.saturating_add(o.branch),
        }
    }

    /// `n` times these, saturating.
    pub const fn times(self, n: u32) -> ShaderOps {
        ShaderOps {
            alu: [
                self.alu[0].saturating_mul(n),
                self.alu[1].saturating_mul(n),
                self.alu[2].saturating_mul(n),
                self.alu[3].saturating_mul(n),
            ],
            special: self.special.saturating_mul(n),
            branch: self.branch.saturating_mul(n),
        }
    }

    /// Operations of every class, each counted once whatever its width:
    /// the instructions a machine that issues one operation of up to four
    /// components a cycle runs.
    pub const fn instructions(&self) -> u64 {
        self.alu[0] as u64
            + self.alu[1] as u64
            + self.alu[2] as u64
            + self.alu[3] as u64
            + self.special as u64
            + self.branch as u64
    }

    /// Scalar operations: each ALU operation once per component, plus the
    /// special and flow-control operations. What a machine that issues one
    /// scalar operation a cycle runs.
    pub const fn scalar_ops(&self) -> u64 {
        self.alu[0] as u64
            + 2 * self.alu[1] as u64
            + 3 * self.alu[2] as u64
            + 4 * self.alu[3] as u64
            + self.special as u64
            + self.branch as u64
    }

    /// ALU operations of width 2 or more.
    pub const fn vector_alu(&self) -> u64 {
        self.alu[1] as u64 + self.alu[2] as u64 + self.alu[3] as u64
    }

    /// Whether there is no operation at all.
    pub const fn is_none(&self) -> bool {
        self.instructions() == 0
    }
}

impl Add for ShaderOps {
    type Output = ShaderOps;
    fn add(self, o: ShaderOps) -> ShaderOps {
        self.plus(o)
    }
}

impl AddAssign for ShaderOps {
    fn add_assign(&mut self, o: ShaderOps) {
        *self = self.plus(o);
    }
}

impl std::iter::Sum for ShaderOps {
    fn sum<I: Iterator<Item = ShaderOps>>(iter: I) -> ShaderOps {
        iter.fold(ShaderOps::NONE, ShaderOps::plus)
    }
}

/// A sum of many [`ShaderOps`] (a frame's, a program's): the same classes
/// in 64 bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct OpCounts {
    /// ALU operations by width, as [`ShaderOps::alu`].
    pub alu: [u64; 4],
    pub special: u64,
    pub branch: u64,
}

impl OpCounts {
    /// Adds `n` times `ops`.
    pub fn add(&mut self, ops: &ShaderOps, n: u64) {
        for (a, &b) in self.alu.iter_mut().zip(&ops.alu) {
            *a += u64::from(b) * n;
        }
        self.special += u64::from(ops.special) * n;
        self.branch += u64::from(ops.branch) * n;
    }

    /// Adds another sum.
    pub fn add_counts(&mut self, o: &OpCounts) {
        for (a, b) in self.alu.iter_mut().zip(&o.alu) {
            *a += b;
        }
        self.special += o.special;
        self.branch += o.branch;
    }

    /// What was counted since `before` (an earlier copy of this sum).
    pub fn since(&self, before: &OpCounts) -> OpCounts {
        OpCounts {
            alu: std::array::from_fn(|k| self.alu[k] - before.alu[k]),
            special: self.special - before.special,
            branch: self.branch - before.branch,
        }
    }

    /// Operations, each once whatever its width ([`ShaderOps::instructions`]).
    pub fn instructions(&self) -> u64 {
        self.alu.iter().sum::<u64>() + self.special + self.branch
    }

    /// Operations, each ALU one once per component
    /// ([`ShaderOps::scalar_ops`]).
    pub fn scalar_ops(&self) -> u64 {
        self.alu[0]
            + 2 * self.alu[1]
            + 3 * self.alu[2]
            + 4 * self.alu[3]
            + self.special
            + self.branch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_count_as_their_components_on_a_scalar_machine() {
        let normalize3 = ShaderOps::alu(3, 2).plus(ShaderOps::special(1));
        assert_eq!(normalize3.instructions(), 3);
        assert_eq!(normalize3.scalar_ops(), 7);
        let mixed = ShaderOps::alu(1, 1) + ShaderOps::alu(2, 1) + ShaderOps::alu(4, 1);
        assert_eq!(mixed.scalar_ops(), 1 + 2 + 4);
        assert_eq!(mixed.vector_alu(), 2);
        assert!(ShaderOps::NONE.is_none());
        assert!(!ShaderOps::branch(1).is_none());
    }

    #[test]
    fn sums_saturate_instead_of_wrapping() {
        let big = ShaderOps::alu(4, u32::MAX);
        assert_eq!((big + ShaderOps::alu(4, 1)).alu[3], u32::MAX);
        assert_eq!(ShaderOps::special(3).times(u32::MAX).special, u32::MAX);
        let s: ShaderOps = [ShaderOps::alu(1, 2), ShaderOps::branch(1)]
            .into_iter()
            .sum();
        assert_eq!(s, ShaderOps::alu(1, 2).plus(ShaderOps::branch(1)));
    }

    #[test]
    fn counts_add_many_and_subtract_an_earlier_sum() {
        let mut c = OpCounts::default();
        c.add(
            &(ShaderOps::alu(3, 2) + ShaderOps::special(1)),
            1_000_000_000,
        );
        let before = c;
        c.add(&ShaderOps::branch(2), 3);
        assert_eq!(c.scalar_ops(), 7_000_000_000 + 6);
        assert_eq!(c.since(&before).instructions(), 6);
        let mut d = OpCounts::default();
        d.add_counts(&c);
        assert_eq!(d, c);
    }
}
