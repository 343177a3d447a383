//! `lower-to-autollvm` for one block: windows from the last op backwards,
//! each replaced by the cheapest proved class op, or left alone with the
//! reason. The answer is a plan the C++ shim applies (see [`plan_text`]).

use super::block::{parse_block, Dataflow, Window};
use super::cache::Cache;
use super::grammar::{Grammar, Target};
use super::search::{synthesize, Found, Limits, Outcome};
use super::semantics::supported;
use std::collections::BTreeSet;

pub struct Options {
    pub cache: Cache,
    pub limits: Limits,
    /// Largest window, in ops.
    pub max_ops: usize,
}

/// One rewrite for the shim: replace op `root` by `op` over `operands`.
#[derive(Clone, Debug, PartialEq)]
pub struct Rewrite {
    pub root: usize,
    pub op: String,
    pub attributes: Vec<(String, String)>,
    /// Value number and the type the class op takes it as.
    pub operands: Vec<(usize, String)>,
    pub result: String,
    /// The window's ops, to erase once nothing uses them.
    pub window: Vec<usize>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Plan {
    pub rewrites: Vec<Rewrite>,
    /// Ops left unchanged and why.
    pub remarks: Vec<(usize, String)>,
}

/// The window as text independent of value numbering and position: the cache key.
fn canonical(flow: &Dataflow, w: &Window, target: Target, version: u64) -> String {
    let mut local: Vec<usize> = Vec::new();
    let mut text = format!("{} {version:016x}\n", target.name());
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
            op.operand_types.join(", "),
            op.result_types.join(", "),
            op.attributes.iter().map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", ")
        );
    }
    text
}

fn encode(grammar: &Grammar, outcome: &Outcome) -> String {
    match outcome {
        Outcome::Found(f) => {
            let ops: Vec<String> = f.operands.iter().map(|l| l.to_string()).collect();
            let imms: Vec<String> = f.immediates.iter().map(|(n, v)| format!("{n}={v}")).collect();
            format!("found {} {} {}", grammar.candidates[f.candidate].intrinsic, ops.join(","), imms.join(","))
        }
        Outcome::Unchanged(why) | Outcome::OutOfTime(why) => format!("unchanged {why}"),
    }
}

fn decode(grammar: &Grammar, text: &str) -> Option<Outcome> {
    if let Some(why) = text.strip_prefix("unchanged ") {
        return Some(Outcome::Unchanged(why.to_string()));
    }
    let mut w = text.strip_prefix("found ")?.splitn(3, ' ');
    let intrinsic = w.next()?;
    let candidate = grammar.candidates.iter().position(|c| c.intrinsic == intrinsic)?;
    let operands = w.next()?.split(',').filter(|s| !s.is_empty()).map(|s| s.parse().ok()).collect::<Option<_>>()?;
    let immediates = w
        .next()
        .unwrap_or("")
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.split_once('=').and_then(|(n, v)| Some((n.to_string(), v.parse().ok()?))))
        .collect::<Option<_>>()?;
    Some(Outcome::Found(Found { candidate, operands, immediates }))
}

pub fn lower_block(text: &str, grammar: &Grammar, options: &Options) -> Result<Plan, String> {
    let ops = parse_block(text).map_err(|e| e.to_string())?;
    let flow = Dataflow::new(&ops);
    let mut consumed: BTreeSet<usize> = BTreeSet::new();
    let mut plan = Plan::default();
    for root in (0..ops.len()).rev() {
        let op = &ops[root];
        if consumed.contains(&root) || !supported(&op.name) || op.has_regions || op.results.len() != 1 || op.name == "arith.constant" {
            continue;
        }
        let accept = |o: &super::block::BlockOp| supported(&o.name) && !o.has_regions;
        let window = flow.window(root, options.max_ops, 8, &accept);
        let window = Window {
            ops: window.ops.iter().copied().filter(|p| !consumed.contains(p)).collect(),
            ..window
        };
        let computing = window.ops.iter().filter(|p| ops[**p].name != "arith.constant").count();
        if computing < 2 {
            continue;
        }
        let key = canonical(&flow, &window, options.limits.target, grammar.version);
        let outcome = match options.cache.get(&key).and_then(|t| decode(grammar, &t)) {
            Some(o) => o,
            None => {
                // A fault in synthesis costs this window, not the compilation.
                let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    synthesize(&flow, &window, grammar, &options.limits)
                }));
                match attempt {
                    Ok(o) => {
                        if !matches!(o, Outcome::OutOfTime(_)) {
                            options.cache.put(&key, &encode(grammar, &o));
                        }
                        o
                    }
                    Err(_) => Outcome::Unchanged("internal error in synthesis (please report this window)".into()),
                }
            }
        };
        match outcome {
            Outcome::Found(f) => {
                let c = &grammar.candidates[f.candidate];
                let mut attributes = c.fixed_attributes.clone();
                attributes.extend(f.immediates.iter().map(|(n, v)| (n.clone(), format!("{v} : i32"))));
                let operands =
                    f.operands.iter().zip(&c.operands).map(|(l, (_, t))| (window.leaves[*l], t.to_string())).collect();
                plan.rewrites.push(Rewrite {
                    root,
                    op: c.class_op.clone(),
                    attributes,
                    operands,
                    result: c.result.to_string(),
                    window: window.ops.clone(),
                });
                consumed.extend(window.ops.iter().filter(|p| ops[**p].name != "arith.constant"));
            }
            Outcome::Unchanged(why) | Outcome::OutOfTime(why) => {
                plan.remarks.push((root, format!("window of {computing} ops left unchanged: {why}")))
            }
        }
    }
    Ok(plan)
}

/// The plan in the shim's line protocol: per rewrite `rewrite ROOT`,
/// `op NAME`, `attr NAME TEXT`…, `operand VALUE TYPE`…, `result TYPE`,
/// `window OP…`, `end`; per remark `remark OP TEXT`.
pub fn plan_text(plan: &Plan) -> String {
    let mut out = String::new();
    for r in &plan.rewrites {
        out += &format!("rewrite {}\nop {}\n", r.root, r.op);
        for (n, v) in &r.attributes {
            out += &format!("attr {n} {v}\n");
        }
        for (v, t) in &r.operands {
            out += &format!("operand {v} {t}\n");
        }
        let window: Vec<String> = r.window.iter().map(|p| p.to_string()).collect();
        out += &format!("result {}\nwindow {}\nend\n", r.result, window.join(" "));
    }
    for (op, text) in &plan.remarks {
        out += &format!("remark {op} {}\n", text.replace('\n', " "));
    }
    out
}
