//! The files a sweep reads: the sweep file itself, bounded
//! ([`Experiment::read`]: a regular file of at most
//! [`MAX_SWEEP_FILE_BYTES`]), and every input file its frames and jobs
//! depend on, hashed into their keys ([`Experiment::hash_inputs`]): scene
//! files with every file their loaders read, and files the flags name.

use std::path::{Path, PathBuf};

use crate::exp::{Experiment, Input, MAX_SWEEP_FILE_BYTES};
use crate::SweepError;

impl Experiment {
    /// The inputs of `words` (a study's or the renderer's flags): each
    /// word [`Experiment::hash_inputs`] found to be a file, with its hash.
    pub fn inputs_of(&self, words: &[String]) -> Vec<Input> {
        words
            .iter()
            .filter_map(|w| {
                self.inputs.get(w).map(|h| Input {
                    path: w.clone(),
                    sha256: h.clone(),
                })
            })
            .collect()
    }

    /// Hashes, once each, every input file the sweep names: the files
    /// each scene file of its frames (a word with an extension in
    /// `frames.scenes`) is built from, and any flag value that names an
    /// existing file. Each frame's [`FramePoint::inputs`](crate::FramePoint::inputs) and
    /// [`Experiment::inputs`] are set, so that the keys of frames and
    /// jobs cover what the files hold, not only their paths.
    ///
    /// A scene file is loaded (once, whatever the frames) and every file
    /// the loader read is an input, in the order it read them, the scene
    /// file first ([`gfxcache_render::Scene::sources`]: its MTL files,
    /// buffers and textures, a scene TOML's models and theirs): editing a
    /// texture changes the keys as editing the scene file does. A file
    /// the loader asked for and went on without (a missing texture) is
    /// hashed as [`MISSING`] (or [`NOT_A_FILE`]), so that adding it
    /// changes the keys too. A scene that does not load is an error here,
    /// naming the sweep file, the scene and the loader's message, before
    /// anything runs.
    pub fn hash_inputs(&mut self, file: &Path) -> Result<(), SweepError> {
        let mut hashes = std::collections::BTreeMap::new();
        let input_error = |what: &str, input: &Path, message: String| SweepError::Input {
            file: file.to_path_buf(),
            what: what.to_string(),
            input: input.to_path_buf(),
            message,
        };
        // Hashes the file `path` (named `key` in the inputs), once. A
        // scene's source (`source`) that is not there, or not a regular
        // file, is a marker: the loader went on without it.
        let mut hash = |key: &str, path: &Path, what: &str, source: bool| {
            if let Some(h) = hashes.get(key) {
                return Ok(String::clone(h));
            }
            let h = match std::fs::metadata(path) {
                Err(e) if source && e.kind() == std::io::ErrorKind::NotFound => MISSING.to_string(),
                Ok(m) if source && !m.is_file() => NOT_A_FILE.to_string(),
                _ => sha256_of(path).map_err(|e| input_error(what, path, e.to_string()))?,
            };
            hashes.insert(key.to_string(), h.clone());
            Ok::<_, SweepError>(h)
        };
        let mut sources = std::collections::BTreeMap::<String, Vec<PathBuf>>::new();
        let is_file = |w: &String| !w.starts_with("--") && Path::new(w).is_file();
        for f in &mut self.frames {
            let mut inputs = Vec::new();
            if Path::new(&f.scene).extension().is_some() {
                if !sources.contains_key(&f.scene) {
                    let scene = gfxcache_render::scene::load(Path::new(&f.scene))
                        .map_err(|e| input_error("scene", Path::new(&f.scene), e.to_string()))?;
                    sources.insert(f.scene.clone(), scene.sources);
                }
                let what = format!("file of scene {}", f.scene);
                for (k, path) in sources[&f.scene].iter().enumerate() {
                    // The scene file as the sweep names it (the loader
                    // records the path it was given), then the rest.
                    let key = match k {
                        0 => f.scene.clone(),
                        _ => path.to_string_lossy().into_owned(),
                    };
                    let sha256 = hash(&key, path, &what, k > 0)?;
                    inputs.push(Input { path: key, sha256 });
                }
            }
            for w in f.render_flags.iter().filter(|w| is_file(w)) {
                let sha256 = hash(w, Path::new(w), "[flags.render] file", false)?;
                inputs.push(Input {
                    path: w.clone(),
                    sha256,
                });
            }
            f.inputs = inputs;
        }
        for (kind, words) in &self.flags {
            for w in words.iter().filter(|w| is_file(w)) {
                let what = format!("[flags.{}] file", kind.name());
                hash(w, Path::new(w), &what, false)?;
            }
        }
        self.inputs = hashes;
        Ok(())
    }

    /// Reads and checks the sweep file at `path`: a regular file of at
    /// most [`MAX_SWEEP_FILE_BYTES`] (what is past them is not read).
    pub fn read(path: &Path) -> Result<Experiment, SweepError> {
        let text = read_capped(path).map_err(|message| SweepError::Toml {
            file: PathBuf::from(path),
            line: 0,
            column: 0,
            message,
        })?;
        let mut exp = Experiment::parse(&text, path)?;
        exp.hash_inputs(path)?;
        Ok(exp)
    }
}

/// The hash of an input a scene's loader asked for and did not find (it
/// went on without it: a missing texture became a checkerboard).
pub const MISSING: &str = "missing";

/// The hash of an input a scene's loader asked for that is not a regular
/// file (a directory, a device): the loader went on without it.
pub const NOT_A_FILE: &str = "not a regular file";

/// The text of the sweep file at `path`: a regular file (not a device, a
/// pipe or a directory, whose reading might not end) of at most
/// [`MAX_SWEEP_FILE_BYTES`], in UTF-8.
fn read_capped(path: &Path) -> Result<String, String> {
    use std::io::Read;
    // Before opening: opening a pipe waits for a writer.
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err(format!(
            "cannot read: not a regular file (a {}): expected a sweep file (TOML)",
            if meta.is_dir() {
                "directory"
            } else {
                "device, pipe or socket"
            }
        ));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_SWEEP_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read: {e}"))?;
    if bytes.len() as u64 > MAX_SWEEP_FILE_BYTES {
        return Err(format!(
            "larger than {MAX_SWEEP_FILE_BYTES} bytes (1 MiB, MAX_SWEEP_FILE_BYTES): expected a sweep file, which names its axes in a few lines"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 text (byte {}): expected a sweep file (TOML)",
            e.utf8_error().valid_up_to()
        )
    })
}

/// The SHA-256 of the file at `path`'s contents, in hex, read in pieces.
/// Only a regular file: a device (`/dev/zero`) or a pipe, even behind a
/// link, might never end (a pipe's very opening waits for a writer).
fn sha256_of(path: &Path) -> std::io::Result<String> {
    use sha2::{Digest, Sha256};
    if !std::fs::metadata(path)?.is_file() {
        return Err(std::io::Error::other(
            "not a regular file (a device, pipe, socket or directory): expected a file to read",
        ));
    }
    let mut hasher = Sha256::new();
    let mut file = std::fs::File::open(path)?;
    std::io::copy(&mut file, &mut hasher)?;
    Ok(crate::jobs::hex(&hasher.finalize()))
}
