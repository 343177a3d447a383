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
use super::rules::{symbol, Equality, Pattern, Rule, RuleLeaf};
use super::search::Outcome;
use super::types::Ty;
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
fn expression(flow: &Dataflow, window: &Window, lifted: &Window) -> Option<(RecExpr<SymbolLang>, HashMap<usize, Id>)> {
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
    Some((expr, ids))
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

/// A pattern's holes, in order: the children of the rule's node.
fn holes(p: &Pattern) -> Vec<usize> {
    fn collect(p: &Pattern, out: &mut Vec<usize>) {
        match p {
            Pattern::Hole(h) => {
                if !out.contains(h) {
                    out.push(*h)
                }
            }
            Pattern::Op { args, .. } => args.iter().for_each(|a| collect(a, out)),
        }
    }
    let mut hs = Vec::new();
    collect(p, &mut hs);
    hs.sort_unstable();
    hs
}

/// The rewrite of rule `index`: its pattern to `ruleINDEX` over its holes
/// (in hole order).
fn rewrite(index: usize, rule: &Rule) -> Option<Rewrite<SymbolLang, ()>> {
    let mut lhs = PatternAst::default();
    pattern_ast(&rule.lhs, &mut lhs);
    let mut rhs = PatternAst::default();
    let children = holes(&rule.lhs).iter().map(|h| rhs.add(ENodeOrVar::Var(hole(*h)))).collect();
    rhs.add(ENodeOrVar::ENode(SymbolLang::new(format!("rule{index}"), children)));
    Rewrite::new(format!("rule{index}"), egg::Pattern::new(lhs), egg::Pattern::new(rhs)).ok()
}

/// The rewrite of a proved equality, left to right.
fn equality(e: &Equality) -> Option<Rewrite<SymbolLang, ()>> {
    let (mut lhs, mut rhs) = (PatternAst::default(), PatternAst::default());
    pattern_ast(&e.lhs, &mut lhs);
    pattern_ast(&e.rhs, &mut rhs);
    Rewrite::new(e.name.clone(), egg::Pattern::new(lhs), egg::Pattern::new(rhs)).ok()
}

fn ops_of<'p>(p: &'p Pattern, out: &mut Vec<&'p str>) {
    if let Pattern::Op { op, args } = p {
        out.push(op);
        args.iter().for_each(|a| ops_of(a, out));
    }
}

/// The widest value an op reads or writes, in bits, from its symbol.
fn widest(symbol: &str) -> u32 {
    let Some(open) = symbol.find('(') else { return 0 };
    let types = symbol[open..].split('{').next().unwrap_or("");
    types.split(|c| matches!(c, '(' | ')' | ',')).filter_map(Ty::parse).map(|t| t.bits()).max().unwrap_or(0)
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

/// The cost model: a rule costs its program; an op one instruction per
/// target register its widest value fills (as LLVM splits it), at least
/// one; reshapes, inputs and constants nothing.
struct Cost<'a> {
    rules: &'a [Rule],
    register_bits: u32,
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
            widest(name).div_ceil(self.register_bits.max(1)).max(1) as usize
        };
        node.children().iter().fold(own, |sum, c| sum.saturating_add(costs(*c)))
    }
}

/// What rules give a window: a program over `leaves` (values of the block,
/// variables first, then constants) computing its root, and the window's
/// ops it replaces.
pub struct Ruled<'r> {
    pub program: Program,
    pub leaves: Vec<usize>,
    pub ops: Vec<usize>,
    pub rule: &'r Rule,
}

/// The program rules give the window, if rules cover the whole of it (with
/// `cuts`, down to values of the window that ops compute, left as they are
/// and read as inputs), cheaper than the window's ops; with the rule at its
/// root.
#[allow(clippy::too_many_arguments)]
pub fn by_rules<'r>(
    flow: &Dataflow,
    window: &Window,
    lifted: &Window,
    grammar: &Grammar,
    rules: &'r [Rule],
    equalities: &[Equality],
    register_bits: u32,
    cuts: bool,
) -> Option<Ruled<'r>> {
    if rules.is_empty() {
        return None;
    }
    let (expr, ids) = expression(flow, window, lifted)?;
    let rewrites = applicable_rewrites(&expr, rules, equalities);
    if !rewrites.iter().any(|r| r.name.as_str().starts_with("rule")) {
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
    let egraph = &runner.egraph;
    let extractor = Extractor::new(egraph, Cost { rules, register_bits });
    let root = egraph.find(root);
    let index: usize = extractor.find_best_node(root).op.as_str().strip_prefix("rule")?.parse().ok()?;
    // The window's values by e-class (where a cut may read one).
    let mut value_of: HashMap<Id, usize> = HashMap::new();
    for (v, id) in &ids {
        value_of.entry(egraph.find(*id)).or_insert(*v);
    }
    let mut build = Build {
        flow,
        lifted,
        grammar,
        rules,
        extractor: &extractor,
        value_of: &value_of,
        cuts,
        program: Program { steps: Vec::new() },
        variables: Vec::new(),
        constants: Vec::new(),
        done: HashMap::new(),
    };
    build.class(root)?;
    let Build { mut program, variables, constants, .. } = build;
    // Constants after the variables.
    for step in &mut program.steps {
        for s in &mut step.operands {
            if let Source::Leaf(l) = s {
                if *l >= CONSTANT {
                    *s = Source::Leaf(variables.len() + (*l - CONSTANT));
                }
            }
        }
    }
    let ops = replaced_ops(flow, window, lifted, &variables);
    let mut leaves = variables;
    leaves.extend(constants);
    Some(Ruled { program, leaves, ops, rule: rules.get(index)? })
}

/// The rewrites that can apply to `expr`: the equalities whose left side
/// can match, commutativity of the ops it has or they add, and the rules
/// whose pattern's ops all occur.
fn applicable_rewrites(
    expr: &RecExpr<SymbolLang>,
    rules: &[Rule],
    equalities: &[Equality],
) -> Vec<Rewrite<SymbolLang, ()>> {
    let mut symbols: Vec<String> = expr.as_ref().iter().map(|n| n.op.to_string()).collect();
    symbols.sort();
    symbols.dedup();
    let all_occur = |p: &Pattern, symbols: &[String]| {
        let mut needed = Vec::new();
        ops_of(p, &mut needed);
        needed.iter().all(|o| symbols.binary_search_by(|s| s.as_str().cmp(o)).is_ok())
    };
    // Equalities whose left side can match, and the ops their right sides add.
    let mut rewrites: Vec<Rewrite<SymbolLang, ()>> = Vec::new();
    let applicable: Vec<&Equality> = equalities.iter().filter(|e| all_occur(&e.lhs, &symbols)).collect();
    for e in applicable {
        rewrites.extend(equality(e));
        let mut added = Vec::new();
        ops_of(&e.rhs, &mut added);
        symbols.extend(added.into_iter().map(str::to_string));
    }
    symbols.sort();
    symbols.dedup();
    rewrites.extend(commutativity(&symbols));
    // Only rules whose pattern's ops all occur can match.
    rewrites.extend(
        rules.iter().enumerate().filter(|(_, r)| all_occur(&r.lhs, &symbols)).filter_map(|(i, r)| rewrite(i, r)),
    );
    rewrites
}

/// The ops a program over `variables` replaces: the window's, but those
/// computing a value read as an input.
fn replaced_ops(flow: &Dataflow, window: &Window, lifted: &Window, variables: &[usize]) -> Vec<usize> {
    let mut kept: Vec<usize> = Vec::new();
    let mut stack: Vec<usize> = variables.iter().filter(|v| !lifted.leaves.contains(v)).copied().collect();
    while let Some(v) = stack.pop() {
        if let Some(&p) = window.ops.iter().find(|&&p| flow.ops[p].results.contains(&v)) {
            if !kept.contains(&p) {
                kept.push(p);
                stack.extend(flow.ops[p].operands.iter().copied());
            }
        }
    }
    window.ops.iter().copied().filter(|p| !kept.contains(p)).collect()
}

/// Leaf numbers at and above this name constants (renumbered at the end).
const CONSTANT: usize = 1 << 20;

/// Building a program from the best terms of e-classes.
struct Build<'a, 'r> {
    flow: &'a Dataflow<'a>,
    lifted: &'a Window,
    grammar: &'a Grammar,
    rules: &'r [Rule],
    extractor: &'a Extractor<'a, Cost<'r>, SymbolLang, ()>,
    value_of: &'a HashMap<Id, usize>,
    cuts: bool,
    program: Program,
    variables: Vec<usize>,
    constants: Vec<usize>,
    done: HashMap<Id, Source>,
}

impl Build<'_, '_> {
    fn variable(&mut self, v: usize) -> Source {
        let k = self.variables.iter().position(|x| *x == v).unwrap_or_else(|| {
            self.variables.push(v);
            self.variables.len() - 1
        });
        Source::Leaf(k)
    }

    /// The window's constant whose symbol is `symbol_name`, as a leaf
    /// numbered from [`CONSTANT`].
    fn constant(&mut self, symbol_name: &str) -> Option<Source> {
        let flow = self.flow;
        let v = *self.lifted.leaves.iter().find(|v| flow.constant(**v).is_some_and(|op| symbol(op) == symbol_name))?;
        let k = self.constants.iter().position(|x| *x == v).unwrap_or_else(|| {
            self.constants.push(v);
            self.constants.len() - 1
        });
        Some(Source::Leaf(CONSTANT + k))
    }

    /// The source computing e-class `class`: an input, a constant, a rule's
    /// program appended (a rule's hole read from another rule's result), or,
    /// with cuts, a value of the window that an op computes.
    fn class(&mut self, class: Id) -> Option<Source> {
        if let Some(s) = self.done.get(&class) {
            return Some(*s);
        }
        let node = self.extractor.find_best_node(class).clone();
        let name = node.op.as_str();
        let source = if let Some(k) = name.strip_prefix("leaf").and_then(|k| k.parse::<usize>().ok()) {
            let v = *self.lifted.leaves.get(k)?;
            self.variable(v)
        } else if node.is_leaf() {
            self.constant(name)?
        } else if let Some(i) = name.strip_prefix("rule").and_then(|i| i.parse::<usize>().ok()) {
            let rule = self.rules.get(i)?;
            let mut bound: HashMap<usize, Source> = HashMap::new();
            for (h, c) in holes(&rule.lhs).iter().zip(node.children()) {
                let s = self.class(*c)?;
                bound.insert(*h, s);
            }
            let mut binding = Vec::new();
            for l in &rule.leaves {
                binding.push(match l {
                    RuleLeaf::Hole(h) => *bound.get(h)?,
                    RuleLeaf::Constant(sym) => self.constant(sym)?,
                });
            }
            let Some(Outcome::Found(part)) = super::memo_text::decode(self.grammar, &rule.program) else { return None };
            let offset = self.program.steps.len();
            for mut step in part.steps {
                for s in &mut step.operands {
                    *s = match *s {
                        Source::Leaf(l) => *binding.get(l)?,
                        Source::Step(k) => Source::Step(k + offset),
                    };
                }
                self.program.steps.push(step);
            }
            Source::Step(self.program.steps.len() - 1)
        } else if self.cuts && self.value_of.contains_key(&class) {
            let v = self.value_of[&class];
            self.variable(v)
        } else if name.starts_with("vector.bitcast(") || name.starts_with("vector.shape_cast(") {
            // Bits unchanged: each program step reads its operands as it types them.
            self.class(*node.children().first()?)?
        } else {
            return None;
        };
        self.done.insert(class, source);
        Some(source)
    }
}
