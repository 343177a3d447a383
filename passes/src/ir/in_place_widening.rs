//! In-place widening: a computation that extends narrow integer vectors,
//! works lane by lane at a wider element type and truncates back, computed
//! on the narrow elements where they already lie in the wide lanes.
//!
//! Where the target CPU has a cost table (`cpu=`), a region is rewritten
//! only where the form in place is cheaper on that CPU's model
//! (`crate::synth::op_price`). Without one, the ISA's tuning decides
//! (`Tuning::widening_crosses_lanes`). Where the extensions cross lanes,
//! `arith.extui` from `vector<32xi8>` to `vector<32xi16>` is a
//! `vpmovzxbw` and the `arith.trunci` back a `vpmovwb` (or a pack and a
//! permute): both cross 128-bit lanes and run on the two shuffle pipes,
//! which bound the image kernels' loops. The same bytes read as
//! `vector<16xi16>` hold the even elements in the low byte of each lane and
//! the odd ones in the high byte: `x & 0xff` and `x >> 8` are the two halves
//! extended (shifts for a signed extension), the lane-wise ops run once per
//! half at half the width, and `even & 0xff | odd << 8` is the truncation.
//! None of that moves data across lanes.
//!
//! A region is rewritten only where the new form is proved equal to the old
//! one with Z3 (`crate::synth::proof::windows_equal`, one query per lane
//! shape), over the narrow inputs. The regions: an `arith.trunci` root,
//! the lane-wise `arith` ops it reads at the wide type (or `i1` of the same
//! shape), each read only inside the region, down to extensions of narrow
//! vectors and constants.

use super::build::{self, Builder};
use super::failure::RewriteError;
use super::raw;
use super::read::{self, ReadBlock};
use crate::synth::attr::Attr;
use crate::synth::block::{BlockOp, Dataflow, Window};
use crate::synth::lower::{proved_once, Options};
use crate::synth::op_price;
use crate::synth::target::Cpu;
use crate::synth::types::Ty;
use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, OperationRef, Value};
use melior::Context;
use num_bigint::BigInt;
use std::collections::{BTreeSet, HashMap};

/// The lane-wise ops a region may hold.
const LANE_WISE: &[&str] = &[
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.shli",
    "arith.shrsi",
    "arith.shrui",
    "arith.divsi",
    "arith.divui",
    "arith.remsi",
    "arith.remui",
    "arith.maxsi",
    "arith.maxui",
    "arith.minsi",
    "arith.minui",
    "arith.cmpi",
    "arith.select",
];

/// The most ops a region holds (its proof grows with it).
const MAX_OPS: usize = 256;

/// Z3's budget for one region's proof, in milliseconds (at most the pass's `proof-ms`).
const PROOF_MS: u32 = 4_000;

/// Rewrites the regions of every block under `root`; how many. On a CPU
/// with a cost table, only the regions cheaper in place there; without,
/// every region where the target's extensions cross lanes
/// (`Tuning::widening_crosses_lanes`; where they are cheap in-lane
/// instructions it does not pay).
pub fn run<'c>(
    context: &'c Context,
    root: OperationRef<'c, 'c>,
    options: &Options,
    remarks: bool,
) -> Result<usize, RewriteError> {
    let mut rewritten = 0;
    let cpu = options.limits.cpu;
    if !cpu.is_priced() && !options.limits.target.isa().tuning().widening_crosses_lanes {
        return Ok(rewritten);
    }
    let blocks = raw::nested_blocks(root);
    for block in blocks {
        let read = read::block(block);
        let flow = Dataflow::new(&read.ops);
        for root in 0..read.ops.len() {
            let region = match Region::find(&flow, root, cpu.is_priced()) {
                None => continue,
                Some(Ok(region)) => region,
                Some(Err(why)) => {
                    if remarks {
                        raw::emit(
                            &read.handles[root],
                            true,
                            &format!("hydride-in-place-widening: not computed in place: {why}"),
                        );
                    }
                    continue;
                }
            };
            let split = region.split(&flow);
            let (new_flow, new_window) = (Dataflow::new(&split.ops), split.window());
            let handle = read.handles[root];
            let verdict = match priced_verdict(cpu, (&flow, &region.window), (&new_flow, &new_window)) {
                Ok(verdict) => verdict,
                Err(why) => {
                    if remarks {
                        raw::emit(&handle, true, &format!("hydride-in-place-widening: not computed in place: {why}"));
                    }
                    continue;
                }
            };
            let parts = region.wide / region.narrow;
            let proof = proved_once(options, "in-place-widening", &flow, &region.window, || {
                crate::synth::proof::windows_equal(
                    (&flow, &region.window),
                    (&new_flow, &new_window),
                    PROOF_MS.min(options.limits.proof_ms),
                )
            });
            match proof {
                Ok(()) => {
                    let text = format!(
                        "hydride-in-place-widening: {} ops computed in place on the {parts} parts of {}-bit lanes, without \
                         extending or truncating across lanes (proved equal){verdict}",
                        region.window.ops.len(),
                        region.wide
                    );
                    if remarks {
                        raw::emit(&handle, true, &text);
                    }
                    emit(context, &read, &region, &split)?;
                    rewritten += 1;
                }
                Err(e) => {
                    let text =
                        format!("hydride-in-place-widening: not computed in place in {}-bit lanes: {e}", region.wide);
                    if remarks {
                        raw::emit(&handle, true, &text);
                    }
                }
            }
        }
    }
    Ok(rewritten)
}

/// Whether the op at `pos` of `flow` lies in a region this rewrite computes
/// in place at `options`' target and CPU (found, and cheaper on the CPU's
/// model, or the ISA's tuning's call without one), so a rewrite that runs
/// before it can leave that op in the form this one reads.
pub fn takes(flow: &Dataflow, pos: usize, options: &Options) -> bool {
    let cpu = options.limits.cpu;
    if !cpu.is_priced() && !options.limits.target.isa().tuning().widening_crosses_lanes {
        return false;
    }
    (0..flow.ops.len()).any(|root| match Region::find(flow, root, cpu.is_priced()) {
        Some(Ok(region)) if region.window.ops.contains(&pos) => {
            let split = region.split(flow);
            let (new_flow, new_window) = (Dataflow::new(&split.ops), split.window());
            priced_verdict(cpu, (flow, &region.window), (&new_flow, &new_window)).is_ok()
        }
        _ => false,
    })
}

/// Whether the form in place (`after`) is cheaper than the region as it is
/// (`before`) on `cpu`: the text for the remark (empty where the CPU has no
/// table, and the tuning decided), or why not.
fn priced_verdict(cpu: Cpu, before: (&Dataflow, &Window), after: (&Dataflow, &Window)) -> Result<String, String> {
    if !cpu.is_priced() {
        return Ok(String::new());
    }
    let cycles = |(flow, w): (&Dataflow, &Window)| op_price::cycles(cpu, flow, w.ops.iter().map(|&p| &flow.ops[p]));
    let (b, a) = (cycles(before), cycles(after));
    op_price::verdict(cpu, b, a, "in place").unwrap_or_else(|| {
        let shown = |c: Option<f64>| c.map_or("unpriced".into(), |c| format!("{c:.2} cycles"));
        Err(format!("{} in place, {} as it is, on {}", shown(a), shown(b), cpu.describe()))
    })
}

/// A truncation and the lane-wise computation it reads.
struct Region {
    /// The ops (lane-wise ops, extensions, constants), in block order, the
    /// truncation last; leaves: the narrow vectors extended.
    window: Window,
    /// The extensions and constants among them (they may have readers
    /// outside the region: they are erased only when unused).
    sources: BTreeSet<usize>,
    lanes: u32,
    narrow: u32,
    wide: u32,
}

/// Why a region of wide lane-wise ops is left as it is.
#[derive(Debug, thiserror::Error)]
enum NotInPlace {
    #[error("it extends the result of a shuffle, which LLVM extends in place itself")]
    ExtendsShuffle,
    #[error("its region holds more than {MAX_OPS} ops, the most a proof takes")]
    TooLarge,
    #[error("it multiplies by a value other than a power of two (in place, products ran slower on Zen 4)")]
    CostlyProduct,
}

impl Region {
    /// The region ending at `root`; `Some(Err(why))` where one is there
    /// but not taken.
    /// Where `priced`, products are left to the price (else the rule
    /// measured on Zen 4 below).
    fn find(flow: &Dataflow, root: usize, priced: bool) -> Option<Result<Region, NotInPlace>> {
        let (from, to) = truncation(flow, root)?;
        let op = &flow.ops[root];
        let (narrow, wide, lanes) = (to.elem_bits, from.elem_bits, from.dims[0]);
        // The wide type, or `i1` lanes of its shape (comparisons).
        let same_shape =
            |t: &Option<Ty>| t.as_ref().is_some_and(|t| *t == from || (t.dims == from.dims && t.elem_bits == 1));
        let mut inside: BTreeSet<usize> = BTreeSet::from([root]);
        let mut sources: BTreeSet<usize> = BTreeSet::new();
        let mut extensions = 0;
        let mut pending: Vec<usize> = op.operands.clone();
        while let Some(v) = pending.pop() {
            let def = flow.defining_op(v)?;
            if inside.contains(&def) || sources.contains(&def) {
                continue;
            }
            let d = &flow.ops[def];
            match d.name.as_str() {
                "arith.constant" if d.result_types.iter().all(same_shape) => {
                    sources.insert(def);
                }
                "arith.extui" | "arith.extsi"
                    if d.result_types.first() == Some(&Some(from.clone()))
                        && d.operand_types.first() == Some(&Some(to.clone())) =>
                {
                    // Narrow vectors LLVM has to shuffle anyway (a
                    // deinterleave) it already extends in place.
                    let x = d.operands[0];
                    let loaded = flow.defining_op(x).is_none() || flow.loaded(x);
                    if !loaded {
                        return Some(Err(NotInPlace::ExtendsShuffle));
                    }
                    sources.insert(def);
                    extensions += 1;
                }
                name if LANE_WISE.contains(&name)
                    && d.result_types.iter().all(same_shape)
                    && d.operand_types.iter().all(same_shape) =>
                {
                    inside.insert(def);
                    pending.extend(&d.operands);
                }
                _ => return None,
            }
            if inside.len() > MAX_OPS {
                return Some(Err(NotInPlace::TooLarge));
            }
        }
        // Every value computed inside is read inside only (the truncation's
        // readers are the region's).
        let closed = inside
            .iter()
            .filter(|&&p| p != root)
            .all(|&p| flow.ops[p].results.iter().all(|r| flow.readers(*r).iter().all(|u| inside.contains(u))));
        if !closed || extensions == 0 {
            return None;
        }
        // Products other than by powers of two: in place they ran slower
        // on Zen 4 than LLVM's extended form (gaussian 5x5, Sobel 5x5).
        let costly_product = inside.iter().any(|&p| {
            let op = &flow.ops[p];
            op.name == "arith.muli" && !op.operands.iter().any(|v| power_of_two(flow, *v))
        });
        if costly_product && !priced {
            return Some(Err(NotInPlace::CostlyProduct));
        }
        let all: BTreeSet<usize> = inside.union(&sources).copied().collect();
        let window = flow.close(all, root);
        Some(Ok(Region { window, sources, lanes, narrow, wide }))
    }

    /// The region computed part by part: part `j` holds elements `j`,
    /// `j + parts`, … of every wide vector, where element `i` of the narrow
    /// input lies in bits `narrow * (i % parts)` of wide lane `i / parts`.
    fn split(&self, flow: &Dataflow) -> Split {
        let parts = self.wide / self.narrow;
        let part_lanes = self.lanes / parts;
        let wide_ty = Ty { dims: vec![part_lanes], elem_bits: self.wide };
        let mut split = Split {
            ops: Vec::new(),
            origins: Vec::new(),
            next_value: flow.ops.iter().flat_map(|o| o.results.iter().chain(&o.operands)).max().map_or(0, |m| m + 1),
            constants: HashMap::new(),
        };
        // The narrow inputs as wide lanes, in the window's leaf order.
        let mut packed: HashMap<usize, usize> = HashMap::new();
        for &leaf in &self.window.leaves {
            let narrow = flow.type_of(leaf).expect("a region's leaves are typed");
            packed.insert(leaf, split.push("vector.bitcast", vec![(leaf, narrow)], wide_ty.clone(), Origin::Plain));
        }
        let mut part_of: HashMap<(usize, u32), usize> = HashMap::new();
        let n = self.narrow;
        for &pos in &self.window.ops {
            let op = &flow.ops[pos];
            for j in 0..parts {
                let value = match op.name.as_str() {
                    "arith.extui" | "arith.extsi" => {
                        let x = (packed[&op.operands[0]], wide_ty.clone());
                        split.extended_part(x, j, n, op.name == "arith.extsi", &wide_ty)
                    }
                    "arith.constant" => {
                        let ty = op.result_types[0].clone().expect("a typed constant");
                        let xs = op.attribute("value").and_then(|a| a.lanes(self.lanes)).expect("a constant's lanes");
                        let mine: Vec<BigInt> = xs.iter().skip(j as usize).step_by(parts as usize).cloned().collect();
                        let part_ty = Ty { dims: vec![part_lanes], elem_bits: ty.elem_bits };
                        split.constant(mine, &part_ty)
                    }
                    "arith.trunci" => continue,
                    _ => {
                        let operands = op
                            .operands
                            .iter()
                            .zip(&op.operand_types)
                            .map(|(v, t)| (part_of[&(*v, j)], part_type(t, part_lanes)))
                            .collect();
                        let ty = part_type(&op.result_types[0], part_lanes);
                        split.push_with(&op.name, operands, ty, Origin::Copy(pos), op.attributes.clone())
                    }
                };
                part_of.insert((op.results[0], j), value);
            }
        }
        // The truncation: the low `narrow` bits of each part, back in place.
        let root = &flow.ops[self.window.root];
        let mask: BigInt = (BigInt::from(1) << n) - 1;
        let mut whole: Option<(usize, Ty)> = None;
        for j in 0..parts {
            let part = (part_of[&(root.operands[0], j)], wide_ty.clone());
            let placed = if j + 1 == parts {
                split.shift("arith.shli", part, n * j, &wide_ty)
            } else {
                let m = split.constant(vec![mask.clone(); part_lanes as usize], &wide_ty);
                let low = split.push("arith.andi", vec![part, (m, wide_ty.clone())], wide_ty.clone(), Origin::Plain);
                if j == 0 {
                    (low, wide_ty.clone())
                } else {
                    split.shift("arith.shli", (low, wide_ty.clone()), n * j, &wide_ty)
                }
            };
            whole = Some(match whole {
                None => placed,
                Some(acc) => {
                    let v = split.push("arith.ori", vec![acc, placed], wide_ty.clone(), Origin::Plain);
                    (v, wide_ty.clone())
                }
            });
        }
        let whole = whole.expect("at least two parts");
        let out = root.result_types[0].clone().expect("a typed truncation");
        split.push("vector.bitcast", vec![whole], out, Origin::Plain);
        split
    }
}

/// Whether `value` is a constant whose every element is the same power of two.
fn power_of_two(flow: &Dataflow, value: usize) -> bool {
    let Some(Attr::Elements(xs)) = flow.constant(value).and_then(|c| c.attribute("value")) else { return false };
    xs.first().is_some_and(|x| *x > BigInt::from(0) && (x & (x - 1u32)) == BigInt::from(0))
        && xs.iter().all(|x| x == &xs[0])
}

fn part_type(t: &Option<Ty>, lanes: u32) -> Ty {
    let t = t.as_ref().expect("a region's values are typed");
    Ty { dims: vec![lanes], elem_bits: t.elem_bits }
}

/// Where a new op's attributes come from.
#[derive(Clone, Debug)]
enum Origin {
    /// The region's op at this position (a predicate, overflow flags).
    Copy(usize),
    /// None but a constant's value (in the op's `value` attribute).
    Plain,
}

/// The region's new form, as ops of the synthesizer's dataflow (for the
/// proof) with where each came from (for the IR).
struct Split {
    ops: Vec<BlockOp>,
    origins: Vec<Origin>,
    next_value: usize,
    /// Constants made so far, by value and type.
    constants: HashMap<(Vec<BigInt>, Ty), usize>,
}

impl Split {
    fn push(&mut self, name: &str, operands: Vec<(usize, Ty)>, ty: Ty, origin: Origin) -> usize {
        self.push_with(name, operands, ty, origin, Vec::new())
    }

    fn push_with(
        &mut self,
        name: &str,
        operands: Vec<(usize, Ty)>,
        ty: Ty,
        origin: Origin,
        attributes: Vec<(String, Attr)>,
    ) -> usize {
        let value = self.next_value;
        self.next_value += 1;
        self.ops.push(BlockOp {
            index: self.ops.len(),
            name: name.to_string(),
            operands: operands.iter().map(|(v, _)| *v).collect(),
            operand_types: operands.into_iter().map(|(_, t)| Some(t)).collect(),
            results: vec![value],
            result_types: vec![Some(ty)],
            attributes,
            has_regions: false,
            unmodelled_vectors: Vec::new(),
        });
        self.origins.push(origin);
        value
    }

    fn constant(&mut self, xs: Vec<BigInt>, ty: &Ty) -> usize {
        let key = (xs.clone(), ty.clone());
        if let Some(v) = self.constants.get(&key) {
            return *v;
        }
        let v = self.push_with(
            "arith.constant",
            Vec::new(),
            ty.clone(),
            Origin::Plain,
            vec![("value".into(), Attr::Elements(xs))],
        );
        self.constants.insert(key, v);
        v
    }

    /// Part `j` of the `n`-bit elements packed in `x`'s lanes, extended to
    /// the lane width: a mask or a shift, or both, unsigned; two shifts
    /// signed.
    fn extended_part(&mut self, x: (usize, Ty), j: u32, n: u32, signed: bool, ty: &Ty) -> usize {
        let w = ty.elem_bits;
        let top = n * (j + 1) == w;
        if signed {
            let raised = if top { x } else { self.shift("arith.shli", x, w - n * (j + 1), ty) };
            return self.shift("arith.shrsi", raised, w - n, ty).0;
        }
        let lowered = if j == 0 { x } else { self.shift("arith.shrui", x, n * j, ty) };
        if top {
            return lowered.0;
        }
        let one: BigInt = (BigInt::from(1) << n) - 1;
        let mask = self.constant(vec![one; ty.lanes() as usize], ty);
        self.push("arith.andi", vec![lowered, (mask, ty.clone())], ty.clone(), Origin::Plain)
    }

    fn shift(&mut self, name: &str, x: (usize, Ty), by: u32, ty: &Ty) -> (usize, Ty) {
        let k = self.constant(vec![BigInt::from(by); ty.lanes() as usize], ty);
        (self.push(name, vec![x, (k, ty.clone())], ty.clone(), Origin::Plain), ty.clone())
    }

    /// The new form as one window: every op, the last the root; its leaves
    /// are the narrow inputs, in the order the bitcasts read them.
    fn window(&self) -> Window {
        let flow = Dataflow::new(&self.ops);
        flow.close((0..self.ops.len()).collect(), self.ops.len() - 1)
    }
}

/// Creates the new form before the truncation, replaces the truncation's
/// result and erases what nothing reads any more.
fn emit<'c>(
    context: &'c Context,
    read: &ReadBlock<'c, '_>,
    region: &Region,
    split: &Split,
) -> Result<(), RewriteError> {
    let root = read.handles[region.window.root];
    let b = Builder::new(context, root);
    let mut values: HashMap<usize, Value> = HashMap::new();
    for &leaf in &region.window.leaves {
        values.insert(leaf, read.values[leaf]);
    }
    for (op, origin) in split.ops.iter().zip(&split.origins) {
        let operands = super::build::made_operands(&values, &op.operands)?;
        let ty = build::mlir_type(context, op.result_types[0].as_ref().ok_or(RewriteError::Invariant("a typed op"))?);
        let attributes: Vec<(String, Attribute)> = match origin {
            Origin::Copy(p) => read.handles[*p]
                .attributes()
                .map(|(n, a)| (n.as_string_ref().as_str().unwrap_or_default().to_string(), a))
                .collect(),
            Origin::Plain => match op.attribute("value") {
                Some(Attr::Elements(xs)) => {
                    let ty = op.result_types[0].as_ref().ok_or(RewriteError::Invariant("a typed constant"))?;
                    let text = match xs.first() {
                        Some(x) if xs.iter().all(|y| y == x) => format!("dense<{x}> : {ty}"),
                        _ => format!(
                            "dense<[{}]> : {ty}",
                            xs.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
                        ),
                    };
                    vec![("value".into(), build::parsed_attribute(context, &text)?)]
                }
                _ => Vec::new(),
            },
        };
        let named: Vec<(&str, Attribute)> = attributes.iter().map(|(n, a)| (n.as_str(), *a)).collect();
        let v = b.create(&op.name, &operands, &named, ty)?;
        values.insert(op.results[0], v);
    }
    let last = split.ops.last().ok_or(RewriteError::Invariant("an empty new form"))?.results[0];
    let old: Value = root.result(0)?.into();
    raw::replace_all_uses(old, values[&last]);
    // The region's ops, last first, as far as nothing reads them.
    for &pos in region.window.ops.iter().rev() {
        let op = read.handles[pos];
        if op.results().all(|r| !raw::has_uses(r.into())) {
            raw::erase(op);
        } else if !region.sources.contains(&pos) {
            return Err(RewriteError::StillRead(flow_name(op)));
        }
    }
    Ok(())
}

fn flow_name(op: OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or_default().to_string()
}

/// The wide and narrow types of `root` when it is a truncation the rewrite
/// takes: of a one-dimensional vector by a half or a quarter, at least two
/// narrow elements to a wide lane's parts.
fn truncation(flow: &Dataflow, root: usize) -> Option<(Ty, Ty)> {
    let op = &flow.ops[root];
    if op.name != "arith.trunci" {
        return None;
    }
    let (from, to) = (op.operand_types.first()?.clone()?, op.result_types.first()?.clone()?);
    let (narrow, wide) = (to.elem_bits, from.elem_bits);
    if from.dims.len() != 1 || to.dims != from.dims || !matches!((narrow, wide), (8, 16) | (16, 32) | (8, 32)) {
        return None;
    }
    let (lanes, parts) = (from.dims[0], wide / narrow);
    (lanes % parts == 0 && lanes >= 2 * parts).then_some((from, to))
}
