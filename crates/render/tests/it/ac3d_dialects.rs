//! The AC3D loader on what the simulators' data packages hold beyond the
//! plain format, each on a tiny hand-written file: TORCS's `.acc` variant
//! (texture layers, extra uv pairs, triangle strips, `kids` counts longer
//! than the file) and the shared texture directories of TORCS and CRRCsim.

use crate::loader_checks;

use std::path::{Path, PathBuf};

use crate::loader_checks::fixture;
use gfxcache_render::scene::{self, checkerboard};
use gfxcache_render::{AlphaMode, Scene, Vec2, Vec3};

fn parse(text: &str) -> Scene {
    scene::ac3d::parse_str(text, Path::new("/nonexistent/track.acc")).unwrap()
}

fn error(text: &str) -> (usize, String) {
    loader_checks::ac3d_error_in("m.acc", text)
}

/// Twice the signed area of each triangle of `m` seen from +z.
fn z_areas(m: &gfxcache_render::Mesh) -> Vec<f32> {
    m.indices
        .chunks(3)
        .map(|t| {
            let [a, b, c] = [0, 1, 2].map(|k| m.positions[t[k] as usize]);
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        })
        .collect()
}

/// A unit quad in the xy plane as TORCS's `accc` writes it: four texture
/// layers (the base one named, one empty, two others), a triangle strip
/// starting with a repeated vertex, refs with the layers' uv pairs.
const TORCS_QUAD: &str = "AC3Db
MATERIAL \"\" rgb 0.4 0.4 0.4 amb 0.8 0.8 0.8 emis 0.4 0.4 0.4 spec 0.5 0.5 0.5 shi 50 trans 0
OBJECT world
kids 1
OBJECT poly
name \"quad\"
texture \"road.rgb\" base
texture empty_texture_no_mapping tiled
texture \"skid.rgb\" skids
texture \"shadow.rgb\" shad
numvert 4
0 0 0 0 0 1
1 0 0 0 0 1
1 1 0 0 0 1
0 1 0 0 0 1
numsurf 1
SURF 0x14
mat 0
refs 5
1 1 0 0.5 0.5
1 1 0 0.5 0.5 0.1 0.1 0.2 0.2
0 0 0 0.6 0.5
2 1 1 0.5 0.6
3 0 1 0.6 0.6
kids 0
";

#[test]
fn torcs_strip_with_texture_layers_and_extra_uvs() {
    let s = parse(TORCS_QUAD);
    assert_eq!(s.meshes.len(), 1);
    let m = &s.meshes[0];
    // Corners 1 1 0 2 3: the first triangle repeats a vertex and is
    // dropped; the other two (0 1 2, then 0 2 3) cover the quad once,
    // facing +z.
    assert_eq!(m.triangle_count(), 2);
    let areas = z_areas(m);
    assert!(areas.iter().all(|&a| (a - 1.0).abs() < 1e-5), "{areas:?}");
    assert!(m
        .normals
        .iter()
        .all(|n| (n.z - 1.0).abs() < 1e-5 && n.x.abs() < 1e-5));
    // Only the base layer is drawn, with the first uv pair (v flipped).
    assert_eq!(s.images.len(), 1);
    assert_eq!(s.images[0], checkerboard("road.rgb"));
    assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
    assert!(s.warnings[0].contains("road.rgb"), "{:?}", s.warnings);
    let corner = |p: Vec3| {
        let i = m.positions.iter().position(|&q| q == p).unwrap();
        m.uvs[i]
    };
    assert_eq!(corner(Vec3::new(1.0, 1.0, 0.0)), Vec2::new(1.0, 0.0));
    assert_eq!(corner(Vec3::new(0.0, 0.0, 0.0)), Vec2::new(0.0, 1.0));
}

#[test]
fn an_empty_base_layer_is_no_texture() {
    let text = TORCS_QUAD.replace("\"road.rgb\" base", "empty_texture_no_mapping base");
    let s = parse(&text);
    assert!(
        s.images.is_empty() && s.warnings.is_empty(),
        "{:?}",
        s.warnings
    );
    assert_eq!(s.materials[0].texture, None);
    // Untextured, the material keeps its emission apart from its colour.
    assert_eq!(s.materials[0].base_color, [0.4, 0.4, 0.4, 1.0]);
    assert_eq!(s.materials[0].emissive, [0.4; 3]);
}

#[test]
fn a_textured_surface_takes_its_emission_into_its_colour() {
    let s = parse(TORCS_QUAD);
    let m = &s.materials[s.meshes[0].material];
    assert!(m.texture.is_some());
    assert_eq!(m.base_color, [0.8, 0.8, 0.8, 1.0]);
    assert_eq!(m.emissive, [0.0; 3]);
}

#[test]
fn an_odd_strip_keeps_the_first_triangles_winding() {
    // 0 1 2 3 4 along a zigzag: triangles 012, 213, 234, all facing +z.
    let text = "AC3Db\nOBJECT poly\nnumvert 5\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 2 0\nnumsurf 1\nSURF 0x4\nrefs 5\n0 0 0\n1 0 0\n2 0 0\n3 0 0\n4 0 0\nkids 0\n";
    let s = parse(text);
    let m = &s.meshes[0];
    assert_eq!(m.triangle_count(), 3);
    let areas = z_areas(m);
    assert!(areas.iter().all(|&a| a > 0.0), "{areas:?}");
}

#[test]
fn acc_files_load_by_extension() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("car.ACC");
    std::fs::write(&p, TORCS_QUAD).unwrap();
    let s = scene::load(&p).unwrap();
    assert_eq!(s.name, "car");
    assert_eq!(s.triangle_count(), 2);
}

#[test]
fn kids_past_the_end_of_the_file_are_a_warning() {
    // The world announces three children and the file holds one, as
    // TORCS's track files do: the one is kept, one warning names the line.
    let text = TORCS_QUAD.replace("kids 1\nOBJECT poly", "kids 3\nOBJECT poly");
    let s = parse(&text);
    assert_eq!(s.triangle_count(), 2);
    let cut: Vec<&String> = s.warnings.iter().filter(|w| w.contains("kids")).collect();
    assert_eq!(cut.len(), 1, "{:?}", s.warnings);
    assert!(
        cut[0].contains("track.acc:4") && cut[0].contains("after 1 of them"),
        "{}",
        cut[0]
    );
    // Something else where a child belongs is still an error.
    let text = TORCS_QUAD.replace("kids 1\nOBJECT poly", "kids 3\nOBJECT poly") + "numvert 2\n";
    let (line, msg) = error(&text);
    assert_eq!(line, 26);
    assert!(msg.contains("expected a child 'OBJECT'"), "{msg}");
}

#[test]
fn malformed_torcs_lines_are_errors_with_the_line() {
    let text = TORCS_QUAD.replace("\"skid.rgb\" skids", "\"skid.rgb\" decal");
    let (line, msg) = error(&text);
    assert_eq!(line, 9);
    assert!(msg.contains("base|tiled|skids|shad"), "{msg}");
    let text = TORCS_QUAD.replace("0 0 0 0.6 0.5", "0 0 0 0.6");
    let (line, msg) = error(&text);
    assert_eq!(line, 22);
    assert!(msg.contains("'vertex u v'"), "{msg}");
}

/// A one-triangle model naming `texture`, at `rel` under `root`.
fn model_naming(root: &Path, rel: &str, texture: &str) -> PathBuf {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    let text = format!("AC3Db\nOBJECT poly\ntexture \"{texture}\"\nnumvert 3\n0 0 0\n1 0 0\n0 1 0\nnumsurf 1\nSURF 0\nrefs 3\n0 0 0\n1 1 0\n2 0 1\nkids 0\n");
    std::fs::write(&p, text).unwrap();
    p
}

fn put_texture(root: &Path, rel: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::copy(fixture("tex.rgb"), p).unwrap();
}

#[test]
fn textures_are_found_in_the_packages_shared_directories() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // TORCS: tracks/<category>/<track>/<track>.acc, data/textures at the root.
    put_texture(root, "torcs/data/textures/asphalt.rgb");
    let track = model_naming(root, "torcs/tracks/road/t/t.acc", "asphalt.rgb");
    // CRRCsim: objects/<model>.ac beside textures/.
    put_texture(root, "crrcsim/textures/grass.rgb");
    let object = model_naming(root, "crrcsim/objects/hut.ac", "grass.rgb");
    for p in [track, object] {
        let s = scene::load(&p).unwrap();
        assert!(s.warnings.is_empty(), "{}: {:?}", p.display(), s.warnings);
        assert_eq!(s.images.len(), 1);
        assert_eq!((s.images[0].width, s.images[0].height), (2, 2));
    }
    // Four levels up is further than the search goes: a warning.
    put_texture(root, "far/data/textures/x.rgb");
    let deep = model_naming(root, "far/a/b/c/d/m.ac", "x.rgb");
    let s = scene::load(&deep).unwrap();
    assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
}

/// An uncompressed 32-bit TGA of 2 x 1 texels with these alphas.
fn tga_with_alphas(a: [u8; 2]) -> Vec<u8> {
    let mut b = vec![0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 32, 8];
    for alpha in a {
        b.extend([10, 200, 30, alpha]);
    }
    b
}

#[test]
fn a_texture_with_cut_out_texels_makes_the_material_masked() {
    let dir = tempfile::tempdir().unwrap();
    let model = model_naming(dir.path(), "m.ac", "leaf.tga");
    for (alphas, alpha) in [([255, 0], AlphaMode::Mask), ([255, 200], AlphaMode::Opaque)] {
        std::fs::write(dir.path().join("leaf.tga"), tga_with_alphas(alphas)).unwrap();
        let s = scene::load(&model).unwrap();
        assert!(s.warnings.is_empty(), "{:?}", s.warnings);
        assert_eq!(s.images[0].texels[1][3], alphas[1]);
        assert_eq!(s.materials[0].alpha, alpha, "alphas {alphas:?}");
    }
    // A material that blends (trans > 0) keeps blending.
    let text = std::fs::read_to_string(&model).unwrap().replace(
        "AC3Db\n",
        "AC3Db\nMATERIAL \"glass\" rgb 1 1 1 amb 0 0 0 emis 0 0 0 spec 0 0 0 shi 0 trans 0.5\n",
    );
    std::fs::write(dir.path().join("leaf.tga"), tga_with_alphas([255, 0])).unwrap();
    let s = scene::ac3d::parse_str(&text, &model).unwrap();
    assert_eq!(s.materials[0].alpha, AlphaMode::Blend);
}
