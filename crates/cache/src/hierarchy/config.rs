//! A hierarchy's description: its levels, each with a geometry, a policy
//! and an inclusion policy, as a `--levels` list or a hierarchy file
//! gives them ([`LevelSpec`], [`HierarchyFile`]), checked into a
//! [`HierarchyConfig`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::CacheError;
use crate::geometry::{parse_size, Geometry, IndexFn, Ways};
use crate::spec::PolicySpec;

/// How a level relates to the levels above it (the trace's side).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Inclusion {
    /// Holds every block any level above holds: a block it evicts is
    /// invalidated above (a back-invalidation), a dirty copy there merged
    /// into its write-back.
    Inclusive,
    /// Non-inclusive non-exclusive (NINE): filled on the misses of the
    /// level above like an inclusive level, but evicts without
    /// back-invalidation, so the levels above may keep blocks it lost.
    NonInclusive,
    /// Holds no block a level above holds: filled by the victims of the
    /// level above (clean or dirty), not on its misses; a block that hits
    /// here moves up (invalidated here, dirty or not).
    Exclusive,
}

impl Inclusion {
    pub const ALL: [Inclusion; 3] = [
        Inclusion::Inclusive,
        Inclusion::NonInclusive,
        Inclusion::Exclusive,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Inclusion::Inclusive => "inclusive",
            Inclusion::NonInclusive => "non-inclusive",
            Inclusion::Exclusive => "exclusive",
        }
    }
}

impl fmt::Display for Inclusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Inclusion {
    type Err = HierarchyError;

    fn from_str(s: &str) -> Result<Inclusion, HierarchyError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "inclusive" => Ok(Inclusion::Inclusive),
            "non-inclusive" | "nine" => Ok(Inclusion::NonInclusive),
            "exclusive" => Ok(Inclusion::Exclusive),
            _ => Err(HierarchyError::Config(format!(
                "inclusion '{s}': expected inclusive, non-inclusive (or nine) or exclusive"
            ))),
        }
    }
}

/// Why a hierarchy cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HierarchyError {
    #[error("cache hierarchy: {0}")]
    Config(String),
    #[error("cache hierarchy, level {level}: {what}")]
    Level { level: String, what: String },
    #[error("cache hierarchy, level {level}: {source}")]
    Cache { level: String, source: CacheError },
}

/// A level's associativity as a file writes it: `8` or `"full"`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum WaysField {
    N(u32),
    Text(String),
}

/// One level as written: what `--levels` and a hierarchy file give,
/// before it is checked.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelSpec {
    /// What reports call the level, e.g. `L1`, `L2`, `LLC`.
    pub name: String,
    /// Capacity, e.g. `32KiB` ([`parse_size`]).
    pub size: String,
    pub ways: WaysField,
    /// A policy spec (`drrip:bits=3`); absent, the hierarchy's default.
    #[serde(default)]
    pub policy: Option<String>,
    /// Absent: non-inclusive below the first level (ChampSim's and gem5's
    /// default); the first level has none.
    #[serde(default)]
    pub inclusion: Option<Inclusion>,
    #[serde(default)]
    pub banks: Option<u32>,
    /// `modulo` (default) or `xor`.
    #[serde(default)]
    pub index: Option<String>,
}

/// A hierarchy file (TOML): an optional block size, then `[[level]]`
/// tables from the level the trace reaches first down to the last.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HierarchyFile {
    /// Block (line) size of every level, in bytes.
    #[serde(default)]
    pub block: Option<u32>,
    #[serde(rename = "level")]
    pub levels: Vec<LevelSpec>,
}

/// Parses a `--levels` list: `NAME:SIZE:WAYS[:INCLUSION]`, comma-separated,
/// e.g. `L1:32KiB:8,L2:1MiB:16:inclusive`.
pub fn parse_levels(text: &str) -> Result<Vec<LevelSpec>, HierarchyError> {
    text.split(',')
        .map(|item| {
            let parts: Vec<&str> = item.split(':').map(str::trim).collect();
            let bad = |what: &str| {
                HierarchyError::Config(format!(
                    "level '{item}': {what}: expected NAME:SIZE:WAYS[:INCLUSION], \
                     e.g. L2:1MiB:16:inclusive"
                ))
            };
            if !(3..=4).contains(&parts.len()) {
                return Err(bad(&format!("{} fields", parts.len())));
            }
            if parts.iter().any(|p| p.is_empty()) {
                return Err(bad("an empty field"));
            }
            Ok(LevelSpec {
                name: parts[0].to_string(),
                size: parts[1].to_string(),
                ways: WaysField::Text(parts[2].to_string()),
                policy: None,
                inclusion: parts.get(3).map(|s| s.parse()).transpose()?,
                banks: None,
                index: None,
            })
        })
        .collect()
}

/// One checked level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelConfig {
    pub name: String,
    pub geometry: Geometry,
    pub policy: PolicySpec,
    /// `None` for the first level, which has none above it.
    pub inclusion: Option<Inclusion>,
}

/// A checked hierarchy: what [`crate::hierarchy::Hierarchy::build`] takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HierarchyConfig {
    pub levels: Vec<LevelConfig>,
}

/// What a level takes from the command line when its spec does not say.
#[derive(Clone, Copy, Debug)]
pub struct LevelDefaults<'a> {
    /// Block size of every level.
    pub block: u32,
    /// The policy of a level that names none; `None`: each must name one.
    pub policy: Option<&'a PolicySpec>,
    pub banks: u32,
    pub index: IndexFn,
}

impl HierarchyConfig {
    /// Checks `specs`: at least one level, distinct names, no inclusion on
    /// the first level, every size and associativity a geometry, every
    /// policy a spec. Every level is write-back and write-allocate, as the
    /// engine's default. Whether each policy builds on its level (and may
    /// be at that level) is [`crate::hierarchy::Hierarchy::check`]'s.
    pub fn new(
        specs: &[LevelSpec],
        defaults: LevelDefaults,
    ) -> Result<HierarchyConfig, HierarchyError> {
        if specs.is_empty() {
            return Err(HierarchyError::Config(
                "no level: expected at least one".into(),
            ));
        }
        let mut levels: Vec<LevelConfig> = Vec::with_capacity(specs.len());
        for (i, s) in specs.iter().enumerate() {
            let name = s.name.trim().to_string();
            let fail = |what: String| HierarchyError::Level {
                level: if name.is_empty() {
                    format!("{}", i + 1)
                } else {
                    name.clone()
                },
                what,
            };
            if name.is_empty() {
                return Err(fail("expected a name".into()));
            }
            if levels.iter().any(|l| l.name == name) {
                return Err(fail("named twice: expected distinct level names".into()));
            }
            let ways: Ways = match &s.ways {
                WaysField::N(n) => Ways::N(*n),
                WaysField::Text(t) => t.parse().map_err(|e: CacheError| fail(e.to_string()))?,
            };
            let index = match s.index.as_deref().map(str::trim) {
                None => defaults.index,
                Some("modulo") => IndexFn::Modulo,
                Some("xor") => IndexFn::XorFold,
                Some(other) => {
                    return Err(fail(format!("index '{other}': expected modulo or xor")))
                }
            };
            let geometry = parse_size(&s.size)
                .and_then(|size| Geometry::from_size(size, ways, defaults.block))
                .and_then(|g| g.with_banks(s.banks.unwrap_or(defaults.banks)))
                .and_then(|g| g.with_index(index))
                .map_err(|e| fail(e.to_string()))?;
            let policy = match (&s.policy, defaults.policy) {
                (Some(text), _) => text.parse().map_err(|e: CacheError| fail(e.to_string()))?,
                (None, Some(p)) => p.clone(),
                (None, None) => return Err(fail("expected a policy".into())),
            };
            let inclusion = match (i, s.inclusion) {
                (0, Some(x)) => {
                    return Err(fail(format!(
                        "{x}: the first level has no level above it, so no inclusion policy"
                    )))
                }
                (0, None) => None,
                (_, x) => Some(x.unwrap_or(Inclusion::NonInclusive)),
            };
            levels.push(LevelConfig {
                name,
                geometry,
                policy,
                inclusion,
            });
        }
        Ok(HierarchyConfig { levels })
    }

    /// The same hierarchy with `policy` at every level.
    pub fn with_policy(&self, policy: &PolicySpec) -> HierarchyConfig {
        let mut h = self.clone();
        for l in &mut h.levels {
            l.policy = policy.clone();
        }
        h
    }

    /// `lru` at every level, or the levels' policies joined by `/`
    /// (`lru/lru/drrip`): what reports call the hierarchy.
    pub fn label(&self) -> String {
        let first = &self.levels[0].policy;
        if self.levels.iter().all(|l| l.policy == *first) {
            first.to_string()
        } else {
            let all: Vec<String> = self.levels.iter().map(|l| l.policy.to_string()).collect();
            all.join("/")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults(policy: &PolicySpec) -> LevelDefaults<'_> {
        LevelDefaults {
            block: 64,
            policy: Some(policy),
            banks: 1,
            index: IndexFn::Modulo,
        }
    }

    #[test]
    fn levels_parse_and_check() {
        let lru: PolicySpec = "lru".parse().unwrap();
        let specs = parse_levels("L1:32KiB:8, L2:1MiB:16:inclusive,L3:8MiB:16:exclusive").unwrap();
        let h = HierarchyConfig::new(&specs, defaults(&lru)).unwrap();
        assert_eq!(h.levels.len(), 3);
        assert_eq!(h.levels[0].geometry.sets, 64);
        assert_eq!(h.levels[0].inclusion, None);
        assert_eq!(h.levels[1].inclusion, Some(Inclusion::Inclusive));
        assert_eq!(h.levels[2].inclusion, Some(Inclusion::Exclusive));
        assert_eq!(h.label(), "lru");
        let h = HierarchyConfig::new(
            &parse_levels("a:4KiB:full,b:8KiB:2").unwrap(),
            defaults(&lru),
        )
        .unwrap();
        assert_eq!(h.levels[0].geometry.ways, 64);
        assert_eq!(h.levels[1].inclusion, Some(Inclusion::NonInclusive));
    }

    #[test]
    fn bad_levels_say_what_was_expected() {
        let lru: PolicySpec = "lru".parse().unwrap();
        let err = |text: &str| match parse_levels(text) {
            Err(e) => e.to_string(),
            Ok(specs) => HierarchyConfig::new(&specs, defaults(&lru))
                .unwrap_err()
                .to_string(),
        };
        assert!(err("L1:32KiB").contains("expected NAME:SIZE:WAYS[:INCLUSION]"));
        assert!(err("L1:32KiB:8:inclusive").contains("the first level has no level above it"));
        assert!(err("L1:32KiB:8,L1:64KiB:8").contains("expected distinct level names"));
        assert!(err("L1:32KiB:8,L2:1MiB:16:mostly").contains("expected inclusive, non-inclusive"));
        assert!(err("L1:1000:8").contains("level L1: cache geometry"));
        assert!(err("L1:32KiB:0").contains("expected a positive whole number or 'full'"));
    }

    #[test]
    fn a_file_names_policies_per_level() {
        let file: HierarchyFile = serde_json::from_str(
            r#"{"block": 128, "level": [
                {"name": "L1", "size": "32KiB", "ways": 8, "policy": "lru"},
                {"name": "LLC", "size": "4MiB", "ways": "16", "policy": "drrip:bits=3",
                 "inclusion": "exclusive", "banks": 4}
            ]}"#,
        )
        .unwrap();
        let h = HierarchyConfig::new(
            &file.levels,
            LevelDefaults {
                block: file.block.unwrap(),
                policy: None,
                banks: 1,
                index: IndexFn::Modulo,
            },
        )
        .unwrap();
        assert_eq!(h.levels[1].geometry.block, 128);
        assert_eq!(h.levels[1].geometry.banks, 4);
        assert_eq!(h.label(), "lru/drrip:bits=3");
    }
}
