//! The glTF / GLB loader on a tiny glTF written here: node hierarchy,
//! instancing, camera and light, external and embedded buffers, and the
//! error and fallback cases.

use std::path::Path;

use crate::loader_checks::*;
use gfxcache_render::scene;
use gfxcache_render::{AlphaMode, Scene, Vec3};

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

#[test]
fn gltf_sources_are_the_file_its_buffers_and_images() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(fixture("tex2x2.tga"), d.join("tex2x2.tga")).unwrap();
    let (json, bin) = gltf_parts(Some("tri%20data.bin"));
    write(d, "tri data.bin", &bin);
    let p = write(d, "tri.gltf", json.as_bytes());
    let s = scene::load(&p).unwrap();
    assert_eq!(
        s.sources,
        [p.clone(), d.join("tri data.bin"), d.join("tex2x2.tga")]
    );

    // A GLB's buffer is its own chunk; a missing image is listed (the
    // scene has a checkerboard in its place).
    let (json, bin) = gltf_parts(None);
    let sub = d.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let p = write(&sub, "t.glb", &glb(&json, &bin));
    let s = scene::load(&p).unwrap();
    assert_eq!(s.sources, [p.clone(), sub.join("tex2x2.tga")]);

    // A buffer file that cannot be read is an error naming the buffer and
    // the file; so is one shorter than its byteLength.
    let (json, bin) = gltf_parts(Some("gone.bin"));
    let p = write(d, "gone.gltf", json.as_bytes());
    let msg = scene::load(&p).unwrap_err().to_string();
    assert!(
        msg.contains("gone.gltf: buffer 0") && msg.contains("gone.bin"),
        "{msg}"
    );
    write(d, "short.bin", &bin[..bin.len() - 8]);
    let p = write(
        d,
        "short.gltf",
        json.replace("gone.bin", "short.bin").as_bytes(),
    );
    let msg = scene::load(&p).unwrap_err().to_string();
    assert!(
        msg.contains("buffer 0") && msg.contains("byteLength"),
        "{msg}"
    );
    // A URI of another scheme, and %-escapes that are not UTF-8: errors,
    // not a panic.
    for uri in ["http://example.com/x.bin", "%FF%FE.bin"] {
        let p = write(d, "odd.gltf", json.replace("gone.bin", uri).as_bytes());
        let msg = scene::load(&p).unwrap_err().to_string();
        assert!(msg.contains("odd.gltf: buffer 0"), "{msg}");
    }
}
