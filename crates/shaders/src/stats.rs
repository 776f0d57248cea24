//! A census of many files: each counted or not (with why), and the
//! distribution of the counted ones.

use gfxcache_trace::ShaderOps;
use serde::Serialize;

use crate::{count_source, Define, ShaderCount, Stage};

/// The census of a list of files.
#[derive(Clone, Debug, Serialize)]
pub struct Census {
    /// The stage every file was counted as; `None`: each file's name said.
    pub stage: Option<Stage>,
    /// The definitions given to the preprocessor of every file.
    pub defines: Vec<Define>,
    /// The files counted, in the order given.
    pub counted: Vec<Counted>,
    /// The files not counted, in the order given, with why.
    pub not_counted: Vec<Skipped>,
    /// Over the counted files.
    pub distribution: Distribution,
}

/// One counted shader.
#[derive(Clone, Debug, Serialize)]
pub struct Counted {
    pub file: String,
    pub stage: Stage,
    /// Operations by class (`alu`: by width 1 to 4).
    pub ops: ShaderOps,
    /// Operations each counted once ([`ShaderOps::instructions`]).
    pub instructions: u64,
    /// Operations each counted once per component ([`ShaderOps::scalar_ops`]).
    pub scalar_ops: u64,
    /// Texture samples.
    pub samples: u64,
    /// `instructions / samples`; `null` without samples.
    pub instructions_per_sample: Option<f64>,
    /// `scalar_ops / samples`; `null` without samples.
    pub scalar_ops_per_sample: Option<f64>,
    /// Whether the shader has a loop (its body counted once).
    pub loops: bool,
}

impl Counted {
    pub fn new(file: String, stage: Stage, c: &ShaderCount) -> Counted {
        Counted {
            file,
            stage,
            ops: c.ops,
            instructions: c.ops.instructions(),
            scalar_ops: c.ops.scalar_ops(),
            samples: c.samples,
            instructions_per_sample: c.instructions_per_sample(),
            scalar_ops_per_sample: c.scalar_ops_per_sample(),
            loops: c.loops,
        }
    }
}

/// A file not counted.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    pub file: String,
    /// The file's line where counting stopped, when there is one.
    pub line: Option<u32>,
    /// What was found there and what was expected.
    pub reason: String,
}

/// Min, quartiles, median, mean and max of one figure over the shaders.
/// Quartiles interpolate linearly between the two nearest ranks (rank
/// `q (n - 1)` of the sorted values, numpy's default; ours, the usual
/// choice).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Shaders summarised.
    pub n: usize,
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub mean: f64,
    pub max: f64,
}

impl Summary {
    /// `None` for no values.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Summary> {
        let mut v: Vec<f64> = values.into_iter().collect();
        if v.is_empty() {
            return None;
        }
        v.sort_by(f64::total_cmp);
        let q = |p: f64| {
            let pos = p * (v.len() - 1) as f64;
            let lo = pos.floor() as usize;
            let hi = (lo + 1).min(v.len() - 1);
            v[lo] + (pos - lo as f64) * (v[hi] - v[lo])
        };
        Some(Summary {
            n: v.len(),
            min: v[0],
            q1: q(0.25),
            median: q(0.5),
            q3: q(0.75),
            mean: v.iter().sum::<f64>() / v.len() as f64,
            max: v[v.len() - 1],
        })
    }
}

/// The distribution over the counted shaders; the ratios over those with
/// at least one sample (their `n` says how many).
#[derive(Clone, Debug, Serialize)]
pub struct Distribution {
    pub instructions: Option<Summary>,
    pub scalar_ops: Option<Summary>,
    pub samples: Option<Summary>,
    pub instructions_per_sample: Option<Summary>,
    pub scalar_ops_per_sample: Option<Summary>,
}

impl Distribution {
    pub fn of(counted: &[Counted]) -> Distribution {
        Distribution {
            instructions: Summary::of(counted.iter().map(|c| c.instructions as f64)),
            scalar_ops: Summary::of(counted.iter().map(|c| c.scalar_ops as f64)),
            samples: Summary::of(counted.iter().map(|c| c.samples as f64)),
            instructions_per_sample: Summary::of(
                counted.iter().filter_map(|c| c.instructions_per_sample),
            ),
            scalar_ops_per_sample: Summary::of(
                counted.iter().filter_map(|c| c.scalar_ops_per_sample),
            ),
        }
    }
}

/// The census of `files` (a name and its bytes each), every file as
/// `stage` or, with `None`, as its name says ([`Stage::from_file_name`]).
pub fn census<'a>(
    files: impl IntoIterator<Item = (String, &'a [u8])>,
    stage: Option<Stage>,
    defines: &[Define],
) -> Census {
    let mut counted = Vec::new();
    let mut not_counted = Vec::new();
    for (file, bytes) in files {
        let Some(st) = stage.or_else(|| Stage::from_file_name(&file)) else {
            not_counted.push(Skipped {
                file,
                line: None,
                reason: "the stage is not in the file name: expected .frag, .fsh, .fs, .vert, .vsh, .vs or `fragment`/`vertex` in it, or the stage given".into(),
            });
            continue;
        };
        let result = match std::str::from_utf8(bytes) {
            Ok(text) => count_source(text, st, defines),
            Err(e) => Err(crate::NotCounted::whole(format!(
                "byte {} is not UTF-8: expected GLSL text",
                e.valid_up_to()
            ))),
        };
        match result {
            Ok(c) => counted.push(Counted::new(file, st, &c)),
            Err(e) => not_counted.push(Skipped {
                file,
                line: e.line,
                reason: e.reason,
            }),
        }
    }
    let distribution = Distribution::of(&counted);
    Census {
        stage,
        defines: defines.to_vec(),
        counted,
        not_counted,
        distribution,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quartiles_interpolate_between_ranks() {
        let s = Summary::of([4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!((s.min, s.max, s.mean), (1.0, 4.0, 2.5));
        assert_eq!((s.q1, s.median, s.q3), (1.75, 2.5, 3.25));
        let one = Summary::of([7.0]).unwrap();
        assert_eq!((one.q1, one.median, one.q3, one.n), (7.0, 7.0, 7.0, 1));
        assert!(Summary::of([]).is_none());
    }
}
