//! Partial evaluation of ASL into the semantics IR.
//!
//! Decode blocks run with every field known, so all their values are
//! constants ([`Const`]). Execute blocks then run with those constants
//! fixed: whatever depends only on them folds away (`if unsigned then …`,
//! `esize`, `elements`), and what depends on register contents becomes IR.
//!
//! ASL integers are unbounded and the IR's arithmetic is exact, so integer
//! expressions carry over as they are. A `bits(N)` value is kept as an
//! unsigned N-bit IR value; ASL's modular `+`/`-` on bits is truncated back
//! to N bits. `FPSR.QC`, the sticky saturation flag, is not part of the
//! modelled result: writes to it are dropped (the saturated value is).

use super::ast::{Expr as A, IndexArg, Stmt as AStmt, StmtKind as K, Type};
use super::value::*;
use crate::sema::ir::{BinOp, Expr as E, Place, Span, Stmt, StmtKind, UnOp};
use num_bigint::{BigInt, BigUint};
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TranslateError {
    #[error("{span}: {message}")]
    Unsupported { span: Span, message: String },
    #[error("{span}: the encoding is UNDEFINED for these fields")]
    Undefined { span: Span },
    #[error("{span}: the encoding belongs to another instruction (SEE {target})")]
    See { span: Span, target: String },
}

impl TranslateError {
    pub fn span(&self) -> Span {
        match self {
            TranslateError::Unsupported { span, .. }
            | TranslateError::Undefined { span }
            | TranslateError::See { span, .. } => *span,
        }
    }
}

type R<T> = Result<T, TranslateError>;

/// A value during partial evaluation.
#[derive(Clone, Debug, PartialEq)]
pub enum PV {
    K(Const),
    S(E, Ty),
}

/// The SIMD registers an instruction reads and writes.
#[derive(Clone, Debug, Default)]
pub struct Registers {
    /// Register number → IR input holding its low bits, and how many bits.
    pub inputs: HashMap<u32, (String, u32)>,
    /// The destination register's number and the IR variable the result is built in.
    pub dest: Option<(u32, String)>,
}

pub struct Translator<'a> {
    env: HashMap<String, PV>,
    declared: HashMap<String, Ty>,
    regs: &'a Registers,
    out: Vec<Stmt>,
    span: Span,
    /// Locals assigned once, as a whole, outside loops and data-dependent branches.
    foldable: HashSet<String>,
    fresh: usize,
    /// Prefix of IR names for the locals of an inlined function.
    prefix: String,
    lib: Option<&'a super::library::Library>,
}

/// Runs a decode block with the encoding's fields bound; returns every
/// variable it defines.
pub fn run_decode(body: &[AStmt], fields: &[(String, Const)]) -> R<HashMap<String, Const>> {
    let regs = Registers::default();
    let mut t = Translator::new(&regs);
    t.foldable = all_assigned(body);
    for (n, v) in fields {
        t.env.insert(n.clone(), PV::K(v.clone()));
    }
    t.block(body)?;
    if let Some(s) = t.out.first() {
        return Err(TranslateError::Unsupported {
            span: s.span,
            message: "decode depends on register contents".into(),
        });
    }
    Ok(t.env
        .into_iter()
        .filter_map(|(k, v)| match v {
            PV::K(c) => Some((k, c)),
            PV::S(..) => None,
        })
        .collect())
}

/// Translates an execute block with `consts` (the decode's values, some
/// replaced by data-dependent ones such as an immediate operand) fixed.
pub fn run_execute(
    body: &[AStmt],
    consts: &HashMap<String, PV>,
    regs: &Registers,
    lib: &super::library::Library,
) -> R<Vec<Stmt>> {
    let mut t = Translator::new(regs);
    t.lib = Some(lib);
    t.env = consts.clone();
    t.foldable = foldable_locals(body);
    t.init_dest()?;
    t.block(body)?;
    Ok(t.out)
}

/// Names assigned anywhere in `body` (decode blocks: all fold).
fn all_assigned(body: &[AStmt]) -> HashSet<String> {
    let mut counts = HashMap::new();
    count_assignments(body, false, &mut counts);
    counts.into_keys().collect()
}

/// Locals assigned exactly once, wholly, at the top level.
fn foldable_locals(body: &[AStmt]) -> HashSet<String> {
    let mut counts: HashMap<String, (usize, bool)> = HashMap::new();
    count_assignments(body, false, &mut counts);
    counts.into_iter().filter(|(_, (n, ok))| *n == 1 && *ok).map(|(k, _)| k).collect()
}

fn count_assignments(body: &[AStmt], nested: bool, counts: &mut HashMap<String, (usize, bool)>) {
    let note = |name: &str, whole: bool, counts: &mut HashMap<String, (usize, bool)>| {
        let e = counts.entry(name.to_string()).or_insert((0, true));
        e.0 += 1;
        e.1 &= whole && !nested;
    };
    for s in body {
        match &s.kind {
            K::Decl { vars, .. } => {
                for (v, init) in vars {
                    if init.is_some() {
                        note(v, true, counts);
                    }
                }
            }
            K::Assign { target, .. } => {
                for (name, whole) in targets(target) {
                    note(&name, whole, counts);
                }
            }
            K::If { arms, otherwise } => {
                for (_, b) in arms {
                    count_assignments(b, true, counts);
                }
                count_assignments(otherwise, true, counts);
            }
            K::For { var, body, .. } => {
                note(var, false, counts);
                count_assignments(body, true, counts);
            }
            K::Case { arms, otherwise, .. } => {
                for (_, b) in arms {
                    count_assignments(b, true, counts);
                }
                if let Some(b) = otherwise {
                    count_assignments(b, true, counts);
                }
            }
            _ => {}
        }
    }
}

/// The variables an assignment target writes, and whether wholly.
fn targets(t: &A) -> Vec<(String, bool)> {
    match t {
        A::Var(v) => vec![(v.clone(), true)],
        A::Tuple(items) => items.iter().flat_map(targets).collect(),
        A::Index(base, args) => match base.as_ref() {
            A::Var(f) if f == "Elem" => match args.first() {
                Some(IndexArg::One(A::Var(v))) => vec![(v.clone(), false)],
                _ => vec![],
            },
            A::Var(f) if f == "V" || f == "Vpart" => vec![],
            A::Var(v) => vec![(v.clone(), false)],
            _ => vec![],
        },
        _ => vec![],
    }
}

fn assigned_in(body: &[AStmt]) -> HashSet<String> {
    let mut counts = HashMap::new();
    count_assignments(body, true, &mut counts);
    counts.into_keys().collect()
}

/// 2^w.
fn pow2(w: u32) -> BigInt {
    BigInt::one() << w
}

/// The values of `bits(w)`, as an IR integer range.
fn bits_range(w: u32) -> Option<(BigInt, BigInt)> {
    Some((BigInt::zero(), pow2(w) - 1))
}

fn int(v: impl Into<BigInt>) -> E {
    E::Int(v.into())
}
fn call(f: &str, args: Vec<E>) -> E {
    E::Call { func: f.to_string(), args }
}
fn bin(op: BinOp, a: E, b: E) -> E {
    E::binary(op, a, b)
}
/// `e` as an unsigned `w`-bit value (truncating or zero-extending).
fn zext(e: E, w: u32) -> E {
    call("ZeroExtend", vec![e, int(w)])
}
fn slice(e: E, hi: E, lo: E) -> E {
    E::Slice { base: Box::new(e), hi: Box::new(hi), lo: Box::new(lo) }
}

impl<'a> Translator<'a> {
    fn new(regs: &'a Registers) -> Self {
        Translator {
            env: HashMap::new(),
            declared: HashMap::new(),
            regs,
            out: Vec::new(),
            span: Span::default(),
            foldable: HashSet::new(),
            fresh: 0,
            prefix: String::new(),
            lib: None,
        }
    }

    /// The IR name of ASL local `name` in the current function.
    fn ir_name(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    fn unsupported<T>(&self, message: impl Into<String>) -> R<T> {
        Err(TranslateError::Unsupported { span: self.span, message: message.into() })
    }

    fn emit(&mut self, place: Place, value: E) {
        self.out.push(Stmt { span: self.span, kind: StmtKind::Assign { place, value } });
    }

    fn block(&mut self, body: &[AStmt]) -> R<()> {
        for s in body {
            self.span = s.span;
            self.stmt(s)?;
        }
        Ok(())
    }

    /// `for var = a to b` (or `downto`) as an IR loop with `var` data-dependent.
    fn ir_loop(&mut self, var: &str, a: &BigInt, b: &BigInt, down: bool, body: &[AStmt]) -> R<()> {
        let mut written = assigned_in(body);
        written.remove(var);
        self.materialize(&written)?;
        let range = if down { (b.clone(), a.clone()) } else { (a.clone(), b.clone()) };
        let ir_var = self.ir_name(var);
        self.env.insert(var.to_string(), PV::S(E::var(&ir_var), Ty::Int(Some(range))));
        let span = self.span;
        let saved = std::mem::take(&mut self.out);
        let r = self.block(body);
        let inner = std::mem::replace(&mut self.out, saved);
        self.env.remove(var);
        r?;
        self.out.push(Stmt {
            span,
            kind: StmtKind::For {
                var: ir_var,
                from: E::Int(a.clone()),
                to: E::Int(b.clone()),
                descending: down,
                body: inner,
            },
        });
        Ok(())
    }

    /// Turns constants that `body` may overwrite into IR variables, so that
    /// a loop or a data-dependent branch can update them.
    fn materialize(&mut self, names: &HashSet<String>) -> R<()> {
        let mut sorted: Vec<&String> = names.iter().collect();
        sorted.sort();
        for n in sorted {
            if let Some(PV::K(c)) = self.env.get(n).cloned() {
                let (e, ty) = self.const_ir(&c)?;
                let ir = self.ir_name(n);
                self.emit(Place { var: ir.clone(), range: None }, e);
                self.env.insert(n.clone(), PV::S(E::var(&ir), ty));
            }
        }
        Ok(())
    }

    fn stmt(&mut self, s: &AStmt) -> R<()> {
        match &s.kind {
            K::Decl { ty, vars } => {
                let ty = self.ty(ty)?;
                for (name, init) in vars {
                    if let Some(t) = &ty {
                        self.declared.insert(name.clone(), t.clone());
                    }
                    match init {
                        Some(v) => self.assign_var(name, v)?,
                        None => {
                            if let Some(Ty::Bits(w)) = ty {
                                let z = Const::Bits { value: BigUint::zero(), width: w };
                                if self.foldable.contains(name) {
                                    self.env.insert(name.clone(), PV::K(z));
                                } else {
                                    let (e, t) = self.const_ir(&z)?;
                                    let ir = self.ir_name(name);
                                    self.emit(Place { var: ir.clone(), range: None }, e);
                                    self.env.insert(name.clone(), PV::S(E::var(&ir), t));
                                }
                            } else {
                                self.env.remove(name);
                            }
                        }
                    }
                }
                Ok(())
            }
            K::Assign { target, value } => self.assign(target, value),
            K::Call(e) => self.call_stmt(e),
            K::If { arms, otherwise } => self.if_stmt(arms, otherwise),
            K::For { var, from, to, down, body } => {
                let (PV::K(Const::Int(a)), PV::K(Const::Int(b))) = (self.expr(from, None)?, self.expr(to, None)?)
                else {
                    return self.unsupported("loop bounds depend on register contents");
                };
                // A loop stays a loop (so one-element forms share the
                // template of the others); one whose body needs its counter
                // as a constant (a register number) runs once, unrolled.
                let (mark, env0, declared0, fresh0) =
                    (self.out.len(), self.env.clone(), self.declared.clone(), self.fresh);
                match self.ir_loop(var, &a, &b, *down, body) {
                    Ok(()) => return Ok(()),
                    Err(e) if a != b => return Err(e),
                    Err(_) => {
                        self.out.truncate(mark);
                        self.env = env0;
                        self.declared = declared0;
                        self.fresh = fresh0;
                    }
                }
                self.env.insert(var.clone(), PV::K(Const::Int(a)));
                self.block(body)?;
                self.env.remove(var);
                Ok(())
            }
            K::Case { scrutinee, arms, otherwise } => {
                let v = self.expr(scrutinee, None)?;
                let PV::K(c) = v else { return self.unsupported("case on register contents") };
                for (pats, body) in arms {
                    for p in pats {
                        if self.pattern_matches(&c, p)? {
                            return self.block(body);
                        }
                    }
                }
                match otherwise {
                    Some(b) => self.block(b),
                    None => self.unsupported(format!("no case arm matches {}", c.describe())),
                }
            }
            K::Return(_) => self.unsupported("return outside a function"),
            K::Undefined | K::Unpredictable => Err(TranslateError::Undefined { span: self.span }),
            K::See(t) => Err(TranslateError::See { span: self.span, target: t.clone() }),
        }
    }

    fn pattern_matches(&mut self, c: &Const, p: &A) -> R<bool> {
        Ok(match (c, p) {
            (Const::Bits { value, width }, A::Bits(pat)) => matches_pattern(value, *width, pat),
            (Const::Enum(e), A::Var(n)) => e == n,
            (Const::Int(i), A::Num(n)) => i == n,
            _ => {
                let PV::K(pc) = self.expr(p, None)? else { return self.unsupported("case label is not constant") };
                *c == pc
            }
        })
    }

    fn ty(&mut self, t: &Type) -> R<Option<Ty>> {
        Ok(match t {
            Type::Integer => Some(Ty::Int(None)),
            Type::Boolean | Type::Bit => Some(if matches!(t, Type::Bit) { Ty::Bits(1) } else { Ty::Bool }),
            Type::Bits(w) => Some(Ty::Bits(self.const_width(w)?)),
            Type::Named(_) => None,
        })
    }

    fn const_width(&mut self, e: &A) -> R<u32> {
        match self.expr(e, None)? {
            PV::K(Const::Int(i)) => match i.to_u32() {
                Some(w) if w > 0 && w <= 4096 => Ok(w),
                _ => self.unsupported(format!("bad width {i}")),
            },
            _ => self.unsupported("width depends on register contents"),
        }
    }

    fn call_stmt(&mut self, e: &A) -> R<()> {
        match e {
            A::Call(f, _) if f.starts_with("CheckFPAdvSIMDEnabled") || f.ends_with(".CheckFPAdvSIMDEnabled") => Ok(()),
            A::Call(f, args) if f == "assert" => match args.first().map(|a| self.expr(a, None)).transpose()? {
                Some(PV::K(Const::Bool(false))) => self.unsupported("assertion fails"),
                _ => Ok(()),
            },
            A::Call(f, _) => self.unsupported(format!("unknown procedure `{f}`")),
            _ => self.unsupported("expression used as a statement"),
        }
    }

    fn if_stmt(&mut self, arms: &[(A, Vec<AStmt>)], otherwise: &[AStmt]) -> R<()> {
        let Some(((c, body), rest)) = arms.split_first() else { return self.block(otherwise) };
        // Branches that only set the sticky saturation flag do nothing here.
        match self.expr(c, None)? {
            PV::K(Const::Bool(flag)) => {
                if rest.is_empty() && self.keep_flag_branch(flag, body, otherwise)? {
                    return Ok(());
                }
                if flag {
                    self.block(body)
                } else {
                    self.if_stmt(rest, otherwise)
                }
            }
            PV::K(other) => self.unsupported(format!("condition is {}, not a boolean", other.describe())),
            PV::S(cond, _) => {
                let mut written = assigned_in(body);
                for (_, b) in rest {
                    written.extend(assigned_in(b));
                }
                written.extend(assigned_in(otherwise));
                self.materialize(&written)?;
                let span = self.span;
                let env0 = self.env.clone();
                let saved = std::mem::take(&mut self.out);
                self.block(body)?;
                let then = std::mem::take(&mut self.out);
                let env_then = std::mem::replace(&mut self.env, env0);
                self.if_stmt(rest, otherwise)?;
                let other = std::mem::replace(&mut self.out, saved);
                self.merge_env(&env_then);
                self.out.push(Stmt { span, kind: StmtKind::If { cond, then, otherwise: other } });
                Ok(())
            }
        }
    }

    /// `if flag then … else …` with the flag fixed by the encoding, kept in
    /// the IR as `if <0 or 1>` when both branches translate and write only
    /// variables that already depend on register contents: forms of an
    /// instruction that differ in the flag then share a template. False
    /// (nothing emitted) when the branch must be chosen here.
    fn keep_flag_branch(&mut self, flag: bool, then: &[AStmt], otherwise: &[AStmt]) -> R<bool> {
        if then.is_empty() || otherwise.is_empty() {
            return Ok(false);
        }
        let mut written = assigned_in(then);
        written.extend(assigned_in(otherwise));
        // Variables declared but not yet set (`integer element1;`) may be
        // given their first value here.
        if written.iter().any(|n| matches!(self.env.get(n), Some(PV::K(_)))) {
            return Ok(false);
        }
        let (env0, fresh0) = (self.env.clone(), self.fresh);
        let saved = std::mem::take(&mut self.out);
        let a = self.block(then);
        let a_out = std::mem::take(&mut self.out);
        let env_a = std::mem::replace(&mut self.env, env0.clone());
        let b = if a.is_ok() { self.block(otherwise) } else { Ok(()) };
        let b_out = std::mem::replace(&mut self.out, saved);
        let same_types = env_a.iter().all(|(k, v)| match (v, self.env.get(k)) {
            (PV::S(_, Ty::Bits(x)), Some(PV::S(_, Ty::Bits(y)))) => x == y,
            (PV::S(..), Some(PV::S(..))) => true,
            (PV::K(x), Some(PV::K(y))) => x == y,
            (_, None) | (PV::K(_), _) => !env0.contains_key(k) || env0.get(k) == Some(v),
            _ => false,
        });
        if a.is_err() || b.is_err() || !same_types {
            self.env = env0;
            self.fresh = fresh0;
            return Ok(false);
        }
        self.merge_env(&env_a);
        self.out.push(Stmt {
            span: self.span,
            kind: StmtKind::If { cond: int(u8::from(flag)), then: a_out, otherwise: b_out },
        });
        Ok(true)
    }

    /// After a data-dependent branch: variables keep the IR name both
    /// branches wrote, with the union of their ranges.
    fn merge_env(&mut self, other: &HashMap<String, PV>) {
        for (k, v) in other {
            match (self.env.get(k).cloned(), v) {
                (Some(PV::S(e, Ty::Int(a))), PV::S(_, Ty::Int(b))) => {
                    self.env.insert(k.clone(), PV::S(e, Ty::Int(range_union(&a, b))));
                }
                (None, v) => {
                    self.env.insert(k.clone(), v.clone());
                }
                _ => {}
            }
        }
    }

    /// IR for a value, and its type.
    fn to_ir(&mut self, v: PV) -> R<(E, Ty)> {
        match v {
            PV::S(e, t) => Ok((e, t)),
            PV::K(c) => self.const_ir(&c),
        }
    }

    fn const_ir(&self, c: &Const) -> R<(E, Ty)> {
        Ok(match c {
            Const::Int(i) => (E::Int(i.clone()), Ty::Int(Some((i.clone(), i.clone())))),
            Const::Bool(b) => (int(u8::from(*b)), Ty::Bool),
            Const::Bits { value, width } => (zext(E::Int(BigInt::from(value.clone())), *width), Ty::Bits(*width)),
            Const::Enum(e) => return self.unsupported(format!("enumeration value {e} in data")),
        })
    }
}

mod assign;
mod calls;
mod exprs;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::arm::asl::parser::parse_block;

    fn bits(v: u64, w: u32) -> Const {
        Const::Bits { value: BigUint::from(v), width: w }
    }

    #[test]
    fn decode_folds_to_constants() {
        let body = parse_block(
            "integer esize = 8 << UInt(size);\ninteger elements = 64 DIV esize;\nboolean unsigned = (U == '1');\nif size == '11' then UNDEFINED;\n",
            1,
        )
        .unwrap();
        let env = run_decode(&body, &[("size".into(), bits(1, 2)), ("U".into(), bits(1, 1))]).unwrap();
        assert_eq!(env["esize"], Const::Int(16.into()));
        assert_eq!(env["elements"], Const::Int(4.into()));
        assert_eq!(env["unsigned"], Const::Bool(true));
        let undefined = run_decode(&body, &[("size".into(), bits(3, 2)), ("U".into(), bits(0, 1))]);
        assert!(matches!(undefined, Err(TranslateError::Undefined { span }) if span.line == 4));
    }

    #[test]
    fn encoding_flags_stay_numbers_in_the_ir() {
        // `Int(x, unsigned)` keeps the flag as an operand of `AsInteger`, so
        // signed and unsigned forms differ only in a number.
        let body = parse_block("bits(8) x = V[n];\ninteger v = Int(x, unsigned);\nV[d] = v[7:0];\n", 1).unwrap();
        let mut regs = Registers::default();
        regs.inputs.insert(1, ("a".into(), 8));
        regs.dest = Some((0, "out".into()));
        let consts: HashMap<String, PV> = [
            ("n".to_string(), PV::K(Const::Int(1.into()))),
            ("d".to_string(), PV::K(Const::Int(0.into()))),
            ("unsigned".to_string(), PV::K(Const::Bool(false))),
        ]
        .into_iter()
        .collect();
        let ir = run_execute(&body, &consts, &regs, &super::super::library::Library::empty()).unwrap();
        let text = format!("{ir:?}");
        assert!(text.contains("AsInteger"), "{text}");
    }
}
