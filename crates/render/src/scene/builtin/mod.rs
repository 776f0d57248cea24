//! The built-in procedural scenes: game-like frames generated in code, no
//! files needed. One scene per file; one registry line each.
//!
//! - [`terrain`], [`atrium`], [`city`], [`corridor`], [`racing`],
//!   [`strategy`]: the desktop suite's scenes (open world, interior, city,
//!   corridor shooter, racing, top-down strategy).
//! - [`match3`], [`kingdom`], [`runner`], [`racer`], [`shooter`],
//!   [`maze`]: the mobile suite's scenes (2D puzzle, 2D strategy, endless
//!   runner, racing, shooter, maze).
//! - [`shapes`]: mesh builders (boxes, lathes, arches, heightfields, cards,
//!   ribbons, sprites); [`hexgrid`]: hex map cells and outlines.
//! - [`props`]: props several scenes place (cars, trees, houses, crates,
//!   figures, coins).
//! - [`texgen`]: procedural textures (grass, rock, bricks, marble, facades...).
//! - [`atlas`]: sprite-sheet grids, signed-distance drawing, an interface
//!   sheet, a bitmap font, a palette, nine-slice panels; [`sheets`]: the 2D
//!   games' sprite sheets (gems, a map's tiles and pieces).
//! - [`noise`]: the seeded integer hash, value noise and fbm everything
//!   random comes from, so every build of a scene is identical.
//! - `kit`: the assembler the scenes share (indices for images, materials,
//!   meshes; instance placement; camera keys; compressed textures and the
//!   mobile frame).

use super::Scene;

pub mod atlas;
pub mod atrium;
pub mod city;
pub mod corridor;
pub mod hexgrid;
pub mod kingdom;
mod kit;
pub mod match3;
pub mod maze;
pub mod noise;
pub mod props;
pub mod racer;
pub mod racing;
pub mod runner;
pub mod shapes;
pub mod sheets;
pub mod shooter;
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
    Builtin {
        name: "match3",
        about:
            "a match-3 puzzle level: blended gem sprites on a board, sparkles, UI panels, a mascot",
        suite: Suite::Mobile,
        build: match3::build,
    },
    Builtin {
        name: "runner",
        about: "a 3D endless runner: a three-lane rail track, trains, barriers, coins, a runner",
        suite: Suite::Mobile,
        build: runner::build,
    },
    Builtin {
        name: "racer",
        about: "a low-poly circuit racer: a track loop, kerbs, billboards, a grandstand, six cars",
        suite: Suite::Mobile,
        build: racer::build,
    },
    Builtin {
        name: "shooter",
        about: "a first-person shooter's walled yard: crates, barrels, enemies, a rifle, touch UI",
        suite: Suite::Mobile,
        build: shooter::build,
    },
    Builtin {
        name: "maze",
        about: "a 3D maze in three-quarter view: stone walls, gems, coins, torches, a rolling ball",
        suite: Suite::Mobile,
        build: maze::build,
    },
    Builtin {
        name: "kingdom",
        about: "a 2D strategy map from above: tiles, forests, mountains, cities, armies, fog, UI",
        suite: Suite::Mobile,
        build: kingdom::build,
    },
];

/// The built-in scene called `name`.
pub fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}
