//! The similarity engine: canonicalize, extract parameters, group by
//! template, link and drop parameters, and prove every membership.

use super::canon::{canonicalize, Canonical};
use super::identity::{neutral_variants, with_neutral_term, Place};
use super::mask::{apply_mask, split_mask, MaskModel, MaskShape, Masking};
pub use super::merge::Numbers;
use super::proof::{prove_equal, Verdict};
use super::template::{hole, instantiate, parameterize, signature_len, Parameterized};
use crate::sema::ir::{Expr, Semantics};
use crate::sema::visit::walk_semantics_mut;
use num_bigint::BigInt;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

pub use super::class::{member_semantics, ClassMember, ClassParam, SimilarityClass};

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ClassStats {
    pub instructions: usize,
    pub classes: usize,
    /// Memberships (or canonical forms) Z3 did not prove: timeout or unknown.
    pub unproved_pairs: usize,
    /// Instructions left out because a proof failed or the canonical form differed.
    pub rejected: Vec<String>,
    /// Masked members whose plain operation was proved to be the class's.
    pub masked_members: usize,
    /// Templates merged into another class's (Algorithm 1).
    pub merged_templates: usize,
}

struct Prepared {
    /// The canonical form; for a masked instruction, of its plain operation.
    canonical: Canonical,
    masking: Masking,
    mask: Option<MaskShape>,
    param: Parameterized,
    /// The canonical form's results on the inputs merging screens with.
    samples: super::merge::Samples,
}

impl Prepared {
    /// The canonical form with its template and samples; `None` when the
    /// template does not give the canonical form back.
    fn new(canonical: Canonical, masking: Masking, mask: Option<MaskShape>) -> Option<Prepared> {
        let param = parameterize(&canonical.sema);
        let back = instantiate(&param.template, &param.values, &canonical.sema.name);
        if back != canonical.sema {
            return None;
        }
        let samples = super::merge::Samples::new(&canonical.sema);
        Some(Prepared { canonical, masking, mask, param, samples })
    }
}

/// Takes the mask step off a masked instruction when Z3 proves that putting
/// it back gives the instruction; otherwise keeps it whole.
fn unmask(
    original: &Semantics,
    canonical: Canonical,
    timeout_ms: u32,
    model: MaskModel,
    form: super::canon::Form,
) -> (Canonical, Masking, Option<MaskShape>) {
    if model == MaskModel::None {
        return (canonical, Masking::None, None);
    }
    let Some(split) = split_mask(&canonical.sema) else { return (canonical, Masking::None, None) };
    let plain = canonicalize(&split.plain, form);
    // The pass-through as an operand of the plain operation: its canonical position.
    let masking = match split.masking {
        Masking::MergeOperand(in_plain) => match plain.arg_order.iter().position(|&i| i == in_plain) {
            Some(k) => Masking::MergeOperand(k),
            None => return (canonical, Masking::None, None),
        },
        m => m,
    };
    let rebuilt = apply_mask(&plain.sema, masking, &split.shape);
    let to_original = |k: usize| canonical.arg_order[k];
    let passthrough = if masking == Masking::Merge { split.passthrough_arg } else { None };
    let arg_order: Vec<usize> = plain
        .arg_order
        .iter()
        .map(|&i| to_original(split.plain_args[i]))
        .chain(passthrough.map(to_original))
        .chain(std::iter::once(to_original(split.mask_arg)))
        .collect();
    match prove_equal(original, &rebuilt, &arg_order, timeout_ms) {
        Verdict::Equal => (Canonical { sema: plain.sema, arg_order }, masking, Some(split.shape)),
        other => {
            log::debug!("{}: mask form kept whole: {other:?}", original.name);
            (canonical, Masking::None, None)
        }
    }
}

/// Classifies `semantics`; every proof query gets `timeout_ms`; `masks`
/// is the ISA's way of masking results; `numbers`, what merging may fit.
pub fn classify(
    semantics: &[Semantics],
    timeout_ms: u32,
    masks: MaskModel,
    numbers: Numbers,
) -> (Vec<SimilarityClass>, ClassStats) {
    classify_families(semantics, timeout_ms, masks, numbers, None)
}

/// What an instruction's name says of the family it belongs to (its ISA:
/// `<isa>/<instruction>` → `<isa>`).
pub type Family = dyn Fn(&str) -> String + Sync;

/// [`classify`], and then, where `family` is given, instructions join
/// groups of other families one by one (see [`join_across_families`]).
pub fn classify_families(
    semantics: &[Semantics],
    timeout_ms: u32,
    masks: MaskModel,
    numbers: Numbers,
    family: Option<&Family>,
) -> (Vec<SimilarityClass>, ClassStats) {
    let mut stats = ClassStats { instructions: semantics.len(), ..ClassStats::default() };
    let started = std::time::Instant::now();
    // Canonicalize and prove each canonical form equal to its original.
    type Outcome = Result<Prepared, (String, Verdict)>;
    let prepared: Vec<(usize, Outcome)> = semantics
        .par_iter()
        .enumerate()
        .map(|(i, s)| {
            let canonical = canonicalize(s, numbers.form());
            let verdict = prove_equal(s, &canonical.sema, &canonical.arg_order, timeout_ms);
            if verdict != Verdict::Equal {
                return (i, Err((s.name.clone(), verdict)));
            }
            let (canonical, masking, mask) = unmask(s, canonical, timeout_ms, masks, numbers.form());
            match Prepared::new(canonical, masking, mask) {
                Some(p) => (i, Ok(p)),
                None => {
                    (i, Err((s.name.clone(), Verdict::Unknown("template does not reproduce the instruction".into()))))
                }
            }
        })
        .collect();
    let mut buckets: BTreeMap<String, Vec<(usize, Prepared)>> = BTreeMap::new();
    for (i, p) in prepared {
        match p {
            Ok(p) => buckets.entry(p.param.key.clone()).or_default().push((i, p)),
            Err((name, verdict)) => {
                if matches!(verdict, Verdict::Unknown(_)) {
                    stats.unproved_pairs += 1;
                }
                log::warn!("{name}: canonical form not proved equal: {verdict:?}");
                stats.rejected.push(name);
            }
        }
    }
    log::info!("{} instructions: canonical forms proved in {:?}", semantics.len(), started.elapsed());
    if numbers == Numbers::OrMembersValues {
        join_by_neutral_terms(&mut buckets, semantics, timeout_ms);
    }
    stats.masked_members = buckets.values().flatten().filter(|(_, p)| p.masking != Masking::None).count();
    let started = std::time::Instant::now();
    let names: Option<Vec<String>> = family.map(|f| semantics.iter().map(|s| f(&s.name)).collect());
    let mut groups =
        merge_templates(buckets.into_values().collect(), timeout_ms, numbers, names.as_deref(), &mut stats);
    log::info!(
        "{} instructions: templates merged into {} groups in {:?}",
        semantics.len(),
        groups.len(),
        started.elapsed()
    );
    if let Some(names) = &names {
        let started = std::time::Instant::now();
        groups = join_across_families(groups, names, timeout_ms, &mut stats);
        log::info!("instructions joined groups of other families: {} groups in {:?}", groups.len(), started.elapsed());
    }
    let mut classes: Vec<SimilarityClass> = groups.into_iter().map(|members| build_class(semantics, members)).collect();
    super::naming::name_classes(&mut classes);
    stats.classes = classes.len();
    (classes, stats)
}

/// Moves each template group that, with a neutral term written at one
/// place (see [`super::identity`]), has another group's template into that
/// group, every member's new form proved equal to its instruction. Terms
/// that differ only in a number give one template; each member takes the
/// first of them that is neutral for it.
fn join_by_neutral_terms(
    buckets: &mut BTreeMap<String, Vec<(usize, Prepared)>>,
    semantics: &[Semantics],
    timeout_ms: u32,
) {
    let keys: Vec<String> = buckets.keys().cloned().collect();
    for key in keys {
        let Some(members) = buckets.get(&key) else { continue };
        // Each other template reachable with a term, and the places giving it, in order.
        let mut targets: Vec<(String, Vec<Place>)> = Vec::new();
        for (place, v) in neutral_variants(&members[0].1.canonical.sema) {
            let k = parameterize(&v).key;
            if k == key || !buckets.contains_key(&k) {
                continue;
            }
            match targets.iter_mut().find(|(t, _)| *t == k) {
                Some((_, places)) => places.push(place),
                None => targets.push((k, vec![place])),
            }
        }
        for (target_key, places) in targets {
            let moved: Option<Vec<(usize, Prepared)>> = members
                .par_iter()
                .map(|(i, p)| {
                    places.iter().find_map(|&place| {
                        let sema = with_neutral_term(&p.canonical.sema, place)?;
                        let arg_order = p.canonical.arg_order.clone();
                        if prove_equal(&semantics[*i], &sema, &arg_order, timeout_ms) != Verdict::Equal {
                            return None;
                        }
                        let moved = Prepared::new(Canonical { sema, arg_order }, p.masking, p.mask.clone())?;
                        (moved.param.key == target_key).then_some((*i, moved))
                    })
                })
                .collect();
            if let Some(moved) = moved {
                log::debug!("{key}: joins a template with a neutral term");
                buckets.remove(&key);
                buckets.get_mut(&target_key).expect("target group").extend(moved);
                break;
            }
        }
    }
}

/// Algorithm 1: from the largest group down, every smaller group of the
/// same shape whose members all fit the larger group's template (numbers
/// fitted, proved by Z3; see [`super::merge`]) joins it. Then the same from
/// the smallest group up: a general form is sometimes written only by the
/// few (a mask result that clears its unused upper bits). Repeated until
/// nothing merges. With `family` (per instruction), only groups of the
/// same family merge here; [`join_across_families`] does the rest.
fn merge_templates(
    groups: Vec<Vec<(usize, Prepared)>>,
    timeout_ms: u32,
    numbers: Numbers,
    family: Option<&[String]>,
    stats: &mut ClassStats,
) -> Vec<Vec<(usize, Prepared)>> {
    // Until nothing merges (a merged group offers new numbers to fit).
    let mut groups = groups;
    let mut failed = FailedFits::default();
    loop {
        let before = stats.merged_templates;
        groups = merge_pass(groups, true, timeout_ms, numbers, family, stats, &mut failed);
        groups = merge_pass(groups, false, timeout_ms, numbers, family, stats, &mut failed);
        if stats.merged_templates == before {
            break;
        }
    }
    let mut out: Vec<Vec<(usize, Prepared)>> = groups.into_iter().filter(|g| !g.is_empty()).collect();
    for g in &mut out {
        g.sort_by_key(|(i, _)| *i);
    }
    out.sort_by_key(|g| g[0].0);
    out
}

/// Host and guest groups (their instructions, host template first) that
/// did not fit: the same pair fails again until one of them changes.
type FailedFits = std::collections::HashSet<(Vec<usize>, Vec<usize>)>;

fn indices(group: &[(usize, Prepared)]) -> Vec<usize> {
    group.iter().map(|(i, _)| *i).collect()
}

/// One pass of [`merge_templates`]: hosts in order of size (descending or
/// ascending), each offered every later group.
fn merge_pass(
    mut groups: Vec<Vec<(usize, Prepared)>>,
    largest_first: bool,
    timeout_ms: u32,
    numbers: Numbers,
    family: Option<&[String]>,
    stats: &mut ClassStats,
    failed: &mut FailedFits,
) -> Vec<Vec<(usize, Prepared)>> {
    groups.retain(|g| !g.is_empty());
    if largest_first {
        groups.sort_by_key(|g| (std::cmp::Reverse(g.len()), g[0].0));
    } else {
        groups.sort_by_key(|g| (g.len(), g[0].0));
    }
    let family_of = |g: &[(usize, Prepared)]| family.map(|f| f[g[0].0].clone());
    let families: Vec<Option<String>> = groups.iter().map(|g| family_of(g)).collect();
    let mut absorbed = vec![false; groups.len()];
    for a in 0..groups.len() {
        if absorbed[a] {
            continue;
        }
        let host = &groups[a];
        let values: Vec<&[BigInt]> = host.iter().map(|(_, p)| p.param.values.as_slice()).collect();
        let fitter = super::merge::Host::new(&host[0].1.param.template, values, numbers);
        let host_indices = indices(host);
        let outcomes: Vec<(usize, Option<Vec<super::merge::Fitted>>)> = (a + 1..groups.len())
            .into_par_iter()
            .filter(|&b| !absorbed[b] && families[a] == families[b])
            .filter(|&b| fitter.same_shape(&groups[b][0].1.canonical.sema))
            .filter(|&b| !failed.contains(&(host_indices.clone(), indices(&groups[b]))))
            .map(|b| {
                let fits = groups[b]
                    .iter()
                    .map(|(_, p)| fitter.fit(&p.canonical.sema, &p.samples, p.param.signature(), timeout_ms))
                    .collect::<Option<Vec<_>>>();
                (b, fits)
            })
            .collect();
        let mut fitted = Vec::new();
        for (b, fits) in outcomes {
            match fits {
                Some(fits) => fitted.push((b, fits)),
                None => {
                    failed.insert((host_indices.clone(), indices(&groups[b])));
                }
            }
        }
        let (key, template) = (host[0].1.param.key.clone(), host[0].1.param.template.clone());
        for (b, fits) in fitted {
            absorbed[b] = true;
            stats.merged_templates += 1;
            let moved: Vec<(usize, Prepared)> = std::mem::take(&mut groups[b])
                .into_iter()
                .zip(fits)
                .map(|((i, mut p), fitted)| {
                    reorder_arguments(&mut p, &fitted.order);
                    p.param = Parameterized { template: template.clone(), values: fitted.values, key: key.clone() };
                    (i, p)
                })
                .collect();
            groups[a].extend(moved);
        }
    }
    groups
}

/// Instructions joining, one by one, a larger group none of whose members
/// is of their family, when that group's template computes them: numbers
/// fitted and proved as in [`merge_templates`], and a number no width
/// explains (whether lanes are signed) may take each value the host's
/// members give it. Merging moves whole groups; here a group whose members
/// differ in a number the host cannot express still gives the host those
/// that fit: an ISA that writes its signed and unsigned saturating adds as
/// one template sends each to the other ISA's signed or unsigned class.
/// Hosts are offered largest first; decisions are made against the groups
/// as they were, so the order of work does not change the outcome.
fn join_across_families(
    mut groups: Vec<Vec<(usize, Prepared)>>,
    family: &[String],
    timeout_ms: u32,
    stats: &mut ClassStats,
) -> Vec<Vec<(usize, Prepared)>> {
    let mut hosts: Vec<usize> = (0..groups.len()).collect();
    hosts.sort_by_key(|&a| (std::cmp::Reverse(groups[a].len()), groups[a][0].0));
    let families: Vec<std::collections::BTreeSet<&str>> =
        groups.iter().map(|g| g.iter().map(|(i, _)| family[*i].as_str()).collect()).collect();
    let fitters: Vec<super::merge::Host> = groups
        .iter()
        .map(|g| {
            let values: Vec<&[BigInt]> = g.iter().map(|(_, p)| p.param.values.as_slice()).collect();
            super::merge::Host::new(&g[0].1.param.template, values, Numbers::OrMembersValues).lane_wise()
        })
        .collect();
    let guests: Vec<(usize, usize)> =
        (0..groups.len()).flat_map(|b| (0..groups[b].len()).map(move |j| (b, j))).collect();
    let moves: Vec<(usize, usize, usize, super::merge::Fitted)> = guests
        .par_iter()
        .filter_map(|&(b, j)| {
            let (i, p) = &groups[b][j];
            hosts
                .iter()
                .copied()
                .filter(|&a| groups[a].len() > groups[b].len() && !families[a].contains(family[*i].as_str()))
                .filter(|&a| fitters[a].same_shape(&p.canonical.sema))
                .find_map(|a| {
                    let fitted = fitters[a].fit(&p.canonical.sema, &p.samples, p.param.signature(), timeout_ms)?;
                    Some((b, j, a, fitted))
                })
        })
        .collect();
    drop(fitters);
    // Each host's template, kept apart: a host may itself give members away.
    let templates: Vec<(Semantics, String)> =
        groups.iter().map(|g| (g[0].1.param.template.clone(), g[0].1.param.key.clone())).collect();
    let mut taken: Vec<Vec<Option<(usize, Prepared)>>> =
        groups.iter_mut().map(|g| std::mem::take(g).into_iter().map(Some).collect()).collect();
    let mut joined: Vec<Vec<(usize, Prepared)>> = (0..taken.len()).map(|_| Vec::new()).collect();
    for (b, j, a, fitted) in moves {
        let (i, mut p) = taken[b][j].take().expect("each member moves once");
        let (template, key) = templates[a].clone();
        reorder_arguments(&mut p, &fitted.order);
        p.param = Parameterized { template, values: fitted.values, key };
        log::debug!("{}: joins a group of another family", p.canonical.sema.name);
        stats.merged_templates += 1;
        joined[a].push((i, p));
    }
    let mut out: Vec<Vec<(usize, Prepared)>> = taken
        .into_iter()
        .zip(joined)
        .map(|(g, j)| g.into_iter().flatten().chain(j).collect::<Vec<_>>())
        .filter(|g| !g.is_empty())
        .collect();
    for g in &mut out {
        g.sort_by_key(|(i, _)| *i);
    }
    out.sort_by_key(|g| g[0].0);
    out
}

/// Puts a member's operation arguments in the order a host template takes
/// them (template argument `k` is the member's argument `order[k]`); the
/// mask-form operands after them keep their places.
fn reorder_arguments(p: &mut Prepared, order: &[usize]) {
    if order.iter().enumerate().all(|(k, &i)| k == i) {
        return;
    }
    let canonical = &mut p.canonical;
    let mut arg_order: Vec<usize> = order.iter().map(|&i| canonical.arg_order[i]).collect();
    arg_order.extend_from_slice(&canonical.arg_order[order.len()..]);
    canonical.arg_order = arg_order;
    canonical.sema.args = order.iter().map(|&i| canonical.sema.args[i].clone()).collect();
    p.samples = super::merge::Samples::new(&p.canonical.sema);
    if let Masking::MergeOperand(k) = p.masking {
        p.masking = Masking::MergeOperand(order.iter().position(|&i| i == k).expect("a permutation"));
    }
}

/// Links holes equal in every member, folds holes constant across the class.
fn build_class(semantics: &[Semantics], members: Vec<(usize, Prepared)>) -> SimilarityClass {
    let holes = members[0].1.param.values.len();
    let column = |h: usize| members.iter().map(|(_, p)| p.param.values[h].clone()).collect::<Vec<_>>();
    let mut params: Vec<ClassParam> = Vec::new();
    let mut fixed: BTreeMap<usize, BigInt> = BTreeMap::new();
    let mut seen: Vec<(Vec<BigInt>, usize)> = Vec::new();
    for h in 0..holes {
        let col = column(h);
        if col.iter().all(|v| *v == col[0]) {
            fixed.insert(h, col[0].clone());
        } else if let Some((_, k)) = seen.iter().find(|(c, _)| *c == col) {
            params[*k].holes.push(h);
        } else if let Some((k, offset)) = seen.iter().find_map(|(c, k)| constant_offset(&col, c).map(|o| (*k, o))) {
            params[k].offset_holes.push((h, offset));
        } else {
            seen.push((col, params.len()));
            params.push(ClassParam { name: String::new(), holes: vec![h], offset_holes: Vec::new() });
        }
    }
    let template0 = &members[0].1.param.template;
    let body_holes = holes - signature_len(template0.args.len());
    for p in &mut params {
        // Prefer a signature name (`a0_elem_width`) over a body number.
        let h = p.holes.iter().copied().find(|h| *h >= body_holes).unwrap_or(p.holes[0]);
        p.name = param_name(h, body_holes, template0);
    }
    // Body numbers named by the same role are told apart in order: `bit`, `bit_2`, ….
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for p in &mut params {
        let n = seen.entry(p.name.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            p.name = format!("{}_{n}", p.name);
        }
    }
    let mut template = template0.clone();
    let hole_param: BTreeMap<usize, Expr> = params
        .iter()
        .flat_map(|p| {
            let direct = p.holes.iter().map(move |h| (*h, Expr::Var(p.name.clone())));
            let offset = p.offset_holes.iter().map(move |(h, o)| {
                (*h, Expr::binary(crate::sema::ir::BinOp::Add, Expr::Var(p.name.clone()), Expr::Int(o.clone())))
            });
            direct.chain(offset)
        })
        .collect();
    walk_semantics_mut(
        &mut template,
        &mut |e: &mut Expr| {
            if let Expr::Var(v) = e {
                if let Some(h) = super::template::hole_index(v) {
                    *e = match (fixed.get(&h), hole_param.get(&h)) {
                        (Some(c), _) => Expr::Int(c.clone()),
                        (_, Some(e)) => e.clone(),
                        _ => Expr::Var(hole(h)),
                    };
                }
            }
        },
        &mut |_| {},
    );
    let members = members
        .iter()
        .map(|(i, p)| ClassMember {
            intrinsic: semantics[*i].name.clone(),
            arg_order: p.canonical.arg_order.clone(),
            masking: p.masking,
            mask: p.mask,
            values: params.iter().map(|cp| p.param.values[cp.holes[0]].clone()).collect(),
            signature: p.param.signature().iter().map(|v| u32::try_from(v).unwrap_or(0)).collect(),
        })
        .collect::<Vec<ClassMember>>();
    let maskings: std::collections::BTreeSet<Masking> = members.iter().map(|m| m.masking).collect();
    SimilarityClass { name: String::new(), template, params, maskings: maskings.into_iter().collect(), members }
}

/// `Some(c)` when `col[i] == base[i] + c` for every member.
fn constant_offset(col: &[BigInt], base: &[BigInt]) -> Option<BigInt> {
    let c = &col[0] - &base[0];
    col.iter().zip(base).all(|(x, y)| x - y == c).then_some(c)
}

/// Names signature parameters after what they are (`a0_elem_width`), body
/// numbers after their role in the template (`loop_bound`, `bit`, `shift`, …;
/// see [`super::roles`]).
fn param_name(h: usize, body_holes: usize, t: &Semantics) -> String {
    if h < body_holes {
        return super::roles::role_of(t, &hole(h)).unwrap_or(super::roles::Role::Constant).name().to_string();
    }
    let sig = h - body_holes;
    let (arg, field) = (sig / 3, sig % 3);
    if arg < t.args.len() {
        let what = ["width", "elem_width", "imm_bits"][field];
        format!("{}_{what}", t.args[arg].name)
    } else if sig == 3 * t.args.len() {
        "result_width".into()
    } else {
        "result_elem_width".into()
    }
}
