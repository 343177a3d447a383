//! The shuffle patterns priced per CPU: the element moves hydride's forms
//! make (halves, rotations, interleaves, even and odd elements, blocks of
//! two vectors alternating, a stencil's inner columns out of its first and
//! last), each named
//! and defined by its mask, so that a shuffle found in a form is priced by
//! recognising its mask ([`pattern_of`]), whoever made it.

/// The widest stencil (in taps, less one) whose [`Pattern::Column`]s are
/// priced: nine taps.
pub const MAX_LAST_COLUMN: u32 = 8;

/// A shuffle of one or two vectors of `n` elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// The low half (a narrower view of the register).
    LowHalf,
    HighHalf,
    SwapHalves,
    /// Every element one place down (`x1 x2 … x0`), or up.
    RotateDown,
    RotateUp,
    /// The two vectors end to end.
    Concat,
    /// Blocks of `b` elements of the two vectors alternating (`b = 1`: a
    /// full interleave `x0 y0 x1 y1 …`).
    Blocks(u32),
    /// The two low halves interleaved, or the two high halves.
    InterleaveLow,
    InterleaveHigh,
    /// Within each 128-bit lane, the low halves of the lane's elements of
    /// the two vectors interleaved (an unpack), or the high halves.
    UnpackLowLanes,
    UnpackHighLanes,
    /// The even elements of the two vectors end to end, or the odd.
    Even,
    Odd,
    /// Column `j` of a row of taps out of its first column (the first
    /// vector) and its last, column `last` (the second): the first's
    /// elements from `j` on, then the last's from `n - last + j`'s place,
    /// `x_j … x_{n-1} y_{n-last} …` (`last = n`: `n` elements from element
    /// `j` of the two vectors end to end).
    Column {
        j: u32,
        last: u32,
    },
}

impl Pattern {
    /// Every pattern priced for vectors of `n` elements of `bits` bits.
    pub fn all(n: u32, bits: u32) -> Vec<Pattern> {
        let mut out = vec![Pattern::LowHalf, Pattern::HighHalf, Pattern::SwapHalves, Pattern::Concat];
        if n > 2 {
            out.extend([Pattern::RotateDown, Pattern::RotateUp]);
        }
        out.extend([Pattern::InterleaveLow, Pattern::InterleaveHigh, Pattern::Even, Pattern::Odd]);
        let lane = 128 / bits;
        if n * bits >= 128 && lane >= 2 {
            out.extend([Pattern::UnpackLowLanes, Pattern::UnpackHighLanes]);
        }
        let mut b = 1;
        while b < n {
            out.push(Pattern::Blocks(b));
            b *= 2;
        }
        for last in 2..=MAX_LAST_COLUMN.min(n) {
            out.extend((1..last).map(|j| Pattern::Column { j, last }));
        }
        out
    }

    /// How many vectors it reads.
    pub fn operands(self) -> usize {
        match self {
            Pattern::LowHalf | Pattern::HighHalf | Pattern::SwapHalves | Pattern::RotateDown | Pattern::RotateUp => 1,
            _ => 2,
        }
    }

    /// Its name in a key: `shuffle_even v32i8`.
    pub fn name(self) -> String {
        match self {
            Pattern::LowHalf => "low_half".into(),
            Pattern::HighHalf => "high_half".into(),
            Pattern::SwapHalves => "swap_halves".into(),
            Pattern::RotateDown => "rotate_down".into(),
            Pattern::RotateUp => "rotate_up".into(),
            Pattern::Concat => "concat".into(),
            Pattern::Blocks(b) => format!("blocks{b}"),
            Pattern::InterleaveLow => "interleave_low".into(),
            Pattern::InterleaveHigh => "interleave_high".into(),
            Pattern::UnpackLowLanes => "unpack_low_lanes".into(),
            Pattern::UnpackHighLanes => "unpack_high_lanes".into(),
            Pattern::Even => "even".into(),
            Pattern::Odd => "odd".into(),
            Pattern::Column { j, last } => format!("column{j}of{last}"),
        }
    }

    /// Its mask over vectors of `n` elements of `bits` bits (element `k`
    /// of the second vector is `n + k`).
    pub fn mask(self, n: u32, bits: u32) -> Vec<u32> {
        let h = n / 2;
        match self {
            Pattern::LowHalf => (0..h).collect(),
            Pattern::HighHalf => (h..n).collect(),
            Pattern::SwapHalves => (0..n).map(|i| (i + h) % n).collect(),
            Pattern::RotateDown => (0..n).map(|i| (i + 1) % n).collect(),
            Pattern::RotateUp => (0..n).map(|i| (i + n - 1) % n).collect(),
            Pattern::Concat => (0..2 * n).collect(),
            Pattern::Blocks(b) => {
                (0..n / b).flat_map(|c| (c * b..(c + 1) * b).chain(n + c * b..n + (c + 1) * b)).collect()
            }
            Pattern::InterleaveLow => (0..h).flat_map(|i| [i, n + i]).collect(),
            Pattern::InterleaveHigh => (h..n).flat_map(|i| [i, n + i]).collect(),
            Pattern::UnpackLowLanes | Pattern::UnpackHighLanes => {
                let lane = 128 / bits;
                let from = if self == Pattern::UnpackLowLanes { 0 } else { lane / 2 };
                (0..n / lane)
                    .flat_map(|l| (from..from + lane / 2).flat_map(move |i| [lane * l + i, n + lane * l + i]))
                    .collect()
            }
            Pattern::Even => (0..n).map(|i| 2 * i).collect(),
            Pattern::Odd => (0..n).map(|i| 2 * i + 1).collect(),
            Pattern::Column { j, last } => (0..n).map(|i| if i + j < n { i + j } else { n + i + j - last }).collect(),
        }
    }
}

/// The priced pattern a shuffle of `operands` vectors of `n` elements of
/// `bits` bits with `mask` is, if any.
pub fn pattern_of(operands: usize, n: u32, bits: u32, mask: &[u32]) -> Option<Pattern> {
    Pattern::all(n, bits).into_iter().find(|p| p.operands() == operands && p.mask(n, bits) == mask)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_read_each_vector_within_bounds_and_are_recognised() {
        for bits in [8, 16, 32, 64] {
            for n in [2, 4, 8, 16, 32, 64] {
                for p in Pattern::all(n, bits) {
                    let m = p.mask(n, bits);
                    assert!(m.iter().all(|&k| k < n * p.operands() as u32), "{p:?} at {n} x i{bits}");
                    // Small vectors make some masks alike (the even elements
                    // of two pairs are their low halves interleaved): either
                    // name prices the same code.
                    let found = pattern_of(p.operands(), n, bits, &m).map(|q| q.mask(n, bits));
                    assert_eq!(found, Some(m), "{p:?} at {n} x i{bits}");
                }
            }
        }
    }

    #[test]
    fn unpacks_stay_in_their_lane_and_blocks_of_one_interleave() {
        // Two 256-bit vectors of bytes: lane 1 of the low unpack starts at byte 16.
        let m = Pattern::UnpackLowLanes.mask(32, 8);
        assert_eq!(&m[..4], &[0, 32, 1, 33]);
        assert_eq!(&m[16..18], &[16, 48]);
        assert_eq!(Pattern::Blocks(1).mask(4, 32), vec![0, 4, 1, 5, 2, 6, 3, 7]);
        assert_eq!(Pattern::Column { j: 2, last: 4 }.mask(4, 32), vec![2, 3, 4, 5]);
        // Column 1 of 3 taps over 16 lanes: the last column's element 14 last.
        let m = Pattern::Column { j: 1, last: 2 }.mask(16, 8);
        assert_eq!((m[0], m[14], m[15]), (1, 15, 30));
    }
}
