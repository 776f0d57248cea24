//! The shader census: what real shaders ask of a GPU, counted statically
//! from their GLSL source — per shader, its operations by class
//! ([`ShaderOps`]: ALU operations by width, special-function operations,
//! branches) and its texture samples — and the distribution over many.
//! It is for setting the shader work of the texture cache timing models
//! (the ALU:TEX ratio between texture requests) from shaders games ship,
//! not from guesses.
//!
//! **Depends on** `gfxcache-trace` only among this project's crates (for
//! [`ShaderOps`] and its counting rules, shared with the renderer's
//! programs) and must never depend on the renderer, the command line or
//! a design crate: they use the census, not the other way round.
//!
//! **How**: the source goes through [`shim`] (GLSL ES 1.00 / GLSL 1.20
//! made acceptable to naga's GLSL front end, which parses Vulkan GLSL
//! 440+), then naga's front end (`glsl-in`: preprocessor with the given
//! `#define`s, parser, typed IR), then [`count`] walks the entry point:
//!
//! - **Static count.** Both arms of every `if` are counted (what the code
//!   holds, not what a fragment runs), a loop's body once whatever its
//!   trip count (the shader is flagged [`ShaderCount::loops`]), a called
//!   function once per call site (its own calls expanded likewise).
//! - **ALU operations** by [`gfxcache_trace::ops`]'s rules, each at its
//!   result type's width: `+ - *`, comparisons, `&& || ^^`, `min max abs
//!   sign floor ceil fract step clamp`, conversions, each one operation;
//!   `dot` one of its arguments' width; `mix` two; `smoothstep` four;
//!   `mod(x, y)` as naga expands it, `x - y * floor(x / y)`. A matrix
//!   times a vector: one operation of the result's width per column (for
//!   `mat4 * vec4`, 4 of width 4); a vector times a matrix: one dot
//!   product per column; matrix times matrix: the right's columns times
//!   the left's, each of the result's row width; a matrix with a scalar
//!   or a matrix: one per column.
//! - **Special-function operations**, one per component: `sin cos exp
//!   exp2 log log2 sqrt inversesqrt`; a division one reciprocal per
//!   component of the divisor (one for a scalar divisor) and a multiply;
//!   `normalize` a dot product, one reciprocal square root, a multiply;
//!   `length` a dot product and one square root; `distance` a subtract
//!   more; `pow` a logarithm and an exponential per component and a
//!   multiply; `tan` a sine, a cosine and a division.
//! - **Branches**: each `if` and each `?:` (naga lowers it to an `if`),
//!   each loop once (`ops.rs` counts a loop's test per iteration; a
//!   static count knows no trip count, so the test counts once per loop
//!   in the code, its comparison one ALU operation), each `discard`, each
//!   `case` of a `switch`. `break`, `continue`, `return` are free, as are
//!   calls themselves.
//! - **Texture samples**: each `texture*` call (and `texelFetch`), one
//!   request whatever its filter.
//! - **Free**: moves, swizzles, constructors, indexing, negation and `!`
//!   (operand modifiers), loads and stores, constants — and any
//!   operation all of whose operands are compile-time constants (naga
//!   folds most; a compiler folds the rest), which also makes a division
//!   by a constant one multiply (the reciprocal is a constant).
//!
//! **Choices that are ours**, where the rules say nothing or leave the
//! construct open (each documented where it is made, in [`count`]):
//! a division by a constant one multiply (above); `?:` a branch, not a
//! select; a local never written after a constant initial value that
//! constant; non-square matrix products as above;
//! the inverse and hyperbolic trigonometric functions one special-function
//! operation per component; `reflect` a dot product, a scalar multiply
//! and a multiply-add; `refract` and `faceforward` as their definitions
//! expand; `fwidth` three operations; `all`/`any` one of the argument's
//! width; integer `%` a division and three operations; a loop without a
//! test (`for (;;)`) still one branch. Nothing is eliminated as dead
//! code: an operation whose result is unused is counted.
//!
//! A file is [`NotCounted`] (with its line and what was expected, never
//! dropped) when it is a template (`$PLACEHOLDER$`), when it is deeper
//! than naga's recursive parser may go ([`shim`]'s limits), when naga
//! refuses it after the shim (an undeclared name, say, that its program
//! declares at run time), or when its stage cannot be told.

pub mod count;
pub mod shim;
pub mod stats;

use gfxcache_trace::ShaderOps;
use serde::Serialize;

pub use stats::{census, Census, Counted, Distribution, Skipped, Summary};

/// A shader stage the census counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    Fragment,
    Vertex,
}

impl Stage {
    /// The stage a file's name says: `.frag`, `.fsh`, `.fs` or `fragment`
    /// in the name; `.vert`, `.vsh`, `.vs` or `vertex`.
    pub fn from_file_name(name: &str) -> Option<Stage> {
        let name = name
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(name)
            .to_ascii_lowercase();
        let ext = name.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
        match ext {
            "frag" | "fsh" | "fs" => return Some(Stage::Fragment),
            "vert" | "vsh" | "vs" => return Some(Stage::Vertex),
            _ => {}
        }
        match (name.contains("fragment"), name.contains("vertex")) {
            (true, false) => Some(Stage::Fragment),
            (false, true) => Some(Stage::Vertex),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Stage::Fragment => "fragment",
            Stage::Vertex => "vertex",
        }
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One shader's count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ShaderCount {
    /// Operations by class.
    pub ops: ShaderOps,
    /// Texture samples (requests).
    pub samples: u64,
    /// Whether the shader has a loop (whose body is counted once).
    pub loops: bool,
}

impl ShaderCount {
    /// The two together (a call's count added at its call site).
    pub fn plus(self, o: ShaderCount) -> ShaderCount {
        ShaderCount {
            ops: self.ops + o.ops,
            samples: self.samples.saturating_add(o.samples),
            loops: self.loops || o.loops,
        }
    }

    /// Instructions per texture sample; `None` without samples.
    pub fn instructions_per_sample(&self) -> Option<f64> {
        (self.samples > 0).then(|| self.ops.instructions() as f64 / self.samples as f64)
    }

    /// Scalar operations per texture sample; `None` without samples.
    pub fn scalar_ops_per_sample(&self) -> Option<f64> {
        (self.samples > 0).then(|| self.ops.scalar_ops() as f64 / self.samples as f64)
    }
}

/// Why a file was not counted: where (a line of the file, when there is
/// one) and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{}{reason}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct NotCounted {
    /// 1-based line of the file.
    pub line: Option<u32>,
    /// What was found and what was expected.
    pub reason: String,
}

impl NotCounted {
    pub fn at(line: u32, reason: impl Into<String>) -> NotCounted {
        NotCounted {
            line: Some(line),
            reason: reason.into(),
        }
    }

    pub fn whole(reason: impl Into<String>) -> NotCounted {
        NotCounted {
            line: None,
            reason: reason.into(),
        }
    }
}

/// A preprocessor definition, `#define name value`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Define {
    pub name: String,
    pub value: String,
}

/// The stack naga's front end runs on: its parser and lowering recurse
/// per level of nesting, which the shim bounds ([`shim::MAX_NESTING`] and
/// the rest) so that the deepest text it lets through fits, unoptimised
/// builds included.
pub const PARSER_STACK: usize = 256 << 20;

/// Counts one shader's source as `stage`, with `defines` given to the
/// preprocessor (before the file, as a program's injected header would).
/// naga runs on a thread of its own with [`PARSER_STACK`]; should it
/// panic (a bug of naga's), the file is not counted and says so.
pub fn count_source(
    source: &str,
    stage: Stage,
    defines: &[Define],
) -> Result<ShaderCount, NotCounted> {
    let shimmed = shim::shim(source, stage)?;
    let run = || count_shimmed(&shimmed, source, stage, defines);
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .name("naga".into())
            .stack_size(PARSER_STACK)
            .spawn_scoped(s, run)
            .map_err(|e| NotCounted::whole(format!("cannot start the parser's thread: {e}")))?;
        worker.join().unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(NotCounted::whole(format!(
                "naga's GLSL front end panicked ({what}): a bug of naga's on this text"
            )))
        })
    })
}

fn count_shimmed(
    shimmed: &shim::Shimmed,
    source: &str,
    stage: Stage,
    defines: &[Define],
) -> Result<ShaderCount, NotCounted> {
    let mut options = naga::front::glsl::Options::from(match stage {
        Stage::Fragment => naga::ShaderStage::Fragment,
        Stage::Vertex => naga::ShaderStage::Vertex,
    });
    for d in defines {
        options.defines.insert(d.name.clone(), d.value.clone());
    }
    let module = naga::front::glsl::Frontend::default()
        .parse(&options, &shimmed.text)
        .map_err(|errors| parse_error(&errors, shimmed, source))?;
    count::count_module(&module).map_err(NotCounted::whole)
}

/// naga's first error, at the file's line; a sampler parameter named
/// when that is what the line has.
fn parse_error(
    errors: &naga::front::glsl::ParseErrors,
    shimmed: &shim::Shimmed,
    source: &str,
) -> NotCounted {
    let Some(first) = errors.errors.first() else {
        return NotCounted::whole("naga refused it without saying why");
    };
    use naga::front::glsl::ErrorKind as K;
    let range = first.meta.to_range().filter(|r| r.end > 0);
    let line = range.clone().and_then(|r| shimmed.file_line(r.start));
    let found = range
        .filter(|_| line.is_some())
        .and_then(|r| shimmed.text.get(r))
        .filter(|t| !t.is_empty() && t.len() <= 60 && !t.contains('\n'));
    let mut reason = format!("naga: {}", first.kind);
    if let Some(t) = found.filter(|t| !reason.contains(*t)) {
        reason.push_str(&format!(", at `{t}`"));
    }
    match first.kind {
        K::UnknownVariable(_) | K::UnknownType(_) => reason.push_str(
            ": expected a declared name (one a program defines at run time can be given as a definition)",
        ),
        K::NotImplemented(_) => reason.push_str(": expected GLSL naga's front end implements (an undefined macro there?)"),
        _ => {}
    }
    if let Some(text) = line.and_then(|l| source.lines().nth(l as usize - 1)) {
        if ["sampler2D", "samplerCube", "sampler3D"]
            .iter()
            .any(|s| text.contains(s))
        {
            reason.push_str(" (a sampler where the shim does not rewrite it, e.g. an array of them: naga has no combined sampler type)");
        }
    }
    if line.is_none() && first.meta.to_range().is_some_and(|r| r.end > 0) {
        reason.push_str(" (in a macro's expansion: naga places it outside the file)");
    }
    NotCounted { line, reason }
}
