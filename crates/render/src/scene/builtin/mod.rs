//! The built-in procedural scenes: game-like frames generated in code, no
//! files needed. One scene per file; one registry line each.
//!
//! - [`terrain`], [`atrium`], [`city`]: the scenes.
//! - [`shapes`]: mesh builders (boxes, lathes, arches, heightfields, cards).
//! - [`props`]: props several scenes place (cars, trees, houses, crates).
//! - [`texgen`]: procedural textures (grass, rock, bricks, marble, facades...).
//! - [`noise`]: the seeded integer hash, value noise and fbm everything
//!   random comes from, so every build of a scene is identical.
//! - `kit`: the assembler the scenes share (indices for images, materials,
//!   meshes; instance placement; camera keys).

use super::Scene;

pub mod atrium;
pub mod city;
pub mod corridor;
pub mod hexgrid;
mod kit;
pub mod noise;
pub mod props;
pub mod racing;
pub mod shapes;
pub mod strategy;
pub mod terrain;
pub mod texgen;

/// The class of game a built-in scene stands for: the class of frames a
/// paper measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suite {
    /// Desktop DirectX 10/11 games and benchmarks, rendered in immediate
    /// mode (the GSPC paper's workloads).
    Desktop,
    /// Android games on a tile-based GPU (the TCOR, DTM-NUCA and NBTC
    /// papers' workloads).
    Mobile,
}

impl Suite {
    pub const ALL: [Suite; 2] = [Suite::Desktop, Suite::Mobile];

    /// The name the command line uses.
    pub const fn name(self) -> &'static str {
        match self {
            Suite::Desktop => "desktop",
            Suite::Mobile => "mobile",
        }
    }

    /// The built-in scenes of this suite, in registry order.
    pub fn scenes(self) -> impl Iterator<Item = &'static Builtin> {
        BUILTINS.iter().filter(move |b| b.suite == self)
    }
}

impl std::fmt::Display for Suite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Suite {
    type Err = String;

    fn from_str(s: &str) -> Result<Suite, String> {
        Suite::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| format!("unknown suite {s:?} (known: desktop, mobile)"))
    }
}

/// A built-in scene: its name, a one-line description, its suite and its
/// generator.
pub struct Builtin {
    pub name: &'static str,
    pub about: &'static str,
    pub suite: Suite,
    pub build: fn() -> Scene,
}

/// Every built-in scene, in the order `gfxcache scenes` lists them.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "terrain",
        about: "hills, a reflective lake, hundreds of trees, rocks, a hut and mist",
        suite: Suite::Desktop,
        build: terrain::build,
    },
    Builtin {
        name: "atrium",
        about:
            "a Sponza-like courtyard: marble floor, two storeys of arches, banners, vases, glass",
        suite: Suite::Desktop,
        build: atrium::build,
    },
    Builtin {
        name: "city",
        about: "a city crossing at dusk: streets, lit facades, lamps, cars, trees, puddles, glass",
        suite: Suite::Desktop,
        build: city::build,
    },
    Builtin {
        name: "corridor",
        about: "a BioShock-like art-deco corridor: side rooms, pipes, crates, neon, grates, steam, a gun",
        suite: Suite::Desktop,
        build: corridor::build,
    },
    Builtin {
        name: "racing",
        about: "a Dirt 2-like rally stage: a gravel road through a dry valley, six cars, dust, crowds",
        suite: Suite::Desktop,
        build: racing::build,
    },
    Builtin {
        name: "strategy",
        about: "a Civilization V-like hex map seen from above: forests, rivers, cities, units, borders",
        suite: Suite::Desktop,
        build: strategy::build,
    },
];

/// The built-in scene called `name`.
pub fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}
