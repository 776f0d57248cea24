//! The built-in procedural scenes: game-like frames generated in code, no
//! files needed. One scene per file; one registry line each.

use super::Scene;

/// A built-in scene: its name, a one-line description and its generator.
pub struct Builtin {
    pub name: &'static str,
    pub about: &'static str,
    pub build: fn() -> Scene,
}

/// Every built-in scene, in the order `gfxcache scenes` lists them.
pub const BUILTINS: &[Builtin] = &[];

/// The built-in scene called `name`.
pub fn find(name: &str) -> Option<&'static Builtin> {
    BUILTINS.iter().find(|b| b.name == name)
}
