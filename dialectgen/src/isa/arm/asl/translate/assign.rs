//! Assignments: to locals, to slices and elements of bit vectors, and to
//! the vector registers an instruction reads and writes.

use super::*;

impl Translator<'_> {
    pub(super) fn assign(&mut self, target: &A, value: &A) -> R<()> {
        match target {
            A::Var(name) => self.assign_var(name, value),
            A::Discard => Ok(()),
            A::Field(base, _) if matches!(base.as_ref(), A::Var(r) if r == "FPSR") => Ok(()),
            A::Tuple(items) => {
                let A::Call(f, args) = value else { return self.unsupported("tuple assignment from a non-call") };
                let (v, _sat) = self.sat_call(f, args)?;
                // items[1] is the saturation flag: not modelled.
                for (k, it) in items.iter().enumerate() {
                    if k == 0 {
                        self.assign_value(it, v.clone())?;
                    } else if let A::Var(n) = it {
                        self.env.insert(n.clone(), PV::K(Const::Bool(false)));
                    }
                }
                Ok(())
            }
            _ => {
                let want = self.target_width(target)?;
                let v = self.expr(value, want)?;
                self.assign_value(target, v)
            }
        }
    }

    /// The width a target holds, when it is known before evaluating the value.
    pub(super) fn target_width(&mut self, target: &A) -> R<Option<u32>> {
        if let A::Index(base, args) = target {
            if let (A::Var(f), Some(IndexArg::One(sz))) = (base.as_ref(), args.get(2)) {
                if f == "Elem" {
                    return Ok(Some(self.const_width(sz)?));
                }
            }
            if matches!(base.as_ref(), A::Var(f) if f == "Vpart") {
                return Ok(Some(64));
            }
        }
        Ok(None)
    }

    pub(super) fn assign_var(&mut self, name: &str, value: &A) -> R<()> {
        let want = match self.declared.get(name) {
            Some(Ty::Bits(w)) => Some(*w),
            _ => None,
        };
        let v = self.expr(value, want)?;
        self.assign_value(&A::Var(name.to_string()), v)
    }

    pub(super) fn assign_value(&mut self, target: &A, v: PV) -> R<()> {
        match target {
            A::Var(name) => {
                let declared = self.declared.get(name).cloned();
                let v = match (&declared, v) {
                    (Some(Ty::Bits(w)), PV::K(Const::Bits { value, width })) if width != *w => {
                        PV::K(Const::bits(value, *w))
                    }
                    (Some(Ty::Bits(w)), PV::K(Const::Int(i))) => PV::K(Const::bits(to_bits(&i, *w), *w)),
                    (_, v) => v,
                };
                if let PV::K(c) = &v {
                    if self.foldable.contains(name) {
                        self.env.insert(name.clone(), PV::K(c.clone()));
                        return Ok(());
                    }
                }
                let (e, ty) = self.to_ir(v)?;
                let (e, ty) = match (declared, ty) {
                    (Some(Ty::Bits(w)), Ty::Bits(x)) if w == x => (e, Ty::Bits(w)),
                    (Some(Ty::Bits(w)), _) => (zext(e, w), Ty::Bits(w)),
                    (_, t) => (e, t),
                };
                let ir = self.ir_name(name);
                self.emit(Place { var: ir.clone(), range: None }, e);
                self.env.insert(name.clone(), PV::S(E::var(&ir), ty));
                Ok(())
            }
            A::Index(base, args) => match base.as_ref() {
                A::Var(f) if f == "Elem" => {
                    let [IndexArg::One(A::Var(x)), IndexArg::One(idx), IndexArg::One(size)] = args.as_slice() else {
                        return self.unsupported("Elem[] needs a variable, an index and a size");
                    };
                    let size = self.const_width(size)?;
                    let idx = self.expr(idx, None)?;
                    let (idx, _) = self.to_ir(idx)?;
                    self.write_range(x, idx, size, v)
                }
                A::Var(f) if f == "V" || f == "Vpart" => self.write_register(f == "Vpart", args, v),
                A::Var(x) => {
                    if let [IndexArg::One(bit)] = args.as_slice() {
                        let b = self.expr(bit, None)?;
                        let (b, _) = self.to_ir(b)?;
                        return self.write_range(x, b, 1, v);
                    }
                    let [IndexArg::Range(hi, lo)] = args.as_slice() else {
                        return self.unsupported(format!("unsupported write to `{x}[…]`"));
                    };
                    let (PV::K(Const::Int(hi)), PV::K(Const::Int(lo))) = (self.expr(hi, None)?, self.expr(lo, None)?)
                    else {
                        return self.unsupported("bit range bounds depend on register contents");
                    };
                    let w = (&hi - &lo + 1u8).to_u32().unwrap_or(0);
                    self.write_range(x, E::Int(lo / BigInt::from(w.max(1))), w, v)
                }
                _ => self.unsupported("unsupported assignment target"),
            },
            _ => self.unsupported("unsupported assignment target"),
        }
    }

    /// `x[idx*size + size-1 : idx*size] = v`.
    pub(super) fn write_range(&mut self, x: &str, idx: E, size: u32, v: PV) -> R<()> {
        self.materialize(&HashSet::from([x.to_string()]))?;
        let Some(PV::S(E::Var(ir), _)) = self.env.get(x).cloned() else {
            return self.unsupported(format!("`{x}` is written before it is declared"));
        };
        let (e, _) = self.to_ir(v)?;
        let lo = bin(BinOp::Mul, idx, int(size));
        let hi = bin(BinOp::Add, lo.clone(), int(size - 1));
        let e = zext(e, size);
        self.out.push(Stmt {
            span: self.span,
            kind: StmtKind::Assign { place: Place { var: ir, range: Some((hi, lo)) }, value: e },
        });
        Ok(())
    }

    pub(super) fn reg_number(&mut self, e: &A) -> R<u32> {
        match self.expr(e, None)? {
            PV::K(Const::Int(i)) => i.to_u32().map_or_else(|| self.unsupported("bad register number"), Ok),
            _ => self.unsupported("register number depends on register contents"),
        }
    }

    /// Gives the destination its initial value, first of all: the input in
    /// the same register when there is one (`_high` forms keep the low
    /// half, accumulators read it), else zero.
    pub(super) fn init_dest(&mut self) -> R<()> {
        let Some((d, var)) = self.regs.dest.clone() else { return Ok(()) };
        // Registers are read and written through the same 128-bit shapes
        // whatever the operand width, so that instructions differing only in
        // widths translate to the same template.
        let init = match self.regs.inputs.get(&d) {
            Some((input, _)) => zext(E::var(input), 128),
            None => zext(int(0), 128),
        };
        self.out.push(Stmt {
            span: Span::default(),
            kind: StmtKind::Assign { place: Place { var, range: None }, value: init },
        });
        Ok(())
    }

    pub(super) fn write_register(&mut self, part: bool, args: &[IndexArg], v: PV) -> R<()> {
        let IndexArg::One(r) = &args[0] else { return self.unsupported("bad register access") };
        let r = self.reg_number(r)?;
        let Some((d, var)) = self.regs.dest.clone() else { return self.unsupported("writes a SIMD register") };
        if r != d {
            return self.unsupported(format!("writes register {r}, not the destination"));
        }
        let half = if part {
            let Some(IndexArg::One(p)) = args.get(1) else { return self.unsupported("Vpart[] needs a part") };
            self.reg_number(p)?
        } else {
            0
        };
        let (e, ty) = self.to_ir(v)?;
        if !matches!(ty, Ty::Bits(_)) {
            return self.unsupported("register written with a non-bits value");
        }
        let (place, value) = if half == 1 {
            (Place { var: var.clone(), range: Some((int(127), int(64))) }, zext(e, 64))
        } else {
            (Place { var: var.clone(), range: None }, zext(e, 128))
        };
        self.emit(place, value);
        self.env.insert(var.clone(), PV::S(E::var(&var), Ty::Bits(128)));
        Ok(())
    }

    pub(super) fn read_register(&mut self, part: bool, args: &[IndexArg], want: Option<u32>) -> R<PV> {
        let Some(IndexArg::One(r)) = args.first() else { return self.unsupported("bad register access") };
        let r = self.reg_number(r)?;
        let half = if part {
            let Some(IndexArg::One(p)) = args.get(1) else { return self.unsupported("Vpart[] needs a part") };
            self.reg_number(p)?
        } else {
            0
        };
        let full: E = match (&self.regs.dest, self.regs.inputs.get(&r)) {
            (Some((d, var)), _) if *d == r => E::var(var),
            (_, Some((input, _))) => zext(E::var(input), 128),
            _ => return self.unsupported(format!("reads register {r}, which no argument is passed in")),
        };
        let w = if part { 64 } else { want.unwrap_or(128).min(128) };
        let e = if half == 1 { slice(full, int(127), int(64)) } else { slice(full, int(w - 1), int(0)) };
        Ok(PV::S(e, Ty::Bits(w)))
    }
}
