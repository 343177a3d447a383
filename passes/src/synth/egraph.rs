//! Applying offline rules ([`super::rules`]) to a window by equality
//! saturation (the `egg` crate). The window becomes an e-graph: its inputs
//! `leafK`, its constants and ops named by [`symbol`]. Commutativity of the
//! commuting `arith` ops and every rule of the target saturate it (within
//! node, iteration and time limits); a rule adds `ruleN` over its holes to
//! the matched class. The cheapest term of the root's class by the cost
//! model (a rule its program's cost, an op 1, reshapes, inputs and constants
//! 0) is kept if it is made of rules only, over the window's inputs and
//! constants: the rules' programs, composed (a rule's hole read from another
//! rule's result) and bound to the window's leaves, are the candidate,
//! proved like any other before it is used.

use super::block::{Dataflow, Window};
use super::grammar::Grammar;
use super::program::{Program, Source};
use super::rules::{symbol, Pattern, Rule, RuleLeaf};
use super::search::Outcome;
use egg::{
    CostFunction, EGraph, ENodeOrVar, Extractor, Id, Language, PatternAst, RecExpr, Rewrite, Runner, SymbolLang, Var,
};
use std::collections::HashMap;

const COMMUTING: &[&str] = &[
    "arith.addi(",
    "arith.muli(",
    "arith.andi(",
    "arith.ori(",
    "arith.xori(",
    "arith.maxsi(",
    "arith.minsi(",
    "arith.maxui(",
    "arith.minui(",
];

/// The window as an expression; `None` if an op has several results.
fn expression(flow: &Dataflow, window: &Window, lifted: &Window) -> Option<RecExpr<SymbolLang>> {
    let mut expr = RecExpr::default();
    let mut ids: HashMap<usize, Id> = HashMap::new();
    for (k, v) in lifted.leaves.iter().enumerate() {
        let name = match flow.constant(*v) {
            Some(op) => symbol(op),
            None => format!("leaf{k}"),
        };
        ids.insert(*v, expr.add(SymbolLang::leaf(name)));
    }
    for &p in &window.ops {
        let op = &flow.ops[p];
        if op.name == "arith.constant" {
            continue;
        }
        let [result] = op.results.as_slice() else { return None };
        let children = op.operands.iter().map(|v| ids.get(v).copied()).collect::<Option<Vec<Id>>>()?;
        let id = expr.add(SymbolLang::new(symbol(op), children));
        ids.insert(*result, id);
    }
    Some(expr)
}

fn pattern_ast(p: &Pattern, ast: &mut PatternAst<SymbolLang>) -> Id {
    match p {
        Pattern::Hole(h) => ast.add(ENodeOrVar::Var(hole(*h))),
        Pattern::Op { op, args } => {
            let children = args.iter().map(|a| pattern_ast(a, ast)).collect();
            ast.add(ENodeOrVar::ENode(SymbolLang::new(op.as_str(), children)))
        }
    }
}

fn hole(h: usize) -> Var {
    format!("?h{h}").parse().expect("a variable name")
}

fn holes(p: &Pattern, out: &mut Vec<usize>) {
    match p {
        Pattern::Hole(h) => {
            if !out.contains(h) {
                out.push(*h)
            }
        }
        Pattern::Op { args, .. } => args.iter().for_each(|a| holes(a, out)),
    }
}

/// The rewrite of rule `index`: its pattern to `ruleINDEX` over its holes
/// (in hole order).
fn rewrite(index: usize, rule: &Rule) -> Option<Rewrite<SymbolLang, ()>> {
    let mut lhs = PatternAst::default();
    pattern_ast(&rule.lhs, &mut lhs);
    let mut hs = Vec::new();
    holes(&rule.lhs, &mut hs);
    hs.sort_unstable();
    let mut rhs = PatternAst::default();
    let children = hs.iter().map(|h| rhs.add(ENodeOrVar::Var(hole(*h)))).collect();
    rhs.add(ENodeOrVar::ENode(SymbolLang::new(format!("rule{index}"), children)));
    Rewrite::new(format!("rule{index}"), egg::Pattern::new(lhs), egg::Pattern::new(rhs)).ok()
}

fn commutativity(symbols: &[String]) -> Vec<Rewrite<SymbolLang, ()>> {
    symbols
        .iter()
        .filter(|s| COMMUTING.iter().any(|c| s.starts_with(c)))
        .filter_map(|s| {
            let mut lhs = PatternAst::default();
            let (a, b) = (lhs.add(ENodeOrVar::Var(hole(0))), lhs.add(ENodeOrVar::Var(hole(1))));
            lhs.add(ENodeOrVar::ENode(SymbolLang::new(s.as_str(), vec![a, b])));
            let mut rhs = PatternAst::default();
            let (a, b) = (rhs.add(ENodeOrVar::Var(hole(0))), rhs.add(ENodeOrVar::Var(hole(1))));
            rhs.add(ENodeOrVar::ENode(SymbolLang::new(s.as_str(), vec![b, a])));
            Rewrite::new(format!("commute {s}"), egg::Pattern::new(lhs), egg::Pattern::new(rhs)).ok()
        })
        .collect()
}

/// The cost model: a rule costs its program, an op one instruction,
/// reshapes, inputs and constants nothing.
struct Cost<'a> {
    rules: &'a [Rule],
}

impl CostFunction<SymbolLang> for Cost<'_> {
    type Cost = usize;
    fn cost<C>(&mut self, node: &SymbolLang, mut costs: C) -> usize
    where
        C: FnMut(Id) -> usize,
    {
        let name = node.op.as_str();
        let own = if let Some(i) = name.strip_prefix("rule").and_then(|n| n.parse::<usize>().ok()) {
            self.rules.get(i).map_or(usize::MAX / 4, |r| r.cost)
        } else if node.is_leaf() || name.starts_with("vector.shape_cast(") || name.starts_with("vector.bitcast(") {
            0
        } else {
            1
        };
        node.children().iter().fold(own, |sum, c| sum.saturating_add(costs(*c)))
    }
}

/// The program rules give the window, if rules cover the whole of it, over
/// its inputs, cheaper than the window's ops; with the rule at its root.
pub fn by_rules<'r>(
    flow: &Dataflow,
    window: &Window,
    lifted: &Window,
    grammar: &Grammar,
    rules: &'r [Rule],
) -> Option<(Program, &'r Rule)> {
    if rules.is_empty() {
        return None;
    }
    let expr = expression(flow, window, lifted)?;
    let mut symbols: Vec<String> = expr.as_ref().iter().map(|n| n.op.to_string()).collect();
    symbols.sort();
    symbols.dedup();
    let mut rewrites = commutativity(&symbols);
    // Only rules whose pattern's ops all occur in the window can match.
    let occurs = |p: &Pattern| {
        fn ops<'p>(p: &'p Pattern, out: &mut Vec<&'p str>) {
            if let Pattern::Op { op, args } = p {
                out.push(op);
                args.iter().for_each(|a| ops(a, out));
            }
        }
        let mut needed = Vec::new();
        ops(p, &mut needed);
        needed.iter().all(|o| symbols.binary_search_by(|s| s.as_str().cmp(o)).is_ok())
    };
    rewrites.extend(rules.iter().enumerate().filter(|(_, r)| occurs(&r.lhs)).filter_map(|(i, r)| rewrite(i, r)));
    if rewrites.iter().all(|r| r.name.as_str().starts_with("commute")) {
        return None;
    }
    let mut egraph: EGraph<SymbolLang, ()> = EGraph::default();
    let root = egraph.add_expr(&expr);
    let runner = Runner::default()
        .with_egraph(egraph)
        .with_iter_limit(8)
        .with_node_limit(5_000)
        .with_time_limit(std::time::Duration::from_millis(200))
        .run(&rewrites);
    let extractor = Extractor::new(&runner.egraph, Cost { rules });
    let (_, best) = extractor.find_best(root);
    let nodes = best.as_ref();
    let top = nodes.last()?;
    let index: usize = top.op.as_str().strip_prefix("rule")?.parse().ok()?;
    let constant_leaf =
        |sym: &str| lifted.leaves.iter().position(|v| flow.constant(*v).is_some_and(|op| symbol(op) == sym));
    // Each node of the term as a program source: an input, a constant, or
    // the last step of a rule's program appended for it (rules composed:
    // a rule's hole read from another rule's result).
    let mut program = Program { steps: Vec::new() };
    let mut sources: Vec<Source> = Vec::with_capacity(nodes.len());
    for node in nodes {
        let name = node.op.as_str();
        let source = if let Some(k) = name.strip_prefix("leaf").and_then(|k| k.parse::<usize>().ok()) {
            Source::Leaf(k)
        } else if node.is_leaf() {
            Source::Leaf(constant_leaf(name)?)
        } else {
            let i: usize = name.strip_prefix("rule")?.parse().ok()?;
            let rule = rules.get(i)?;
            let mut hs = Vec::new();
            holes(&rule.lhs, &mut hs);
            hs.sort_unstable();
            let bound: HashMap<usize, Source> =
                hs.iter().zip(node.children()).map(|(h, c)| (*h, sources[usize::from(*c)])).collect();
            let binding: Vec<Source> = rule
                .leaves
                .iter()
                .map(|l| match l {
                    RuleLeaf::Hole(h) => bound.get(h).copied(),
                    RuleLeaf::Constant(sym) => constant_leaf(sym).map(Source::Leaf),
                })
                .collect::<Option<_>>()?;
            let Some(Outcome::Found(part)) = super::lower::decode(grammar, &rule.program) else { return None };
            let offset = program.steps.len();
            for mut step in part.steps {
                for s in &mut step.operands {
                    *s = match *s {
                        Source::Leaf(l) => *binding.get(l)?,
                        Source::Step(k) => Source::Step(k + offset),
                    };
                }
                program.steps.push(step);
            }
            Source::Step(program.steps.len() - 1)
        };
        sources.push(source);
    }
    Some((program, rules.get(index)?))
}
