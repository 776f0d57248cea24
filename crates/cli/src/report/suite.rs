//! A study on every scene of a workload suite (`--suite`), in the one
//! shell of every study: one report directory, one manifest.
//!
//! [`run_suite`] runs the study on each scene in the suite's order, each
//! into `DIR/<scene>/` (the frame it rendered, and that scene's whole
//! report, the files `--scene <scene>` writes), then hands the reports to
//! [`SuiteReport::new`], whose mean the study's design crate computes
//! ([`gfxcache_cache::suite::SuiteMean`]). The suite's own files (its
//! JSON document, CSV files with a row per scene and the mean, figures
//! with a bar per scene and the mean, the page) are the study's
//! [`SuiteFiles`]; [`StudyFiles`] for [`SuiteReport`] writes them, so
//! [`super::write_all`] and the shell treat a suite as one report.
//! [`run_input`] is every study command's shell over what it is given: its
//! input file, a scene, or a suite.

use std::path::{Path, PathBuf};

use anyhow::Context;
use gfxcache_cache::suite::{SceneReport, SuiteError, SuiteMean, SuiteReport};
use gfxcache_cache::ProgressFn;

use super::{run_study, run_study_with_bars, write_all, Print, StudyFiles};

/// The name of the mean's row, bar and column.
pub const MEAN: &str = "mean";

/// The scenes' names and then the mean's: the categories of a per-scene
/// chart.
pub fn categories<R: SuiteMean>(r: &SuiteReport<R>) -> Vec<String> {
    r.scenes
        .iter()
        .map(|s| s.scene.clone())
        .chain([MEAN.to_string()])
        .collect()
}

/// A study's suite form as the command line writes it: for a study whose
/// report is data, [`super::data::DataStudy`]'s (the writer's alone);
/// GSPC's by hand (its timeline figure is still drawn by its writer).
pub trait SuiteFiles: StudyFiles + SuiteMean {
    /// The CSV files (a row per scene and the mean's) into `dir`.
    fn suite_csv(r: &SuiteReport<Self>, dir: &Path) -> anyhow::Result<Vec<PathBuf>>;
    /// The figures (a bar per scene and the mean's) into `dir`.
    fn suite_figures(r: &SuiteReport<Self>, dir: &Path) -> anyhow::Result<Vec<PathBuf>>;
    /// `index.html`: the mean first, then each scene, the figures beside
    /// the tables they plot.
    fn suite_page(r: &SuiteReport<Self>, shown: &super::Shown) -> anyhow::Result<String>;
    /// What the command prints without `--json`.
    fn suite_summary(r: &SuiteReport<Self>) -> String;
}

impl<R: SuiteFiles> StudyFiles for SuiteReport<R> {
    const NAME: &'static str = R::NAME;

    /// None: [`run_suite`] prints each warning as it arises (the suite's
    /// before the first scene, each scene's after it); the report keeps
    /// them all.
    fn warnings(&self) -> &[String] {
        &[]
    }

    fn csv(&self, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        R::suite_csv(self, dir)
    }

    fn figures(&self, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
        R::suite_figures(self, dir)
    }

    fn page(&self, shown: &super::Shown) -> anyhow::Result<String> {
        R::suite_page(self, shown)
    }

    fn summary(&self) -> String {
        R::suite_summary(self)
    }
}

/// Which suite a study runs on.
pub struct SuiteRun<'a> {
    /// The suite's name (`desktop`, `mobile`).
    pub name: &'a str,
    /// Its scenes, in the suite's order.
    pub scenes: Vec<&'a str>,
    /// The suite of the frames the study's paper measured (its
    /// `paper::SUITE`): another is allowed, with a warning.
    pub paper: &'a str,
}

/// Where one scene of a suite goes.
pub struct SceneDir<'a> {
    pub scene: &'a str,
    /// The scene's directory in the staged report, where the study writes.
    pub staged: &'a Path,
    /// The same directory once the report is in place (for the paths a
    /// report names).
    pub placed: &'a Path,
}

/// Runs `study` on each scene of `suite` in the shell of
/// [`super::run_study`] (one staged `--out`, swapped in whole): each
/// scene's report and the files `--scene` would write into
/// `out/<scene>/`, then the suite's report and files at the top. An empty
/// suite is an error before anything is staged.
pub fn run_suite<R: SuiteFiles>(
    out: &Path,
    suite: &SuiteRun,
    inputs: &[&Path],
    print: super::Print,
    mut study: impl FnMut(&SceneDir, ProgressFn<'_>) -> anyhow::Result<R>,
) -> anyhow::Result<()> {
    if suite.scenes.is_empty() {
        return Err(SuiteError::Empty(suite.name.to_string()).into());
    }
    let warnings = class_warning::<R>(suite).into_iter().collect::<Vec<_>>();
    for w in &warnings {
        eprintln!("warning: {w}");
    }
    run_study_with_bars(out, inputs, print, |dir, bars| {
        let n = suite.scenes.len();
        let mut scenes = Vec::with_capacity(n);
        for (k, &scene) in suite.scenes.iter().enumerate() {
            bars.scene(k + 1, n, scene);
            let staged = dir.join(scene);
            std::fs::create_dir(&staged)
                .with_context(|| format!("cannot create {}", staged.display()))?;
            let at = SceneDir {
                scene,
                staged: &staged,
                placed: &out.join(scene),
            };
            let report = study(&at, &|p| bars.show(p)).with_context(|| format!("scene {scene}"))?;
            for w in SuiteMean::warnings(&report) {
                eprintln!("warning: {scene}: {w}");
            }
            write_all(&report, &staged)?;
            scenes.push(SceneReport {
                scene: scene.to_string(),
                report,
            });
        }
        Ok(SuiteReport::new(suite.name, scenes, warnings)?)
    })
}

/// What a study command is given: its input file (a trace, a request
/// file), a scene to render, or a suite whose scenes it renders in turn;
/// and every file it reads, which `--out` may not hold.
pub struct StudyInput<'a> {
    pub file: Option<&'a Path>,
    pub scene: Option<&'a str>,
    pub suite: Option<SuiteRun<'a>>,
    pub files: Vec<&'a Path>,
}

impl<'a> StudyInput<'a> {
    /// The input of a command given `file`, `scene` or `suite`, which also
    /// reads `others` (a config, a unit file).
    pub fn new(
        file: Option<&'a Path>,
        others: impl IntoIterator<Item = &'a Path>,
        scene: Option<&'a str>,
        suite: Option<SuiteRun<'a>>,
    ) -> StudyInput<'a> {
        // A scene file is an input too (a built-in name is no file).
        let scene_file = scene.map(Path::new).filter(|p| p.is_file());
        StudyInput {
            file,
            scene,
            suite,
            files: file.into_iter().chain(others).chain(scene_file).collect(),
        }
    }
}

/// The shell of a study command over `input`: each scene of its suite
/// ([`run_suite`]), or its one scene or input file ([`super::run_study`]),
/// into `out`. `on_file` studies the input file, `on_scene` renders a scene
/// into its directory and studies it.
pub fn run_input<R: SuiteFiles>(
    out: &Path,
    input: StudyInput<'_>,
    print: Print,
    on_file: impl FnOnce(&Path, ProgressFn<'_>) -> anyhow::Result<R>,
    mut on_scene: impl FnMut(&SceneDir, ProgressFn<'_>) -> anyhow::Result<R>,
) -> anyhow::Result<()> {
    if let Some(suite) = &input.suite {
        return run_suite(out, suite, &input.files, print, on_scene);
    }
    run_study(out, &input.files, print, |dir, progress| {
        match (input.file, input.scene) {
            (Some(file), _) => on_file(file, progress),
            (None, Some(scene)) => {
                let at = SceneDir {
                    scene,
                    staged: dir,
                    placed: out,
                };
                on_scene(&at, progress)
            }
            (None, None) => anyhow::bail!("give an input file, --scene or --suite"),
        }
    })
}

/// The warning for a suite of another class than the paper measured.
fn class_warning<R: StudyFiles>(suite: &SuiteRun) -> Option<String> {
    (suite.name != suite.paper).then(|| {
        format!(
            "the {} paper measured {} frames, and the {} suite is another class of workload: \
             set its figures beside the paper's with care",
            R::NAME.to_uppercase(),
            suite.paper,
            suite.name
        )
    })
}

/// The suite the studies' writer tests use: scenes "a<1>" (a name to
/// escape) and "b" of suite `suite`, with the mean the design crate gives.
#[cfg(test)]
pub fn two_scenes<R: SuiteMean>(suite: &str, a: R, b: R) -> SuiteReport<R> {
    let scenes = vec![
        SceneReport {
            scene: "a<1>".into(),
            report: a,
        },
        SceneReport {
            scene: "b".into(),
            report: b,
        },
    ];
    SuiteReport::new(suite, scenes, Vec::new()).expect("two scenes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use gfxcache_llc::study::GspcReport;

    #[test]
    fn an_empty_suite_is_an_error_before_anything_is_staged() -> anyhow::Result<()> {
        let root = tempfile::tempdir()?;
        let out = root.path().join("out");
        let suite = SuiteRun {
            name: "mobile",
            scenes: Vec::new(),
            paper: "desktop",
        };
        let e =
            run_suite::<GspcReport>(&out, &suite, &[], crate::report::Print::Nothing, |_, _| {
                anyhow::bail!("no scene to study")
            })
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the mobile suite has no scenes: nothing to study"
        );
        assert_eq!(std::fs::read_dir(root.path())?.count(), 0, "nothing staged");
        Ok(())
    }

    #[test]
    fn a_suite_of_another_class_than_the_papers_is_said() {
        let suite = |name| SuiteRun {
            name,
            scenes: vec!["city"],
            paper: "desktop",
        };
        assert_eq!(class_warning::<GspcReport>(&suite("desktop")), None);
        let w = class_warning::<GspcReport>(&suite("mobile")).unwrap();
        assert!(
            w.starts_with("the GSPC paper measured desktop frames, and the mobile suite"),
            "{w}"
        );
    }

    /// A scene's study that fails fails the suite, naming the scene, and
    /// leaves no report.
    #[test]
    fn a_failing_scene_fails_the_suite_and_names_it() -> anyhow::Result<()> {
        let root = tempfile::tempdir()?;
        let out = root.path().join("out");
        let suite = SuiteRun {
            name: "desktop",
            scenes: vec!["terrain", "city"],
            paper: "desktop",
        };
        let e =
            run_suite::<GspcReport>(&out, &suite, &[], crate::report::Print::Nothing, |at, _| {
                assert!(at.staged.is_dir(), "each scene has its directory");
                assert_eq!(at.placed, out.join(at.scene));
                anyhow::bail!("cannot render")
            })
            .unwrap_err();
        assert_eq!(format!("{e:#}"), "scene terrain: cannot render");
        assert_eq!(std::fs::read_dir(root.path())?.count(), 0, "nothing left");
        Ok(())
    }
}
