//! A study's report directory, written whole or not at all.
//!
//! A study writes many files into `--out` (the frame it rendered, its JSON,
//! CSV files, figures, the page). Written one by one into place, a rerun
//! killed part way would leave the new frame beside the old figures: every
//! file valid, the set mixed. So a study builds its directory beside the
//! target as `<name>.<random>.partial` (registered, so an interrupted run
//! removes it), writes `manifest.json` last, and only then swaps it in:
//! the old directory is renamed away, the new one renamed into place, the
//! old one removed. A reader sees the old set or the new one, never a mix.
//!
//! Replacing a directory removes what is in it, so `--out` must be new,
//! empty, or a report directory: one with our `manifest.json`, or (written
//! before manifests) holding only files a study writes.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use gfxcache_trace::atomic::{register_dir, Registered};
use serde::{Deserialize, Serialize};

/// Names the studies wrote before report directories had a manifest
/// (besides figures, `fig*.svg`): such a directory may be replaced too.
const STUDY_FILES: &[&str] = &[
    "manifest.json",
    "index.html",
    "frame.gtr",
    "frame.png",
    "binned.json",
    "gspc.json",
    "tcor.json",
    "policies.csv",
    "frames.csv",
    "stream_mix.csv",
    "opt_epochs.csv",
    "t_sensitivity.csv",
    "curves.csv",
    "engines.csv",
    "passes.csv",
];

/// A report directory being built beside its target.
pub struct Staged {
    target: PathBuf,
    dir: PathBuf,
    _registered: Registered,
}

#[derive(Serialize, Deserialize)]
struct Manifest<'a> {
    #[serde(borrow)]
    generator: std::borrow::Cow<'a, str>,
    /// Every file of the directory but this one, by name, with its length.
    files: Vec<(String, u64)>,
}

impl Staged {
    /// Stages the report directory `target`, after checking that it may be
    /// replaced and that no input lies inside it (the swap would remove
    /// it). The parent directories are created if missing.
    pub fn create(target: &Path, inputs: &[&Path]) -> Result<Staged> {
        let name = target
            .file_name()
            .with_context(|| format!("--out {}: expected a directory name", target.display()))?
            .to_string_lossy()
            .into_owned();
        let parent = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
        check_replaceable(target)?;
        for input in inputs {
            if inside(input, target) {
                bail!(
                    "{} lies inside --out {}, which the study replaces with its new report: \
                     give another --out, or move the input out first",
                    input.display(),
                    target.display()
                );
            }
        }
        let dir = tempfile::Builder::new()
            .prefix(&format!("{name}."))
            .suffix(".partial")
            .tempdir_in(&parent)
            .with_context(|| format!("cannot create a directory in {}", parent.display()))?
            .keep();
        let registered =
            register_dir(&dir).with_context(|| format!("cannot stage {}", target.display()))?;
        Ok(Staged {
            target: target.to_path_buf(),
            dir,
            _registered: registered,
        })
    }

    /// Where the study writes its files until [`Staged::commit`].
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Writes `manifest.json` (naming `generator`, e.g. `gfxcache 0.1.0
    /// gspc`) and swaps the directory in for the target.
    pub fn commit(self, generator: &str) -> Result<()> {
        let mut files = Vec::new();
        list_files(&self.dir, "", &mut files)?;
        files.sort();
        let manifest = serde_json::to_string_pretty(&Manifest {
            generator: generator.into(),
            files,
        })?;
        crate::output::write_bytes(&self.dir.join("manifest.json"), manifest.as_bytes())?;
        swap_in(&self.dir, &self.target).with_context(|| {
            format!(
                "cannot put the report in place at {}",
                self.target.display()
            )
        })
    }
}

/// Every file under `dir` with its length, named by its path from the
/// report's top with `/` between directories (`city/frame.gtr`), after
/// `prefix`.
pub(super) fn list_files(dir: &Path, prefix: &str, files: &mut Vec<(String, u64)>) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type()?.is_dir() {
            list_files(&entry.path(), &format!("{name}/"), files)?;
        } else {
            files.push((name, entry.metadata()?.len()));
        }
    }
    Ok(())
}

impl Drop for Staged {
    /// Not committed (an error on the way): the staged files go.
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Renames `target` (if any) away, `new` into its place, and removes the
/// old one. Between the two renames `target` does not exist: a reader
/// finds no report rather than a mixed one.
fn swap_in(new: &Path, target: &Path) -> Result<()> {
    let old = target.exists().then(|| aside(target)).transpose()?;
    if let Some(old) = &old {
        std::fs::rename(target, old)?;
    }
    std::fs::rename(new, target)?;
    if let Some(old) = old {
        std::fs::remove_dir_all(&old)
            .with_context(|| format!("cannot remove the old report {}", old.display()))?;
    }
    Ok(())
}

/// A free name beside `target` to rename it to: an empty directory
/// `<name>.<random>.old` that the rename replaces.
fn aside(target: &Path) -> Result<PathBuf> {
    let parent = target.parent().filter(|p| !p.as_os_str().is_empty());
    let name = target.file_name().unwrap_or_default().to_string_lossy();
    Ok(tempfile::Builder::new()
        .prefix(&format!("{name}."))
        .suffix(".old")
        .tempdir_in(parent.unwrap_or(Path::new(".")))?
        .keep())
}

/// Whether `target` is absent, an empty directory, or a report directory:
/// one whose files are all listed in its `manifest.json` (a suite's
/// scenes' files in their directories, `city/frame.gtr`), or (written
/// before manifests) all named as a study names its files.
fn check_replaceable(target: &Path) -> Result<()> {
    let Ok(meta) = std::fs::symlink_metadata(target) else {
        return Ok(());
    };
    if !meta.is_dir() {
        bail!("--out {} exists and is not a directory", target.display());
    }
    let listed: Option<Vec<String>> =
        std::fs::read(target.join("manifest.json"))
            .ok()
            .and_then(|bytes| {
                let m: Manifest = serde_json::from_slice(&bytes).ok()?;
                m.generator
                    .starts_with("gfxcache ")
                    .then(|| m.files.into_iter().map(|(name, _)| name).collect())
            });
    let ours = |name: &str, dir: bool| match &listed {
        Some(files) if dir => files.iter().any(|f| f.starts_with(&format!("{name}/"))),
        Some(files) => name == "manifest.json" || files.iter().any(|f| f == name),
        None => {
            !dir && (STUDY_FILES.contains(&name)
                || (name.starts_with("fig") && name.ends_with(".svg")))
        }
    };
    check_entries(target, target, "", &ours)
}

/// Whether every entry of `dir` (at `prefix` in the report) is `ours`: a
/// file, or a directory whose entries all are.
fn check_entries(
    target: &Path,
    dir: &Path,
    prefix: &str,
    ours: &dyn Fn(&str, bool) -> bool,
) -> Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        let kind = entry.file_type()?;
        if kind.is_dir() && ours(&name, true) {
            check_entries(target, &entry.path(), &format!("{name}/"), ours)?;
        } else if !(kind.is_file() && ours(&name, false)) {
            bail!(
                "--out {} holds {name}, which is not a file of its report: the study replaces \
                 the whole directory, so give a new or empty one, or a report directory",
                target.display()
            );
        }
    }
    Ok(())
}

/// Whether `path` lies inside directory `dir` (both as they are on disk).
fn inside(path: &Path, dir: &Path) -> bool {
    match (std::fs::canonicalize(path), std::fs::canonicalize(dir)) {
        (Ok(p), Ok(d)) => p.starts_with(d),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_committed_directory_replaces_the_old_one_whole() -> Result<()> {
        let root = tempfile::tempdir()?;
        let target = root.path().join("out");
        std::fs::create_dir(&target)?;
        std::fs::write(target.join("gspc.json"), "old")?;
        std::fs::write(target.join("frame.gtr"), "old")?;
        let s = Staged::create(&target, &[])?;
        std::fs::write(s.path().join("gspc.json"), "new")?;
        // Until the commit, the target is the old report.
        assert_eq!(std::fs::read_to_string(target.join("gspc.json"))?, "old");
        s.commit("gfxcache test")?;
        assert_eq!(std::fs::read_to_string(target.join("gspc.json"))?, "new");
        assert!(!target.join("frame.gtr").exists(), "no old file stays");
        let manifest = std::fs::read_to_string(target.join("manifest.json"))?;
        assert!(manifest.contains("gfxcache test") && manifest.contains("gspc.json"));
        let left: Vec<_> = std::fs::read_dir(root.path())?.collect();
        assert_eq!(left.len(), 1, "nothing beside the report: {left:?}");
        Ok(())
    }

    #[test]
    fn an_abandoned_stage_leaves_the_old_report_and_nothing_else() -> Result<()> {
        let root = tempfile::tempdir()?;
        let target = root.path().join("out");
        std::fs::create_dir(&target)?;
        std::fs::write(target.join("tcor.json"), "old")?;
        {
            let s = Staged::create(&target, &[])?;
            std::fs::write(s.path().join("tcor.json"), "new")?;
        }
        assert_eq!(std::fs::read_to_string(target.join("tcor.json"))?, "old");
        assert_eq!(std::fs::read_dir(root.path())?.count(), 1);
        Ok(())
    }

    #[test]
    fn refuses_directories_that_are_not_reports_and_inputs_inside() -> Result<()> {
        let root = tempfile::tempdir()?;
        let target = root.path().join("out");
        std::fs::create_dir(&target)?;
        std::fs::write(target.join("thesis.tex"), "mine")?;
        let e = Staged::create(&target, &[]).err().unwrap();
        assert!(format!("{e:#}").contains("thesis.tex"), "{e:#}");
        // A report with a manifest may hold any file it lists, and nothing
        // it does not.
        std::fs::remove_file(target.join("thesis.tex"))?;
        let s = Staged::create(&target, &[])?;
        std::fs::write(s.path().join("nuca.json"), "{}")?;
        s.commit("gfxcache test")?;
        assert!(Staged::create(&target, &[]).is_ok());
        std::fs::write(target.join("thesis.tex"), "mine")?;
        assert!(Staged::create(&target, &[]).is_err());
        let old = root.path().join("old");
        std::fs::create_dir(&old)?;
        std::fs::write(old.join("frame.gtr"), "trace")?;
        let e = Staged::create(&old, &[&old.join("frame.gtr")])
            .err()
            .unwrap();
        assert!(format!("{e:#}").contains("inside --out"), "{e:#}");
        std::fs::write(root.path().join("file"), "")?;
        assert!(Staged::create(&root.path().join("file"), &[]).is_err());
        Ok(())
    }

    /// A suite's report keeps each scene's files in a directory of its
    /// own: the manifest lists them by path, and a rerun may replace them
    /// and nothing else.
    #[test]
    fn a_report_with_scene_directories_lists_and_replaces_them() -> Result<()> {
        let root = tempfile::tempdir()?;
        let target = root.path().join("suite");
        let s = Staged::create(&target, &[])?;
        std::fs::create_dir(s.path().join("city"))?;
        std::fs::write(s.path().join("city").join("frame.gtr"), "trace")?;
        std::fs::write(s.path().join("gspc.json"), "{}")?;
        s.commit("gfxcache test")?;
        let manifest = std::fs::read_to_string(target.join("manifest.json"))?;
        assert!(manifest.contains("\"city/frame.gtr\""), "{manifest}");
        assert!(!manifest.contains("\"city\""), "directories are not files");
        assert!(Staged::create(&target, &[]).is_ok());
        // An input inside a scene's directory would go with the swap.
        let e = Staged::create(&target, &[&target.join("city").join("frame.gtr")])
            .err()
            .unwrap();
        assert!(format!("{e:#}").contains("inside --out"), "{e:#}");
        // A file the manifest does not list, in a scene's directory or in a
        // directory it does not know, is not the report's.
        std::fs::write(target.join("city").join("notes.txt"), "mine")?;
        let e = Staged::create(&target, &[]).err().unwrap();
        assert!(format!("{e:#}").contains("city/notes.txt"), "{e:#}");
        std::fs::remove_file(target.join("city").join("notes.txt"))?;
        std::fs::create_dir(target.join("thesis"))?;
        let e = Staged::create(&target, &[]).err().unwrap();
        assert!(format!("{e:#}").contains("holds thesis"), "{e:#}");
        Ok(())
    }
}
