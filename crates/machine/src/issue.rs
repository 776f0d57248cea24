//! How a fragment processor issues shader operations: the cycles a run of
//! [`ShaderOps`] takes on it ([`IssueModel::cycles`]).
//!
//! **The rule.** Operations fall in four classes, each with its issue
//! rate a cycle:
//!
//! - ALU operations: one of up to `vector_width` components takes one
//!   issue (a vec4 core, `vector_width` 4, issues a 3-component multiply
//!   once; a scalar core, `vector_width` 1, three times), at
//!   `alu_per_cycle` issues a cycle;
//! - scalar ALU operations at `scalar_per_cycle` beside them, where the
//!   core co-issues scalar work (0: they take ALU issues);
//! - special-function components at `special_per_cycle`;
//! - branches at `branch_per_cycle` (0: they take ALU issues).
//!
//! With `parallel` the classes issue side by side (a VLIW word, or pipes
//! fed at once) and the busiest class sets the time; without, they issue
//! one after another and their times add. A run of operations takes the
//! time rounded up to whole cycles. It is a throughput bound: operations
//! are packed as densely as the rates allow, with no stall on a
//! dependence (a core with many threads hides its pipeline's latency
//! behind other fragments', which is how the presets' cores are built).

use gfxcache_trace::ShaderOps;
use serde::{Deserialize, Serialize};

/// A fragment processor's issue rates ([`crate::issue`]'s rule).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IssueModel {
    /// Components one ALU issue computes: 1 (scalar lanes) to 4 (vec4).
    pub vector_width: u32,
    /// ALU issues a cycle.
    pub alu_per_cycle: f64,
    /// Scalar ALU operations a cycle beside the ALU issues (co-issue);
    /// 0: scalar operations take ALU issues.
    pub scalar_per_cycle: f64,
    /// Special-function components a cycle.
    pub special_per_cycle: f64,
    /// Branches a cycle beside the rest; 0: branches take ALU issues.
    pub branch_per_cycle: f64,
    /// Whether the classes issue side by side (the busiest sets the time)
    /// or one after another (their times add).
    pub parallel: bool,
}

/// Rates are finite numbers (what [`IssueModel::check`] accepts), so
/// equality is an equivalence; configurations holding a model compare.
impl Eq for IssueModel {}

impl IssueModel {
    /// One scalar operation a cycle, every class in turn: a scalar,
    /// in-order core with one instruction a cycle (`cycles` is
    /// [`ShaderOps::scalar_ops`]).
    pub const SCALAR: IssueModel = IssueModel {
        vector_width: 1,
        alu_per_cycle: 1.0,
        scalar_per_cycle: 0.0,
        special_per_cycle: 1.0,
        branch_per_cycle: 0.0,
        parallel: false,
    };

    /// Why the rates cannot time anything, if they cannot.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=4).contains(&self.vector_width) {
            return Err(format!(
                "vector_width {}: expected 1 to 4 components",
                self.vector_width
            ));
        }
        let rates = [
            ("alu_per_cycle", self.alu_per_cycle, false),
            ("scalar_per_cycle", self.scalar_per_cycle, true),
            ("special_per_cycle", self.special_per_cycle, false),
            ("branch_per_cycle", self.branch_per_cycle, true),
        ];
        for (name, v, zero) in rates {
            let ok = v.is_finite() && (if zero { v >= 0.0 } else { v > 0.0 }) && v <= 1024.0;
            if !ok {
                let lo = if zero { "0" } else { "more than 0" };
                return Err(format!(
                    "{name} {v}: expected {lo} and at most 1024 a cycle"
                ));
            }
        }
        Ok(())
    }

    /// ALU issues of `ops` outside co-issued scalars, co-issued scalars.
    fn alu_issues(&self, ops: &ShaderOps) -> (f64, f64) {
        let w = self.vector_width.max(1) as u64;
        let mut vector = 0u64;
        for (k, &n) in ops.alu.iter().enumerate() {
            let width = k as u64 + 1;
            if k == 0 && self.scalar_per_cycle > 0.0 {
                continue;
            }
            vector += u64::from(n) * width.div_ceil(w);
        }
        if self.branch_per_cycle == 0.0 {
            vector += u64::from(ops.branch);
        }
        let scalar = if self.scalar_per_cycle > 0.0 {
            u64::from(ops.alu[0])
        } else {
            0
        };
        (vector as f64, scalar as f64)
    }

    /// These rates times `factor`: a core `factor` times as wide.
    pub fn scaled(&self, factor: f64) -> IssueModel {
        IssueModel {
            alu_per_cycle: self.alu_per_cycle * factor,
            scalar_per_cycle: self.scalar_per_cycle * factor,
            special_per_cycle: self.special_per_cycle * factor,
            branch_per_cycle: self.branch_per_cycle * factor,
            ..*self
        }
    }

    /// The time `ops` take, in cycles (not rounded).
    pub fn time(&self, ops: &ShaderOps) -> f64 {
        let (alu, scalar) = self.alu_issues(ops);
        let per = |n: f64, rate: f64| if n > 0.0 { n / rate } else { 0.0 };
        let times = [
            per(alu, self.alu_per_cycle),
            per(scalar, self.scalar_per_cycle),
            per(f64::from(ops.special), self.special_per_cycle),
            if self.branch_per_cycle > 0.0 {
                per(f64::from(ops.branch), self.branch_per_cycle)
            } else {
                0.0
            },
        ];
        if self.parallel {
            times.into_iter().fold(0.0, f64::max)
        } else {
            times.into_iter().sum()
        }
    }

    /// The cycles `ops` take: [`IssueModel::time`] rounded up.
    pub fn cycles(&self, ops: &ShaderOps) -> u64 {
        // A hair below a whole number is that number: rates like 1/3 make
        // sums such as 3 x (1/3) land a rounding error above it.
        let t = self.time(ops);
        let whole = t.round();
        if (t - whole).abs() < 1e-9 {
            whole as u64
        } else {
            t.ceil() as u64
        }
    }

    /// Operations (each once, whatever its width) a cycle when running
    /// `ops` back to back: what the core's issue rate is on that mix.
    pub fn instructions_per_cycle(&self, ops: &ShaderOps) -> f64 {
        let t = self.time(ops);
        if t > 0.0 {
            ops.instructions() as f64 / t
        } else {
            0.0
        }
    }
}

/// How the fragment processors issue shader operations, in a sentence.
pub fn issue_sentence(issue: Option<crate::IssueModel>, machine: Option<&str>) -> String {
    let Some(m) = issue else {
        return "shading takes no time;".into();
    };
    let on = machine.map_or(String::new(), |n| format!(" (machine {n})"));
    format!(
        "a fragment processor{on} issues {} ALU operation(s) of up to {} component(s){} a cycle, \
         {} special function(s) a cycle, the classes {};",
        m.alu_per_cycle,
        m.vector_width,
        if m.scalar_per_cycle > 0.0 {
            format!(
                " with {} scalar operation(s) beside them",
                m.scalar_per_cycle
            )
        } else {
            String::new()
        },
        m.special_per_cycle,
        if m.parallel {
            "side by side"
        } else {
            "in turn"
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-counted mix: 6 scalar, 2 vec2, 3 vec3, 4 vec4 operations, 2
    /// special functions, 1 branch.
    const MIX: ShaderOps = ShaderOps {
        alu: [6, 2, 3, 4],
        special: 2,
        branch: 1,
    };

    #[test]
    fn the_scalar_core_runs_every_component_in_turn() {
        // 6 + 2x2 + 3x3 + 4x4 = 35 components, 2 special, 1 branch.
        assert_eq!(IssueModel::SCALAR.cycles(&MIX), 38);
        assert_eq!(IssueModel::SCALAR.cycles(&MIX), MIX.scalar_ops());
    }

    #[test]
    fn a_vec4_core_issues_each_operation_once() {
        let vec4 = IssueModel {
            vector_width: 4,
            ..IssueModel::SCALAR
        };
        // 6 + 2 + 3 + 4 = 15 ALU issues, 2 special, 1 branch as an issue.
        assert_eq!(vec4.cycles(&MIX), 18);
        assert_eq!(vec4.cycles(&MIX), MIX.instructions());
    }

    #[test]
    fn co_issue_puts_the_scalars_beside_the_vectors() {
        // Mali-400's word: vec4 multiply and add (2 a cycle), a scalar
        // multiply and add beside them (2), one special function, one
        // branch, all in the same word.
        let utgard = IssueModel {
            vector_width: 4,
            alu_per_cycle: 2.0,
            scalar_per_cycle: 2.0,
            special_per_cycle: 1.0,
            branch_per_cycle: 1.0,
            parallel: true,
        };
        // Vectors 9 issues / 2 = 4.5; scalars 6 / 2 = 3; special 2;
        // branch 1: the vectors set it, 4.5 -> 5 cycles.
        assert_eq!(utgard.cycles(&MIX), 5);
        // Scalars alone: 6 / 2.
        assert_eq!(utgard.cycles(&ShaderOps::alu(1, 6)), 3);
        // The same rates one class after another: 4.5 + 3 + 2 + 1.
        let serial = IssueModel {
            parallel: false,
            ..utgard
        };
        assert_eq!(serial.cycles(&MIX), 11);
    }

    #[test]
    fn wide_scalar_lanes_divide_the_components() {
        // 32 lanes a cycle, special functions at 8: 35 components / 32 +
        // 2 / 8, the branch one more issue: 36 / 32 + 0.25 = 1.375 -> 2.
        let lanes = IssueModel {
            vector_width: 1,
            alu_per_cycle: 32.0,
            scalar_per_cycle: 0.0,
            special_per_cycle: 8.0,
            branch_per_cycle: 0.0,
            parallel: false,
        };
        assert_eq!(lanes.time(&MIX), 36.0 / 32.0 + 0.25);
        assert_eq!(lanes.cycles(&MIX), 2);
        assert_eq!(lanes.cycles(&ShaderOps::NONE), 0);
        // Thirds that sum to a whole number stay whole.
        let thirds = IssueModel {
            alu_per_cycle: 3.0,
            ..lanes
        };
        assert_eq!(thirds.cycles(&ShaderOps::alu(1, 3)), 1);
    }

    #[test]
    fn bad_rates_are_refused_by_name() {
        let bad = IssueModel {
            alu_per_cycle: 0.0,
            ..IssueModel::SCALAR
        };
        assert!(bad.check().unwrap_err().contains("alu_per_cycle"));
        let wide = IssueModel {
            vector_width: 8,
            ..IssueModel::SCALAR
        };
        assert!(wide.check().unwrap_err().contains("vector_width 8"));
        assert_eq!(IssueModel::SCALAR.check(), Ok(()));
    }
}
