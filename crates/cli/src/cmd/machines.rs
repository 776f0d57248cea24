//! `gfxcache machines`: the named machines (each paper's GPU and a
//! present-day one) or a machine file, every value with its source, and
//! what each fragment processor issues a cycle on a typical mix.

use anyhow::{Context, Result};
use gfxcache_machine::{presets, Machine, Value};
use serde::Serialize;

use super::print_json;
use crate::table::Table;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gfxcache machines\n  gfxcache machines dtm-nuca\n  gfxcache machines my-gpu.toml --json"
)]
pub struct Args {
    /// The machines to show: preset names or TOML files (default: every
    /// preset).
    pub machines: Vec<String>,
    /// Print one JSON document on stdout instead of tables.
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Entry {
    name: String,
    about: String,
    values: Vec<Value>,
    /// The machine, as its file has it.
    machine: Machine,
}

pub fn run(args: Args) -> Result<()> {
    let names: Vec<String> = if args.machines.is_empty() {
        presets().iter().map(|p| p.name.to_string()).collect()
    } else {
        args.machines.clone()
    };
    let machines = names
        .iter()
        .map(|n| Machine::resolve(n).with_context(|| format!("machine {n:?}")))
        .collect::<Result<Vec<Machine>>>()?;
    if args.json {
        let entries: Vec<Entry> = machines
            .into_iter()
            .map(|m| Entry {
                name: m.name.clone(),
                about: m.about.clone(),
                values: m.values(),
                machine: m,
            })
            .collect();
        return print_json(&entries);
    }
    for m in &machines {
        println!("{}: {}", m.name, m.about);
        let mut t = Table::new(["key", "value", "source"])
            .left(0)
            .left(1)
            .left(2);
        for v in m.values() {
            t.row([v.key, v.value, v.source]);
        }
        println!("{}", t.render());
    }
    println!(
        "Sources: paper = the paper's table or text; hardware = a hardware document where the \
         paper is silent; ours = our choice. `--machine NAME|FILE` on gspc, tcor, nuca, nbtc and compose."
    );
    Ok(())
}

/// The tile-based renderer's L1s on `machine`: its vertex cache (TCOR
/// Table I's where it gives none) and texture caches, `fps` of them. The
/// renderer's caches have 64-byte lines; a machine with other blocks keeps
/// Table I's L1s, and says so in `None`'s place.
pub fn tbr_caches(
    machine: &Machine,
    fps: u16,
) -> std::result::Result<gfxcache_render::TbrCacheConfig, String> {
    use gfxcache_render::{CacheShape, TbrCacheConfig};
    let table_i = TbrCacheConfig::table_i(fps);
    let shape = |c: &gfxcache_machine::Cache, name: &str| {
        if c.block.value == 64 {
            Ok(CacheShape {
                bytes: c.bytes.value.0,
                ways: c.ways.value,
            })
        } else {
            Err(format!(
                "machine {}: {name}.block {}: the renderer's caches have 64-byte lines",
                machine.name, c.block.value
            ))
        }
    };
    Ok(TbrCacheConfig {
        vertex: match &machine.vertex_cache {
            Some(v) => shape(v, "vertex_cache")?,
            None => table_i.vertex,
        },
        texture: shape(&machine.texture_cache, "texture_cache")?,
        fps,
    })
}

/// The immediate-mode renderer's render caches on `machine` (its
/// `render_caches`, and its `texture_cache` as each sampler's texture L1,
/// one a sampler); an error names what the machine lacks or what the
/// renderer cannot build (its caches have 64-byte lines).
pub fn imr_caches(machine: &Machine) -> Result<gfxcache_render::RenderCacheConfig> {
    use gfxcache_render::{CacheShape, RenderCacheConfig, TexConfig};
    let r = machine.require(
        machine.render_caches.as_ref(),
        "render_caches",
        "an immediate-mode frame is rendered through them",
    )?;
    for (key, block) in [
        ("render_caches.block", r.block.value),
        ("texture_cache.block", machine.texture_cache.block.value),
    ] {
        if block != 64 {
            anyhow::bail!(
                "machine {}: {key} {block}: the renderer's caches have 64-byte lines",
                machine.name
            );
        }
    }
    let shape = |s: &gfxcache_machine::Shape| CacheShape {
        bytes: s.bytes.value.0,
        ways: s.ways.value,
    };
    let units = machine.samplers();
    let config = RenderCacheConfig {
        vidx: shape(&r.vertex_index),
        vtx: shape(&r.vertex),
        hiz: shape(&r.hiz),
        z: shape(&r.depth),
        stc: shape(&r.stencil),
        rt: shape(&r.render_target),
        tex: TexConfig {
            units: u16::try_from(units).context("fragment.samplers")?,
            l1: CacheShape {
                bytes: machine.texture_cache.bytes.value.0,
                ways: machine.texture_cache.ways.value,
            },
            l2: shape(&r.texture_l2),
            l3: shape(&r.texture_l3),
        },
    };
    config
        .check()
        .map_err(|e| anyhow::anyhow!("machine {}: {e}", machine.name))?;
    Ok(config)
}

/// The flags of a tile-based study's frame over its machine's values: the
/// screen, the tile and their order (each command has its own
/// `--machine`, with its default and what its study takes from it).
#[derive(clap::Args, Clone)]
pub struct TiledFrameArgs {
    /// Screen width (default: the machine's screen, as `gfxcache machines
    /// NAME` lists it).
    #[arg(long)]
    pub width: Option<u32>,
    /// Screen height (default: the machine's).
    #[arg(long)]
    pub height: Option<u32>,
    /// Tile side in pixels (default: the machine's).
    #[arg(long)]
    pub tile_size: Option<u32>,
    /// Tile traversal order.
    #[arg(long, value_enum, default_value_t = super::render::OrderArg::ZOrder)]
    pub order: super::render::OrderArg,
    /// Render with hidden-surface removal, a TBDR's HSR phase: only the
    /// fragments every opaque draw of the tile leaves visible are shaded
    /// (default: the machine's `gpu.hidden_surface_removal`: on for
    /// dtm-nuca and mali-g78, off for tcor and nbtc).
    #[arg(long, overrides_with = "no_hsr")]
    pub hsr: bool,
    /// Render without hidden-surface removal, an early Z-test only
    /// (default: the machine's, as --hsr says).
    #[arg(long, overrides_with = "hsr")]
    pub no_hsr: bool,
}

impl TiledFrameArgs {
    /// `machine`'s plan with these flags over its values
    /// ([`FramePlan::of`]), the fragment processors given as `processors`.
    pub(crate) fn plan(&self, machine: &str, processors: (Option<u16>, &str)) -> Result<FramePlan> {
        FramePlan::of(machine, self.width, self.height, self.tile_size, processors)
    }

    /// Whether the frames are rendered with hidden-surface removal: the
    /// last of `--hsr` and `--no-hsr` given, else `machine`'s.
    pub(crate) fn hsr(&self, machine: &Machine) -> bool {
        match (self.hsr, self.no_hsr) {
            (true, _) => true,
            (_, true) => false,
            _ => machine.hidden_surface_removal(),
        }
    }
}

/// A tile-based study's machine and what it sets that the flags override:
/// the frames' screen, tile and fragment processors (`nuca`, `tcor`).
pub(crate) struct FramePlan {
    pub machine: Machine,
    pub width: u32,
    pub height: u32,
    pub tile_size: u32,
    pub fps: u16,
}

impl FramePlan {
    /// `--machine`'s machine with `--width`, `--height`, `--tile-size` and
    /// `--fragment-processors` (given as `processors`: the count and the
    /// flag that gave it) over its values, the tile and the processors
    /// checked before anything renders.
    pub fn of(
        machine: &str,
        width: Option<u32>,
        height: Option<u32>,
        tile_size: Option<u32>,
        processors: (Option<u16>, &str),
    ) -> Result<FramePlan> {
        let machine = Machine::resolve(machine).context("--machine")?;
        let [w, h] = machine.gpu.screen.value;
        let tile_size = match tile_size {
            Some(t) => t,
            None => machine.tile().context("--machine")?,
        };
        super::render::check_tile_size(tile_size)?;
        let (fps, flag) = processors;
        let fps = fps.unwrap_or(machine.fragment.processors.value);
        let most = gfxcache_render::TbrConfig::MAX_FPS;
        if !(1..=most).contains(&fps) {
            anyhow::bail!("{flag} {fps}: expected 1 to {most} fragment processors");
        }
        Ok(FramePlan {
            width: width.unwrap_or(w),
            height: height.unwrap_or(h),
            tile_size,
            fps,
            machine,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The GSPC machine renders through the caches the renderer has always
    /// had (`gfxcache render`'s): the preset is their description.
    #[test]
    fn the_gspc_machines_render_caches_are_the_renderers() {
        let gspc = Machine::preset("gspc").unwrap();
        assert_eq!(
            imr_caches(&gspc).unwrap(),
            gfxcache_render::RenderCacheConfig::default()
        );
        let e = imr_caches(&Machine::preset("tcor").unwrap()).unwrap_err();
        assert!(e.to_string().contains("no render_caches"), "{e}");
    }
}
