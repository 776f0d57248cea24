//! Scene-file loaders on tiny hand-written fixtures (tests/fixtures) and on
//! files written into a temporary directory: exact vertex and triangle
//! counts, transforms, material values, polygon triangulation, textures
//! as the models name them, and the error and fallback cases (the texture
//! decoders alone are in `textures.rs`).

use std::path::{Path, PathBuf};

use gfxcache_render::scene::{self, checkerboard, SceneError};
use gfxcache_render::{AlphaMode, Scene, TexFormat, Vec3};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-5
}

fn close3(a: Vec3, b: Vec3) -> bool {
    close(a.x, b.x) && close(a.y, b.y) && close(a.z, b.z)
}

/// Every mesh keeps the model's promises: one normal and uv per position,
/// indices in range.
fn assert_well_formed(s: &Scene) {
    for m in &s.meshes {
        assert_eq!(m.normals.len(), m.positions.len(), "{}", m.name);
        assert_eq!(m.uvs.len(), m.positions.len(), "{}", m.name);
        assert_eq!(m.indices.len() % 3, 0);
        assert!(m.indices.iter().all(|&i| (i as usize) < m.positions.len()));
        assert!(m.material < s.materials.len());
    }
    for i in &s.instances {
        assert!(i.mesh < s.meshes.len());
    }
    for img in &s.images {
        assert_eq!(img.texels.len(), (img.width * img.height) as usize);
    }
    for m in &s.materials {
        if let Some(t) = m.texture {
            assert!(t < s.images.len());
        }
    }
}

// ---------------------------------------------------------------- OBJ

#[test]
fn obj_meshes_materials_and_texture() {
    let s = scene::load(&fixture("tri.obj")).unwrap();
    assert_well_formed(&s);
    assert_eq!(s.name, "tri");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert_eq!(s.meshes.len(), 2);
    let quad = &s.meshes[0];
    assert_eq!(quad.name, "quad");
    assert_eq!((quad.positions.len(), quad.triangle_count()), (4, 2));
    // Smooth normals of a quad in the z = 0 plane, counter-clockwise: +Z.
    assert!(quad
        .normals
        .iter()
        .all(|&n| close3(n, Vec3::new(0.0, 0.0, 1.0))));
    // OBJ v points up the image; the model's v points down it.
    let uv_of = |p: Vec3| quad.uvs[quad.positions.iter().position(|&q| q == p).unwrap()];
    let uv = uv_of(Vec3::new(1.0, 1.0, 0.0));
    assert!(close(uv.x, 1.0) && close(uv.y, 0.0));
    let uv = uv_of(Vec3::new(0.0, 0.0, 0.0));
    assert!(close(uv.x, 0.0) && close(uv.y, 1.0));
    let tri = &s.meshes[1];
    assert_eq!((tri.positions.len(), tri.triangle_count()), (3, 1));
    assert_eq!(s.instances.len(), 2);
    assert_eq!(s.triangle_count(), 3);

    let red = &s.materials[quad.material];
    assert_eq!(red.name, "red");
    assert_eq!(red.base_color, [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(red.emissive, [0.5, 0.25, 0.0]);
    assert_eq!(red.alpha, AlphaMode::Opaque);
    let img = &s.images[red.texture.unwrap()];
    assert_eq!(
        (img.width, img.height, img.format),
        (2, 2, TexFormat::Rgba8)
    );
    // TGA rows top first: red, green / blue, half-transparent white.
    assert_eq!(
        img.texels,
        vec![
            [255, 0, 0, 255],
            [0, 255, 0, 255],
            [0, 0, 255, 255],
            [255, 255, 255, 128]
        ]
    );
    let glass = &s.materials[tri.material];
    assert_eq!(glass.base_color, [0.0, 0.0, 1.0, 0.25]);
    assert_eq!(glass.alpha, AlphaMode::Blend);
    assert_eq!(glass.texture, None);

    // No camera in the file: the framing camera looks at the centre.
    let cam = s.camera.keys[0];
    assert_eq!(s.camera.keys.len(), 1);
    assert!(close3(cam.target, Vec3::new(0.5, 0.5, 0.5)));
    assert_eq!(s.light, gfxcache_render::Light::default());
}

#[test]
fn obj_faces_are_triangulated_concave_ones_by_ear_clipping() {
    // A convex quad (fanned from its first corner, as before), then the
    // notched square of the AC3D test as one face: 2 + 3 triangles, all
    // facing +z, covering 1 + 3.5.
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "faces.obj",
        b"v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n\
          v 2 0 0\nv 2 2 0\nv 0 2 0\nv 0 0 0\nv 1 0.5 0\nf 5 6 7 8 9\n",
    );
    let s = scene::load(&p).unwrap();
    assert_well_formed(&s);
    let m = &s.meshes[0];
    assert_eq!(m.triangle_count(), 5);
    assert_eq!(m.indices[..6], [0, 1, 2, 0, 2, 3]);
    assert_covers_once(m, 9.0);
}

#[test]
fn obj_out_of_range_index_is_an_error_with_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "bad.obj",
        b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n",
    );
    let e = scene::load(&p).unwrap_err();
    match &e {
        SceneError::Line { path, line, msg } => {
            assert_eq!(path, &p);
            assert_eq!(*line, 4);
            assert!(msg.contains("index 9"), "{msg}");
        }
        other => panic!("expected a line error, got {other}"),
    }
    assert!(e.to_string().contains("bad.obj:4"), "{e}");
    // Relative indices reaching before the first vertex, and index 0.
    for face in ["f -1 -2 -4\n", "f 0 1 2\n", "f 1/5 2 3\n"] {
        let p = write(
            dir.path(),
            "rel.obj",
            format!("v 0 0 0\nv 1 0 0\nv 0 1 0\n{face}").as_bytes(),
        );
        assert!(
            matches!(scene::load(&p), Err(SceneError::Line { line: 4, .. })),
            "{face}"
        );
    }
}

#[test]
fn obj_missing_texture_and_mtl_are_warnings_with_fallbacks() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "m.mtl",
        b"newmtl a\nKd 0.5 0.5 0.5\nmap_Kd nowhere.png\n",
    );
    let p = write(
        dir.path(),
        "m.obj",
        b"mtllib m.mtl\nmtllib gone.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\nusemtl b\nf 3 2 1\n",
    );
    let s = scene::load(&p).unwrap();
    assert_well_formed(&s);
    assert_eq!(s.warnings.len(), 2, "{:?}", s.warnings);
    assert!(s.warnings.iter().any(|w| w.contains("gone.mtl")));
    assert!(s
        .warnings
        .iter()
        .any(|w| w.contains("nowhere.png") && w.contains("checkerboard")));
    let a = &s.materials[s.meshes[0].material];
    assert_eq!(a.name, "a");
    let img = &s.images[a.texture.unwrap()];
    assert_eq!(img, &checkerboard("nowhere.png"));
    assert_eq!((img.width, img.height), (64, 64));
    // 8x8-texel squares alternate.
    assert_ne!(img.texels[0], img.texels[8]);
    assert_eq!(img.texels[0], img.texels[16]);
    assert_ne!(img.texels[0], img.texels[8 * 64]);
    // Material 'b' came from the missing MTL: the default material.
    let b = &s.materials[s.meshes[1].material];
    assert_eq!(b.base_color, [1.0; 4]);
    assert_eq!(b.texture, None);
}

#[test]
fn obj_mtllib_may_name_several_libraries() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.mtl", b"newmtl a\nKd 1 0 0\n");
    write(dir.path(), "b.mtl", b"newmtl b\nKd 0 0 1\n");
    let p = write(
        dir.path(),
        "m.obj",
        b"mtllib a.mtl gone.mtl b.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\nusemtl b\nf 3 2 1\n",
    );
    let s = scene::load(&p).unwrap();
    assert_well_formed(&s);
    assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
    assert!(s.warnings[0].contains("gone.mtl"), "{:?}", s.warnings);
    let colours: Vec<[f32; 4]> = s
        .meshes
        .iter()
        .map(|m| s.materials[m.material].base_color)
        .collect();
    assert_eq!(colours, [[1.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]]);
    // A library whose own name holds a space is still one library.
    write(dir.path(), "my lib.mtl", b"newmtl a\nKd 0 1 0\n");
    let p = write(
        dir.path(),
        "s.obj",
        b"mtllib my lib.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n",
    );
    let s = scene::load(&p).unwrap();
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    assert_eq!(
        s.materials[s.meshes[0].material].base_color,
        [0.0, 1.0, 0.0, 1.0]
    );
}

#[test]
fn obj_bad_mtl_colour_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let mtl = write(dir.path(), "m.mtl", b"newmtl a\nKd 0.5 0.5\n");
    let p = write(
        dir.path(),
        "m.obj",
        b"mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n",
    );
    match scene::load(&p) {
        Err(SceneError::Line { path, line: 2, .. }) => assert_eq!(path, mtl),
        other => panic!("expected an MTL line error, got {other:?}"),
    }
    std::fs::write(&mtl, b"newmtl a\nKd 0.5 nan 0.5\n").unwrap();
    assert!(matches!(
        scene::load(&p),
        Err(SceneError::Line { line: 2, .. })
    ));
}

#[test]
fn obj_non_finite_numbers_are_errors_with_the_line() {
    let dir = tempfile::tempdir().unwrap();
    for (bad, line) in [
        ("v nan 0 0", 1),
        ("v 1 inf 0", 1),
        ("v 0 0 1e39", 1),
        ("vt 0 -inf", 4),
        ("vn NaN 0 1", 4),
    ] {
        let text = if line == 1 {
            format!("{bad}\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
        } else {
            format!("v 0 0 0\nv 1 0 0\nv 0 1 0\n{bad}\nf 1 2 3\n")
        };
        let p = write(dir.path(), "n.obj", text.as_bytes());
        match scene::load(&p) {
            Err(SceneError::Line { line: l, msg, .. }) => {
                assert_eq!(l, line, "{bad}");
                assert!(msg.contains("finite numbers"), "{msg}");
            }
            other => panic!("{bad}: expected a line error, got {other:?}"),
        }
    }
}

#[test]
fn unsupported_scene_extension() {
    assert!(matches!(
        scene::load(Path::new("x.fbx")),
        Err(SceneError::Unsupported { .. })
    ));
}

// ---------------------------------------------------------------- glTF

/// A tiny glTF: one textured triangle (u16 indices, no normals), used by
/// two nodes (one under a translated parent), a POINTS primitive to skip,
/// a camera and a directional light. Returns (JSON, BIN).
fn gltf_parts(buffer_uri: Option<&str>) -> (String, Vec<u8>) {
    let mut bin = Vec::new();
    for p in [[0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]] {
        for c in p {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    for t in [[0f32, 0.0], [1.0, 0.0], [0.0, 1.0]] {
        for c in t {
            bin.extend_from_slice(&c.to_le_bytes());
        }
    }
    for i in [0u16, 1, 2] {
        bin.extend_from_slice(&i.to_le_bytes());
    }
    bin.extend_from_slice(&[0, 0]); // pad to 4
    let uri = buffer_uri
        .map(|u| format!(r#", "uri": "{u}""#))
        .unwrap_or_default();
    let json = format!(
        r#"{{
  "asset": {{"version": "2.0"}},
  "extensionsUsed": ["KHR_lights_punctual"],
  "extensions": {{"KHR_lights_punctual": {{"lights": [{{"type": "directional", "color": [1, 0.5, 0.25]}}]}}}},
  "scene": 0,
  "scenes": [{{"nodes": [0, 2, 3, 4]}}],
  "nodes": [
    {{"translation": [10, 0, 0], "children": [1]}},
    {{"scale": [2, 2, 2], "mesh": 0}},
    {{"mesh": 0, "translation": [0, 0, -3]}},
    {{"camera": 0, "translation": [0, 1, 5]}},
    {{"extensions": {{"KHR_lights_punctual": {{"light": 0}}}}}}
  ],
  "cameras": [{{"type": "perspective", "perspective": {{"yfov": 0.8, "znear": 0.5, "zfar": 50}}}}],
  "meshes": [{{"name": "tri", "primitives": [
    {{"attributes": {{"POSITION": 0, "TEXCOORD_0": 1}}, "indices": 2, "material": 0}},
    {{"attributes": {{"POSITION": 0}}, "mode": 0}}
  ]}}],
  "materials": [{{"name": "m", "pbrMetallicRoughness": {{"baseColorFactor": [0.5, 0.25, 1, 0.75], "baseColorTexture": {{"index": 0}}}},
    "alphaMode": "MASK", "doubleSided": true, "emissiveFactor": [1, 0, 0]}}],
  "textures": [{{"source": 0}}],
  "images": [{{"uri": "tex2x2.tga"}}],
  "buffers": [{{"byteLength": {len}{uri}}}],
  "bufferViews": [
    {{"buffer": 0, "byteOffset": 0, "byteLength": 36}},
    {{"buffer": 0, "byteOffset": 36, "byteLength": 24}},
    {{"buffer": 0, "byteOffset": 60, "byteLength": 6}}
  ],
  "accessors": [
    {{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}},
    {{"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"}},
    {{"bufferView": 2, "componentType": 5123, "count": 3, "type": "SCALAR"}}
  ]
}}"#,
        len = bin.len()
    );
    (json, bin)
}

fn glb(json: &str, bin: &[u8]) -> Vec<u8> {
    let mut j = json.as_bytes().to_vec();
    while !j.len().is_multiple_of(4) {
        j.push(b' ');
    }
    let total = 12 + 8 + j.len() + 8 + bin.len();
    let mut f = Vec::new();
    f.extend_from_slice(b"glTF");
    f.extend_from_slice(&2u32.to_le_bytes());
    f.extend_from_slice(&(total as u32).to_le_bytes());
    f.extend_from_slice(&(j.len() as u32).to_le_bytes());
    f.extend_from_slice(b"JSON");
    f.extend_from_slice(&j);
    f.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    f.extend_from_slice(b"BIN\0");
    f.extend_from_slice(bin);
    f
}

fn check_gltf_scene(s: &Scene) {
    assert_well_formed(s);
    // The triangle once, instanced twice; the POINTS primitive skipped.
    assert_eq!(s.meshes.len(), 1);
    assert_eq!(s.instances.len(), 2);
    assert_eq!(s.triangle_count(), 2);
    assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
    assert!(s.warnings[0].contains("Points"), "{:?}", s.warnings);
    let m = &s.meshes[0];
    assert_eq!((m.positions.len(), m.indices.clone()), (3, vec![0, 1, 2]));
    assert!(m
        .normals
        .iter()
        .all(|&n| close3(n, Vec3::new(0.0, 0.0, 1.0))));
    assert_eq!(m.uvs[1], gfxcache_render::Vec2::new(1.0, 0.0));
    // Parent translation then child scale: (1,0,0) -> (12,0,0).
    let p = s.instances[0]
        .transform
        .transform_point(Vec3::new(1.0, 0.0, 0.0))
        .truncate();
    assert!(close3(p, Vec3::new(12.0, 0.0, 0.0)), "{p:?}");
    let p = s.instances[1]
        .transform
        .transform_point(Vec3::new(1.0, 0.0, 0.0))
        .truncate();
    assert!(close3(p, Vec3::new(1.0, 0.0, -3.0)), "{p:?}");
    let mat = &s.materials[m.material];
    assert_eq!(mat.name, "m");
    assert_eq!(mat.base_color, [0.5, 0.25, 1.0, 0.75]);
    assert_eq!(mat.alpha, AlphaMode::Mask);
    assert!(mat.double_sided);
    assert_eq!(mat.emissive, [1.0, 0.0, 0.0]);
    let img = &s.images[mat.texture.unwrap()];
    assert_eq!(
        (img.width, img.height, img.texels[0]),
        (2, 2, [255, 0, 0, 255])
    );
    let cam = s.camera.keys[0];
    assert!(close3(cam.eye, Vec3::new(0.0, 1.0, 5.0)));
    assert!(close3(cam.target, Vec3::new(0.0, 1.0, 4.0)));
    assert!(close(cam.fov_y, 0.8) && close(cam.near, 0.5) && close(cam.far, 50.0));
    assert!(close3(s.light.direction, Vec3::new(0.0, 0.0, -1.0)));
    assert_eq!(s.light.color, [1.0, 0.5, 0.25]);
}

#[test]
fn gltf_with_external_buffer_and_glb() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("tex2x2.tga"), dir.path().join("tex2x2.tga")).unwrap();
    let (json, bin) = gltf_parts(Some("tri.bin"));
    write(dir.path(), "tri.bin", &bin);
    let p = write(dir.path(), "tri.gltf", json.as_bytes());
    let s = scene::load(&p).unwrap();
    assert_eq!(s.name, "tri");
    check_gltf_scene(&s);

    let (json, bin) = gltf_parts(None);
    let p = write(dir.path(), "tri.GLB", &glb(&json, &bin));
    check_gltf_scene(&scene::load(&p).unwrap());
}

#[test]
fn gltf_missing_image_is_a_warning_and_truncated_glb_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let (json, bin) = gltf_parts(None);
    let full = glb(&json, &bin);
    let p = write(dir.path(), "t.glb", &full);
    let s = scene::load(&p).unwrap();
    assert_eq!(s.warnings.len(), 2, "{:?}", s.warnings);
    let img = &s.images[s.materials[0].texture.unwrap()];
    assert_eq!((img.width, img.height), (64, 64));

    for cut in [10, full.len() - 20, full.len() - 1] {
        let p = write(dir.path(), "cut.glb", &full[..cut]);
        let e = scene::load(&p).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.contains("cut.glb") && msg.contains("truncated GLB"),
            "{msg}"
        );
    }
    // An accessor overrunning its view is an error, not a panic.
    let bad = json.replace(
        r#""count": 3, "type": "VEC2""#,
        r#""count": 4, "type": "VEC2""#,
    );
    let p = write(dir.path(), "bad.glb", &glb(&bad, &bin));
    let msg = scene::load(&p).unwrap_err().to_string();
    assert!(
        msg.contains("accessor 1") && msg.contains("overrun"),
        "{msg}"
    );
}

// ---------------------------------------------------------------- AC3D

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
    match scene::ac3d::parse_str(text, Path::new("m.ac")) {
        Err(SceneError::Line { path, line, msg }) => {
            assert_eq!(path, Path::new("m.ac"));
            (line, msg)
        }
        other => panic!("expected a line error, got {other:?}"),
    }
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

/// Mesh `m`, flat in the xy plane, covers `twice_area` once: every
/// triangle faces +z and their areas add up to it.
fn assert_covers_once(m: &gfxcache_render::Mesh, twice_area: f32) {
    let areas: Vec<f32> = m
        .indices
        .chunks(3)
        .map(|t| {
            let [a, b, c] = [0, 1, 2].map(|k| m.positions[t[k] as usize]);
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        })
        .collect();
    assert!(areas.iter().all(|&a| a > 0.0), "{areas:?}");
    assert!(close(areas.iter().sum::<f32>(), twice_area), "{areas:?}");
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

// ---------------------------------------------------------------- TOML

#[test]
fn example_scene_toml_loads() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/scenes/example.toml");
    let s = scene::load(&p).unwrap();
    assert_well_formed(&s);
    assert_eq!(s.name, "example");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    // tri.obj (2 meshes, 3 triangles) placed twice and box.ac (2 meshes,
    // 3 triangles): the second tri.obj is instances of the first's meshes,
    // with its materials and texture.
    assert_eq!(s.meshes.len(), 4);
    assert_eq!(s.instances.len(), 6);
    assert_eq!(s.triangle_count(), 3 + 3 + 3);
    assert_eq!(s.images.len(), 2);
    assert_eq!(s.instances[2].mesh, s.instances[0].mesh);
    assert_eq!(s.instances[3].mesh, s.instances[1].mesh);
    // Second model: translate (3,0,0), rotate 90 degrees about y, scale 1.5:
    // (1,0,0) -> (0,0,-1.5) -> (3,0,-1.5).
    let p = s.instances[2]
        .transform
        .transform_point(Vec3::new(1.0, 0.0, 0.0))
        .truncate();
    assert!(close3(p, Vec3::new(3.0, 0.0, -1.5)), "{p:?}");
    // Third model's materials are reflective, the others not.
    assert!(s.materials[s.meshes[2].material].reflective);
    assert!(!s.materials[s.meshes[0].material].reflective);
    assert_eq!(s.camera.keys.len(), 2);
    let c = s.camera.keys[0];
    assert!(close3(c.eye, Vec3::new(0.0, 3.0, 8.0)) && close(c.fov_y, 50f32.to_radians()));
    assert!(close(c.near, 0.1) && close(c.far, 100.0));
    assert!(close(s.camera.keys[1].far, 1000.0));
    assert_eq!(s.light.color, [1.0, 0.95, 0.85]);
    assert_eq!(s.mirror, Some(gfxcache_render::Mirror { height: -0.5 }));
    assert_eq!(s.sky, [0.3, 0.45, 0.7]);
    assert!(!s.passes.deferred && s.passes.shadow);
}

#[test]
fn a_toml_model_can_be_the_scene_interface() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/s.toml");
    let text = "[[model]]\npath = \"tri.obj\"\n[[model]]\npath = \"tri.obj\"\ninterface = true\n";
    let s = scene::toml_scene::parse_str(text, &p).unwrap();
    assert!(s.has_interface());
    let flags: Vec<bool> = s
        .instances
        .iter()
        .map(|i| s.material_of(i).interface)
        .collect();
    // The second model's instances, and only they.
    let half = flags.len() / 2;
    assert!(half > 0 && flags[..half].iter().all(|f| !f) && flags[half..].iter().all(|&f| f));
    let (line, msg) = toml_error("[[model]]\npath = \"tri.obj\"\ninterface = 1\n");
    assert_eq!(line, 3, "{msg}");
}

fn toml_error(text: &str) -> (usize, String) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/s.toml");
    match scene::toml_scene::parse_str(text, &dir) {
        Err(SceneError::Line { line, msg, .. }) => (line, msg),
        other => panic!("expected a line error, got {:?}", other.map(|s| s.name)),
    }
}

#[test]
fn scene_toml_errors_name_the_line() {
    let (line, msg) =
        toml_error("[[model]]\npath = \"tri.obj\"\n\n[passes]\nshadow = true\nbloom = false\n");
    assert_eq!(line, 6);
    assert!(msg.contains("bloom"), "{msg}");
    let (line, msg) = toml_error("[[model]]\npath = \"tri.obj\"\nposition = [0, 0]\n");
    assert_eq!(line, 3, "{msg}");
    let (line, msg) = toml_error("[[model]]\npath = \"tri.obj\"\n[[model]]\npath = \"gone.obj\"\n");
    assert_eq!(line, 3);
    assert!(msg.contains("gone.obj"), "{msg}");
    let (line, msg) = toml_error("[[model]]\npath = \"s.toml\"\n");
    assert_eq!(line, 1);
    assert!(msg.contains(".obj"), "{msg}");
    let (line, _) = toml_error("[[model]]\npath = \"tri.obj\"\n[[camera]]\neye = [0, 0, 1]\ntarget = [0, 0, 0]\nnear = 0\n");
    assert_eq!(line, 3);
    let (line, _) = toml_error("sky = [1, 1, 1]\n");
    assert_eq!(line, 1);
    // A scene without cameras gets the framing camera; defaults elsewhere.
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/s.toml");
    let s = scene::toml_scene::parse_str("[[model]]\npath = \"tri.obj\"\nscale = [1, 2, 3]\n", &p)
        .unwrap();
    assert_eq!(s.name, "s");
    assert_eq!(s.camera.keys.len(), 1);
    assert_eq!(s.passes, gfxcache_render::Passes::default());
    assert_eq!(s.light, gfxcache_render::Light::default());
    let q = s.instances[0]
        .transform
        .transform_point(Vec3::new(1.0, 1.0, 1.0))
        .truncate();
    assert!(close3(q, Vec3::new(1.0, 2.0, 3.0)));
}

#[test]
fn gltf_node_with_two_parents_is_an_error() {
    let (json, bin) = gltf_parts(None);
    // Node 2 also becomes a child of node 0 (it is a root of the scene too).
    let bad = json.replace(r#""children": [1]"#, r#""children": [1, 2]"#);
    let e = scene::gltf::parse_bytes(&glb(&bad, &bin), Path::new("two.glb")).unwrap_err();
    assert!(e.to_string().contains("node 2 is reached twice"), "{e}");
}

#[test]
fn gltf_accessor_of_the_wrong_type_is_an_error() {
    // Float indices made the gltf crate's reader hit `unreachable!()`.
    let (json, bin) = gltf_parts(None);
    let bad = json.replace(r#""componentType": 5123"#, r#""componentType": 5126"#);
    let e = scene::gltf::parse_bytes(&glb(&bad, &bin), Path::new("t.glb")).unwrap_err();
    assert!(e.to_string().contains("indices accessor 2"), "{e}");
    let bad = json.replace(
        r#""count": 3, "type": "VEC2""#,
        r#""count": 3, "type": "VEC3""#,
    );
    let e = scene::gltf::parse_bytes(&glb(&bad, &bin), Path::new("t.glb")).unwrap_err();
    assert!(e.to_string().contains("TexCoords(0) accessor 1"), "{e}");
}

#[test]
fn gltf_non_finite_positions_and_uvs_are_errors() {
    // Byte 16: vertex 1's y; byte 44: vertex 1's u (see `gltf_parts`).
    for (at, value, attribute) in [
        (16, f32::NAN, "POSITION of vertex 1"),
        (16, f32::INFINITY, "POSITION of vertex 1"),
        (44, f32::NEG_INFINITY, "TEXCOORD_0 of vertex 1"),
    ] {
        let (json, mut bin) = gltf_parts(None);
        bin[at..at + 4].copy_from_slice(&value.to_le_bytes());
        let e = scene::gltf::parse_bytes(&glb(&json, &bin), Path::new("t.glb")).unwrap_err();
        assert!(e.to_string().contains(attribute), "{e}");
        assert!(e.to_string().contains("t.glb"), "{e}");
    }
}

/// A tiny forward frame of a scene file's own, into the display.
const OWN_FRAME: &str = "[[model]]\npath = \"tri.obj\"\n\
[[target]]\nname = \"depth\"\nformat = \"d24s8\"\n\
[[target]]\nname = \"sun\"\nformat = \"d32f\"\nsquare = 512\n\
[[target]]\nname = \"screen\"\nformat = \"display\"\n\
[[pass]]\nname = \"sun\"\nop = \"shadow\"\ndepth = \"sun\"\n\
[[pass]]\nname = \"main\"\nop = \"forward\"\ncolor = [\"screen\"]\ndepth = \"depth\"\nreads = { shadow = [\"sun\"] }\n";

#[test]
fn a_scene_file_names_a_preset_or_gives_its_own_frame() {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/s.toml");
    let s = scene::toml_scene::parse_str(
        "preset = \"mobile-forward\"\n[[model]]\npath = \"tri.obj\"\n",
        &p,
    )
    .unwrap();
    assert_eq!(s.preset, gfxcache_render::Preset::MobileForward);
    assert!(s.graph.is_none());
    let s = scene::toml_scene::parse_str(OWN_FRAME, &p).unwrap();
    let g = s.graph.as_ref().expect("the file's own frame");
    let names: Vec<&str> = g.passes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["sun", "main"]);
    // It renders: the main pass reads the sun's map.
    let cfg = gfxcache_render::frame::FrameConfig::new(64, 48);
    let mut r = gfxcache_render::frame::FrameRenderer::new(&s, cfg).unwrap();
    let mut recs = Vec::new();
    let summary = r.render(0, 1, &mut |x| recs.push(x));
    let drawn: Vec<&str> = summary.passes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(drawn, ["sun", "main"]);
    assert_eq!(r.depth_target("sun").unwrap().width(), 512 * 48 / 1080 + 1);
}

#[test]
fn scene_file_frame_errors_name_the_line() {
    let (line, msg) = toml_error("preset = \"dx12\"\n[[model]]\npath = \"tri.obj\"\n");
    assert_eq!(line, 1);
    assert!(msg.contains("dx11-deferred"), "{msg}");
    // A pass that reads what nothing drew: the line of its table.
    let bad = OWN_FRAME.replace(
        "reads = { shadow = [\"sun\"] }",
        "reads = { shadow = [\"depth\"] }",
    );
    let (line, msg) = toml_error(&bad);
    assert_eq!(line, 17, "{msg}");
    assert!(
        msg.contains("pass 'main'") && msg.contains("no earlier pass"),
        "{msg}"
    );
    let (line, msg) = toml_error(&OWN_FRAME.replace("\"d32f\"", "\"d16\""));
    assert_eq!(line, 6, "{msg}");
    assert!(msg.contains("unknown format"), "{msg}");
    let (line, msg) = toml_error(&format!("preset = \"classic\"\n{OWN_FRAME}"));
    assert_eq!(line, 1, "{msg}");
    assert!(msg.contains("not both"), "{msg}");
    let (line, msg) = toml_error(&OWN_FRAME.replace("op = \"forward\"", "op = \"raytrace\""));
    assert_eq!(line, 17, "{msg}");
    assert!(msg.contains("unknown op"), "{msg}");
}
