//! The scene fuzz targets' entry points (fuzz/fuzz_targets/{ac3d,
//! scene_toml,texture}.rs) run on stable over the seed corpus and
//! thousands of deterministic mutations of it, so CI exercises what
//! `cargo fuzz` does: any input gives a scene (or image) or an error,
//! never a panic.

use std::path::{Path, PathBuf};

use gfxcache_render::scene::{ac3d, decode_image, toml_scene};

fn seeds(target: &str) -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/seeds")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no seeds in {}", dir.display());
    files.iter().map(|f| std::fs::read(f).unwrap()).collect()
}

/// xorshift64*: deterministic mutations, the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Tokens that steer text mutations into the parsers' interesting paths.
const TOKENS: &[&[u8]] = &[
    b"OBJECT poly\n",
    b"kids 1\n",
    b"kids 99999\n",
    b"numvert 2\n",
    b"numsurf 1\n",
    b"SURF 0x20\n",
    b"refs 3\n",
    b"mat 7\n",
    b"data 1000\n",
    b"\"",
    b"-1",
    b"nan",
    b"1e39",
    b"\n",
    b"[[model]]\n",
    b"[[camera]]\n",
    b"= [",
    b"]",
    b"0xFFFF",
    b"\xff\xff\xff\xff",
    b"\x00\x00",
];

fn mutate(rng: &mut Rng, seed: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(5) {
            0 if !v.is_empty() => {
                let i = at.min(v.len() - 1);
                v[i] ^= 1 << rng.below(8);
            }
            1 if !v.is_empty() => {
                let i = at.min(v.len() - 1);
                v[i] = rng.next() as u8;
            }
            2 => v.truncate(at),
            3 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                v.splice(at..at, t.iter().copied());
            }
            _ => {
                let end = (at + rng.below(16)).min(v.len());
                v.drain(at..end);
            }
        }
    }
    v
}

fn run(target: &str, n: usize, f: impl Fn(&[u8])) {
    let seeds = seeds(target);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for s in &seeds {
        f(s);
    }
    for _ in 0..n {
        let s = &seeds[rng.below(seeds.len())];
        f(&mutate(&mut rng, s));
    }
}

#[test]
fn ac3d_never_panics() {
    run("ac3d", 5000, |data| {
        let text = String::from_utf8_lossy(data);
        let _ = ac3d::parse_str(&text, Path::new("/nonexistent-fuzz-dir/fuzz.ac"));
    });
    // The seeds themselves parse.
    for s in seeds("ac3d") {
        ac3d::parse_str(
            &String::from_utf8_lossy(&s),
            Path::new("/nonexistent-fuzz-dir/s.ac"),
        )
        .unwrap();
    }
}

#[test]
fn scene_toml_never_panics() {
    run("scene_toml", 5000, |data| {
        let _ = toml_scene::from_bytes(data, Path::new("/nonexistent-fuzz-dir/fuzz.toml"));
    });
}

#[test]
fn texture_decoders_never_panic() {
    run("texture", 5000, |data| {
        let _ = decode_image(data, Path::new("fuzz.tga"));
    });
    for s in seeds("texture") {
        decode_image(&s, Path::new("fuzz.tga")).unwrap();
    }
}

#[test]
fn obj_never_panics() {
    run("obj", 5000, |data| {
        let text = String::from_utf8_lossy(data);
        let _ = gfxcache_render::scene::obj::parse_str(
            &text,
            Path::new("/nonexistent-fuzz-dir/fuzz.obj"),
        );
    });
}

#[test]
fn gltf_never_panics() {
    run("gltf", 5000, |data| {
        let _ = gfxcache_render::scene::gltf::parse_bytes(
            data,
            Path::new("/nonexistent-fuzz-dir/fuzz.glb"),
        );
    });
    // Inputs the fuzzer once crashed on (fuzz/regressions/gltf).
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions/gltf");
    for f in std::fs::read_dir(dir).unwrap() {
        let bytes = std::fs::read(f.unwrap().path()).unwrap();
        let _ = gfxcache_render::scene::gltf::parse_bytes(
            &bytes,
            Path::new("/nonexistent-fuzz-dir/r.glb"),
        );
    }
    for s in seeds("gltf") {
        let scene =
            gfxcache_render::scene::gltf::parse_bytes(&s, Path::new("/nonexistent-fuzz-dir/s.glb"))
                .unwrap();
        assert_eq!(scene.triangle_count(), 1);
    }
}
