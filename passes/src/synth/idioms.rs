//! The `arith`/`vector` idioms offline rules are synthesized for: each a
//! small function, at every vector width the x86 targets have. Only the
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
fn average(e: u32, lanes: u32) -> Idiom {
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

/// Every idiom at 128, 256 and 512 bits.
pub fn x86() -> Vec<Idiom> {
    let mut out = Vec::new();
    for bits in [128u32, 256, 512] {
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
    }
    out
}
