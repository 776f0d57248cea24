//! The sweep file's model: its frame points, cache geometries, policies,
//! studies and flags, and its limits. Parsing and checking the file,
//! each error naming the file, the line and the key, is `parse.rs`;
//! reading it and hashing its inputs is [`crate::inputs`].
//!
//! Bounded before anything is made: [`Experiment::read`] reads a regular
//! file of at most [`MAX_SWEEP_FILE_BYTES`]; the frame points and cache
//! geometries the axes make are counted first and refused past
//! [`MAX_FRAME_POINTS`] and [`MAX_GEOMETRIES`]; a scene's name, the policy
//! specs and a `[flags.*]` table's words, which every point or job copies,
//! past [`MAX_VALUE_BYTES`]. [`Experiment::job_count`] counts the jobs
//! without making them, for a caller's own limit (`gfxcache sweep
//! --max-jobs`).
//!
//! ```toml
//! name = "gspc-sizes"            # default: the file's stem
//! studies = ["sim", "gspc"]      # sim, mrc, gspc, tcor, nuca, nbtc, compose
//! policies = ["lru", "drrip", "gspc", "gspztc+ucd:t=4"]   # for sim
//!
//! [frames]
//! scenes = ["city", "racer"]     # built-in names or scene files
//! suites = ["mobile"]            # every scene of a suite
//! resolutions = ["1280x720"]     # default: 1920x1080 imr, 1960x768 tbr
//! frames = [1]                   # default [1]
//! warmup = [0]                   # default [0]
//! modes = ["imr"]                # imr | tbr, default ["imr"]
//! presets = ["dx11-deferred"]    # default: each scene's own
//!
//! [cache]                        # for sim: every combination
//! sizes = ["2MiB", "4MiB", "8MiB"]
//! ways = [16]                    # default [16]
//! blocks = [64]                  # default [64]
//! banks = [1]                    # default [1]
//! index = ["modulo"]             # modulo | xor, default ["modulo"]
//!
//! [flags.render]                 # the renderer's flags for every frame
//! texture-filter = "bilinear"
//!
//! [flags.gspc]                   # any study's own flags, as on its
//! timeline = "none"              # command line: `--timeline none`;
//! single-thread = true           # true: the bare flag; a list: a,b,c
//! ```

use serde::{Deserialize, Serialize};

/// How a frame is rendered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PipelineMode {
    /// Immediate mode, a desktop GPU.
    Imr,
    /// Tile-based, a mobile GPU.
    Tbr,
}

impl PipelineMode {
    pub fn name(self) -> &'static str {
        match self {
            PipelineMode::Imr => "imr",
            PipelineMode::Tbr => "tbr",
        }
    }

    /// The render command's default screen for this mode.
    pub fn default_resolution(self) -> (u32, u32) {
        match self {
            PipelineMode::Imr => (1920, 1080),
            PipelineMode::Tbr => (1960, 768),
        }
    }
}

/// What runs on a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StudyKind {
    Sim,
    Mrc,
    Gspc,
    Tcor,
    Nuca,
    Nbtc,
    /// The designs composed on one machine (`gfxcache compose`).
    Compose,
}

impl StudyKind {
    pub const ALL: [StudyKind; 7] = [
        StudyKind::Sim,
        StudyKind::Mrc,
        StudyKind::Gspc,
        StudyKind::Tcor,
        StudyKind::Nuca,
        StudyKind::Nbtc,
        StudyKind::Compose,
    ];

    pub fn name(self) -> &'static str {
        match self {
            StudyKind::Sim => "sim",
            StudyKind::Mrc => "mrc",
            StudyKind::Gspc => "gspc",
            StudyKind::Tcor => "tcor",
            StudyKind::Nuca => "nuca",
            StudyKind::Nbtc => "nbtc",
            StudyKind::Compose => "compose",
        }
    }
}

/// One frame to render: a point of the frame axes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FramePoint {
    /// A built-in scene's name or a scene file's path.
    pub scene: String,
    pub width: u32,
    pub height: u32,
    pub frames: u32,
    pub warmup: u32,
    pub mode: PipelineMode,
    /// `None`: the scene's own frame.
    pub preset: Option<String>,
    /// `gfxcache render`'s own flags from `[flags.render]` (e.g.
    /// `fragment-processors`, `tile-size`, `texture-filter`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub render_flags: Vec<String>,
    /// The files the frame is rendered from (its scene file and every
    /// file that scene is built from, any file a render flag names), by
    /// their contents: an edited file changes the frame's key and every
    /// key of its jobs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<Input>,
}

/// An input file by its contents: its path as the sweep reads it and the
/// SHA-256 of its bytes (hex).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Input {
    pub path: String,
    pub sha256: String,
}

/// One cache geometry of the `[cache]` axes.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Geometry {
    pub size_bytes: u64,
    pub ways: u32,
    pub block_bytes: u32,
    pub banks: u32,
    /// The set index function: `modulo` or `xor` (XOR-folded).
    pub index: String,
}

/// A checked sweep file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Experiment {
    pub name: String,
    /// Every frame point, in the file's order (scenes, then suites' scenes,
    /// outermost; then resolutions, frames, warm-up, modes, presets).
    pub frames: Vec<FramePoint>,
    pub geometries: Vec<Geometry>,
    /// Policy specs, as `gfxcache sim --policies` takes them.
    pub policies: Vec<String>,
    pub studies: Vec<StudyKind>,
    /// Each study's own flags (`[flags.<study>]`) as command-line words,
    /// in the file's order: checked by whoever runs the study (the flags
    /// are its command's), part of its jobs' keys.
    pub flags: Vec<(StudyKind, Vec<String>)>,
    /// Every input file of the sweep (scene files and the files they are
    /// built from, files a flag names), each hashed once
    /// ([`Experiment::hash_inputs`]): path to the SHA-256 of its contents
    /// (or [`MISSING`], [`NOT_A_FILE`]).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub inputs: std::collections::BTreeMap<String, String>,
}

pub use crate::inputs::{MISSING, NOT_A_FILE};

impl Experiment {
    /// The frame points: each is a frame rendered once.
    pub fn frame_count(&self) -> usize {
        self.frames.len()
    }

    /// The jobs [`Experiment::jobs`] makes, counted without making them
    /// (saturating): on each frame point, `sim` once per geometry, `mrc`
    /// once, and each other study once on the frames of its mode. What a
    /// caller checks before it asks for the jobs.
    pub fn job_count(&self) -> u64 {
        let per_mode = |mode: PipelineMode| -> u64 {
            self.studies
                .iter()
                .map(|&s| match s {
                    StudyKind::Sim => self.geometries.len() as u64,
                    StudyKind::Mrc => 1,
                    kind => u64::from(crate::jobs::study_mode(kind) == Some(mode)),
                })
                .fold(0, u64::saturating_add)
        };
        let (imr, tbr) = (per_mode(PipelineMode::Imr), per_mode(PipelineMode::Tbr));
        self.frames
            .iter()
            .map(|f| match f.mode {
                PipelineMode::Imr => imr,
                PipelineMode::Tbr => tbr,
            })
            .fold(0, u64::saturating_add)
    }

    /// The flags `[flags.<kind>]` gives, none by default.
    pub fn flags_of(&self, kind: StudyKind) -> &[String] {
        self.flags
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(&[], |(_, f)| f.as_slice())
    }
}

/// The largest sweep file [`Experiment::read`] reads: 1 MiB. A sweep file
/// names its axes in a few lines; a larger one (or `/dev/zero`) is
/// refused without reading past this.
pub const MAX_SWEEP_FILE_BYTES: u64 = 1 << 20;

/// The most frame points a sweep file may make (every combination of its
/// frame axes), counted before any is made: each is a frame to render.
pub const MAX_FRAME_POINTS: u64 = 10_000;

/// The most cache geometries a sweep file may make (every combination of
/// its `[cache]` axes), counted before any is made.
pub const MAX_GEOMETRIES: u64 = 10_000;

/// The most bytes of a scene's name or path, of the policy specs
/// together, and of one `[flags.*]` table's words together: every frame
/// point and job holds its own copy of them.
pub const MAX_VALUE_BYTES: usize = 4096;

/// Flags a sweep sets itself from its axes: refused in `[flags.*]`.
pub const AXIS_FLAGS: [&str; 14] = [
    "mode", "png", "scene", "suite", "trace", "requests", "binned", "width", "height", "frames",
    "warmup", "preset", "out", "json",
];

impl Geometry {
    /// The cache's geometry, as `gfxcache sim` builds it.
    pub fn build(&self) -> Result<gfxcache_cache::Geometry, gfxcache_cache::CacheError> {
        let index = match self.index.as_str() {
            "xor" => gfxcache_cache::IndexFn::XorFold,
            _ => gfxcache_cache::IndexFn::Modulo,
        };
        gfxcache_cache::Geometry::from_size(
            self.size_bytes,
            gfxcache_cache::Ways::N(self.ways),
            self.block_bytes,
        )?
        .with_banks(self.banks)?
        .with_index(index)
    }

    /// `8MiB, 16 ways, 64 B blocks, 1 bank, modulo index`.
    pub fn label(&self) -> String {
        format!(
            "{}, {} ways, {} B blocks, {} bank{}, {} index",
            gfxcache_cache::format_size(self.size_bytes),
            self.ways,
            self.block_bytes,
            self.banks,
            if self.banks == 1 { "" } else { "s" },
            self.index
        )
    }
}
