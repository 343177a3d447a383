//! A similarity class as the engine makes it and the class database
//! stores it: a template, its parameters, and its members with their values.

use super::mask::{MaskShape, Masking};
use super::template::set_signature;
use crate::sema::ir::{Expr, Semantics};
use crate::sema::visit::walk_semantics_mut;
use num_bigint::BigInt;
use serde::Serialize;
use std::collections::BTreeMap;

/// A class parameter: the holes it fills (linked because every member
/// gives them the same value).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ClassParam {
    pub name: String,
    pub holes: Vec<usize>,
    /// Holes that are this parameter plus a constant (`elem_width - 1`).
    pub offset_holes: Vec<(usize, BigInt)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ClassMember {
    pub intrinsic: String,
    /// Operand `k` of the class op is argument `arg_order[k]` of the intrinsic:
    /// the template's arguments, then the pass-through (merge masking) and
    /// the mask (any masking).
    pub arg_order: Vec<usize>,
    pub masking: Masking,
    /// What the mask step covers (masked members only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mask: Option<MaskShape>,
    /// One value per class parameter.
    pub values: Vec<BigInt>,
    /// Widths in the template's argument order: per argument its width,
    /// element width and immediate bits, then the result's width and
    /// element width (see [`member_semantics`]).
    pub signature: Vec<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SimilarityClass {
    pub name: String,
    /// Parameterized semantics: holes named after the class parameters.
    pub template: Semantics,
    pub params: Vec<ClassParam>,
    /// The mask forms members have (see [`super::mask`]).
    pub maskings: Vec<Masking>,
    pub members: Vec<ClassMember>,
}

/// The plain operation of a member: the class template with the member's
/// parameter values and widths. Its arguments are the class op's operands
/// and immediates in the template's order (before any mask-form operands).
pub fn member_semantics(class: &SimilarityClass, member: &ClassMember) -> Semantics {
    let mut s = class.template.clone();
    let values: BTreeMap<&str, &BigInt> =
        class.params.iter().map(|p| p.name.as_str()).zip(member.values.iter()).collect();
    walk_semantics_mut(
        &mut s,
        &mut |e: &mut Expr| {
            if let Expr::Var(v) = e {
                if let Some(x) = values.get(v.as_str()) {
                    *e = Expr::Int((*x).clone());
                }
            }
        },
        &mut |_| {},
    );
    set_signature(&mut s, |k| member.signature.get(k).copied().unwrap_or(0));
    s.name = member.intrinsic.clone();
    s
}
