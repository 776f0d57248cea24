//! Hand-written shaders whose counts are worked out by hand from the
//! rules (`gfxcache_trace::ops` and this crate's doc), line by line in
//! the comments.

use gfxcache_shaders::{count_source, Define, NotCounted, ShaderCount, Stage};
use gfxcache_trace::ShaderOps;

fn frag(src: &str) -> ShaderCount {
    count_source(src, Stage::Fragment, &[]).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// `alu` by width 1-4, then special, branch.
fn ops(alu: [u32; 4], special: u32, branch: u32) -> ShaderOps {
    ShaderOps {
        alu,
        special,
        branch,
    }
}

#[test]
fn a_texture_times_a_colour_is_one_sample_and_one_vec4_multiply() {
    let c = frag(
        "precision mediump float;
         uniform sampler2D tex;
         varying vec2 uv;
         varying vec4 colour;
         void main() { gl_FragColor = texture2D(tex, uv) * colour; }",
    );
    assert_eq!(c.ops, ops([0, 0, 0, 1], 0, 0));
    assert_eq!(c.samples, 1);
    assert!(!c.loops);
    assert_eq!((c.ops.instructions(), c.ops.scalar_ops()), (1, 4));
    assert_eq!(c.instructions_per_sample(), Some(1.0));
    assert_eq!(c.scalar_ops_per_sample(), Some(4.0));
}

#[test]
fn a_loop_body_counts_once_with_its_test_one_branch() {
    let c = frag(
        "uniform sampler2D tex;
         varying vec2 uv;
         void main() {
             vec4 sum = vec4(0.0);
             for (int i = 0; i < 4; i++) {              // i < 4: alu1; the loop: 1 branch; i++: alu1
                 sum += texture2D(tex, uv + float(i) * 0.01); // float(i), * 0.01: alu1 x2; uv +: alu2; +=: alu4; 1 sample
             }
             gl_FragColor = sum;
         }",
    );
    assert_eq!(c.ops, ops([4, 1, 0, 1], 0, 1));
    assert_eq!(c.samples, 1);
    assert!(c.loops);
    // A while loop and a do-while: the same one branch each.
    let w = frag(
        "varying float a;
         void main() { float x = a; while (x < 1.0) { x = x * 2.0; } do { x = x - 0.5; } while (x > 0.0); gl_FragColor = vec4(x); }",
    );
    // x < 1.0, x * 2.0, x - 0.5, x > 0.0: alu1 x4; two loops.
    assert_eq!(w.ops, ops([4, 0, 0, 0], 0, 2));
}

#[test]
fn a_discard_and_its_if_are_two_branches() {
    let c = frag(
        "uniform sampler2D tex; varying vec2 uv;
         void main() {
             vec4 c = texture2D(tex, uv);
             if (c.a < 0.5) discard;  // compare: alu1; the if and the discard: 2 branches
             gl_FragColor = c;
         }",
    );
    assert_eq!(c.ops, ops([1, 0, 0, 0], 0, 2));
    assert_eq!(c.samples, 1);
}

#[test]
fn both_arms_of_an_if_count() {
    let c = frag(
        "varying vec3 a; varying float k;
         void main() {
             vec3 r;
             if (k > 0.5) { r = a * 2.0; } else { r = a + a; r = r * r; } // alu1; alu3 x3; 1 branch
             float t = k > 0.0 ? k : -k;                                   // alu1; a ?: is an if: 1 branch
             gl_FragColor = vec4(r, t);
         }",
    );
    assert_eq!(c.ops, ops([2, 0, 3, 0], 0, 2));
}

#[test]
fn a_function_called_twice_counts_twice() {
    let c = frag(
        "varying vec3 n; varying vec3 l1; varying vec3 l2;
         float lambert(vec3 a, vec3 b) { return max(dot(a, b), 0.0); } // dot: alu3; max: alu1
         void main() {
             float d = lambert(n, l1) + lambert(n, l2);                // twice, and the add: alu1
             gl_FragColor = vec4(d);
         }",
    );
    assert_eq!(c.ops, ops([3, 0, 2, 0], 0, 0));
    assert_eq!((c.ops.instructions(), c.ops.scalar_ops()), (5, 9));
}

#[test]
fn normalize_pow_and_division_use_the_special_function_unit() {
    let c = frag(
        "varying vec3 v; varying float a; varying float b;
         void main() {
             vec3 n = normalize(v);   // dot alu3, rsq 1 special, multiply alu3
             float p = pow(a, 2.5);   // log 1 special, multiply alu1, exp 1 special
             float q = a / b;         // rcp 1 special, multiply alu1
             gl_FragColor = vec4(n * p, q); // alu3
         }",
    );
    assert_eq!(c.ops, ops([2, 0, 3, 0], 4, 0));
    let d = frag(
        "varying vec3 v; varying float a;
         void main() {
             const float g = 1.6;
             vec3 x = v / 2.0;  // by a constant: one multiply, alu3
             vec3 y = v / a;    // a scalar divisor: 1 rcp, alu3
             vec3 z = v / v;    // 3 rcp, alu3
             float w = a / g;   // a constant local: alu1
             float l = length(v); // dot alu3, sqrt 1 special
             gl_FragColor = vec4(x + y + z, w + l); // alu3 x2, alu1
         }",
    );
    assert_eq!(d.ops, ops([2, 0, 6, 0], 5, 0));
}

#[test]
fn a_vec3_dot_and_a_mat4_times_vec4() {
    let c = count_source(
        "attribute vec4 pos; attribute vec3 nrm;
         uniform mat4 mvp; uniform vec3 light;
         varying float d;
         void main() {
             gl_Position = mvp * pos;  // 4 columns: alu4 x4
             d = dot(nrm, light);      // alu3
         }",
        Stage::Vertex,
        &[],
    )
    .unwrap();
    assert_eq!(c.ops, ops([0, 0, 1, 4], 0, 0));
    assert_eq!(c.ops.scalar_ops(), 19);
    let m = frag(
        "uniform mat3 m; uniform mat4 a; uniform mat4 b; varying vec3 v; varying vec4 w;
         void main() {
             vec3 r = v * m;    // a row vector times a mat3: 3 dot products, alu3 x3
             mat4 p = a * b;    // 4 columns of 4 multiply-adds: alu4 x16
             gl_FragColor = p * w + vec4(r, 1.0); // alu4 x4, then the add: alu4
         }",
    );
    assert_eq!(m.ops, ops([0, 0, 3, 21], 0, 0));
}

#[test]
fn mix_clamp_smoothstep_and_mod_by_the_rules() {
    let c = frag(
        "varying vec4 a; varying vec4 b; varying float t;
         void main() {
             vec4 m = mix(a, b, t);               // 2 x alu4
             vec4 c = clamp(m, 0.0, 1.0);         // alu4
             float s = smoothstep(0.0, 1.0, t);   // 4 x alu1
             float r = mod(t, 3.0);               // t / 3.0 (a multiply), floor, multiply, subtract: 4 x alu1
             gl_FragColor = c * s + r;            // alu4 x2
         }",
    );
    assert_eq!(c.ops, ops([8, 0, 0, 5], 0, 0));
}

#[test]
fn an_es_100_shader_in_glmark2_style_counts_after_the_shim() {
    // As glmark2 ships them: no #version, precision in #ifdef GL_ES,
    // loose uniforms, varyings, texture2D, gl_FragColor; and the macros
    // its program injects (HIGHP_OR_DEFAULT) given as definitions.
    let src = "#ifdef GL_ES
precision mediump float;
#endif
uniform sampler2D MaterialTexture0;
uniform lowp samplerCube Environment;
uniform vec4 LightSourceHalfVector;

varying vec4 Color;
varying HIGHP_OR_DEFAULT vec2 TextureCoord;
varying vec3 Normal;

vec4 tint(vec4 c) { return c * Color; }

void main(void)
{
    vec3 N = normalize(Normal);
    float spec = max(dot(N, LightSourceHalfVector.xyz), 0.0);
    vec4 texel = texture2D(MaterialTexture0, TextureCoord);
    vec4 env = textureCube(Environment, N);
    gl_FragColor = tint(texel) + env * spec;
}
";
    let defines = [
        Define {
            name: "GL_ES".into(),
            value: "1".into(),
        },
        Define {
            name: "HIGHP_OR_DEFAULT".into(),
            value: "highp".into(),
        },
    ];
    let c = count_source(src, Stage::Fragment, &defines).unwrap();
    // normalize: alu3 x2 + 1 special; dot alu3; max alu1; tint: alu4;
    // env * spec: alu4; +: alu4. Two samples.
    assert_eq!(c.ops, ops([1, 0, 3, 3], 1, 0));
    assert_eq!(c.samples, 2);
    // Without the definition the macro is an unknown qualifier, at its line.
    let e = count_source(src, Stage::Fragment, &[]).unwrap_err();
    assert_eq!(e.line, Some(9), "{e}");
    assert!(e.reason.contains("HIGHP_OR_DEFAULT"), "{e}");
}

#[test]
fn a_version_100_line_and_a_sampler_precision_statement_are_accepted() {
    let c = frag(
        "#version 100
precision mediump float;
precision lowp sampler2D;
uniform sampler2D t; varying vec2 uv;
void main() { gl_FragColor = texture2D(t, uv) + texture2DProj(t, vec3(uv, 2.0)); }",
    );
    // textureProj divides uv by its last coordinate (1 rcp, alu2); the add alu4.
    assert_eq!(c.samples, 2);
    assert_eq!(c.ops, ops([0, 1, 0, 1], 1, 0));
}

#[test]
fn a_sampler_named_like_a_swizzle_and_used_in_a_macro() {
    let c = frag(
        "uniform sampler2D b;
         varying vec2 uv;
         #define SAMPLE(t, c) texture2D(t, c)
         void main() {
             vec4 c = SAMPLE(b, uv) + texture2D(b, uv.yx); // 2 samples, alu4
             gl_FragColor = c * c.b;                          // alu4; `.b` a swizzle
         }",
    );
    assert_eq!(c.ops, ops([0, 0, 0, 2], 0, 0));
    assert_eq!(c.samples, 2);
}

#[test]
fn a_sampler_passed_to_functions_counts_at_each_call() {
    let c = frag(
        "uniform sampler2D t; uniform lowp sampler2D u; varying vec2 uv;
         float depth(sampler2D s, vec2 at);                       // a prototype
         float depth(sampler2D s, vec2 at) { return texture2D(s, at).r; } // 1 sample
         float pcf(in sampler2D s, vec2 at) {
             return depth(s, at) + depth(s, at + 0.01);            // 2 samples; alu2, alu1
         }
         void main() {
             float a = pcf(t, uv) * pcf(u, uv.yx);                 // 4 samples, 2 x (alu2, alu1); alu1
             gl_FragColor = vec4(a) * texture2D(t, uv);            // 1 sample; alu4
         }",
    );
    assert_eq!(c.samples, 5);
    assert_eq!(c.ops, ops([3, 2, 0, 1], 0, 0));
}

#[test]
fn what_cannot_be_counted_says_where_and_what_was_expected() {
    let e = count_source(
        "void main() {\n  vec4 r;\n  $CONVOLUTION$\n  gl_FragColor = r;\n}\n",
        Stage::Fragment,
        &[],
    )
    .unwrap_err();
    assert_eq!(e.line, Some(3));
    assert!(
        e.reason.contains("`$CONVOLUTION$`") && e.reason.contains("expected GLSL"),
        "{e}"
    );
    let e = count_source(
        "void main() {\n  gl_FragColor = vec4(1.0)\n}\n",
        Stage::Fragment,
        &[],
    )
    .unwrap_err();
    assert_eq!(e.line, Some(3), "{e}");
    assert!(e.reason.contains("Semicolon"), "{e}");
    let e = count_source("float f() { return 1.0; }\n", Stage::Fragment, &[]).unwrap_err();
    assert!(
        e.reason.contains("entry point") || e.reason.contains("main"),
        "{e}"
    );
    // An array of samplers: the shim rewrites single ones only.
    let e = count_source(
        "varying vec2 uv;\nuniform sampler2D ts[2];\nvoid main() { gl_FragColor = texture2D(ts[1], uv); }\n",
        Stage::Fragment,
        &[],
    )
    .unwrap_err();
    assert_eq!(e.line, Some(2), "{e}");
    assert!(
        e.reason
            .contains("a sampler where the shim does not rewrite it"),
        "{e}"
    );
    let shown = NotCounted::at(4, "x: expected y").to_string();
    assert_eq!(shown, "line 4: x: expected y");
}

#[test]
fn definitions_reach_the_preprocessor() {
    let src = "varying float a;
void main() {
#if SHADOWS
    float s = a * a;
#else
    float s = a;
#endif
    gl_FragColor = vec4(s);
}";
    assert_eq!(frag(src).ops, ShaderOps::NONE);
    let on = [Define {
        name: "SHADOWS".into(),
        value: "1".into(),
    }];
    let c = count_source(src, Stage::Fragment, &on).unwrap();
    assert_eq!(c.ops, ops([1, 0, 0, 0], 0, 0));
}
