//! The `shader_census` fuzz target's entry point
//! (fuzz/fuzz_targets/shader_census.rs) on stable, over the seed corpus
//! (hand-written shaders) and thousands of deterministic mutations of it,
//! so CI exercises what `cargo fuzz` does: any input is counted or not
//! counted with a reason — never a panic, and never one caught from
//! naga's thread either (that reason would name it) — and text at the
//! shim's depth limits goes through naga on the stack it is given.

use std::path::{Path, PathBuf};

use gfxcache_shaders::{count_source, shim, Define, NotCounted, Stage};

fn seeds() -> Vec<Vec<u8>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/seeds/shader_census");
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

/// Tokens that steer mutations into the shim's and naga's paths.
const TOKENS: &[&[u8]] = &[
    b"uniform sampler2D t;\n",
    b"uniform lowp samplerCube c, d;\n",
    b"texture2D(",
    b"textureCube(",
    b"texture2DProj(",
    b"$MAIN$",
    b"#define X(a) a\n",
    b"#if X\n",
    b"#else\n",
    b"#endif\n",
    b"#version 100\n",
    b"#version 450\n",
    b"precision mediump float;\n",
    b"(",
    b")",
    b"{",
    b"}",
    b"[",
    b"]",
    b";",
    b",",
    b"for (int i = 0; i < 4; i++) ",
    b"while (true) ",
    b"if (",
    b"else ",
    b"? 1.0 : ",
    b"discard;",
    b"return ",
    b"gl_FragColor",
    b"gl_TexCoord[0]",
    b"varying vec4 v;\n",
    b"attribute vec3 a;\n",
    b"struct S { float x; };\n",
    b"mat4",
    b"vec3",
    b"int",
    b"bool",
    b"f(",
    b"main",
    b" / ",
    b" * ",
    b"-",
    b"!",
    b"1e39",
    b"0x7fffffff",
    b"\n",
    b"/*",
    b"//",
    b"\\\n",
    b"\xff",
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

/// What the fuzz target does with one input; a panic caught from naga's
/// thread fails the test too, with the input.
fn census(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let defines = [Define {
        name: "HIGHP_OR_DEFAULT".into(),
        value: "highp".into(),
    }];
    for (stage, defines) in [(Stage::Fragment, &defines[..]), (Stage::Vertex, &[][..])] {
        if let Err(NotCounted { reason, .. }) = count_source(&text, stage, defines) {
            assert!(!reason.contains("panicked"), "{reason}\non input:\n{text}");
        }
    }
}

#[test]
fn shader_census_never_panics() {
    let seeds = seeds();
    for s in &seeds {
        census(s);
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..3000 {
        let s = &seeds[rng.below(seeds.len())];
        census(&mutate(&mut rng, s));
    }
    // The seeds are shaders: all but the template count, as a fragment or
    // a vertex shader.
    let highp = [Define {
        name: "HIGHP_OR_DEFAULT".into(),
        value: "highp".into(),
    }];
    let counted = seeds
        .iter()
        .filter(|s| {
            let text = String::from_utf8_lossy(s);
            [Stage::Fragment, Stage::Vertex]
                .iter()
                .any(|&st| count_source(&text, st, &highp).is_ok())
        })
        .count();
    assert_eq!(counted, seeds.len() - 1);
}

/// Text at each of the shim's depth limits is counted (naga's recursion
/// fits its stack), one step past it is refused with the line.
#[test]
fn the_deepest_text_the_shim_lets_through_fits_naga_s_stack() {
    let ops = shim::MAX_OPERATORS;
    let chain = shim::MAX_ELSE_CHAIN;
    let nest = shim::MAX_NESTING;
    let main = |body: String| {
        format!("varying float a;\nvoid main() {{\n float x = 0.0;\n{body}\n gl_FragColor = vec4(x);\n}}\n")
    };
    let cases = [
        // A chain of adds: `=` is an operator too.
        (|n: usize| format!(" x = {}a;", "a + ".repeat(n - 1))) as fn(usize) -> String,
        |n| format!(" x = {}a;", "- ".repeat(n - 1)),
        |n| format!("{}x = 1.0;", "if (a > 0.0) ".repeat(n / 3)),
    ];
    for case in cases {
        let c = count_source(&main(case(ops)), Stage::Fragment, &[]);
        assert!(c.is_ok(), "{c:?}");
    }
    let e = count_source(
        &main(format!(" x = {}a;", "a + ".repeat(ops))),
        Stage::Fragment,
        &[],
    )
    .unwrap_err();
    assert_eq!(e.line, Some(4), "{e}");
    // An else-if chain, and one more; and chains in nested blocks add up.
    let elses = |n: usize| {
        format!(
            "{}{{ x = 1.0; }}",
            "if (a > 0.0) { x = 1.0; } else ".repeat(n)
        )
    };
    assert!(count_source(&main(elses(chain)), Stage::Fragment, &[]).is_ok());
    assert!(count_source(&main(elses(chain + 1)), Stage::Fragment, &[]).is_err());
    let nested = |inner: usize| {
        format!(
            "{}{{ {} }}",
            "if (a > 0.0) { x = 1.0; } else ".repeat(chain / 2),
            elses(inner)
        )
    };
    assert!(count_source(&main(nested(chain / 2)), Stage::Fragment, &[]).is_ok());
    assert!(count_source(&main(nested(chain / 2 + 1)), Stage::Fragment, &[]).is_err());
    // Brackets, the deepest allowed inside main's braces.
    let parens = format!(" x = {}a{};", "(-".repeat(nest - 1), ")".repeat(nest - 1));
    assert!(count_source(&main(parens), Stage::Fragment, &[]).is_ok());
    let deeper = format!(" x = {}a{};", "(".repeat(nest), ")".repeat(nest));
    assert!(count_source(&main(deeper), Stage::Fragment, &[]).is_err());
}
