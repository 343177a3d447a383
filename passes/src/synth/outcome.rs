//! What the search of one window ends with: a proved program, or why the
//! window is left alone. Remarks and the memo render the reason as text;
//! callers and tests match on it.

use super::program::Program;
use std::fmt;

/// The end of one window's search.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// A proved replacement.
    Found(Program),
    /// Why no rewrite was made.
    Unchanged(Unchanged),
}

/// A budget that, once spent, leaves a window unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// The window's wall-clock limit (`window-ms`).
    Window,
    /// The block's wall-clock limit (`block-ms`), which also shortens the
    /// proofs of the windows searched last.
    Block,
}

pub use super::proof_failure::Refutation;

/// The kind of a proof's message read back from its text (a memo entry's;
/// a fresh proof gives its kind as [`super::proof_failure::ProofFailure`]).
fn refutation_of_text(message: &str) -> Refutation {
    if message.starts_with("differs") || message.contains("differs on some input") {
        Refutation::Differs
    } else if message.contains("unknown") {
        Refutation::Unknown
    } else {
        Refutation::Incomparable
    }
}

/// One candidate that computed the window on the samples and was not proved.
#[derive(Clone, Debug, PartialEq)]
pub struct Unproved {
    /// The candidate program, as `Program::describe` gives it.
    pub program: String,
    pub refutation: Refutation,
    /// The proof's message.
    pub why: String,
}

/// Why a window is left unchanged.
#[derive(Clone, Debug, PartialEq)]
pub enum Unchanged {
    /// Outside what the search takes: a value or op it does not model.
    Unsupported(String),
    /// No program of one, two or three target instructions computes the
    /// window on sample inputs (nor, for a matrix, its transpose).
    NoCandidate { transpose_too: bool },
    /// Programs compute it, none costs less than the window as written.
    NotCheaper { cheapest: usize, window: usize },
    /// Programs compute it with fewer instructions, each in more cycles
    /// on the CPU's model (`cpu` its name; cycles in hundredths).
    DearerOnCpu { cheapest: u64, window: u64, cpu: String },
    /// Programs compute it on the samples; none was proved equal.
    Unproved(Vec<Unproved>),
    /// A budget ran out (not memoized: more of it may find a program).
    OutOfBudget { budget: Budget, why: String },
    /// Its result is too wide to search at its width (it is searched by pieces).
    TooWide { bits: u32, times: u32 },
    /// The search failed (a fault, caught).
    Internal,
}

impl Unchanged {
    /// Whether a candidate's proof ended unknown.
    pub fn proof_unknown(&self) -> bool {
        matches!(self, Unchanged::Unproved(all) if all.iter().any(|u| u.refutation == Refutation::Unknown))
    }

    /// Whether more budget could change the outcome (such outcomes are not memoized).
    pub fn out_of_budget(&self) -> bool {
        matches!(self, Unchanged::OutOfBudget { .. })
    }

    /// The reason from its text in the memo (as `Display` wrote it).
    pub fn from_text(text: &str) -> Unchanged {
        let number = |s: &str| s.trim().parse::<usize>().ok();
        if text.starts_with("no program of one, two or three target instructions computes this window") {
            return Unchanged::NoCandidate { transpose_too: text.contains("(nor its transpose)") };
        }
        if let Some(rest) = text.strip_prefix("the cheapest program found costs ") {
            if let Some((cheapest, rest)) = rest.split_once(" instructions, not fewer than the window's ") {
                if let (Some(cheapest), Some(window)) = (number(cheapest), rest.strip_suffix(" ops").and_then(number)) {
                    return Unchanged::NotCheaper { cheapest, window };
                }
            }
        }
        if let Some(rest) = text.strip_prefix("the cheapest program found takes ") {
            let hundredths = |s: &str| s.trim().parse::<f64>().ok().map(|c| (c * 100.0).round() as u64);
            if let Some((cheapest, rest)) = rest.split_once(" cycles on cpu ") {
                if let Some((cpu, window)) = rest.split_once(", more than the window's ") {
                    if let (Some(cheapest), Some(window)) =
                        (hundredths(cheapest), window.strip_suffix(" cycles").and_then(hundredths))
                    {
                        return Unchanged::DearerOnCpu { cheapest, window, cpu: cpu.to_string() };
                    }
                }
            }
        }
        if let Some(inner) = text.strip_prefix("no candidate proved equal (").and_then(|t| t.strip_suffix(')')) {
            let unproved = inner
                .split("; ")
                .map(|one| {
                    let (program, why) = one.split_once(": ").unwrap_or((one, ""));
                    Unproved { program: program.into(), refutation: refutation_of_text(why), why: why.into() }
                })
                .collect();
            return Unchanged::Unproved(unproved);
        }
        if let Some(rest) = text.strip_prefix("its result of ") {
            if let Some((bits, rest)) = rest.split_once(" bits is more than ") {
                let times = rest.split_once(' ').and_then(|(t, _)| t.parse().ok());
                if let (Ok(bits), Some(times)) = (bits.parse(), times) {
                    return Unchanged::TooWide { bits, times };
                }
            }
        }
        if text == INTERNAL {
            return Unchanged::Internal;
        }
        Unchanged::Unsupported(text.into())
    }
}

/// Why the search left a window unchanged, and why the chain of products
/// ending at its root was not paired where that was tried too.
#[derive(Clone, Debug, PartialEq)]
pub struct LeftAlone {
    pub search: Unchanged,
    pub chain: Option<super::unpaired::ChainUnpaired>,
}

impl fmt::Display for LeftAlone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.search)?;
        match &self.chain {
            Some(chain) => write!(f, "; {chain}"),
            None => Ok(()),
        }
    }
}

const INTERNAL: &str = "internal error in synthesis (please report this window)";

impl fmt::Display for Unchanged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unchanged::Unsupported(why) | Unchanged::OutOfBudget { why, .. } => f.write_str(why),
            Unchanged::NoCandidate { transpose_too } => {
                let transpose = if *transpose_too { " (nor its transpose)" } else { "" };
                write!(f, "no program of one, two or three target instructions computes this window{transpose} on sample inputs")
            }
            Unchanged::NotCheaper { cheapest, window } => {
                write!(f, "the cheapest program found costs {cheapest} instructions, not fewer than the window's {window} ops")
            }
            Unchanged::DearerOnCpu { cheapest, window, cpu } => write!(
                f,
                "the cheapest program found takes {:.2} cycles on cpu {cpu}, more than the window's {:.2} cycles",
                *cheapest as f64 / 100.0,
                *window as f64 / 100.0
            ),
            Unchanged::Unproved(all) => {
                let each: Vec<String> = all
                    .iter()
                    .map(|u| if u.why.is_empty() { u.program.clone() } else { format!("{}: {}", u.program, u.why) })
                    .collect();
                write!(f, "no candidate proved equal ({})", each.join("; "))
            }
            Unchanged::TooWide { bits, times } => {
                write!(f, "its result of {bits} bits is more than {times} times as wide as any instruction's")
            }
            Unchanged::Internal => f.write_str(INTERNAL),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_reads_back_from_its_text() {
        let all = [
            Unchanged::Unsupported("an input is not an integer or integer vector".into()),
            Unchanged::NoCandidate { transpose_too: false },
            Unchanged::NoCandidate { transpose_too: true },
            Unchanged::NotCheaper { cheapest: 3, window: 2 },
            Unchanged::DearerOnCpu { cheapest: 1250, window: 1067, cpu: "icelake-server".into() },
            Unchanged::Unproved(vec![
                Unproved {
                    program: "vpaddw(a, b)".into(),
                    refutation: Refutation::Differs,
                    why: "differs on some input in result lane 3".into(),
                },
                Unproved {
                    program: "vpsubw(a, b)".into(),
                    refutation: Refutation::Unknown,
                    why: "unknown (timeout)".into(),
                },
            ]),
            Unchanged::TooWide { bits: 65536, times: 4 },
            Unchanged::Internal,
        ];
        for reason in all {
            assert_eq!(Unchanged::from_text(&reason.to_string()), reason, "{reason}");
        }
    }

    #[test]
    fn an_unknown_proof_is_told_from_a_difference() {
        let unknown = Unchanged::from_text("no candidate proved equal (vpaddw(a, b): unknown (canceled))");
        assert!(unknown.proof_unknown());
        let differs = Unchanged::from_text("no candidate proved equal (vpaddw(a, b): differs on some input)");
        assert!(!differs.proof_unknown());
        assert!(!Unchanged::NoCandidate { transpose_too: false }.out_of_budget());
    }
}
