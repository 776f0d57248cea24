//! The shadow pass: depth only from the sun (the whole scene, or one
//! cascade), every opaque and masked instance, no colour target. Masked materials sample their texture's
//! alpha and discard; opaque ones run an empty shader.

use gfxcache_trace::RecordSink;

use crate::pipeline::{Draw, FragmentOutput, FragmentShader, Fragments};
use crate::sampler::Sampler;
use crate::scene::{AlphaMode, Material};
use crate::texture::Texture;

use super::shaders::{Program, ShadowLookup};
use super::{material_state, submit, Counted, FrameRenderer, PassIo, View};
use crate::math::Mat4;
use crate::pipeline::DepthId;
use crate::target::DepthTarget;

/// Alpha-tested depth: discards where the material's alpha is below 1/2.
struct MaskDepth<'a> {
    material: &'a Material,
    texture: Option<&'a Texture>,
    sampler: Sampler,
}

impl FragmentShader for MaskDepth<'_> {
    fn discards(&self) -> bool {
        true
    }

    fn shade(&self, frag: &mut Fragments<'_>, out: &mut FragmentOutput) {
        let a = self.material.base_color[3];
        let alpha = match self.texture {
            Some(t) => {
                let uv = frag.uv(3);
                frag.sample(t, &self.sampler, &uv).map(|c| c[3] * a)
            }
            None => [a; 4],
        };
        for (i, v) in alpha.iter().enumerate() {
            if *v < 0.5 {
                out.kill |= 1 << i;
            }
        }
    }
}

fn nothing(_: &mut Fragments<'_>, _: &mut FragmentOutput) {}

pub(super) fn run<S: RecordSink>(
    r: &mut FrameRenderer<'_>,
    v: &View,
    io: &PassIo,
    light_vp: Mat4,
    sink: &mut Counted<'_, S>,
) {
    let depth = io
        .depth
        .expect("checked graph: a shadow pass has a depth target");
    r.pipeline.clear_depth(depth, 1.0, 0, sink);
    let scene = r.scene;
    let masks: Vec<MaskDepth> = v
        .opaque
        .iter()
        .map(|&i| {
            let mat = scene.material_of(&scene.instances[i]);
            MaskDepth {
                material: mat,
                texture: mat.texture.map(|t| &r.gpu.textures[t]),
                sampler: r.cfg.samplers().material,
            }
        })
        .collect();
    let mut programs = Vec::with_capacity(v.opaque.len());
    let draws: Vec<Draw> = v
        .opaque
        .iter()
        .zip(&masks)
        .map(|(&i, mask)| {
            let inst = &scene.instances[i];
            let mesh = &r.gpu.meshes[inst.mesh];
            let mat = mask.material;
            let (shader, program): (&dyn FragmentShader, _) = if mat.alpha == AlphaMode::Mask {
                (mask, Program::ShadowMask)
            } else {
                (&nothing, Program::ShadowDepth)
            };
            programs.push((program, i as u64));
            Draw {
                indices: &mesh.indices,
                vertices: &mesh.vertices,
                mvp: light_vp * inst.transform,
                state: material_state(mat, false),
                color: &[],
                depth: Some(depth),
                shader,
                attributes: program.attributes(),
                work: program.work(0),
            }
        })
        .collect();
    submit(&mut r.pipeline, &r.gpu.heap, &draws, &programs, sink);
}

/// The shadow maps a pass reads, lent out of the pipeline for its shaders.
pub(super) struct LentShadows {
    maps: Vec<(DepthId, DepthTarget, Mat4)>,
}

impl LentShadows {
    pub fn take(r: &mut FrameRenderer<'_>, io: &PassIo) -> LentShadows {
        let maps = io
            .shadows
            .iter()
            .map(|&(id, vp)| (id, r.lend_depth(id), vp))
            .collect();
        LentShadows { maps }
    }

    /// The lookups of a shader.
    pub fn lookups(&self) -> Vec<ShadowLookup<'_>> {
        self.maps
            .iter()
            .map(|(_, map, light_vp)| ShadowLookup {
                map,
                light_vp: *light_vp,
            })
            .collect()
    }

    /// Give the maps back to the pipeline.
    pub fn give_back(self, r: &mut FrameRenderer<'_>) {
        for (id, t, _) in self.maps {
            r.pipeline.replace_depth(id, t);
        }
    }
}
