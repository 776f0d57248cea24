//! The built-in procedural scenes: game-like frames generated in code, no
//! files needed. One scene per file; one registry line each.
//!
//! - [`terrain`], [`atrium`], [`city`]: the scenes.
//! - [`shapes`]: mesh builders (boxes, lathes, arches, heightfields, cards).
//! - [`texgen`]: procedural textures (grass, rock, bricks, marble, facades...).
//! - [`noise`]: the seeded integer hash, value noise and fbm everything
//!   random comes from, so every build of a scene is identical.
//! - `kit`: the assembler the scenes share (indices for images, materials,
//!   meshes; instance placement; camera keys).

use super::Scene;

pub mod atrium;
pub mod city;
mod kit;
pub mod noise;
pub mod shapes;
pub mod terrain;
pub mod texgen;

/// A built-in scene: its name, a one-line description and its generator.
pub struct Builtin {
    pub name: &'static str,
    pub about: &'static str,
    pub build: fn() -> Scene,
}

/// Every built-in scene, in the order `gfxcache scenes` lists them.
pub const BUILTINS: &[Builtin] = &[
    Builtin {
        name: "terrain",
        about: "hills, a reflective lake, hundreds of trees, rocks, a hut and mist",
        build: terrain::build,
    },
    Builtin {
        name: "atrium",
        about:
            "a Sponza-like courtyard: marble floor, two storeys of arches, banners, vases, glass",
        build: atrium::build,
    },
    Builtin {
        name: "city",
        about: "a city crossing at dusk: streets, lit facades, lamps, cars, trees, puddles, glass",
        build: city::build,
    },
];

/// The built-in scene called `name`.
pub fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}
