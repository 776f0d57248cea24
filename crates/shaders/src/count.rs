//! Counting a naga module's entry point into [`ShaderOps`] and texture
//! samples by [`gfxcache_trace::ops`]'s rules; the crate doc lists how
//! each GLSL construct is counted and the choices that are ours.

use std::collections::HashMap;

use gfxcache_trace::ShaderOps;
use naga::front::Typifier;
use naga::proc::ResolveContext;
use naga::{
    BinaryOperator as Bin, Block, DerivativeAxis, Expression as E, Function, Handle,
    MathFunction as M, Module, RelationalFunction, Span, Statement as S, SwitchValue, TypeInner,
    UnaryOperator,
};

use crate::ShaderCount;

/// Deepest chain of calls expanded (GLSL has no recursion; real shaders
/// nest a few calls).
pub const MAX_CALL_DEPTH: usize = 64;

/// Why a module could not be counted.
pub type Error = String;

/// Counts `module`'s first entry point, calls expanded.
pub fn count_module(module: &Module) -> Result<ShaderCount, Error> {
    let entry = module
        .entry_points
        .first()
        .ok_or_else(|| "no entry point: expected a `void main()`".to_string())?;
    let mut c = Counter {
        module,
        memo: HashMap::new(),
        stack: Vec::new(),
    };
    c.function(&entry.function)
}

struct Counter<'m> {
    module: &'m Module,
    /// Each function's count, made once however often it is called.
    memo: HashMap<Handle<Function>, ShaderCount>,
    /// The calls being expanded.
    stack: Vec<Handle<Function>>,
}

/// One function's expressions: their types and which are compile-time
/// constants.
struct Exprs<'f> {
    fun: &'f Function,
    types: &'f naga::UniqueArena<naga::Type>,
    typifier: Typifier,
    constant: Vec<bool>,
}

impl Exprs<'_> {
    fn ty(&self, h: Handle<E>) -> &TypeInner {
        self.typifier.get(h, self.types)
    }

    fn is_const(&self, h: Handle<E>) -> bool {
        self.constant.get(h.index()).copied().unwrap_or(false)
    }
}

/// An operation's width: a vector's components, a matrix's rows (one
/// column at a time), else 1; never more than 4.
fn width(t: &TypeInner) -> usize {
    match *t {
        TypeInner::Vector { size, .. } => size as usize,
        TypeInner::Matrix { rows, .. } => rows as usize,
        _ => 1,
    }
    .clamp(1, 4)
}

fn matrix(t: &TypeInner) -> Option<(u32, usize)> {
    match *t {
        TypeInner::Matrix { columns, rows, .. } => Some((columns as u32, rows as usize)),
        _ => None,
    }
}

fn alu(w: usize, n: u32) -> ShaderOps {
    ShaderOps::alu(w.clamp(1, 4), n)
}

/// The locals a function writes or hands to a call (as a pointer, for an
/// `out` parameter): the roots of every stored-to or passed pointer.
fn written_locals(fun: &Function) -> Vec<Handle<naga::LocalVariable>> {
    let root = |mut p: Handle<E>| loop {
        match fun.expressions.try_get(p) {
            Ok(&E::Access { base, .. } | &E::AccessIndex { base, .. })
                if base.index() < p.index() =>
            {
                p = base
            }
            Ok(&E::LocalVariable(l)) => break Some(l),
            _ => break None,
        }
    };
    let mut out = Vec::new();
    let mut blocks = vec![&fun.body];
    while let Some(b) = blocks.pop() {
        for stmt in b.iter() {
            match *stmt {
                S::Store { pointer, .. } => out.extend(root(pointer)),
                S::Call { ref arguments, .. } => {
                    out.extend(arguments.iter().filter_map(|&a| root(a)))
                }
                S::Block(ref b) => blocks.push(b),
                S::If {
                    ref accept,
                    ref reject,
                    ..
                } => blocks.extend([accept, reject]),
                S::Switch { ref cases, .. } => blocks.extend(cases.iter().map(|c| &c.body)),
                S::Loop {
                    ref body,
                    ref continuing,
                    ..
                } => blocks.extend([body, continuing]),
                _ => {}
            }
        }
    }
    out
}

/// The handles an expression reads (for constant folding).
fn operands(e: &E) -> Option<Vec<Handle<E>>> {
    Some(match *e {
        E::Literal(_) | E::Constant(_) | E::ZeroValue(_) | E::Override(_) => vec![],
        E::Compose { ref components, .. } => components.clone(),
        E::Splat { value: x, .. }
        | E::Swizzle { vector: x, .. }
        | E::AccessIndex { base: x, .. }
        | E::Unary { expr: x, .. }
        | E::As { expr: x, .. }
        | E::Relational { argument: x, .. } => vec![x],
        E::Access { base, index } => vec![base, index],
        E::Binary { left, right, .. } => vec![left, right],
        E::Select {
            condition,
            accept,
            reject,
        } => vec![condition, accept, reject],
        E::Math {
            arg,
            arg1,
            arg2,
            arg3,
            ..
        } => [Some(arg), arg1, arg2, arg3]
            .into_iter()
            .flatten()
            .collect(),
        _ => return None,
    })
}

impl<'m> Counter<'m> {
    fn function(&mut self, fun: &Function) -> Result<ShaderCount, Error> {
        let module = self.module;
        let ctx = ResolveContext::with_locals(module, &fun.local_variables, &fun.arguments);
        let mut typifier = Typifier::new();
        if let Some((last, _)) = fun.expressions.iter().last() {
            typifier
                .grow(last, &fun.expressions, &ctx)
                .map_err(|e| format!("cannot type an expression: {e}"))?;
        }
        let written = written_locals(fun);
        // Forward: operands come before what reads them; what reads a
        // later handle is taken as not constant. A local never written
        // after a constant initial value (a `const` local) is that value.
        let mut constant: Vec<bool> = Vec::with_capacity(fun.expressions.len());
        let before = |o: Handle<E>, h: Handle<E>, constant: &[bool]| {
            o.index() < h.index() && constant[o.index()]
        };
        for (h, e) in fun.expressions.iter() {
            let c = match *e {
                E::Load { pointer } => match fun.expressions.try_get(pointer) {
                    Ok(&E::LocalVariable(l)) => {
                        !written.contains(&l)
                            && fun
                                .local_variables
                                .try_get(l)
                                .ok()
                                .and_then(|v| v.init)
                                .is_some_and(|i| before(i, h, &constant))
                    }
                    _ => false,
                },
                _ => operands(e).is_some_and(|ops| ops.iter().all(|&o| before(o, h, &constant))),
            };
            constant.push(c);
        }
        let x = Exprs {
            fun,
            types: &module.types,
            typifier,
            constant,
        };
        let mut total = ShaderCount::default();
        self.block(&fun.body, &x, false, &mut total)?;
        Ok(total)
    }

    fn call(&mut self, f: Handle<Function>) -> Result<ShaderCount, Error> {
        if let Some(c) = self.memo.get(&f) {
            return Ok(*c);
        }
        let fun = self
            .module
            .functions
            .try_get(f)
            .map_err(|_| "a call to a function that does not exist".to_string())?;
        let name = fun.name.as_deref().unwrap_or("?");
        if self.stack.contains(&f) {
            return Err(format!(
                "`{name}` calls itself: expected no recursion (GLSL has none)"
            ));
        }
        if self.stack.len() >= MAX_CALL_DEPTH {
            return Err(format!(
                "calls nested deeper than {MAX_CALL_DEPTH} at `{name}`: expected at most {MAX_CALL_DEPTH}"
            ));
        }
        self.stack.push(f);
        let c = self.function(fun);
        self.stack.pop();
        let c = c?;
        self.memo.insert(f, c);
        Ok(c)
    }

    /// Adds `block` to `total`: both arms of every `if`, loop bodies once.
    /// `loop_top`: `block` is a loop's body, whose first `if` may be the
    /// loop's own test.
    fn block(
        &mut self,
        block: &Block,
        x: &Exprs<'_>,
        loop_top: bool,
        total: &mut ShaderCount,
    ) -> Result<(), Error> {
        for (stmt, span) in block.span_iter() {
            match *stmt {
                S::Emit(ref range) => {
                    for h in range.clone() {
                        expression(h, x, total);
                    }
                }
                S::Block(ref b) => self.block(b, x, false, total)?,
                S::If {
                    ref accept,
                    ref reject,
                    ..
                } => {
                    // naga writes a `for`/`while`/`do` test as
                    // `if (!cond) { break; }` with no span; the loop's one
                    // branch stands for it.
                    let loop_test = loop_top
                        && *span == Span::default()
                        && reject.is_empty()
                        && matches!(&accept[..], [S::Break]);
                    if !loop_test {
                        total.ops += ShaderOps::branch(1);
                    }
                    self.block(accept, x, false, total)?;
                    self.block(reject, x, false, total)?;
                }
                S::Switch { ref cases, .. } => {
                    let tests = cases
                        .iter()
                        .filter(|c| !matches!(c.value, SwitchValue::Default))
                        .count();
                    total.ops += ShaderOps::branch(tests as u32);
                    for c in cases {
                        self.block(&c.body, x, false, total)?;
                    }
                }
                S::Loop {
                    ref body,
                    ref continuing,
                    ..
                } => {
                    total.ops += ShaderOps::branch(1);
                    total.loops = true;
                    self.block(body, x, true, total)?;
                    self.block(continuing, x, false, total)?;
                }
                S::Kill => total.ops += ShaderOps::branch(1),
                S::Call { function, .. } => {
                    let c = self.call(function)?;
                    *total = total.plus(c);
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// Adds expression `h`'s operations (and texture samples) to `total`.
fn expression(h: Handle<E>, x: &Exprs<'_>, total: &mut ShaderCount) {
    let Ok(e) = x.fun.expressions.try_get(h) else {
        return;
    };
    if x.is_const(h) {
        return;
    }
    let w = width(x.ty(h));
    let ops = match *e {
        E::ImageSample { .. } | E::ImageLoad { .. } => {
            total.samples = total.samples.saturating_add(1);
            ShaderOps::NONE
        }
        E::Unary { op, .. } => match op {
            UnaryOperator::Negate | UnaryOperator::LogicalNot => ShaderOps::NONE,
            UnaryOperator::BitwiseNot => alu(w, 1),
        },
        E::Binary { op, left, right } => binary(op, left, right, w, x),
        E::Select { .. } => alu(w, 1),
        E::Derivative { axis, .. } => match axis {
            DerivativeAxis::Width => alu(w, 3),
            _ => alu(w, 1),
        },
        E::Relational { fun, argument } => match fun {
            RelationalFunction::All | RelationalFunction::Any => alu(width(x.ty(argument)), 1),
            _ => alu(w, 1),
        },
        E::Math { fun, arg, .. } => math(fun, width(x.ty(arg)), x.ty(h), w),
        E::As {
            convert: Some(_), ..
        } => alu(w, 1),
        _ => ShaderOps::NONE,
    };
    total.ops += ops;
}

fn binary(op: Bin, left: Handle<E>, right: Handle<E>, w: usize, x: &Exprs<'_>) -> ShaderOps {
    let (lt, rt) = (x.ty(left), x.ty(right));
    let vector = |t: &TypeInner| matches!(t, TypeInner::Vector { .. });
    // A reciprocal per component of the divisor; none for a constant one
    // (its reciprocal is a constant too). A splatted scalar is one.
    let reciprocals = || -> u32 {
        if x.is_const(right) {
            return 0;
        }
        match x.fun.expressions.try_get(right) {
            Ok(E::Splat { .. }) => 1,
            _ if matrix(rt).is_some() => 1,
            _ => width(rt) as u32,
        }
    };
    match (op, matrix(lt), matrix(rt)) {
        // Column c of the result is the left matrix times column c of the
        // right: its columns, each a multiply-add of its row width.
        (Bin::Multiply, Some((c1, r)), Some((c2, _))) => alu(r, c1.saturating_mul(c2)),
        // One multiply-add of the result's width per column.
        (Bin::Multiply, Some((c, r)), None) if vector(rt) => alu(r, c),
        // A row vector times a matrix: a dot product with each column.
        (Bin::Multiply, None, Some((c, r))) if vector(lt) => alu(r, c),
        (Bin::Divide, Some((c, r)), _) => ShaderOps::special(reciprocals()) + alu(r, c),
        // With a scalar, or matrix plus matrix: one operation per column.
        (_, Some((c, r)), _) | (_, None, Some((c, r))) => alu(r, c),
        (Bin::Divide, None, None) => ShaderOps::special(reciprocals()) + alu(w, 1),
        // x - y * trunc(x / y): the division, then three operations.
        (Bin::Modulo, None, None) => ShaderOps::special(reciprocals()) + alu(w, 4),
        _ => alu(w, 1),
    }
}

/// A built-in function's operations; `wa` its first argument's width,
/// `res` its result's type, `w` that type's width.
fn math(fun: M, wa: usize, res: &TypeInner, w: usize) -> ShaderOps {
    let special = |n: usize| ShaderOps::special(n as u32);
    match fun {
        M::Mix => alu(w, 2),
        M::SmoothStep => alu(w, 4),
        M::Cos | M::Sin | M::Exp | M::Exp2 | M::Log | M::Log2 | M::Sqrt | M::InverseSqrt => {
            special(w)
        }
        // sin / cos: two special functions and a division.
        M::Tan => special(3 * w) + alu(w, 1),
        // Inverse and hyperbolic functions: no unit computes them; counted
        // as one special-function operation per component (ours).
        M::Acos
        | M::Asin
        | M::Atan
        | M::Atan2
        | M::Sinh
        | M::Cosh
        | M::Tanh
        | M::Asinh
        | M::Acosh
        | M::Atanh => special(w),
        M::Pow => special(2 * w) + alu(w, 1),
        M::Dot | M::Dot4I8Packed | M::Dot4U8Packed => alu(wa, 1),
        M::Outer => match matrix(res) {
            Some((c, r)) => alu(r, c),
            None => alu(w, 1),
        },
        M::Cross => alu(3, 2),
        // A subtract, a dot product, a square root.
        M::Distance => alu(wa, 2) + special(1),
        M::Length => alu(wa, 1) + special(1),
        M::Normalize => alu(w, 2) + special(1),
        // dot(Nref, I) < 0 ? N : -N.
        M::FaceForward => alu(w, 2) + alu(1, 1),
        // I - 2 dot(N, I) N: a dot product, a scalar multiply, a multiply-add.
        M::Reflect => alu(w, 2) + alu(1, 1),
        // d = dot(N, I); k = 1 - eta^2 (1 - d^2) (four scalar operations);
        // k < 0 ? 0 : eta I - (eta d + sqrt(k)) N (a compare, a square
        // root, a multiply-add, a multiply, a multiply-add, a select).
        M::Refract => alu(w, 4) + alu(1, 6) + special(1),
        M::Transpose => ShaderOps::NONE,
        // No rule: an n x n determinant as n operations of width n, an
        // inverse as n^2 and a reciprocal (ours; not met in the census).
        M::Determinant => alu(wa, wa as u32),
        M::Inverse => alu(wa, (wa * wa) as u32) + special(1),
        M::Modf | M::Frexp => alu(wa, 2),
        _ => alu(w, 1),
    }
}
