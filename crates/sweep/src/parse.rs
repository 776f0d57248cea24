//! Parsing the sweep file: its raw TOML, each axis checked against what
//! the rest of the code knows (built-in scenes, suites, presets, policy
//! specs, cache geometries, each study's flags) and counted against the
//! limits before it is expanded into frame points and geometries; every
//! error names the file, the line and the key.

use std::path::Path;
use std::str::FromStr;

use gfxcache_cache::{parse_size, PolicySpec};
use gfxcache_render::scene::builtin::{self, Suite};
use gfxcache_render::Preset;
use serde::Deserialize;
use toml::Spanned;

use crate::error::SweepError;
use crate::exp::{
    Experiment, FramePoint, Geometry, PipelineMode, StudyKind, AXIS_FLAGS, MAX_FRAME_POINTS,
    MAX_GEOMETRIES, MAX_VALUE_BYTES,
};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExp {
    name: Option<String>,
    frames: Spanned<RawFrames>,
    cache: Option<Spanned<RawCache>>,
    #[serde(default)]
    policies: Vec<Spanned<String>>,
    studies: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    flags: std::collections::BTreeMap<Spanned<String>, FlagTable>,
}

/// One `[flags.<name>]` table, each flag with where it is.
type FlagTable = std::collections::BTreeMap<Spanned<String>, Spanned<toml::Value>>;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFrames {
    #[serde(default)]
    scenes: Vec<Spanned<String>>,
    #[serde(default)]
    suites: Vec<Spanned<String>>,
    #[serde(default)]
    resolutions: Vec<Spanned<String>>,
    #[serde(default)]
    frames: Vec<Spanned<u32>>,
    #[serde(default)]
    warmup: Vec<Spanned<u32>>,
    #[serde(default)]
    modes: Vec<Spanned<String>>,
    #[serde(default)]
    presets: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCache {
    #[serde(default)]
    sizes: Vec<Spanned<String>>,
    #[serde(default)]
    ways: Vec<Spanned<u32>>,
    #[serde(default)]
    blocks: Vec<Spanned<u32>>,
    #[serde(default)]
    banks: Vec<Spanned<u32>>,
    #[serde(default)]
    index: Vec<Spanned<String>>,
}

/// Where errors point: the file and its text.
struct Source<'a> {
    file: &'a Path,
    text: &'a str,
}

impl Source<'_> {
    fn line_of(&self, offset: usize) -> usize {
        self.text[..offset.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    fn bad<T>(&self, at: &Spanned<T>, key: &str, value: String, expected: &str) -> SweepError {
        SweepError::Value {
            file: self.file.to_path_buf(),
            line: self.line_of(at.span().start),
            key: key.to_string(),
            value,
            expected: expected.to_string(),
        }
    }
}

impl Experiment {
    /// Reads and checks the sweep file `file` whose text is `text`.
    pub fn parse(text: &str, file: &Path) -> Result<Experiment, SweepError> {
        let src = Source { file, text };
        let raw: RawExp = toml::from_str(text).map_err(|e| {
            let offset = e.span().map_or(0, |s| s.start);
            let line = src.line_of(offset);
            let line_start = text[..offset.min(text.len())]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            SweepError::Toml {
                file: file.to_path_buf(),
                line,
                column: offset.saturating_sub(line_start) + 1,
                message: e.message().to_string(),
            }
        })?;
        let studies = studies(&src, &raw.studies)?;
        let axes = frame_axes(&src, raw.frames.get_ref())?;
        let points = axes.count();
        if points > MAX_FRAME_POINTS {
            return Err(src.bad(
                &raw.frames,
                "frames",
                format!("{points} frame points ({})", axes.describe()),
                &format!("at most {MAX_FRAME_POINTS} frame points (MAX_FRAME_POINTS)"),
            ));
        }
        let frames = axes.expand();
        debug_assert_eq!(frames.len() as u64, points);
        let geometries = match &raw.cache {
            Some(c) => geometries(&src, c.get_ref(), Some(c.span().start))?,
            None => Vec::new(),
        };
        let policies = policies(&src, &raw.policies)?;
        let mut flags = flags(&src, &raw.flags, &studies)?;
        let render_flags = flags
            .iter()
            .position(|(k, _)| k.is_none())
            .map(|i| flags.remove(i).1)
            .unwrap_or_default();
        let flags: Vec<(StudyKind, Vec<String>)> = flags
            .into_iter()
            .map(|(k, f)| (k.expect("render taken out"), f))
            .collect();
        let mut frames = frames;
        for f in &mut frames {
            f.render_flags = render_flags.clone();
        }
        for &kind in &[StudyKind::Nuca, StudyKind::Nbtc, StudyKind::Compose] {
            if !studies.contains(&kind) {
                continue;
            }
            if let Some(f) = frames
                .iter()
                .find(|f| f.mode == PipelineMode::Tbr && (f.frames != 1 || f.warmup != 0))
            {
                return Err(src.bad(
                    &raw.studies,
                    "studies",
                    format!(
                        "{:?} on {} frames with {} of warm-up",
                        kind.name(),
                        f.frames,
                        f.warmup
                    ),
                    "frames = [1] and warmup = [0]: the study is of one frame",
                ));
            }
        }
        // The studies that count frames after a warm-up: a frame point
        // whose warm-up leaves none would fail after rendering.
        for &kind in &[StudyKind::Gspc, StudyKind::Tcor] {
            let mode = crate::jobs::study_mode(kind);
            let Some(f) = studies
                .contains(&kind)
                .then(|| {
                    frames
                        .iter()
                        .find(|f| Some(f.mode) == mode && f.warmup >= f.frames)
                })
                .flatten()
            else {
                continue;
            };
            let value = format!("{} with frames = {}", f.warmup, f.frames);
            let expected = format!(
                "fewer warm-up frames than frames for {} (each warm-up goes with each frame count)",
                kind.name()
            );
            let warmups = &raw.frames.get_ref().warmup;
            return Err(match warmups.iter().find(|w| *w.get_ref() == f.warmup) {
                Some(at) => src.bad(at, "frames.warmup", value, &expected),
                None => src.bad(&raw.frames, "frames.warmup", value, &expected),
            });
        }
        if studies.contains(&StudyKind::Sim) {
            if geometries.is_empty() {
                return Err(src.bad(
                    &raw.studies,
                    "studies",
                    "\"sim\"".into(),
                    "a [cache] table with sizes for sim",
                ));
            }
            if policies.is_empty() {
                return Err(src.bad(
                    &raw.studies,
                    "studies",
                    "\"sim\"".into(),
                    "policies = [...] for sim",
                ));
            }
        }
        for at in raw.studies.get_ref() {
            let kind = StudyKind::ALL
                .into_iter()
                .find(|k| k.name() == at.get_ref())
                .expect("checked by studies()");
            if let Some(m) = crate::jobs::study_mode(kind) {
                if !frames.iter().any(|f| f.mode == m) {
                    return Err(src.bad(
                        at,
                        "studies",
                        format!("{:?}", kind.name()),
                        &format!("a frame of mode {} for it (frames.modes)", m.name()),
                    ));
                }
            }
        }
        let name = raw.name.unwrap_or_else(|| {
            file.file_stem()
                .map_or("sweep".into(), |s| s.to_string_lossy().into_owned())
        });
        Ok(Experiment {
            name,
            frames,
            geometries,
            policies,
            studies,
            flags,
            inputs: Default::default(),
        })
    }
}

fn studies(
    src: &Source,
    raw: &Spanned<Vec<Spanned<String>>>,
) -> Result<Vec<StudyKind>, SweepError> {
    if raw.get_ref().is_empty() {
        return Err(src.bad(
            raw,
            "studies",
            "[]".into(),
            "at least one of sim, mrc, gspc, tcor, nuca, nbtc, compose",
        ));
    }
    let mut out = Vec::new();
    for s in raw.get_ref() {
        let kind = StudyKind::ALL
            .into_iter()
            .find(|k| k.name() == s.get_ref())
            .ok_or_else(|| {
                src.bad(
                    s,
                    "studies",
                    format!("{:?}", s.get_ref()),
                    "one of sim, mrc, gspc, tcor, nuca, nbtc, compose",
                )
            })?;
        if !out.contains(&kind) {
            out.push(kind);
        }
    }
    Ok(out)
}

/// `items` without repeats, each kept at its first place, in linear time:
/// two items are the same when `key` gives equal values (an axis compares
/// its parsed values, so "256KiB" and "262144" are one size).
fn dedup_by<T, K: std::hash::Hash + Eq>(items: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    let mut seen = std::collections::HashSet::with_capacity(items.len());
    items.into_iter().filter(|x| seen.insert(key(x))).collect()
}

/// The values of an axis, or its default when the file gives none.
fn or_default<T: Clone>(given: Vec<T>, default: T) -> Vec<T> {
    if given.is_empty() {
        vec![default]
    } else {
        given
    }
}

fn frame_axes(src: &Source, raw: &RawFrames) -> Result<FrameAxes, SweepError> {
    let mut scenes: Vec<String> = Vec::new();
    for s in &raw.scenes {
        let name = s.get_ref();
        if name.len() > MAX_VALUE_BYTES {
            return Err(src.bad(
                s,
                "frames.scenes",
                format!("a name of {} bytes", name.len()),
                &format!(
                    "a scene name or path of at most {MAX_VALUE_BYTES} bytes (MAX_VALUE_BYTES)"
                ),
            ));
        }
        let is_file = Path::new(name).extension().is_some();
        if !is_file && builtin::find(name).is_none() {
            return Err(src.bad(s, "frames.scenes", format!("{name:?}"), "a built-in scene (`gfxcache scenes` lists them) or a scene file with its extension"));
        }
        if is_file {
            // A scene file's path is from the sweep file's directory
            // (kept as written when that is the current one, `exp.toml`
            // or `./exp.toml`, so both give the same keys).
            let dir = src
                .file
                .parent()
                .filter(|d| !d.as_os_str().is_empty() && *d != Path::new("."));
            scenes.push(dir.map_or(name.clone(), |d| d.join(name).display().to_string()));
        } else {
            scenes.push(name.clone());
        }
    }
    for s in &raw.suites {
        let suite = Suite::ALL
            .into_iter()
            .find(|x| x.name() == s.get_ref())
            .ok_or_else(|| {
                src.bad(
                    s,
                    "frames.suites",
                    format!("{:?}", s.get_ref()),
                    "desktop or mobile",
                )
            })?;
        scenes.extend(suite.scenes().map(|b| b.name.to_string()));
    }
    let scenes = dedup_by(scenes, String::clone);
    if scenes.is_empty() {
        return Err(SweepError::Value {
            file: src.file.to_path_buf(),
            line: 1,
            key: "frames".into(),
            value: "no scene".into(),
            expected: "frames.scenes or frames.suites".into(),
        });
    }
    let mut modes = Vec::new();
    for m in &raw.modes {
        modes.push(match m.get_ref().as_str() {
            "imr" => PipelineMode::Imr,
            "tbr" => PipelineMode::Tbr,
            other => return Err(src.bad(m, "frames.modes", format!("{other:?}"), "imr or tbr")),
        });
    }
    let modes = or_default(dedup_by(modes, |m| *m), PipelineMode::Imr);
    let mut resolutions = Vec::new();
    for r in &raw.resolutions {
        let parsed = r
            .get_ref()
            .split_once('x')
            .and_then(|(w, h)| Some((w.trim().parse::<u32>().ok()?, h.trim().parse::<u32>().ok()?)))
            .filter(|&(w, h)| (16..=16384).contains(&w) && (16..=16384).contains(&h));
        resolutions.push(parsed.ok_or_else(|| {
            src.bad(
                r,
                "frames.resolutions",
                format!("{:?}", r.get_ref()),
                "\"WIDTHxHEIGHT\", each 16 to 16384",
            )
        })?);
    }
    let counts = |v: &[Spanned<u32>], key: &str, min: u32| -> Result<Vec<u32>, SweepError> {
        v.iter()
            .map(|n| {
                let x = *n.get_ref();
                if x < min || x > 64 {
                    Err(src.bad(n, key, x.to_string(), &format!("{min} to 64")))
                } else {
                    Ok(x)
                }
            })
            .collect()
    };
    let resolutions = dedup_by(resolutions, |r| *r);
    let frame_counts = or_default(
        dedup_by(counts(&raw.frames, "frames.frames", 1)?, |n| *n),
        1,
    );
    let warmups = or_default(
        dedup_by(counts(&raw.warmup, "frames.warmup", 0)?, |n| *n),
        0,
    );
    let mut presets = Vec::new();
    for p in &raw.presets {
        Preset::from_str(p.get_ref())
            .map_err(|e| src.bad(p, "frames.presets", format!("{:?}", p.get_ref()), &e))?;
        presets.push(Some(p.get_ref().clone()));
    }
    let presets = or_default(dedup_by(presets, Clone::clone), None);
    Ok(FrameAxes {
        scenes,
        modes,
        resolutions,
        frame_counts,
        warmups,
        presets,
    })
}

/// The frame axes, each checked and without repeats: every combination
/// is a frame point.
struct FrameAxes {
    scenes: Vec<String>,
    modes: Vec<PipelineMode>,
    /// Empty: each mode's default.
    resolutions: Vec<(u32, u32)>,
    frame_counts: Vec<u32>,
    warmups: Vec<u32>,
    presets: Vec<Option<String>>,
}

/// `factors` multiplied, saturating at `u64::MAX`.
fn product(factors: impl IntoIterator<Item = usize>) -> u64 {
    factors.into_iter().fold(1u64, |n, f| {
        n.saturating_mul(u64::try_from(f).unwrap_or(u64::MAX))
    })
}

impl FrameAxes {
    /// The frame points of mode `mode` [`FrameAxes::expand`] makes,
    /// counted without making them.
    fn count_of(&self, mode: PipelineMode) -> u64 {
        if !self.modes.contains(&mode) {
            return 0;
        }
        product([
            self.scenes.len(),
            self.resolutions.len().max(1),
            self.frame_counts.len(),
            self.warmups.len(),
            self.presets.len(),
        ])
    }

    /// Every frame point, counted without making them.
    fn count(&self) -> u64 {
        self.count_of(PipelineMode::Imr)
            .saturating_add(self.count_of(PipelineMode::Tbr))
    }

    /// `scenes x resolutions x ...`, for errors.
    fn describe(&self) -> String {
        format!(
            "{} scene(s) x {} mode(s) x {} resolution(s) x {} frame count(s) x {} warm-up(s) x {} preset(s)",
            self.scenes.len(),
            self.modes.len(),
            self.resolutions.len().max(1),
            self.frame_counts.len(),
            self.warmups.len(),
            self.presets.len()
        )
    }

    /// Every frame point, in the file's order (scenes outermost, then
    /// modes, resolutions, frames, warm-up, presets).
    fn expand(&self) -> Vec<FramePoint> {
        let mut out = Vec::new();
        for scene in &self.scenes {
            for &mode in &self.modes {
                let res = if self.resolutions.is_empty() {
                    vec![mode.default_resolution()]
                } else {
                    self.resolutions.clone()
                };
                for &(width, height) in &res {
                    for &frames in &self.frame_counts {
                        for &warmup in &self.warmups {
                            for preset in &self.presets {
                                out.push(FramePoint {
                                    scene: scene.clone(),
                                    width,
                                    height,
                                    frames,
                                    warmup,
                                    mode,
                                    preset: preset.clone(),
                                    render_flags: Vec::new(),
                                    inputs: Vec::new(),
                                });
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

/// Every geometry of the `[cache]` axes (`at`: where the table is), each
/// checked, the combinations counted first and refused past
/// [`MAX_GEOMETRIES`].
fn geometries(
    src: &Source,
    raw: &RawCache,
    at: Option<usize>,
) -> Result<Vec<Geometry>, SweepError> {
    let mut sizes = Vec::new();
    for s in &raw.sizes {
        sizes.push(parse_size(s.get_ref()).map_err(|e| {
            src.bad(
                s,
                "cache.sizes",
                format!("{:?}", s.get_ref()),
                &e.to_string(),
            )
        })?);
    }
    let sizes = dedup_by(sizes, |s| *s);
    // Each value with its place in the file, for errors.
    let axis = |v: &[Spanned<u32>], default: u32| -> Vec<(u32, Option<usize>)> {
        let given: Vec<(u32, Option<usize>)> = v
            .iter()
            .map(|x| (*x.get_ref(), Some(x.span().start)))
            .collect();
        or_default(dedup_by(given, |(x, _)| *x), (default, None))
    };
    let ways = axis(&raw.ways, 16);
    let blocks = axis(&raw.blocks, 64);
    let banks = axis(&raw.banks, 1);
    let mut indexes = Vec::new();
    for i in &raw.index {
        match i.get_ref().as_str() {
            "modulo" | "xor" => indexes.push(i.get_ref().clone()),
            other => return Err(src.bad(i, "cache.index", format!("{other:?}"), "modulo or xor")),
        }
    }
    let indexes = or_default(dedup_by(indexes, String::clone), "modulo".to_string());
    let count = product([
        sizes.len(),
        ways.len(),
        blocks.len(),
        banks.len(),
        indexes.len(),
    ]);
    if count > MAX_GEOMETRIES {
        return Err(SweepError::Value {
            file: src.file.to_path_buf(),
            line: at.map_or(1, |at| src.line_of(at)),
            key: "cache".into(),
            value: format!(
                "{count} geometries ({} size(s) x {} way count(s) x {} block size(s) x {} bank count(s) x {} index function(s))",
                sizes.len(),
                ways.len(),
                blocks.len(),
                banks.len(),
                indexes.len()
            ),
            expected: format!("at most {MAX_GEOMETRIES} cache geometries (MAX_GEOMETRIES)"),
        });
    }
    let mut out = Vec::new();
    for &size_bytes in &sizes {
        for &(ways, way_at) in &ways {
            for &(block_bytes, block_at) in &blocks {
                for &(bank_count, bank_at) in &banks {
                    for index in &indexes {
                        let g = Geometry {
                            size_bytes,
                            ways,
                            block_bytes,
                            banks: bank_count,
                            index: index.clone(),
                        };
                        if let Err(e) = g.build() {
                            let at = way_at.or(block_at).or(bank_at).unwrap_or(0);
                            return Err(SweepError::Value {
                                file: src.file.to_path_buf(),
                                line: src.line_of(at),
                                key: "cache".into(),
                                value: g.label(),
                                expected: e.to_string(),
                            });
                        }
                        out.push(g);
                    }
                }
            }
        }
    }
    Ok(out)
}

/// A `[flags.<name>]` table's words: `None` for `render`, else its study.
type FlagWords = (Option<StudyKind>, Vec<String>);

/// `[flags.<study>]`: each table's keys and values as command-line words.
fn flags(
    src: &Source,
    raw: &std::collections::BTreeMap<Spanned<String>, FlagTable>,
    studies: &[StudyKind],
) -> Result<Vec<FlagWords>, SweepError> {
    let mut out = Vec::new();
    for (name, table) in raw {
        let key = format!("flags.{}", name.get_ref());
        let kind = if name.get_ref() == "render" {
            None
        } else {
            Some(
                StudyKind::ALL
                    .into_iter()
                    .find(|k| k.name() == name.get_ref())
                    .ok_or_else(|| {
                        src.bad(
                            name,
                            &key,
                            format!("{:?}", name.get_ref()),
                            "render or a study: sim, mrc, gspc, tcor, nuca, nbtc, compose",
                        )
                    })?,
            )
        };
        if kind.is_some_and(|k| !studies.contains(&k)) {
            return Err(src.bad(
                name,
                &key,
                format!("{:?}", name.get_ref()),
                "a study the file runs (studies = [...])",
            ));
        }
        let mut words = Vec::new();
        for (flag, value) in table {
            let (flag, at_value) = (flag.get_ref(), value);
            let value = at_value.get_ref();
            let at = format!("{key}.{flag}");
            if AXIS_FLAGS.contains(&flag.as_str()) {
                return Err(src.bad(
                    at_value,
                    &at,
                    format!("{value}"),
                    "a flag the sweep does not set from its axes (scenes, resolutions, frames, warm-up, presets, its own output)",
                ));
            }
            let scalar = |v: &toml::Value| -> Option<String> {
                match v {
                    toml::Value::String(s) => Some(s.clone()),
                    toml::Value::Integer(i) => Some(i.to_string()),
                    toml::Value::Float(f) => Some(f.to_string()),
                    _ => None,
                }
            };
            match value {
                toml::Value::Boolean(true) => words.push(format!("--{flag}")),
                toml::Value::Boolean(false) => {}
                toml::Value::Array(items) => {
                    let parts: Option<Vec<String>> = items.iter().map(scalar).collect();
                    let parts = parts.ok_or_else(|| {
                        src.bad(
                            at_value,
                            &at,
                            format!("{value}"),
                            "a list of strings or numbers",
                        )
                    })?;
                    words.push(format!("--{flag}"));
                    words.push(parts.join(","));
                }
                v => {
                    let s = scalar(v).ok_or_else(|| {
                        src.bad(
                            at_value,
                            &at,
                            format!("{value}"),
                            "a string, a number, a boolean or a list",
                        )
                    })?;
                    words.push(format!("--{flag}"));
                    words.push(s);
                }
            }
        }
        let bytes: usize = words.iter().map(|w| w.len() + 1).sum();
        if bytes > MAX_VALUE_BYTES {
            return Err(src.bad(
                name,
                &key,
                format!("{} words of {bytes} bytes", words.len()),
                &format!("at most {MAX_VALUE_BYTES} bytes of flags (MAX_VALUE_BYTES)"),
            ));
        }
        out.push((kind, words));
    }
    Ok(out)
}

fn policies(src: &Source, raw: &[Spanned<String>]) -> Result<Vec<String>, SweepError> {
    let mut out = Vec::new();
    for p in raw {
        let spec = PolicySpec::from_str(p.get_ref())
            .map_err(|e| src.bad(p, "policies", format!("{:?}", p.get_ref()), &e.to_string()))?;
        if gfxcache_llc::find(&spec.name).is_none() {
            return Err(src.bad(
                p,
                "policies",
                format!("{:?}", p.get_ref()),
                "a policy `gfxcache policies` lists",
            ));
        }
        out.push((spec.to_string(), p.get_ref().clone()));
    }
    // One policy written twice ("LRU", "lru") is one.
    let out: Vec<String> = dedup_by(out, |(spec, _)| spec.clone())
        .into_iter()
        .map(|(_, text)| text)
        .collect();
    let bytes: usize = out.iter().map(|p| p.len() + 1).sum();
    if let Some(first) = raw.first().filter(|_| bytes > MAX_VALUE_BYTES) {
        return Err(src.bad(
            first,
            "policies",
            format!("{} policies of {bytes} bytes", out.len()),
            &format!("at most {MAX_VALUE_BYTES} bytes of policy specs (MAX_VALUE_BYTES)"),
        ));
    }
    Ok(out)
}
