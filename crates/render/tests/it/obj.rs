//! The OBJ + MTL loader on tiny hand-written fixtures (tests/fixtures) and
//! files written into a temporary directory: exact counts, materials,
//! triangulation of faces of any corner count, and the error and fallback
//! cases.

use std::path::Path;

use crate::loader_checks::*;
use gfxcache_render::scene::{self, checkerboard, SceneError};
use gfxcache_render::{AlphaMode, TexFormat, Vec3};

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

#[test]
fn obj_sources_are_the_files_read_in_order_missing_ones_included() {
    let s = scene::load(&fixture("tri.obj")).unwrap();
    assert_eq!(
        s.sources,
        [
            fixture("tri.obj"),
            fixture("tri.mtl"),
            fixture("tex2x2.tga")
        ]
    );

    // A missing library and a missing texture are listed (the scene was
    // made without them), a texture two materials share once, and the
    // libraries before the textures, as they are read.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "t.tga", &std::fs::read(fixture("tex2x2.tga")).unwrap());
    write(
        d,
        "m.mtl",
        b"newmtl a\nmap_Kd nowhere.png\nnewmtl b\nmap_Kd t.tga\nnewmtl c\nmap_Kd t.tga\n",
    );
    let text = "mtllib m.mtl\nmtllib gone.mtl\nmtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\nusemtl b\nf 3 2 1\nusemtl c\nf 1 3 2\n";
    let p = write(d, "m.obj", text.as_bytes());
    let s = scene::load(&p).unwrap();
    assert_eq!(
        s.sources,
        [
            p.clone(),
            d.join("m.mtl"),
            d.join("gone.mtl"),
            d.join("nowhere.png"),
            d.join("t.tga"),
        ]
    );
    // Parsed from memory: the files it read from disk, not the OBJ.
    let s = scene::obj::parse_str(text, &d.join("elsewhere.obj")).unwrap();
    assert_eq!(s.sources[0], d.join("m.mtl"));
    assert_eq!(s.sources.len(), 4);
}
