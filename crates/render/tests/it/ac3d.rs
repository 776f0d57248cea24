//! The AC3D loader on tiny hand-written fixtures: objects, transforms,
//! materials, SGI textures, concave polygons, and the error and fallback
//! cases (TORCS's and CRRCsim's dialects are in `ac3d_dialects.rs`).

use std::path::Path;

use crate::loader_checks::*;
use gfxcache_render::scene::{self, checkerboard};
use gfxcache_render::{AlphaMode, Vec3};

#[test]
fn ac3d_objects_transforms_materials_and_sgi_texture() {
    let s = scene::load(&fixture("box.ac")).unwrap();
    assert_well_formed(&s);
    assert_eq!(s.name, "box");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    // One mesh per material of the poly; the line surface skipped.
    assert_eq!(s.meshes.len(), 2);
    let (quad, tri) = (&s.meshes[0], &s.meshes[1]);
    assert_eq!(quad.name, "panel");
    // Smooth quad: 4 shared vertices, 2 triangles; flat triangle: 3, 1.
    assert_eq!((quad.positions.len(), quad.triangle_count()), (4, 2));
    assert_eq!((tri.positions.len(), tri.triangle_count()), (3, 1));
    assert_eq!(quad.indices, vec![0, 1, 2, 0, 2, 3]);
    assert!(quad
        .normals
        .iter()
        .all(|&n| close3(n, Vec3::new(0.0, 0.0, 1.0))));
    // texrep 2 doubles the uvs, then v is flipped.
    assert_eq!(quad.uvs[1], gfxcache_render::Vec2::new(1.0, 1.0));
    assert_eq!(quad.uvs[2], gfxcache_render::Vec2::new(1.0, 0.0));
    // Group loc (10,0,0), then the poly's rot (x axis -> -z).
    assert_eq!(s.instances.len(), 2);
    let p = s.instances[0]
        .transform
        .transform_point(Vec3::new(1.0, 0.0, 0.0))
        .truncate();
    assert!(close3(p, Vec3::new(10.0, 0.0, -1.0)), "{p:?}");

    let red = &s.materials[quad.material];
    assert_eq!(red.name, "red");
    // Textured: its emission joins its colour (as OpenGL's modulate does).
    assert_eq!(red.base_color, [1.0, 0.2, 0.3, 1.0]);
    assert_eq!(red.emissive, [0.0; 3]);
    assert_eq!((red.alpha, red.double_sided), (AlphaMode::Opaque, false));
    let glass = &s.materials[tri.material];
    assert_eq!(glass.base_color, [0.0, 0.0, 1.0, 0.25]);
    assert_eq!((glass.alpha, glass.double_sided), (AlphaMode::Blend, true));
    // Both use the one SGI texture: rows flipped to top first.
    assert_eq!(red.texture, glass.texture);
    let img = &s.images[red.texture.unwrap()];
    assert_eq!(
        img.texels,
        vec![
            [0, 0, 255, 255],
            [255, 255, 255, 255],
            [255, 0, 0, 255],
            [0, 255, 0, 255]
        ]
    );
}

fn ac3d_error(text: &str) -> (usize, String) {
    ac3d_error_in("m.ac", text)
}

#[test]
fn ac3d_errors_name_the_line_and_what_was_expected() {
    let (line, msg) = ac3d_error("AC3Db\nOBJECT world\nname \"w\"\nbogus 1 2\nkids 0\n");
    assert_eq!(line, 4);
    assert!(
        msg.contains("unknown token 'bogus'") && msg.contains("expected"),
        "{msg}"
    );
    let (line, _) = ac3d_error("PLY\n");
    assert_eq!(line, 1);
    let (line, msg) = ac3d_error("AC3Db\nOBJECT poly\nnumvert 1\n0 0 0\nnumsurf 1\nSURF 0\nrefs 3\n0 0 0\n1 0 0\n0 0 0\nkids 0\n");
    assert_eq!(line, 9);
    assert!(msg.contains("out of range"), "{msg}");
    let (line, msg) = ac3d_error("AC3Db\nOBJECT poly\nnumvert 2\n0 0 0\n");
    assert_eq!(line, 4);
    assert!(msg.contains("end of file"), "{msg}");
    let (line, msg) = ac3d_error("AC3Db\nMATERIAL \"m\" rgb 1 1\nOBJECT world\nkids 0\n");
    assert_eq!(line, 2);
    assert!(msg.contains("number"), "{msg}");
    let (line, msg) =
        ac3d_error("AC3Db\nOBJECT poly\nnumvert 1\n0 0 0\nnumsurf 1\nSURF 0\nmat 3\n");
    assert_eq!(line, 7);
    assert!(msg.contains("material 3"), "{msg}");
}

#[test]
fn ac3d_concave_polygon_is_covered_once_with_its_winding() {
    // A 2x2 square with a notch cut into its bottom edge, listed from a
    // corner whose fan would cover the notch and then subtract it with a
    // triangle facing away (which culling would drop, leaving the notch
    // drawn): area 4 - 0.5 = 3.5, facing +z.
    let text = "AC3Db\nOBJECT poly\nnumvert 5\n2 0 0\n2 2 0\n0 2 0\n0 0 0\n1 0.5 0\nnumsurf 1\nSURF 0x10\nrefs 5\n0 0 0\n1 0 0\n2 0 0\n3 0 0\n4 0 0\nkids 0\n";
    let s = scene::ac3d::parse_str(text, Path::new("m.ac")).unwrap();
    assert_well_formed(&s);
    let m = &s.meshes[0];
    assert_eq!(m.triangle_count(), 3);
    assert_covers_once(m, 7.0);
}

#[test]
fn ac3d_missing_texture_is_a_checkerboard_warning() {
    let text = "AC3Db\nOBJECT poly\ntexture \"none.rgb\"\nnumvert 3\n0 0 0\n1 0 0\n0 1 0\nnumsurf 1\nSURF 0\nrefs 3\n0 0 0\n1 1 0\n2 0 1\nkids 0\n";
    let s = scene::ac3d::parse_str(text, Path::new("/nonexistent/m.ac")).unwrap();
    assert_well_formed(&s);
    assert_eq!(s.warnings.len(), 1);
    assert!(s.warnings[0].contains("none.rgb"));
    assert_eq!(s.images[0], checkerboard("none.rgb"));
    // No MATERIAL lines: the default material, textured.
    assert_eq!(s.materials[0].base_color, [1.0; 4]);
    assert_eq!(s.materials[0].texture, Some(0));
}

#[test]
fn ac3d_sources_are_the_file_and_its_textures() {
    let s = scene::load(&fixture("box.ac")).unwrap();
    assert_eq!(s.sources, [fixture("box.ac"), fixture("tex.rgb")]);
    // A missing texture is listed where it was looked for first; parsed
    // from memory, the file itself is not.
    let text = "AC3Db\nOBJECT poly\ntexture \"none.rgb\"\nnumvert 3\n0 0 0\n1 0 0\n0 1 0\nnumsurf 1\nSURF 0\nrefs 3\n0 0 0\n1 1 0\n2 0 1\nkids 0\n";
    let s = scene::ac3d::parse_str(text, Path::new("/nonexistent/m.ac")).unwrap();
    assert_eq!(s.sources, [Path::new("/nonexistent/none.rgb")]);
}
