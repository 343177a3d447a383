//! Binding an intrinsic to its ASL: the instruction is written as assembly,
//! encoded by the assembler, and the 32-bit word picks the encoding whose
//! opcode pattern it matches. The word's fields then run the encoding's
//! decode block, and the execute block is translated with those values.

use super::asl::ast::Stmt as AStmt;
use super::asl::instrs::{Encoding, InstrFile};
use super::asl::library::Library;
use super::asl::parser::parse_block;
use super::asl::translate::{run_decode, run_execute, Registers, TranslateError, PV};
use super::asl::value::{Const, Ty};
use super::intrinsics::Intrinsic;
use crate::sema::ir::{Arg, ArgKind, ElemType, Expr, Semantics};
use num_bigint::{BigInt, BigUint};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// The IR variable the destination register is built in.
pub const DEST: &str = "d_out";
/// The IR variable holding the intrinsic's result: the low bits of [`DEST`].
pub const RESULT: &str = "ret";

/// Register numbers the assembly uses for each operand role.
pub fn role_register(role: char) -> Option<u32> {
    match role {
        'd' => Some(0),
        'n' => Some(1),
        'm' => Some(2),
        'a' => Some(3),
        _ => None,
    }
}

/// The role letter of an operand such as `Vn.16B`, `Hm`, `{Vn.16B}`, `Vm.4B[lane]`.
pub fn operand_role(op: &str) -> Option<char> {
    let t = op.trim().trim_start_matches('{');
    let mut cs = t.chars();
    let kind = cs.next()?;
    if !matches!(kind, 'V' | 'B' | 'H' | 'S' | 'D' | 'Q') {
        return None;
    }
    cs.next().filter(|c| matches!(c, 'd' | 'n' | 'm' | 'a'))
}

/// A failure to give an intrinsic semantics, with where it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct BindFailure {
    /// `assemble`, `encoding`, `decode`, `parse`, `translate`, `type`, `signature`.
    pub stage: &'static str,
    pub message: String,
    /// `file:line:col` in the ASL, when the failure is in it.
    pub location: Option<String>,
}

impl BindFailure {
    fn new(stage: &'static str, message: impl Into<String>) -> Self {
        BindFailure { stage, message: message.into(), location: None }
    }
}

/// What the intrinsic was bound to.
#[derive(Clone, Debug, PartialEq)]
pub struct Binding {
    pub assembly: String,
    pub word: u32,
    pub encoding: String,
    pub instruction: String,
}

/// The ASL sources, with parsed blocks cached.
pub struct Spec {
    pub instrs: InstrFile,
    pub library: Library,
    decode: Mutex<HashMap<usize, Arc<Result<Vec<AStmt>, BindFailure>>>>,
    execute: Mutex<HashMap<usize, Arc<Result<Vec<AStmt>, BindFailure>>>>,
}

impl Spec {
    pub fn new(instrs: InstrFile, library: Library) -> Spec {
        Spec { instrs, library, decode: Mutex::new(HashMap::new()), execute: Mutex::new(HashMap::new()) }
    }

    fn located(&self, span: crate::sema::ir::Span) -> Option<String> {
        Some(format!("{}:{}:{}", self.instrs.path.display(), span.line, span.col))
    }

    fn parsed(
        &self,
        cache: &Mutex<HashMap<usize, Arc<Result<Vec<AStmt>, BindFailure>>>>,
        key: usize,
        block: &super::asl::instrs::Block,
    ) -> Arc<Result<Vec<AStmt>, BindFailure>> {
        if let Some(r) = cache.lock().expect("cache").get(&key) {
            return r.clone();
        }
        let r = Arc::new(parse_block(&block.text, block.line).map_err(|e| BindFailure {
            stage: "parse",
            message: e.message.clone(),
            location: self.located(e.span),
        }));
        cache.lock().expect("cache").insert(key, r.clone());
        r
    }

    /// A64 encodings whose opcode pattern `word` matches.
    pub fn matching(&self, word: u32) -> Vec<usize> {
        (0..self.instrs.encodings.len())
            .filter(|&k| {
                let e = &self.instrs.encodings[k];
                e.instruction_set == "A64" && e.matches(word)
            })
            .collect()
    }

    /// The decode block's values for `word` under encoding `k`.
    pub fn decode(&self, k: usize, word: u32) -> Result<HashMap<String, Const>, BindFailure> {
        let enc = &self.instrs.encodings[k];
        let body = self.parsed(&self.decode, k, &enc.decode);
        let body = body.as_ref().as_ref().map_err(Clone::clone)?;
        run_decode(body, &fields(enc, word)).map_err(|e| self.translate_failure("decode", e))
    }

    fn translate_failure(&self, stage: &'static str, e: TranslateError) -> BindFailure {
        let stage = match e {
            TranslateError::Undefined { .. } | TranslateError::See { .. } => "decode",
            _ => stage,
        };
        BindFailure {
            stage,
            message: e.to_string().split_once(": ").map_or(e.to_string(), |(_, m)| m.to_string()),
            location: self.located(e.span()),
        }
    }
}

/// The encoding's fields read from `word`.
pub fn fields(enc: &Encoding, word: u32) -> Vec<(String, Const)> {
    enc.fields
        .iter()
        .map(|f| {
            let v = (u64::from(word) >> f.lo) & ((1u64 << f.width) - 1);
            (f.name.clone(), Const::Bits { value: BigUint::from(v), width: f.width })
        })
        .collect()
}

/// The encoding an intrinsic binds to for each of its immediate values
/// (one word when it has none), and the decode values.
pub struct Decoded {
    pub encoding: usize,
    /// Per immediate value (or the single `None`), the decode's values.
    pub per_value: Vec<(Option<i64>, HashMap<String, Const>)>,
}

/// Picks the encoding for the words of one intrinsic: every word must
/// match the same encoding, and decode there.
pub fn decode_words(spec: &Spec, words: &[(Option<i64>, u32)]) -> Result<Decoded, BindFailure> {
    let (_, first) = words.first().ok_or_else(|| BindFailure::new("encoding", "no instruction word"))?;
    let candidates = spec.matching(*first);
    if candidates.is_empty() {
        return Err(BindFailure::new("encoding", format!("no A64 encoding matches {first:#010x}")));
    }
    let mut last_err = None;
    // Encodings the first word decodes under, with what it decodes to.
    let mut found: Vec<(usize, HashMap<String, Const>)> = Vec::new();
    for &k in &candidates {
        // The file repeats some encodings verbatim under one name.
        if found.iter().any(|(f, _)| spec.instrs.encodings[*f].name == spec.instrs.encodings[k].name) {
            continue;
        }
        match spec.decode(k, *first) {
            Ok(env) => found.push((k, env)),
            Err(e) => last_err = Some(e),
        }
    }
    let (k, first_env) = match found.len() {
        1 => found.pop().expect("one"),
        0 => return Err(last_err.unwrap_or_else(|| BindFailure::new("decode", "no encoding decodes"))),
        _ => {
            let names: Vec<&str> = found.iter().map(|(k, _)| spec.instrs.encodings[*k].name.as_str()).collect();
            return Err(BindFailure::new(
                "encoding",
                format!("{first:#010x} decodes under several encodings: {}", names.join(", ")),
            ));
        }
    };
    let mut per_value = vec![(words[0].0, first_env)];
    for (v, w) in &words[1..] {
        if !spec.instrs.encodings[k].matches(*w) {
            return Err(BindFailure::new("encoding", format!("immediate {v:?} gives {w:#010x}, another encoding")));
        }
        per_value.push((*v, spec.decode(k, *w)?));
    }
    Ok(Decoded { encoding: k, per_value })
}

/// Decode values that change with the immediate, as `a * imm + b`.
fn affine(per_value: &[(Option<i64>, HashMap<String, Const>)], name: &str) -> Option<(BigInt, BigInt)> {
    let pts: Vec<(BigInt, BigInt)> = per_value
        .iter()
        .map(|(v, env)| match env.get(name) {
            Some(Const::Int(i)) => Some((BigInt::from(v.unwrap_or(0)), i.clone())),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let (x0, y0) = pts.first()?.clone();
    let Some((x1, y1)) = pts.iter().find(|(x, _)| *x != x0).cloned() else { return Some((BigInt::from(0), y0)) };
    let dx = &x1 - &x0;
    let dy = &y1 - &y0;
    if &dy % &dx != BigInt::from(0) {
        return None;
    }
    let a = dy / dx;
    let b = &y0 - &a * &x0;
    pts.iter().all(|(x, y)| &a * x + &b == *y).then_some((a, b))
}

/// Names used in `bits(…)` types of a block: values that must be constants.
fn width_names(body: &[AStmt]) -> std::collections::HashSet<String> {
    use super::asl::ast::{Expr as A, StmtKind as K, Type};
    fn names(e: &A, out: &mut std::collections::HashSet<String>) {
        match e {
            A::Var(n) => {
                out.insert(n.clone());
            }
            A::Binary(_, a, b) => {
                names(a, out);
                names(b, out);
            }
            A::Unary(_, a) => names(a, out),
            A::Call(_, args) => args.iter().for_each(|a| names(a, out)),
            _ => {}
        }
    }
    let mut out = std::collections::HashSet::new();
    let mut stack: Vec<&AStmt> = body.iter().collect();
    while let Some(s) = stack.pop() {
        match &s.kind {
            K::Decl { ty: Type::Bits(w), .. } => names(w, &mut out),
            K::If { arms, otherwise } => {
                stack.extend(arms.iter().flat_map(|(_, b)| b.iter()));
                stack.extend(otherwise.iter());
            }
            K::For { body, .. } => stack.extend(body.iter()),
            K::Case { arms, otherwise, .. } => {
                stack.extend(arms.iter().flat_map(|(_, b)| b.iter()));
                stack.extend(otherwise.iter().flatten());
            }
            _ => {}
        }
    }
    out
}

/// The register role (`n`, `m`, …) each argument is passed in: the one the
/// table names, or, where it names none, the next source operand no other
/// argument takes; `None` for immediates and registers that name no role.
pub fn argument_roles(i: &Intrinsic) -> Vec<Option<char>> {
    let named: Vec<char> = i.args.iter().filter_map(|a| a.register.as_deref().and_then(operand_role)).collect();
    let mut spare = i.operands.split(',').filter_map(operand_role).filter(|r| *r != 'd' && !named.contains(r));
    i.args
        .iter()
        .map(|a| match (&a.range, &a.register) {
            (Some(_), _) => None,
            (None, Some(reg)) => operand_role(reg),
            (None, None) => spare.next(),
        })
        .collect()
}

/// The IR signature of an intrinsic: its arguments (registers and the
/// immediate) and its result, with the registers they stand for.
pub fn signature(i: &Intrinsic) -> Result<(Vec<Arg>, Arg, Registers), BindFailure> {
    let mut args = Vec::new();
    let mut regs = Registers::default();
    let roles = argument_roles(i);
    for (a, role) in i.args.iter().zip(roles) {
        let width = a.c_type.bits();
        let elem = ElemType { width: a.c_type.elem_bits, signed: false };
        if let Some((lo, hi)) = a.range {
            if lo < 0 {
                return Err(BindFailure::new("signature", format!("immediate `{}` may be negative", a.name)));
            }
            let bits = (64 - (hi.max(1) as u64).leading_zeros()).max(1);
            args.push(Arg {
                name: a.name.clone(),
                kind: ArgKind::Immediate,
                width: bits,
                elem: ElemType { width: bits, signed: false },
                imm_bits: Some(bits),
                imm_range: Some((lo, hi)),
            });
            continue;
        }
        let role = match (role, &a.register) {
            (Some(r), _) => r,
            (None, Some(reg)) => {
                return Err(BindFailure::new("signature", format!("argument `{}` is in `{reg}`", a.name)))
            }
            (None, None) => {
                return Err(BindFailure::new("signature", format!("argument `{}` has no register", a.name)))
            }
        };
        let vector_register = a.register.as_deref().is_none_or(|r| r.starts_with('V'));
        let n = role_register(role).expect("role");
        if regs.inputs.insert(n, (a.name.clone(), width)).is_some() {
            return Err(BindFailure::new("signature", format!("two arguments in register {role}")));
        }
        let kind = if a.c_type.lanes > 1 || vector_register { ArgKind::Vector } else { ArgKind::Scalar };
        args.push(Arg { name: a.name.clone(), kind, width, elem, imm_bits: None, imm_range: None });
    }
    if args.iter().filter(|a| a.kind == ArgKind::Immediate).count() > 1 {
        return Err(BindFailure::new("signature", "more than one immediate"));
    }
    match i.result_register.as_deref().and_then(operand_role) {
        Some('d') => {}
        _ => {
            return Err(BindFailure::new(
                "signature",
                format!("result in `{}`", i.result_register.clone().unwrap_or_default()),
            ))
        }
    }
    regs.dest = Some((0, DEST.to_string()));
    let kind = if i.ret.lanes > 1 { ArgKind::Vector } else { ArgKind::Scalar };
    let result = Arg {
        name: RESULT.to_string(),
        kind,
        width: i.ret.bits(),
        elem: ElemType { width: i.ret.elem_bits, signed: false },
        imm_bits: None,
        imm_range: None,
    };
    Ok((args, result, regs))
}

/// Semantics of `i` from its decoded encoding.
pub fn semantics(spec: &Spec, i: &Intrinsic, decoded: &Decoded) -> Result<Semantics, BindFailure> {
    let (args, result, regs) = signature(i)?;
    let enc = &spec.instrs.encodings[decoded.encoding];
    let ins = &spec.instrs.instructions[enc.instruction];
    if ins.postdecode.is_some() {
        return Err(BindFailure::new("translate", format!("{} has a postdecode block", ins.name)));
    }
    let body = spec.parsed(&spec.execute, enc.instruction, &ins.execute);
    let body = body.as_ref().as_ref().map_err(Clone::clone)?;
    let (_, base) = decoded.per_value.first().ok_or_else(|| BindFailure::new("decode", "nothing decoded"))?;
    let imm = args.iter().find(|a| a.kind == ArgKind::Immediate).map(|a| a.name.clone());
    let mut consts: HashMap<String, PV> = base.iter().map(|(k, v)| (k.clone(), PV::K(v.clone()))).collect();
    let varying: BTreeMap<&String, ()> = base
        .iter()
        .filter(|(k, v)| decoded.per_value.iter().any(|(_, env)| env.get(*k) != Some(*v)))
        .map(|(k, _)| (k, ()))
        .collect();
    let widths = width_names(body);
    for k in varying.keys() {
        varying_constant(k, decoded, enc, imm.as_ref(), &widths, &mut consts)?;
    }
    let body_ir = run_execute(body, &consts, &regs, &spec.library).map_err(|e| {
        let mut f = spec.translate_failure("translate", e);
        f.stage = if f.stage == "decode" { "translate" } else { f.stage };
        f
    })?;
    let mut body_ir = body_ir;
    body_ir.push(result_assignment(result.width));
    let sema = Semantics { name: i.name.clone(), args, result, functions: Vec::new(), body: body_ir };
    crate::eval::typing::infer_types(&sema).map_err(|e| BindFailure {
        stage: "type",
        message: e.to_string(),
        location: None,
    })?;
    Ok(sema)
}

/// The constant the execute block sees for `k`, a decode value that varies
/// with the immediate: an expression of the immediate, or the largest value
/// when it is no function of it we can write down; removed when neither.
fn varying_constant(
    k: &String,
    decoded: &Decoded,
    enc: &Encoding,
    imm: Option<&String>,
    widths: &std::collections::HashSet<String>,
    consts: &mut HashMap<String, PV>,
) -> Result<(), BindFailure> {
    // Field values themselves vary too; only decode results are used by execute blocks.
    if let Some(f) = enc.fields.iter().find(|f| &f.name == k) {
        // A field the execute block reads directly (`imm6`): the immediate
        // itself when the field holds its value.
        let holds_imm = decoded.per_value.iter().all(|(v, env)| match (v, env.get(k)) {
            (Some(v), Some(Const::Bits { value, .. })) => BigUint::from(*v as u64) == *value,
            _ => false,
        });
        match (imm, holds_imm) {
            (Some(imm), true) => {
                let e =
                    Expr::Call { func: "ZeroExtend".into(), args: vec![Expr::var(imm), Expr::int(i64::from(f.width))] };
                consts.insert(k.clone(), PV::S(e, Ty::Bits(f.width)));
            }
            _ => {
                consts.remove(k);
            }
        }
        return Ok(());
    }
    let Some(imm) = imm else {
        return Err(BindFailure::new("decode", format!("`{k}` varies without an immediate")));
    };
    let fitted = if widths.contains(k.as_str()) { None } else { affine(&decoded.per_value, k) };
    let Some((a, b)) = fitted else {
        // Not a function of the immediate we can write down (`idxdsize`,
        // the width of the register holding the indexed element): the
        // largest value reads enough for every immediate. Validation tries them all.
        match int_values(decoded, k).max() {
            Some(w) => {
                consts.insert(k.clone(), PV::K(Const::Int(w)));
            }
            None => {
                consts.remove(k);
            }
        }
        return Ok(());
    };
    let values: Vec<BigInt> = int_values(decoded, k).collect();
    let lo = values.iter().min().cloned().unwrap_or_default();
    let hi = values.iter().max().cloned().unwrap_or_default();
    let e = Expr::binary(
        crate::sema::ir::BinOp::Add,
        Expr::binary(crate::sema::ir::BinOp::Mul, Expr::Int(a), Expr::var(imm)),
        Expr::Int(b),
    );
    consts.insert(k.clone(), PV::S(e, Ty::Int(Some((lo, hi)))));
    Ok(())
}

/// The integer values the decode gives `k`, per immediate value.
fn int_values<'a>(decoded: &'a Decoded, k: &'a str) -> impl Iterator<Item = BigInt> + 'a {
    decoded.per_value.iter().filter_map(move |(_, env)| match env.get(k) {
        Some(Const::Int(i)) => Some(i.clone()),
        _ => None,
    })
}

/// `result = dest[width-1:0]`: the result read from the destination register.
fn result_assignment(width: u32) -> crate::sema::ir::Stmt {
    let top = crate::sema::ir::Expr::int(i64::from(width) - 1);
    crate::sema::ir::Stmt {
        span: Default::default(),
        kind: crate::sema::ir::StmtKind::Assign {
            place: crate::sema::ir::Place { var: RESULT.to_string(), range: None },
            value: crate::sema::ir::Expr::Slice {
                base: Box::new(Expr::var(DEST)),
                hi: Box::new(top),
                lo: Box::new(Expr::int(0)),
            },
        },
    }
}
