//! `gfxcache shaders`: the shader census (`gfxcache_shaders`) of GLSL
//! files: per file its operations by class and texture samples, the
//! files not counted with why, and the distribution.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use gfxcache_shaders::{Census, Define, Stage, Summary};

use super::print_json;
use crate::table::Table;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gfxcache shaders /usr/share/glmark2/shaders/light-basic-tex.frag /usr/share/glmark2/shaders/effect-2d-convolution.frag\n  gfxcache shaders water.glsl --stage fragment --define GL_ES --define FOG_START=0.400000 --json\n\n\
Counts are static: both arms of every `if`, a loop's body once (the `loops` column\n\
flags it), a function once per call. Rules: the crate doc of gfxcache-shaders.\n\
Exit status: 0 when at least one file was counted (the others are listed as not\n\
counted, with the line and what was expected); 1 when none could be counted or a\n\
file cannot be read."
)]
pub struct Args {
    /// GLSL shader source files (GLSL ES 1.00 / GLSL 1.20 style, or Vulkan GLSL 450).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The stage of every file; `auto` takes it from each file's name (.frag, .fsh, .fs or
    /// `fragment` in it; .vert, .vsh, .vs or `vertex`).
    #[arg(long, value_enum, default_value_t = StageArg::Auto)]
    pub stage: StageArg,
    /// A preprocessor definition given to every file, NAME or NAME=VALUE (NAME alone is 1),
    /// as a program's injected header would; repeatable.
    #[arg(long = "define", value_name = "NAME[=VALUE]", value_parser = parse_define)]
    pub defines: Vec<Define>,
    /// Print one JSON document on stdout instead of the tables.
    #[arg(long)]
    pub json: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StageArg {
    Fragment,
    Vertex,
    Auto,
}

impl StageArg {
    fn stage(self) -> Option<Stage> {
        match self {
            StageArg::Fragment => Some(Stage::Fragment),
            StageArg::Vertex => Some(Stage::Vertex),
            StageArg::Auto => None,
        }
    }
}

fn parse_define(s: &str) -> Result<Define, String> {
    let (name, value) = match s.split_once('=') {
        Some((n, v)) => (n, v),
        None => (s, "1"),
    };
    let ident = name.starts_with(|c: char| c == '_' || c.is_ascii_alphabetic())
        && name.chars().all(|c| c == '_' || c.is_ascii_alphanumeric());
    if !ident {
        return Err(format!(
            "`{name}` is not a macro name: expected NAME or NAME=VALUE, NAME letters, digits and `_`, not starting with a digit"
        ));
    }
    Ok(Define {
        name: name.to_string(),
        value: value.to_string(),
    })
}

/// The census of the files; an unreadable file is an error naming it.
pub fn output(args: &Args) -> Result<Census> {
    let mut sources = Vec::with_capacity(args.files.len());
    for f in &args.files {
        let bytes = std::fs::read(f).with_context(|| format!("cannot read {}", f.display()))?;
        sources.push((f.display().to_string(), bytes));
    }
    Ok(gfxcache_shaders::census(
        sources.iter().map(|(name, b)| (name.clone(), b.as_slice())),
        args.stage.stage(),
        &args.defines,
    ))
}

pub fn run(args: Args) -> Result<()> {
    let census = output(&args)?;
    if args.json {
        print_json(&census)?;
    } else {
        print!("{}", tables(&census));
    }
    if census.counted.is_empty() {
        bail!(
            "no file could be counted ({} not counted{})",
            census.not_counted.len(),
            if args.json { "" } else { ", listed above" }
        );
    }
    Ok(())
}

fn ratio(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_string(), |x| format!("{x:.2}"))
}

/// A figure of the distribution: whole numbers as such, else two decimals.
fn figure(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// The per-file table, the files not counted, the distribution.
pub fn tables(census: &Census) -> String {
    let mut out = String::new();
    let mut t = Table::new([
        "file",
        "stage",
        "alu1",
        "alu2",
        "alu3",
        "alu4",
        "special",
        "branch",
        "instr",
        "scalar",
        "tex",
        "instr/tex",
        "scalar/tex",
        "loops",
    ])
    .left(1)
    .left(13);
    for c in &census.counted {
        let a = c.ops.alu;
        t.row([
            c.file.clone(),
            c.stage.to_string(),
            a[0].to_string(),
            a[1].to_string(),
            a[2].to_string(),
            a[3].to_string(),
            c.ops.special.to_string(),
            c.ops.branch.to_string(),
            c.instructions.to_string(),
            c.scalar_ops.to_string(),
            c.samples.to_string(),
            ratio(c.instructions_per_sample),
            ratio(c.scalar_ops_per_sample),
            if c.loops { "yes" } else { "no" }.to_string(),
        ]);
    }
    if !census.counted.is_empty() {
        out.push_str(&t.render());
    }
    if !census.not_counted.is_empty() {
        out.push_str(&format!("\nNot counted ({}):\n", census.not_counted.len()));
        for s in &census.not_counted {
            let at = s.line.map(|l| format!(":{l}")).unwrap_or_default();
            out.push_str(&format!("  {}{at}: {}\n", s.file, s.reason));
        }
    }
    let d = &census.distribution;
    let rows: [(&str, Option<Summary>); 5] = [
        ("instructions", d.instructions),
        ("scalar ops", d.scalar_ops),
        ("texture samples", d.samples),
        ("instructions per sample", d.instructions_per_sample),
        ("scalar ops per sample", d.scalar_ops_per_sample),
    ];
    let mut t = Table::new([
        "per shader",
        "n",
        "min",
        "q1",
        "median",
        "q3",
        "mean",
        "max",
    ]);
    for (name, s) in rows {
        match s {
            Some(s) => t.row([
                name.to_string(),
                s.n.to_string(),
                figure(s.min),
                figure(s.q1),
                figure(s.median),
                figure(s.q3),
                figure(s.mean),
                figure(s.max),
            ]),
            None => t.row([name, "0", "-", "-", "-", "-", "-", "-"]),
        }
    }
    out.push_str(&format!(
        "\nDistribution over the {} counted shaders (ratios over those with a sample):\n",
        census.counted.len()
    ));
    out.push_str(&t.render());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defines_take_a_name_and_an_optional_value() {
        let d = parse_define("FOG_START=0.4").unwrap();
        assert_eq!((d.name.as_str(), d.value.as_str()), ("FOG_START", "0.4"));
        assert_eq!(parse_define("GL_ES").unwrap().value, "1");
        assert_eq!(parse_define("EMPTY=").unwrap().value, "");
        assert!(parse_define("1X=2").unwrap_err().contains("`1X`"));
        assert!(parse_define("=2").is_err());
    }
}
