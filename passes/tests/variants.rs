//! The variant table behind the compiled verifier and the one-to-one lowering.

use hydride::variants::{OpInstance, VariantError, VariantTable};

/// An instance written compactly: the op name, then `attr NAME VALUE`,
/// `operand TYPE`, `result TYPE`, `regions N` lines.
fn instance(text: &str) -> OpInstance {
    let mut lines = text.lines();
    let mut op = OpInstance { name: lines.next().unwrap().to_string(), ..OpInstance::default() };
    for line in lines {
        let (kind, rest) = line.split_once(' ').expect("KIND VALUE");
        match kind {
            "attr" => {
                let (n, v) = rest.split_once(' ').expect("NAME VALUE");
                op.attributes.push((n.to_string(), v.to_string()));
            }
            "operand" => op.operand_types.push(rest.to_string()),
            "result" => op.result_types.push(rest.to_string()),
            "regions" => op.regions = rest.parse().expect("a count"),
            _ => panic!("unknown line {line:?}"),
        }
    }
    op
}

#[test]
fn the_embedded_table_covers_both_dialects() {
    let table = VariantTable::embedded().expect("loads");
    assert!(table.len() > 2000, "{} ops", table.len());
}

#[test]
fn an_instance_finds_its_instruction() {
    let table = VariantTable::embedded().unwrap();
    let op =
        instance("hydride_x86.mm_srai_epi16\nattr imm8 3\noperand vector<8xi16>\nresult vector<8xi16>\nregions 0\n");
    assert!(table.find(&op).is_ok());
    let too_big =
        instance("hydride_x86.mm_srai_epi16\nattr imm8 256\noperand vector<8xi16>\nresult vector<8xi16>\nregions 0\n");
    let err = table.find(&too_big).unwrap_err();
    let VariantError::NoVariant { hint, .. } = &err else { panic!("{err}") };
    assert!(hint.contains("imm8 in 0.."), "{err}");
}

#[test]
fn a_class_op_lowers_to_the_member_with_its_types() {
    let table = VariantTable::embedded().unwrap();
    // The add class of x86, ARM and HVX together: its lanes and widths
    // follow from the types, masking is its one attribute.
    let add = |elem: u32, lanes: u32, masking: &str, extra: &str| {
        instance(&format!(
            "autollvm.add\nattr masking {masking}\n\
             operand vector<{lanes}xi{elem}>\noperand vector<{lanes}xi{elem}>\n{extra}result vector<{lanes}xi{elem}>\n\
             regions 0\n"
        ))
    };
    let t = table.target_in(&add(32, 16, "none", ""), "hydride_x86").expect("a plain 512-bit add of i32");
    assert_eq!(t.op, "hydride_x86.mm512_add_epi32");
    let merge = add(32, 16, "merge", "operand vector<16xi32>\noperand vector<16xi1>\n");
    let t = table.target_in(&merge, "hydride_x86").expect("a merge-masked add");
    assert_eq!(t.op, "hydride_x86.mm512_mask_add_epi32");
    // _mm512_mask_add_epi32(src, k, a, b): pass-through and mask come after a and b.
    assert_eq!(t.operands, [2, 3, 0, 1]);
    // Operands of 16 lanes of i32 and a result of 64 lanes of i8: no such add.
    let wrong = instance(
        "autollvm.add\nattr masking none\n\
         operand vector<16xi32>\noperand vector<16xi32>\nresult vector<64xi8>\nregions 0\n",
    );
    let err = table.target_in(&wrong, "hydride_x86").unwrap_err();
    let VariantError::NoVariant { hint, .. } = &err else { panic!("{err}") };
    assert!(hint.contains("with these attributes the types are"), "{err}");
    // A parameter the types fix is not an attribute: given one anyway, the
    // types still decide.
    let stale = instance(
        "autollvm.add\nattr masking none\nattr a0_elem_width 8\n\
         operand vector<16xi32>\noperand vector<16xi32>\nresult vector<16xi32>\nregions 0\n",
    );
    assert_eq!(table.target_in(&stale, "hydride_x86").unwrap().op, "hydride_x86.mm512_add_epi32");
}

#[test]
fn a_class_op_lowers_to_the_member_of_the_asked_isa() {
    let table = VariantTable::embedded().unwrap();
    // 64 lanes of i16 at 1024 bits: HVX's vaddh; x86 has no such add.
    let hvx = instance(
        "autollvm.add\nattr masking none\n\
         operand vector<64xi16>\noperand vector<64xi16>\nresult vector<64xi16>\nregions 0\n",
    );
    assert_eq!(table.target_in(&hvx, "hydride_hvx").unwrap().op, "hydride_hvx.v6_vaddh");
    let err = table.target_in(&hvx, "hydride_x86").unwrap_err();
    assert_eq!(err, VariantError::NoTarget("hydride_x86".into()));
}

#[test]
fn regions_and_unknown_ops_are_rejected() {
    let table = VariantTable::embedded().unwrap();
    let unknown = table.find(&instance("autollvm.no_such_op\nregions 0\n")).unwrap_err();
    assert_eq!(unknown, VariantError::UnknownOp("autollvm.no_such_op".into()));
    let with_region =
        instance("hydride_x86.mm_srai_epi16\nattr imm8 3\noperand vector<8xi16>\nresult vector<8xi16>\nregions 1\n");
    assert_eq!(table.find(&with_region).unwrap_err(), VariantError::Regions(1));
}
