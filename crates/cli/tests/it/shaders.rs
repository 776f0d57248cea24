//! `gfxcache shaders` end to end: the JSON document alone on stdout, a
//! template listed as not counted (with its line), `--define` reaching the
//! preprocessor, the exit status; and on glmark2's shipped shaders
//! (Debian's `glmark2-data`, which `.ci/run` installs;
//! `GFXCACHE_GLMARK2_SHADERS` points elsewhere).

use std::path::{Path, PathBuf};

use crate::common::{gfxcache, json, ok};

const TINTED: &str = "precision mediump float;
uniform sampler2D tex;
varying vec2 uv;
varying vec4 colour;
void main() { gl_FragColor = texture2D(tex, uv) * colour; }
";

const TEMPLATE: &str = "uniform sampler2D Texture0;
varying vec2 TextureCoord;

void main(void)
{
    vec4 result;

    $CONVOLUTION$

    gl_FragColor = vec4(result.xyz, 1.0);
}
";

const SWITCHED: &str = "varying vec3 v;
void main() {
#ifdef EXTRA
    vec3 n = normalize(v);
#else
    vec3 n = v;
#endif
    gl_FragColor = vec4(n, 1.0);
}
";

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn json_is_one_document_and_a_template_is_listed_as_not_counted() {
    let dir = tempfile::tempdir().unwrap();
    let tinted = write(dir.path(), "tinted.frag", TINTED);
    let template = write(dir.path(), "blur.frag", TEMPLATE);
    let v = json(&["shaders", &tinted, &template, "--json"]);
    let counted = v["counted"].as_array().unwrap();
    assert_eq!(counted.len(), 1);
    let c = &counted[0];
    assert_eq!(c["file"], tinted.as_str());
    assert_eq!(c["stage"], "fragment");
    assert_eq!(c["ops"]["alu"], serde_json::json!([0, 0, 0, 1]));
    assert_eq!(
        (c["instructions"].as_u64(), c["scalar_ops"].as_u64()),
        (Some(1), Some(4))
    );
    assert_eq!(c["samples"], 1);
    assert_eq!(c["scalar_ops_per_sample"], 4.0);
    assert_eq!(c["loops"], false);
    let skipped = v["not_counted"].as_array().unwrap();
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0]["file"], template.as_str());
    assert_eq!(skipped[0]["line"], 8);
    let reason = skipped[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("$CONVOLUTION$") && reason.contains("expected"),
        "{reason}"
    );
    assert_eq!(v["distribution"]["instructions"]["n"], 1);
    assert_eq!(v["distribution"]["scalar_ops"]["median"], 4.0);
}

#[test]
fn a_definition_reaches_the_preprocessor() {
    let dir = tempfile::tempdir().unwrap();
    let f = write(dir.path(), "switched.frag", SWITCHED);
    let off = json(&["shaders", &f, "--json"]);
    assert_eq!(off["counted"][0]["ops"]["special"], 0);
    let on = json(&["shaders", &f, "--define", "EXTRA", "--json"]);
    // normalize(vec3): a dot product, a multiply (alu3 x2), one rsq.
    assert_eq!(on["counted"][0]["ops"]["special"], 1);
    assert_eq!(
        on["counted"][0]["ops"]["alu"],
        serde_json::json!([0, 0, 2, 0])
    );
    assert_eq!(on["defines"][0]["name"], "EXTRA");
    assert_eq!(on["defines"][0]["value"], "1");
    let bad = gfxcache(&["shaders", &f, "--define", "2X=1"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--define"));
}

#[test]
fn the_table_lists_the_counted_the_not_counted_and_the_distribution() {
    let dir = tempfile::tempdir().unwrap();
    let tinted = write(dir.path(), "tinted.frag", TINTED);
    let template = write(dir.path(), "blur.frag", TEMPLATE);
    let text = ok(&["shaders", &tinted, &template]);
    let row = text.lines().find(|l| l.starts_with(&tinted)).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    // file stage alu1..4 special branch instr scalar tex instr/tex scalar/tex loops
    assert_eq!(
        cells[1..],
        ["fragment", "0", "0", "0", "1", "0", "0", "1", "4", "1", "1.00", "4.00", "no"]
    );
    assert!(text.contains(&format!(
        "{template}:8: the template placeholder `$CONVOLUTION$`"
    )));
    assert!(text.contains("scalar ops per sample"));
}

#[test]
fn exit_status_fails_only_when_nothing_is_counted_or_a_file_is_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    let template = write(dir.path(), "blur.frag", TEMPLATE);
    let unknown_stage = write(dir.path(), "tinted.glsl", TINTED);
    let out = gfxcache(&["shaders", &template, &unknown_stage, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    // Still one JSON document, listing both.
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["not_counted"].as_array().unwrap().len(), 2);
    assert!(v["not_counted"][1]["reason"]
        .as_str()
        .unwrap()
        .contains("stage"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no file could be counted"));
    // The stage given counts it.
    let v = json(&["shaders", &unknown_stage, "--stage", "fragment", "--json"]);
    assert_eq!(v["counted"][0]["samples"], 1);
    let missing = dir.path().join("missing.frag");
    let out = gfxcache(&["shaders", &unknown_stage, missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot read") && err.contains("missing.frag"),
        "{err}"
    );
}

fn glmark2_shader(name: &str) -> PathBuf {
    let dir = std::env::var_os("GFXCACHE_GLMARK2_SHADERS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/glmark2/shaders"));
    let p = dir.join(name);
    assert!(
        p.is_file(),
        "{} is missing: install Debian's glmark2-data (apt-get install glmark2-data) \
         or set GFXCACHE_GLMARK2_SHADERS",
        p.display()
    );
    p
}

#[test]
fn glmark2_shipped_shaders_count_or_say_why_not() {
    let tex = glmark2_shader("light-basic-tex.frag");
    let conv = glmark2_shader("effect-2d-convolution.frag");
    let v = json(&[
        "shaders",
        tex.to_str().unwrap(),
        conv.to_str().unwrap(),
        "--json",
    ]);
    // texel * Color: one vec4 multiply, one sample.
    assert_eq!(
        v["counted"][0]["ops"]["alu"],
        serde_json::json!([0, 0, 0, 1])
    );
    assert_eq!(v["counted"][0]["samples"], 1);
    assert_eq!(v["not_counted"][0]["line"], 8);
    assert!(v["not_counted"][0]["reason"]
        .as_str()
        .unwrap()
        .contains("$CONVOLUTION$"));
}
