//! The source shim: GLSL ES 1.00 / GLSL 1.20 text made acceptable to
//! naga's GLSL front end, which knows Vulkan GLSL 440-460 only.
//!
//! What naga 30 refuses in such shaders, read in its `front/glsl` source,
//! and what the shim does about each (nothing else is touched):
//!
//! | naga refuses | the shim |
//! | --- | --- |
//! | `#version 100` / `#version 120` (only 440, 450, 460) | blanks the `#version` line |
//! | `attribute`, `varying` (not keywords: identifiers) | `#define varying in` (fragment) / `out` (vertex), `#define attribute in` (vertex) |
//! | `texture2D`, `textureCube`, `texture2DProj`, `...Lod`, `...LodEXT`, `...GradEXT`, `texture3D` | renames each to `texture`, `textureProj`, `textureLod`, `textureProjLod`, `textureGrad`, `textureProjGrad`, in code and in `#define` bodies (not by a macro: `texture2D` is also naga's texture type, and a sampler's name may be a swizzle's) |
//! | `gl_FragColor` (no such built-in) | `#define gl_FragColor gfxcache_FragColor` and `layout(location = 0) out vec4 gfxcache_FragColor;` when the file names it |
//! | `gl_TexCoord[]` (GLSL 1.20's built-in varying array; not in ES) | `#define gl_TexCoord gfxcache_TexCoord` and `layout(location = 1) in` (fragment; `out`, vertex) `vec4 gfxcache_TexCoord[8];` when the file names it |
//! | a uniform without `layout(binding = N)` | `layout(binding = N) ` before each `uniform` (N counting up), unless a layout qualifier is there already |
//! | `sampler2D`, `samplerCube`, `sampler3D`, `samplerExternalOES` (Vulkan GLSL has separate textures and samplers; naga has no combined type) | `uniform sampler2D tex;` becomes `layout(binding = N) uniform texture2D gfxcache_tex_tex; layout(binding = N+1) uniform sampler gfxcache_smp_tex;`, and every other `tex` (not after a `.`: `c.b` stays a swizzle when a sampler is named `b`), in code and in `#define` bodies, `sampler2D(gfxcache_tex_tex, gfxcache_smp_tex)`: naga's combined-sampler constructor |
//!
//! | a precision qualifier on a function parameter; `precision lowp sampler2D;` | `#define lowp`, `mediump`, `highp` as nothing and blanks every `precision ...;` statement (precision changes no count) |
//!
//! `#extension`, `centroid`,
//! `gl_FragCoord`, `gl_FrontFacing`, `gl_PointCoord`, `gl_Position` and
//! uniforms outside blocks (once they have a binding) naga accepts as
//! they are. A sampler parameter (`float f(sampler2D s, ...)`) becomes
//! two, `texture2D gfxcache_tex_s, sampler gfxcache_smp_s`; a sampler
//! passed to such a function its two halves; within it `s` is naga's
//! constructor as for a uniform. The `#define`s and declarations go in a prelude before the
//! file, the rest is rewritten token by token in place; the file's own
//! lines keep their count, so an error's line is the
//! line in the file. (A function with a sampler parameter is known by
//! its declaration in code; one declared only inside a `#define` is not
//! rewritten and naga refuses it.)
//!
//! Refused before naga sees the text: a template placeholder (`$NAME$`,
//! glmark2's pieces filled in at run time), and text that would take
//! naga's recursive parser deeper than the stack it is given
//! ([`crate::PARSER_STACK`]): brackets nested deeper than [`MAX_NESTING`],
//! a statement with more than [`MAX_OPERATORS`] operators, an `else if`
//! chain longer than [`MAX_ELSE_CHAIN`], more than [`MAX_SOURCE_BYTES`].

use crate::{NotCounted, Stage};

/// Deepest nesting of `(`, `[` and `{` accepted (real shaders stay under
/// ten; naga's recursive descent would exhaust the stack long before a
/// fuzzer's ten thousand).
pub const MAX_NESTING: usize = 64;

/// Most operators (counted per character: `<=` is two) and `if`s in one
/// statement (between `;`, `{` and `}`), and the most `else`s of
/// `if .. else if .. else ..` chains on one path (a chain's and those of
/// the blocks it is in, added up): naga's parser and lowering recurse once
/// per unary operator, per operator of a chain and per `if` of such a
/// chain, and an unoptimised build spends up to 64 KiB of stack a level.
/// Real statements stay well under (Ashima's simplex noise, a long one,
/// has about 30).
pub const MAX_OPERATORS: usize = 256;
pub const MAX_ELSE_CHAIN: usize = 256;

/// Longest source accepted, in bytes (the largest shader the census met is
/// about 20 KiB; bounded because naga's parser and lowering recurse).
pub const MAX_SOURCE_BYTES: usize = 256 * 1024;

/// The renamed texture functions of GLSL ES 1.00 (and its extensions) and
/// GLSL 1.20, with naga's name for each.
const FUNCTIONS: &[(&str, &str)] = &[
    ("texture2D", "texture"),
    ("texture2DProj", "textureProj"),
    ("texture2DLod", "textureLod"),
    ("texture2DProjLod", "textureProjLod"),
    ("texture2DLodEXT", "textureLod"),
    ("texture2DProjLodEXT", "textureProjLod"),
    ("texture2DGradEXT", "textureGrad"),
    ("texture2DProjGradEXT", "textureProjGrad"),
    ("textureCube", "texture"),
    ("textureCubeLod", "textureLod"),
    ("textureCubeLodEXT", "textureLod"),
    ("textureCubeGradEXT", "textureGrad"),
    ("texture3D", "texture"),
    ("texture3DProj", "textureProj"),
    ("texture3DLod", "textureLod"),
];

/// Combined sampler types and the texture type and constructor naga has
/// for each.
const SAMPLERS: &[(&str, &str, &str)] = &[
    ("sampler2D", "texture2D", "sampler2D"),
    ("samplerCube", "textureCube", "samplerCube"),
    ("sampler3D", "texture3D", "sampler3D"),
    ("samplerExternalOES", "texture2D", "sampler2D"),
];

const PRECISIONS: &[&str] = &["lowp", "mediump", "highp"];

/// The shimmed text and how it maps back to the file.
#[derive(Debug)]
pub struct Shimmed {
    /// What naga parses: the prelude, then the file's lines.
    pub text: String,
    /// Lines before the file's first line.
    pub prelude_lines: u32,
}

impl Shimmed {
    /// The file's line of a byte offset into [`Shimmed::text`]; `None`
    /// for the prelude or an offset past the end.
    pub fn file_line(&self, offset: usize) -> Option<u32> {
        let prefix = self.text.get(..offset)?;
        let line = prefix.bytes().filter(|&b| b == b'\n').count() as u32 + 1;
        line.checked_sub(self.prelude_lines).filter(|&l| l > 0)
    }
}

/// A token of the scan: what the rewrite needs to tell apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Ident,
    /// Any other character of code.
    Punct,
    /// Spaces, newlines, comments.
    Space,
    /// A whole preprocessor line, continuations included.
    Directive,
}

struct Token<'a> {
    kind: Kind,
    text: &'a str,
    line: u32,
}

/// Splits `src` into tokens; a `$` outside comments is an error (a
/// template placeholder).
fn tokens(src: &str) -> Result<Vec<Token<'_>>, NotCounted> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1u32;
    // Whether only spaces precede `i` on its line (a `#` there starts a directive).
    let mut line_start = true;
    while i < bytes.len() {
        let start = i;
        let start_line = line;
        let b = bytes[i];
        let kind = if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            Kind::Space
        } else if b == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                if bytes[i] == b'\n' {
                    line += 1;
                }
                i += 1;
            }
            i = (i + 2).min(bytes.len());
            Kind::Space
        } else if b.is_ascii_whitespace() {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                if bytes[i] == b'\n' {
                    line += 1;
                    line_start = true;
                }
                i += 1;
            }
            out.push(Token {
                kind: Kind::Space,
                text: &src[start..i],
                line: start_line,
            });
            continue;
        } else if b == b'#' && line_start {
            // To the end of the line, `\`-newlines continuing it; a comment
            // in it is part of it (the preprocessor drops it).
            while i < bytes.len() && bytes[i] != b'\n' {
                if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'\n') {
                    line += 1;
                    i += 1;
                }
                i += 1;
            }
            Kind::Directive
        } else if b == b'_' || b.is_ascii_alphabetic() {
            while i < bytes.len() && (bytes[i] == b'_' || bytes[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            Kind::Ident
        } else {
            // One character (a whole UTF-8 one: slices stay on boundaries).
            i += src[i..].chars().next().map_or(1, char::len_utf8);
            Kind::Punct
        };
        let text = &src[start..i];
        if kind != Kind::Space && text.contains('$') {
            return Err(placeholder(&src[start..], start_line));
        }
        if kind != Kind::Space {
            line_start = false;
        }
        out.push(Token {
            kind,
            text,
            line: start_line,
        });
    }
    Ok(out)
}

fn placeholder(text: &str, line: u32) -> NotCounted {
    let at = text.find('$').unwrap_or(0);
    let rest = &text[at + 1..];
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let what = if name.is_empty() || !rest[name.len()..].starts_with('$') {
        "a `$`".to_string()
    } else {
        format!("the template placeholder `${name}$`")
    };
    NotCounted::at(
        line,
        format!("{what}, a piece its program fills in at run time: expected GLSL"),
    )
}

/// The shim of `source` for `stage` (see the module doc).
pub fn shim(source: &str, stage: Stage) -> Result<Shimmed, NotCounted> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(NotCounted::whole(format!(
            "{} bytes: expected a shader of at most {MAX_SOURCE_BYTES} bytes",
            source.len()
        )));
    }
    let toks = tokens(source)?;
    check_depth(&toks)?;

    // Every sampler uniform, wherever declared (an `#ifdef` branch too),
    // before any use is rewritten.
    let mut samplers: Vec<(&str, String)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        if t.kind == Kind::Ident && t.text == "uniform" {
            for (name, _, constructor) in sampler_declaration(&toks, i)
                .map(|d| d.1)
                .unwrap_or_default()
            {
                if !samplers.iter().any(|s| s.0 == name) {
                    samplers.push((
                        name,
                        format!("{constructor}(gfxcache_tex_{name}, gfxcache_smp_{name})"),
                    ));
                }
            }
        }
    }

    // Functions with a sampler parameter: a sampler passed to one goes as
    // its two halves, a texture and a sampler.
    let mut takes_samplers: Vec<&str> = Vec::new();
    let (mut braces, mut parens) = (0usize, Vec::<&str>::new());
    let mut last = "";
    for t in toks
        .iter()
        .filter(|t| matches!(t.kind, Kind::Ident | Kind::Punct))
    {
        match t.text {
            "{" => braces += 1,
            "}" => braces = braces.saturating_sub(1),
            "(" => parens.push(last),
            ")" => {
                parens.pop();
            }
            ty if braces == 0
                && SAMPLERS.iter().any(|s| s.0 == ty)
                && last != "uniform"
                && !PRECISIONS.contains(&last) =>
            {
                if let Some(&f) = parens.first() {
                    if !f.is_empty() && !takes_samplers.contains(&f) {
                        takes_samplers.push(f);
                    }
                }
            }
            _ => {}
        }
        last = t.text;
    }

    let mut body = String::with_capacity(source.len() + 256);
    let mut binding = 0u32;
    // Where the code is: brace depth, the callee of each open parenthesis,
    // the sampler parameters of the function being read (till its end).
    let mut braces = 0usize;
    let mut callees: Vec<&str> = Vec::new();
    let mut params: Vec<(&str, String)> = Vec::new();
    let mut uses_frag_color = false;
    let mut uses_tex_coord = false;
    // The last token of code emitted (a `)` before `uniform` closes a
    // layout; a `.` before a sampler's name makes it a field or swizzle).
    let mut last_code = "";
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        match t.kind {
            Kind::Directive => {
                uses_frag_color |= mentions(t.text, "gl_FragColor");
                uses_tex_coord |= mentions(t.text, "gl_TexCoord");
                if is_version(t.text) {
                    // Keep the line count (a `\` continuation too).
                    body.extend(t.text.chars().filter(|&c| c == '\n'));
                } else {
                    rewrite_define(t.text, &samplers, &mut body);
                }
                i += 1;
                continue;
            }
            Kind::Space => {
                body.push_str(t.text);
                i += 1;
                continue;
            }
            Kind::Ident if t.text == "gl_FragColor" => uses_frag_color = true,
            Kind::Ident if t.text == "gl_TexCoord" => uses_tex_coord = true,
            Kind::Ident if t.text == "precision" => {
                // To its `;`, keeping the newlines.
                while i < toks.len() && toks[i].text != ";" {
                    body.extend(toks[i].text.chars().filter(|&c| c == '\n'));
                    i += 1;
                }
                i += 1;
                last_code = ";";
                continue;
            }
            Kind::Ident if t.text == "uniform" && last_code != ")" => {
                if let Some((end, names)) = sampler_declaration(&toks, i) {
                    for (name, texture, _) in names {
                        body.push_str(&format!(
                            "layout(binding = {}) uniform {texture} gfxcache_tex_{name}; layout(binding = {}) uniform sampler gfxcache_smp_{name}; ",
                            binding,
                            binding + 1
                        ));
                        binding += 2;
                    }
                    // The declaration's newlines, so that lines keep their numbers.
                    for t in &toks[i..end] {
                        body.extend(t.text.chars().filter(|&c| c == '\n'));
                    }
                    i = end;
                    last_code = ";";
                    continue;
                }
                body.push_str(&format!("layout(binding = {binding}) "));
                binding += 1;
            }
            Kind::Ident
                if braces == 0 && !callees.is_empty() && SAMPLERS.iter().any(|s| s.0 == t.text) =>
            {
                // A sampler parameter: its two halves, and its name a
                // sampler's till the function ends.
                let &(_, texture, constructor) = SAMPLERS.iter().find(|s| s.0 == t.text).unwrap();
                let mut j = i + 1;
                while j < toks.len() && toks[j].kind == Kind::Space {
                    j += 1;
                }
                match toks.get(j).filter(|n| n.kind == Kind::Ident) {
                    Some(name) => {
                        let n = name.text;
                        body.push_str(&format!(
                            "{texture} gfxcache_tex_{n}, sampler gfxcache_smp_{n}"
                        ));
                        params.push((
                            n,
                            format!("{constructor}(gfxcache_tex_{n}, gfxcache_smp_{n})"),
                        ));
                        i = j + 1;
                        last_code = n;
                    }
                    None => {
                        body.push_str(&format!("{texture}, sampler"));
                        i += 1;
                        last_code = t.text;
                    }
                }
                continue;
            }
            Kind::Ident => {
                let whole = |list: &[(&str, String)]| list.iter().any(|s| s.0 == t.text);
                let sampler = last_code != "." && (whole(&params) || whole(&samplers));
                let callee = callees.last().copied().unwrap_or("");
                if sampler && takes_samplers.contains(&callee) {
                    // An argument of a function with a sampler parameter.
                    body.push_str(&format!("gfxcache_tex_{0}, gfxcache_smp_{0}", t.text));
                    last_code = t.text;
                    i += 1;
                    continue;
                }
                let in_function = params.iter().find(|p| p.0 == t.text && last_code != ".");
                if let Some(new) = in_function
                    .map(|p| p.1.as_str())
                    .or_else(|| renamed(t.text, last_code, &samplers))
                {
                    body.push_str(new);
                    last_code = t.text;
                    i += 1;
                    continue;
                }
            }
            Kind::Punct => match t.text {
                "(" => callees.push(if last_is_ident(last_code) {
                    last_code
                } else {
                    ""
                }),
                ")" => {
                    callees.pop();
                }
                "{" => braces += 1,
                "}" => {
                    braces = braces.saturating_sub(1);
                    if braces == 0 {
                        params.clear();
                    }
                }
                // A prototype's end.
                ";" if braces == 0 && callees.is_empty() => params.clear(),
                _ => {}
            },
        }
        body.push_str(t.text);
        last_code = t.text;
        i += 1;
    }

    let mut prelude = String::from("#define lowp\n#define mediump\n#define highp\n");
    match stage {
        Stage::Fragment => prelude.push_str("#define varying in\n"),
        Stage::Vertex => prelude.push_str("#define varying out\n#define attribute in\n"),
    }
    if stage == Stage::Fragment && uses_frag_color {
        prelude.push_str("#define gl_FragColor gfxcache_FragColor\n");
        prelude.push_str("layout(location = 0) out vec4 gfxcache_FragColor;\n");
    }
    if uses_tex_coord {
        let dir = if stage == Stage::Fragment {
            "in"
        } else {
            "out"
        };
        prelude.push_str("#define gl_TexCoord gfxcache_TexCoord\n");
        prelude.push_str(&format!(
            "layout(location = 1) {dir} vec4 gfxcache_TexCoord[8];\n"
        ));
    }
    let prelude_lines = prelude.bytes().filter(|&b| b == b'\n').count() as u32;
    prelude.push_str(&body);
    Ok(Shimmed {
        text: prelude,
        prelude_lines,
    })
}

/// Refuses text deeper than naga's parser may go (see [`MAX_NESTING`],
/// [`MAX_OPERATORS`], [`MAX_ELSE_CHAIN`]).
fn check_depth(toks: &[Token<'_>]) -> Result<(), NotCounted> {
    let too = |t: &Token<'_>, what: &str, max: usize| {
        Err(NotCounted::at(
            t.line,
            format!("{what} more than {max}: expected at most {max}"),
        ))
    };
    let mut depth = 0usize;
    let mut operators = 0usize;
    // Per bracket depth: the `else` chain going on, and whether a
    // statement just ended there (so that a next `else` continues it).
    let mut chain = [0usize; MAX_NESTING + 2];
    let mut ended = [false; MAX_NESTING + 2];
    for t in toks {
        if matches!(t.kind, Kind::Space | Kind::Directive) {
            continue;
        }
        if std::mem::take(&mut ended[depth]) {
            if t.text == "else" {
                chain[depth] += 1;
                // The chains of the enclosing blocks are on the stack too.
                if chain[..=depth].iter().sum::<usize>() > MAX_ELSE_CHAIN {
                    return too(
                        t,
                        "`else`s in chains (nested ones added up)",
                        MAX_ELSE_CHAIN,
                    );
                }
            } else {
                chain[depth] = 0;
            }
        }
        let deepens = t.text == "if"
            || (t.kind == Kind::Punct && t.text.len() == 1 && "+-*/%<>=!~&|^?:".contains(t.text));
        if deepens {
            operators += 1;
            if operators > MAX_OPERATORS {
                return too(t, "a statement with operators and `if`s", MAX_OPERATORS);
            }
        }
        match t.text {
            "(" | "[" | "{" if t.kind == Kind::Punct => {
                if t.text == "{" {
                    operators = 0;
                }
                depth += 1;
                if depth > MAX_NESTING {
                    return too(t, "brackets nested", MAX_NESTING);
                }
            }
            ")" | "]" | "}" if t.kind == Kind::Punct => {
                // What was inside is over, its chain too.
                chain[depth] = 0;
                depth = depth.saturating_sub(1);
                if t.text == "}" {
                    operators = 0;
                    ended[depth] = true;
                }
            }
            ";" => {
                operators = 0;
                ended[depth] = true;
            }
            _ => {}
        }
    }
    Ok(())
}

fn last_is_ident(t: &str) -> bool {
    t.starts_with(|c: char| c == '_' || c.is_ascii_alphabetic())
}

/// What identifier `word` becomes, after `last` (the code before it): a
/// texture function its naga name, a sampler uniform (not after a `.`)
/// naga's combined-sampler constructor.
fn renamed<'a>(word: &str, last: &str, samplers: &'a [(&str, String)]) -> Option<&'a str> {
    if let Some((_, new)) = FUNCTIONS.iter().find(|f| f.0 == word) {
        return Some(new);
    }
    if last == "." {
        return None;
    }
    samplers.iter().find(|s| s.0 == word).map(|s| s.1.as_str())
}

/// A directive onto `out`; in a `#define`'s body (after its name and
/// parameters) the identifiers [`renamed`] says.
fn rewrite_define(text: &str, samplers: &[(&str, String)], out: &mut String) {
    let ident = |c: char| c == '_' || c.is_ascii_alphanumeric();
    let Some(after) = text
        .trim_start_matches('#')
        .trim_start()
        .strip_prefix("define")
        .filter(|r| r.starts_with([' ', '\t']))
    else {
        out.push_str(text);
        return;
    };
    // The name, and a parameter list right after it.
    let name_at = text.len() - after.trim_start().len();
    let mut body_at = name_at
        + text[name_at..]
            .find(|c: char| !ident(c))
            .unwrap_or(text.len() - name_at);
    if text[body_at..].starts_with('(') {
        body_at += text[body_at..]
            .find(')')
            .map_or(text.len() - body_at, |e| e + 1);
    }
    out.push_str(&text[..body_at]);
    let mut rest = &text[body_at..];
    let mut last = "";
    while let Some(at) = rest.find(|c: char| c == '_' || c.is_ascii_alphanumeric()) {
        let gap = &rest[..at];
        out.push_str(gap);
        if let Some(c) = gap.trim_end().chars().next_back() {
            last = if c == '.' { "." } else { "" };
        }
        rest = &rest[at..];
        let end = rest.find(|c: char| !ident(c)).unwrap_or(rest.len());
        let word = &rest[..end];
        // A number's letters (`1e3`, `0x1F`) are not identifiers.
        let number = word.starts_with(|c: char| c.is_ascii_digit());
        match renamed(word, last, samplers).filter(|_| !number) {
            Some(new) => out.push_str(new),
            None => out.push_str(word),
        }
        last = "";
        rest = &rest[end..];
    }
    out.push_str(rest);
}

/// Whether a directive is `#version ...`.
fn is_version(directive: &str) -> bool {
    directive
        .trim_start_matches('#')
        .trim_start()
        .strip_prefix("version")
        .is_some_and(|rest| !rest.starts_with(|c: char| c == '_' || c.is_ascii_alphanumeric()))
}

/// Whether `text` has `word` as a whole identifier.
fn mentions(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let ident = |c: Option<char>| c.is_some_and(|c| c == '_' || c.is_ascii_alphanumeric());
        !ident(before) && !ident(after)
    })
}

/// `uniform [precision] samplerX a, b;` at `toks[at]`: the index after
/// its `;` and each name with its texture type and constructor. `None`
/// when it is not a sampler declaration of that form (an array, say),
/// which then goes to naga as it is.
#[allow(clippy::type_complexity)]
fn sampler_declaration<'s>(
    toks: &[Token<'s>],
    at: usize,
) -> Option<(usize, Vec<(&'s str, &'static str, &'static str)>)> {
    let mut i = at + 1;
    // The next token of code after `i`, skipping spaces and comments.
    let next = |i: &mut usize| -> Option<&Token<'s>> {
        while *i < toks.len() && toks[*i].kind == Kind::Space {
            *i += 1;
        }
        let t = toks.get(*i);
        *i += 1;
        t
    };
    let mut ty = next(&mut i)?;
    if ty.kind == Kind::Ident && PRECISIONS.contains(&ty.text) {
        ty = next(&mut i)?;
    }
    let &(_, texture, constructor) = SAMPLERS.iter().find(|s| s.0 == ty.text)?;
    let mut names = Vec::new();
    loop {
        let name = next(&mut i)?;
        if name.kind != Kind::Ident {
            return None;
        }
        names.push((name.text, texture, constructor));
        match next(&mut i)?.text {
            "," => continue,
            ";" => break,
            _ => return None,
        }
    }
    Some((i, names))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_keeps_its_lines_after_the_prelude() {
        let src = "#version 100\nprecision mediump float;\nuniform lowp sampler2D tex,\n  other;\nuniform vec4 c;\nvarying vec2 uv;\nvoid main() { gl_FragColor = texture2D(tex, uv) * c; }\n";
        let s = shim(src, Stage::Fragment).unwrap();
        let body: Vec<&str> = s.text.lines().skip(s.prelude_lines as usize).collect();
        assert_eq!(body.len(), src.lines().count());
        assert_eq!(body[0], "");
        assert!(body[2].contains("uniform texture2D gfxcache_tex_tex"));
        assert!(body[2].contains("uniform sampler gfxcache_smp_other"));
        assert_eq!(body[4], "layout(binding = 4) uniform vec4 c;");
        assert_eq!(body[1], "");
        assert!(
            body[6].contains("= texture(sampler2D(gfxcache_tex_tex, gfxcache_smp_tex), uv) * c;")
        );
        assert!(s.text.contains("out vec4 gfxcache_FragColor;"));
        let at = s.text.find("varying vec2").unwrap();
        assert_eq!(s.file_line(at), Some(6));
        assert_eq!(s.file_line(0), None);
    }

    #[test]
    fn placeholders_and_deep_nesting_are_refused_with_their_line() {
        let e = shim("void main() {\n  $MAIN$\n}\n", Stage::Fragment).unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(e.reason.contains("`$MAIN$`"), "{e}");
        // A `$` in a comment is a comment.
        shim("// costs $5\nvoid main() {}\n", Stage::Fragment).unwrap();
        let deep = format!(
            "void main() {{ float x = {}1.0{}; }}",
            "(".repeat(100),
            ")".repeat(100)
        );
        let e = shim(&deep, Stage::Fragment).unwrap_err();
        assert!(e.reason.contains("brackets nested more than"), "{e}");
    }

    #[test]
    fn a_sampler_named_like_a_swizzle_is_one_only_where_not_after_a_dot() {
        let src = "#define S(b, c) texture2D(b, c).b + texture2D(b, c) . b\nuniform sampler2D b;\nvoid main() { gl_FragColor = b.b; }\n";
        let s = shim(src, Stage::Fragment).unwrap();
        let body: Vec<&str> = s.text.lines().skip(s.prelude_lines as usize).collect();
        let b = "sampler2D(gfxcache_tex_b, gfxcache_smp_b)";
        // The macro's parameters stay; its body's `b`s that are no field become the sampler.
        assert_eq!(
            body[0],
            format!("#define S(b, c) texture({b}, c).b + texture({b}, c) . b")
        );
        assert_eq!(body[2], format!("void main() {{ gl_FragColor = {b}.b; }}"));
        // Numbers keep their letters.
        let mut out = String::new();
        rewrite_define("#define K 1e3 + 0x1Fb", &[("b", b.to_string())], &mut out);
        assert_eq!(out, "#define K 1e3 + 0x1Fb");
    }

    #[test]
    fn a_layout_already_there_is_kept() {
        let s = shim("layout(binding = 3) uniform vec4 c;\n", Stage::Vertex).unwrap();
        assert!(s.text.ends_with("layout(binding = 3) uniform vec4 c;\n"));
        assert!(mentions("a gl_FragColor b", "gl_FragColor"));
        assert!(!mentions("gl_FragColorX", "gl_FragColor"));
        assert!(is_version("#  version 100"));
        assert!(!is_version("#versions"));
    }
}
