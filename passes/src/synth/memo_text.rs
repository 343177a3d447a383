//! The memo's text: a window as a key independent of value numbering and
//! position, and an outcome as text and back.

use super::block::{Dataflow, Window};
use super::grammar::Grammar;
use super::outcome::{Outcome, Unchanged};
use super::program::{Program, Source, Step, StepOp, Swizzle};
use super::search::Limits;
use super::types::Ty;

/// The window as text independent of value numbering and position: the cache key.
pub(crate) fn canonical(flow: &Dataflow, w: &Window, limits: &Limits, version: u64) -> String {
    let mut local: Vec<usize> = Vec::new();
    // The limits that change what is found are part of the key (the time
    // limit is not: a window out of time is not memoized), the CPU too:
    // programs are chosen by its model.
    let mut text = format!(
        "program-v10 {} {} {version:016x} proof-ms={} two-step-budget={}\n",
        limits.target.name(),
        limits.cpu.describe(),
        limits.proof_ms,
        limits.evaluations
    );
    for &pos in &w.ops {
        let op = &flow.ops[pos];
        let refs: Vec<String> = op
            .operands
            .iter()
            .map(|v| match w.leaves.iter().position(|l| l == v) {
                Some(i) => format!("L{i}"),
                None => format!("T{}", local.iter().position(|x| x == v).unwrap_or(usize::MAX)),
            })
            .collect();
        local.extend(&op.results);
        text += &format!(
            "{} ({}) : ({}) -> ({}) {{{}}}\n",
            op.name,
            refs.join(", "),
            types_text(&op.operand_types),
            types_text(&op.result_types),
            op.attributes.iter().map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", ")
        );
    }
    text
}

/// Types for the memo's key; `?` for a type synthesis does not model.
fn types_text(types: &[Option<Ty>]) -> String {
    types.iter().map(|t| t.as_ref().map_or("?".to_string(), Ty::to_string)).collect::<Vec<_>>().join(", ")
}

fn source_text(s: &Source) -> String {
    match s {
        Source::Leaf(l) => format!("L{l}"),
        Source::Step(k) => format!("S{k}"),
    }
}

fn parse_source(t: &str) -> Option<Source> {
    match t.split_at_checked(1)? {
        ("L", n) => Some(Source::Leaf(n.parse().ok()?)),
        ("S", n) => Some(Source::Step(n.parse().ok()?)),
        _ => None,
    }
}

fn numbers_text<T: ToString>(xs: &[T]) -> String {
    xs.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")
}

/// The memo's text of an outcome: `found STEP ; STEP …` with steps
/// `i INTRINSIC SOURCES IMMS` or `z NAME ELEM_BITS OPERAND_BITS SOURCES MASK`.
pub(super) fn encode(grammar: &Grammar, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Found(p) => {
            let steps: Vec<String> = p
                .steps
                .iter()
                .map(|s| {
                    let sources: Vec<String> = s.operands.iter().map(source_text).collect();
                    match &s.op {
                        StepOp::Instr { candidate, immediates } => {
                            let imms: Vec<String> = immediates.iter().map(|(n, v)| format!("{n}={v}")).collect();
                            format!(
                                "i {} {} {}",
                                grammar.candidates[*candidate].intrinsic,
                                sources.join(","),
                                imms.join(",")
                            )
                        }
                        StepOp::Swizzle(z) => {
                            format!(
                                "z {} {} {} {} {}",
                                z.name,
                                z.elem_bits,
                                z.operand_bits,
                                sources.join(","),
                                numbers_text(&z.mask)
                            )
                        }
                    }
                })
                .collect();
            format!("found {}", steps.join(" ; "))
        }
        Outcome::Unchanged(why) => format!("unchanged {why}"),
    }
}

fn decode_step(grammar: &Grammar, text: &str) -> Option<Step> {
    let f: Vec<&str> = text.split(' ').collect();
    let sources = |t: &str| t.split(',').filter(|s| !s.is_empty()).map(parse_source).collect::<Option<Vec<_>>>();
    match f.as_slice() {
        ["i", intrinsic, srcs, rest @ ..] => {
            let candidate = grammar.candidates.iter().position(|c| c.intrinsic == *intrinsic)?;
            let immediates = rest
                .first()
                .unwrap_or(&"")
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.split_once('=').and_then(|(n, v)| Some((n.to_string(), v.parse().ok()?))))
                .collect::<Option<_>>()?;
            Some(Step { op: StepOp::Instr { candidate, immediates }, operands: sources(srcs)? })
        }
        ["z", name, elem, bits, srcs, mask] => {
            let operands = sources(srcs)?;
            let operand_bits: u32 = bits.parse().ok()?;
            let mask = mask.split(',').map(|m| m.parse().ok()).collect::<Option<Vec<u32>>>()?;
            // Only patterns the synthesizer makes are accepted back.
            let z = Swizzle::family(operand_bits, operands.len())
                .into_iter()
                .chain(if operands.len() == 1 { Swizzle::transposes(operand_bits) } else { Vec::new() })
                .find(|z| z.name == *name && z.elem_bits.to_string() == *elem && z.mask == mask)?;
            Some(Step { op: StepOp::Swizzle(z), operands })
        }
        _ => None,
    }
}

pub(super) fn decode(grammar: &Grammar, text: &str) -> Option<Outcome> {
    if let Some(why) = text.strip_prefix("unchanged ") {
        return Some(Outcome::Unchanged(Unchanged::from_text(why)));
    }
    let steps =
        text.strip_prefix("found ")?.split(" ; ").map(|s| decode_step(grammar, s)).collect::<Option<Vec<_>>>()?;
    (!steps.is_empty()).then_some(Outcome::Found(Program { steps }))
}
