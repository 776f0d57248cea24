//! A study over a workload suite: the study's report for each scene of the
//! suite, in the suite's order, and the mean across the scenes, as the
//! papers report their workloads (per application, then the average).
//!
//! The layer is the same for every study; what the mean is belongs to the
//! study's design crate, the only one that knows which of its figures are
//! ratios (averaged as the papers average them) and which are counts: a
//! study's report implements [`SuiteMean`]. Nothing here renders or runs a
//! study; whoever composes the study (the command line) runs it on each
//! scene and hands the reports to [`SuiteReport::new`].

use serde::Serialize;

/// A study's report that can be averaged over the scenes of a suite.
pub trait SuiteMean: Sized {
    /// The figures averaged across the scenes.
    type Mean: Serialize + Clone + std::fmt::Debug;

    /// The mean of `reports`, one per scene of a suite (at least one, all
    /// made with the same settings).
    fn suite_mean(reports: &[&Self]) -> Self::Mean;

    /// What the reader of this scene's report should know.
    fn warnings(&self) -> &[String];
}

/// One scene's report in a suite.
#[derive(Serialize, Clone, Debug)]
pub struct SceneReport<R> {
    /// The scene's name, as the suite lists it.
    pub scene: String,
    pub report: R,
}

/// A study's report for each scene of a suite and their mean.
#[derive(Serialize, Clone, Debug)]
#[serde(bound(serialize = "R: Serialize"))]
pub struct SuiteReport<R: SuiteMean> {
    /// The suite's name (`desktop`, `mobile`).
    pub suite: String,
    /// Each scene's whole report, in the suite's order.
    pub scenes: Vec<SceneReport<R>>,
    /// The mean across the scenes ([`SuiteMean::suite_mean`]).
    pub mean: R::Mean,
    /// What the reader should know about the suite as a whole and, named
    /// by their scene, each scene's warnings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// Why a suite's reports make no suite report.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SuiteError {
    #[error("the {0} suite has no scenes: nothing to study")]
    Empty(String),
    #[error("scene {scene} is twice in the {suite} suite")]
    Repeated { suite: String, scene: String },
}

impl<R: SuiteMean> SuiteReport<R> {
    /// The suite report of `scenes` (in the suite's order), with `warnings`
    /// about the suite as a whole; each scene's own warnings follow, named
    /// by the scene.
    pub fn new(
        suite: &str,
        scenes: Vec<SceneReport<R>>,
        mut warnings: Vec<String>,
    ) -> Result<SuiteReport<R>, SuiteError> {
        if scenes.is_empty() {
            return Err(SuiteError::Empty(suite.to_string()));
        }
        for (i, s) in scenes.iter().enumerate() {
            if scenes[..i].iter().any(|t| t.scene == s.scene) {
                return Err(SuiteError::Repeated {
                    suite: suite.to_string(),
                    scene: s.scene.clone(),
                });
            }
            warnings.extend(
                s.report
                    .warnings()
                    .iter()
                    .map(|w| format!("{}: {w}", s.scene)),
            );
        }
        let reports: Vec<&R> = scenes.iter().map(|s| &s.report).collect();
        Ok(SuiteReport {
            suite: suite.to_string(),
            mean: R::suite_mean(&reports),
            scenes,
            warnings,
        })
    }
}

/// The arithmetic mean of `values`; 0 for none.
pub fn mean(values: impl IntoIterator<Item = f64>) -> f64 {
    let (sum, n) = values
        .into_iter()
        .fold((0.0, 0u32), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / f64::from(n)
    }
}

/// The mean of `values` if every one is there, else `None` (a figure one
/// scene lacks has no mean across the suite).
pub fn mean_of_all(values: impl IntoIterator<Item = Option<f64>>) -> Option<f64> {
    let all: Option<Vec<f64>> = values.into_iter().collect();
    all.map(mean)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, Clone, Debug)]
    struct Study {
        misses: u64,
        ratio: f64,
        warnings: Vec<String>,
    }

    impl SuiteMean for Study {
        type Mean = (f64, f64);
        fn suite_mean(reports: &[&Study]) -> (f64, f64) {
            (
                mean(reports.iter().map(|r| r.misses as f64)),
                mean(reports.iter().map(|r| r.ratio)),
            )
        }
        fn warnings(&self) -> &[String] {
            &self.warnings
        }
    }

    fn scene(name: &str, misses: u64, ratio: f64) -> SceneReport<Study> {
        SceneReport {
            scene: name.into(),
            report: Study {
                misses,
                ratio,
                warnings: vec![format!("{name} is small")],
            },
        }
    }

    #[test]
    fn the_mean_is_the_studys_and_warnings_name_their_scene() {
        let r = SuiteReport::new(
            "desktop",
            vec![scene("a", 10, 0.5), scene("b", 30, 1.0)],
            vec!["whole suite".into()],
        )
        .unwrap();
        assert_eq!(r.mean, (20.0, 0.75));
        assert_eq!(
            r.warnings,
            ["whole suite", "a: a is small", "b: b is small"]
        );
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["suite"], "desktop");
        assert_eq!(v["scenes"][1]["scene"], "b");
        assert_eq!(v["scenes"][1]["report"]["misses"], 30);
        assert_eq!(v["mean"][0], 20.0);
    }

    #[test]
    fn an_empty_or_repeating_suite_is_an_error() {
        let e = SuiteReport::<Study>::new("mobile", Vec::new(), Vec::new()).unwrap_err();
        assert_eq!(e, SuiteError::Empty("mobile".into()));
        assert!(e.to_string().contains("mobile suite has no scenes"));
        let e = SuiteReport::new(
            "desktop",
            vec![scene("a", 1, 1.0), scene("a", 2, 1.0)],
            Vec::new(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("scene a is twice"), "{e}");
    }

    #[test]
    fn means() {
        assert_eq!(mean([]), 0.0);
        assert_eq!(mean([1.0, 2.0, 6.0]), 3.0);
        assert_eq!(mean_of_all([Some(1.0), Some(3.0)]), Some(2.0));
        assert_eq!(mean_of_all([Some(1.0), None]), None);
    }
}
