//! The `arith`/`vector` idioms offline rules are synthesized for: each a
//! small function, at every vector width an ISA's offline rules name
//! ([`crate::targets::OfflineRules`]). Only the
//! left-hand sides are written here; what computes them (if anything does)
//! is found and proved by the synthesizer (`super::rules::generate`).

/// One idiom at one width: a name and a function computing it.
pub struct Idiom {
    pub name: String,
    pub mlir: String,
}

fn func(name: &str, args: &[(&str, String)], result: &str, body: &str) -> Idiom {
    let params: Vec<String> = args.iter().map(|(n, t)| format!("%{n}: {t}")).collect();
    Idiom {
        name: name.to_string(),
        mlir: format!("func.func @{name}({}) -> {result} {{\n{body}  return %r : {result}\n}}\n", params.join(", ")),
    }
}

fn vec(lanes: u32, bits: u32) -> String {
    format!("vector<{lanes}xi{bits}>")
}

/// Saturating add or subtract of `e`-bit elements, computed at twice the
/// width and clamped (only at the bound the result can pass: an unsigned
/// sum can only overflow, an unsigned difference only go below zero).
fn saturating(op: &str, signed: bool, e: u32, lanes: u32) -> Idiom {
    let (n, w) = (vec(lanes, e), vec(lanes, 2 * e));
    let ext = if signed { "extsi" } else { "extui" };
    let (lo, hi) = if signed { (-(1i64 << (e - 1)), (1i64 << (e - 1)) - 1) } else { (0, (1i64 << e) - 1) };
    let mut body = format!(
        "  %x = arith.{ext} %a : {n} to {w}\n  %y = arith.{ext} %b : {n} to {w}\n  %s = arith.{op} %x, %y : {w}\n"
    );
    body += &match (signed, op) {
        (true, _) => format!(
            "  %lo = arith.constant dense<{lo}> : {w}\n  %hi = arith.constant dense<{hi}> : {w}\n  \
             %c1 = arith.maxsi %s, %lo : {w}\n  %c = arith.minsi %c1, %hi : {w}\n"
        ),
        (false, "addi") => format!("  %hi = arith.constant dense<{hi}> : {w}\n  %c = arith.minui %s, %hi : {w}\n"),
        _ => format!("  %lo = arith.constant dense<{lo}> : {w}\n  %c = arith.maxsi %s, %lo : {w}\n"),
    };
    body += &format!("  %r = arith.trunci %c : {w} to {n}\n");
    let sign = if signed { "s" } else { "u" };
    func(&format!("{op}_sat_{sign}{e}x{lanes}"), &[("a", n.clone()), ("b", n.clone())], &n, &body)
}

/// Rounding average of unsigned elements.
pub fn average(e: u32, lanes: u32) -> Idiom {
    let (n, w) = (vec(lanes, e), vec(lanes, 2 * e));
    let body = format!(
        "  %one = arith.constant dense<1> : {w}\n  %x = arith.extui %a : {n} to {w}\n  \
         %y = arith.extui %b : {n} to {w}\n  %s = arith.addi %x, %y : {w}\n  %t = arith.addi %s, %one : {w}\n  \
         %h = arith.shrui %t, %one : {w}\n  %r = arith.trunci %h : {w} to {n}\n"
    );
    func(&format!("avg_u{e}x{lanes}"), &[("a", n.clone()), ("b", n.clone())], &n, &body)
}

/// The high half of the full product.
fn multiply_high(signed: bool, e: u32, lanes: u32) -> Idiom {
    let (n, w) = (vec(lanes, e), vec(lanes, 2 * e));
    let (ext, shr) = if signed { ("extsi", "shrsi") } else { ("extui", "shrui") };
    let body = format!(
        "  %k = arith.constant dense<{e}> : {w}\n  %x = arith.{ext} %a : {n} to {w}\n  \
         %y = arith.{ext} %b : {n} to {w}\n  %p = arith.muli %x, %y : {w}\n  %h = arith.{shr} %p, %k : {w}\n  \
         %r = arith.trunci %h : {w} to {n}\n"
    );
    let sign = if signed { "s" } else { "u" };
    func(&format!("mulhi_{sign}{e}x{lanes}"), &[("a", n.clone()), ("b", n.clone())], &n, &body)
}

/// Q15 rounding multiply: `(a * b + 2^14) >> 15`.
fn multiply_high_rounded(lanes: u32) -> Idiom {
    let (n, w) = (vec(lanes, 16), vec(lanes, 32));
    let body = format!(
        "  %half = arith.constant dense<16384> : {w}\n  %k = arith.constant dense<15> : {w}\n  \
         %x = arith.extsi %a : {n} to {w}\n  %y = arith.extsi %b : {n} to {w}\n  %p = arith.muli %x, %y : {w}\n  \
         %t = arith.addi %p, %half : {w}\n  %s = arith.shrsi %t, %k : {w}\n  %r = arith.trunci %s : {w} to {n}\n"
    );
    func(&format!("mulhrs_s16x{lanes}"), &[("a", n.clone()), ("b", n.clone())], &n, &body)
}

/// Products of extended elements summed in groups of `group`, into an
/// accumulator (or zero).
fn dot(
    name: &str,
    (ea, sa): (u32, bool),
    (eb, sb): (u32, bool),
    w: u32,
    lanes: u32,
    group: u32,
    accumulate: bool,
) -> Idiom {
    let out = lanes / group;
    let (ta, tb, tw) = (vec(lanes, ea), vec(lanes, eb), vec(lanes, w));
    let (to, tg) = (vec(out, w), format!("vector<{out}x{group}xi{w}>"));
    let ext = |s: bool| if s { "extsi" } else { "extui" };
    let mut body = String::new();
    if !accumulate {
        body += &format!("  %c = arith.constant dense<0> : {to}\n");
    }
    body += &format!(
        "  %x = arith.{} %a : {ta} to {tw}\n  %y = arith.{} %b : {tb} to {tw}\n  %p = arith.muli %x, %y : {tw}\n  \
         %g = vector.shape_cast %p : {tw} to {tg}\n  %r = vector.multi_reduction <add>, %g, %c [1] : {tg} to {to}\n",
        ext(sa),
        ext(sb)
    );
    let mut args = vec![("a", ta), ("b", tb)];
    if accumulate {
        args.push(("c", to.clone()));
    }
    func(&format!("{name}x{out}"), &args, &to, &body)
}

/// A shift of every element by the same constant.
fn shift(op: &str, e: u32, lanes: u32, by: u32) -> Idiom {
    let n = vec(lanes, e);
    let body = format!("  %k = arith.constant dense<{by}> : {n}\n  %r = arith.{op} %a, %k : {n}\n");
    func(&format!("{op}_{by}_i{e}x{lanes}"), &[("a", n.clone())], &n, &body)
}

/// An equality between two spellings of one computation, each a function
/// of the same arguments, read in the same order.
pub struct Identity {
    pub name: String,
    pub lhs: String,
    pub rhs: String,
}

/// A 4-way u8 x s8 dot product into i32 lanes with an accumulator, as the
/// sum of two 2-way dot products of 16-bit lanes: the even bytes of each
/// pair zero-extended in place by a mask, or sign-extended in place by a
/// shift left by 8 and back, and the odd bytes shifted down. What
/// `vpmaddwd` computes without VNNI.
fn dot4_even_odd(bits: u32) -> Identity {
    let (l8, l16, out) = (bits / 8, bits / 16, bits / 32);
    let (t8, t16, t32) = (vec(l8, 8), vec(l16, 16), vec(l16, 32));
    let (to, t4, t2) = (vec(out, 32), format!("vector<{out}x4xi32>"), format!("vector<{out}x2xi32>"));
    let wide = vec(l8, 32);
    let name = format!("dot4_acc_u8s8x{out}_even_odd");
    let lhs = format!(
        "func.func @lhs(%a: {t8}, %b: {t8}, %c: {to}) -> {to} {{\n  %x = arith.extui %a : {t8} to {wide}\n  \
         %y = arith.extsi %b : {t8} to {wide}\n  %p = arith.muli %x, %y : {wide}\n  \
         %g = vector.shape_cast %p : {wide} to {t4}\n  %r = vector.multi_reduction <add>, %g, %c [1] : {t4} to {to}\n  \
         return %r : {to}\n}}\n"
    );
    let dot = |x: &str, y: &str, acc: &str, r: &str| {
        format!(
            "  %{r}x = arith.extsi %{x} : {t16} to {t32}\n  %{r}y = arith.extsi %{y} : {t16} to {t32}\n  \
             %{r}p = arith.muli %{r}x, %{r}y : {t32}\n  %{r}g = vector.shape_cast %{r}p : {t32} to {t2}\n  \
             %{r} = vector.multi_reduction <add>, %{r}g, %{acc} [1] : {t2} to {to}\n"
        )
    };
    let rhs = format!(
        "func.func @rhs(%a: {t8}, %b: {t8}, %c: {to}) -> {to} {{\n  %k = arith.constant dense<8> : {t16}\n  \
         %a16 = vector.bitcast %a : {t8} to {t16}\n  %b16 = vector.bitcast %b : {t8} to {t16}\n  \
         %m = arith.constant dense<255> : {t16}\n  %ae = arith.andi %a16, %m : {t16}\n  %ao = arith.shrui %a16, %k : {t16}\n  \
         %bs = arith.shli %b16, %k : {t16}\n  %be = arith.shrsi %bs, %k : {t16}\n  %bo = arith.shrsi %b16, %k : {t16}\n\
         {}{}  return %r : {to}\n}}\n",
        dot("ae", "be", "c", "e"),
        dot("ao", "bo", "e", "r")
    );
    Identity { name, lhs, rhs }
}

/// The identities offline rules may rewrite windows by, at each of `widths` bits.
pub fn identities(widths: &[u32]) -> Vec<Identity> {
    widths.iter().copied().map(dot4_even_odd).collect()
}

/// Every idiom at each of `widths` bits.
pub fn idioms(widths: &[u32]) -> Vec<Idiom> {
    let mut out = Vec::new();
    for &bits in widths {
        for e in [8u32, 16] {
            let lanes = bits / e;
            for signed in [false, true] {
                out.push(saturating("addi", signed, e, lanes));
                out.push(saturating("subi", signed, e, lanes));
            }
            out.push(average(e, lanes));
        }
        let l16 = bits / 16;
        out.push(multiply_high(true, 16, l16));
        out.push(multiply_high(false, 16, l16));
        out.push(multiply_high_rounded(l16));
        out.push(dot("madd_s16", (16, true), (16, true), 32, l16, 2, false));
        out.push(dot("dot2_acc_s16", (16, true), (16, true), 32, l16, 2, true));
        out.push(dot("dot4_acc_u8s8", (8, false), (8, true), 32, bits / 8, 4, true));
        for op in ["shli", "shrui", "shrsi"] {
            out.push(shift(op, 16, l16, 8));
        }
    }
    out
}
