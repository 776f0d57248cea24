//! A sweep's jobs: every frame point with every study that runs on it,
//! and `sim` once per cache geometry (all its policies in one pass, as
//! `gfxcache sim` runs them). Each job has a key: a hash of everything it
//! depends on (its frame, its settings, the simulator's version), stable
//! from run to run, so that a result store keyed by it keeps finished jobs
//! and a changed point gets a new key.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::exp::{Experiment, FramePoint, Geometry, Input, PipelineMode, StudyKind};

/// What a job runs on its frame.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JobKind {
    /// Every policy of the file through one cache geometry.
    Sim {
        geometry: Geometry,
        policies: Vec<String>,
    },
    /// LRU miss-ratio curves of the frame.
    Mrc,
    /// A paper's study (gspc, tcor, nuca, nbtc) or the composed study
    /// (compose), with its defaults.
    Study(StudyKind),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Job {
    pub frame: FramePoint,
    pub kind: JobKind,
    /// The study's own flags from `[flags.<study>]`.
    pub flags: Vec<String>,
    /// The files its flags name (a machine or config file), by their
    /// contents; the frame's own are in [`FramePoint::inputs`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<Input>,
}

impl JobKind {
    /// The study the job belongs to.
    pub fn study(&self) -> StudyKind {
        match self {
            JobKind::Sim { .. } => StudyKind::Sim,
            JobKind::Mrc => StudyKind::Mrc,
            JobKind::Study(k) => *k,
        }
    }

    /// Whether the job reads the sweep's rendered frame: `sim`, `mrc` and
    /// `gspc` read its trace; `tcor`, `nuca`, `nbtc` and `compose` render
    /// the frames of their own machine, so a frame point of theirs alone
    /// is not rendered by the sweep.
    pub fn reads_frame(&self) -> bool {
        !matches!(
            self,
            JobKind::Study(
                StudyKind::Tcor | StudyKind::Nuca | StudyKind::Nbtc | StudyKind::Compose
            )
        )
    }
}

/// The git commit the simulator was built from (12 hex digits, or
/// `unknown` outside a git checkout).
pub const COMMIT: &str = env!("GFXCACHE_COMMIT");

/// The simulator's version and the commit it was built from, part of
/// every key: results of another build are not reused.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("GFXCACHE_COMMIT"),
    ")"
);

/// [`VERSION`] and, on a line of its own, [`SOURCES`]: `gfxcache
/// --version`'s answer (`-V` gives the first line).
pub const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("GFXCACHE_COMMIT"),
    ")\nsources ",
    env!("GFXCACHE_SOURCES")
);

/// 16 hex digits of the SHA-256 of the sources the simulator is built
/// from (each crate but its tests, benchmarks and examples; the
/// workspace's `Cargo.toml` and `Cargo.lock`; the Python module's Rust),
/// or `unknown` where they are not beside this crate. Part of every key:
/// a build from an edited work tree, or from a source archive, whose
/// commit says nothing of its changes, does not reuse another's results.
pub const SOURCES: &str = env!("GFXCACHE_SOURCES");

/// 16 hex digits of the SHA-256 of `what`'s JSON with [`VERSION`] and
/// [`SOURCES`].
fn hash_of(what: &impl Serialize) -> String {
    hash_built(VERSION, SOURCES, what)
}

/// 16 hex digits of the SHA-256 of `what`'s JSON with a build's
/// `version` and `sources`.
fn hash_built(version: &str, sources: &str, what: &impl Serialize) -> String {
    let json = serde_json::to_string(what).expect("a job serializes");
    let digest = Sha256::new()
        .chain_update(version.as_bytes())
        .chain_update([0])
        .chain_update(sources.as_bytes())
        .chain_update([0])
        .chain_update(json.as_bytes())
        .finalize();
    hex(&digest[..8])
}

/// `bytes` as lowercase hex digits.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The mode a study's frames are rendered in, if it needs one.
pub fn study_mode(kind: StudyKind) -> Option<PipelineMode> {
    match kind {
        StudyKind::Gspc => Some(PipelineMode::Imr),
        StudyKind::Tcor | StudyKind::Nuca | StudyKind::Nbtc | StudyKind::Compose => {
            Some(PipelineMode::Tbr)
        }
        StudyKind::Sim | StudyKind::Mrc => None,
    }
}

impl FramePoint {
    /// The key of the rendered frame, shared by every job on it.
    pub fn key(&self) -> String {
        hash_of(self)
    }

    /// A readable name: scene, size, mode, frames, preset.
    pub fn slug(&self) -> String {
        let scene = std::path::Path::new(&self.scene)
            .file_stem()
            .map_or(self.scene.clone(), |s| s.to_string_lossy().into_owned());
        let mut s = format!(
            "{scene}-{}x{}-{}-f{}w{}",
            self.width,
            self.height,
            self.mode.name(),
            self.frames,
            self.warmup
        );
        if let Some(p) = &self.preset {
            s.push('-');
            s.push_str(p);
        }
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    }
}

impl Job {
    /// The job's key: any change to its frame or settings changes it.
    pub fn key(&self) -> String {
        hash_of(self)
    }

    /// A readable name for the job's directory (with its key, unique).
    pub fn slug(&self) -> String {
        let what = match &self.kind {
            JobKind::Sim { geometry: g, .. } => format!(
                "sim-{}-{}w-{}b-{}k-{}",
                g.size_bytes, g.ways, g.block_bytes, g.banks, g.index
            ),
            JobKind::Mrc => "mrc".into(),
            JobKind::Study(k) => k.name().into(),
        };
        format!("{}-{what}-{}", self.frame.slug(), self.key())
    }
}

impl Experiment {
    /// Every job, frame by frame in the file's order; on each frame `sim`
    /// per geometry, then `mrc`, then the studies, as listed. A study runs
    /// on the frames of its pipeline mode only.
    pub fn jobs(&self) -> Vec<Job> {
        let mut out = Vec::new();
        for frame in &self.frames {
            for &study in &self.studies {
                match study {
                    StudyKind::Sim => {
                        for geometry in &self.geometries {
                            out.push(Job {
                                frame: frame.clone(),
                                kind: JobKind::Sim {
                                    geometry: geometry.clone(),
                                    policies: self.policies.clone(),
                                },
                                flags: self.flags_of(study).to_vec(),
                                inputs: self.inputs_of(self.flags_of(study)),
                            });
                        }
                    }
                    StudyKind::Mrc => out.push(Job {
                        frame: frame.clone(),
                        kind: JobKind::Mrc,
                        flags: self.flags_of(study).to_vec(),
                        inputs: self.inputs_of(self.flags_of(study)),
                    }),
                    kind if study_mode(kind) == Some(frame.mode) => out.push(Job {
                        frame: frame.clone(),
                        kind: JobKind::Study(kind),
                        flags: self.flags_of(study).to_vec(),
                        inputs: self.inputs_of(self.flags_of(study)),
                    }),
                    _ => {}
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two builds of one commit from different sources (an edited work
    /// tree, an archive) give a job different keys; one build, the same.
    #[test]
    fn a_key_holds_the_sources_of_the_build() {
        let job = serde_json::json!({"scene": "racer", "width": 320});
        let a = hash_built("0.1.0 (abc)", "0123456789abcdef", &job);
        assert_eq!(a, hash_built("0.1.0 (abc)", "0123456789abcdef", &job));
        assert_ne!(a, hash_built("0.1.0 (abc)", "0123456789abcdee", &job));
        assert_ne!(a, hash_built("0.1.0 (abd)", "0123456789abcdef", &job));
        assert_eq!(a.len(), 16);
        assert_eq!(hash_of(&job), hash_built(VERSION, SOURCES, &job));
    }
}
