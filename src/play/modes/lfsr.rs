//! Spec 001's pseudorandom numbers: a 16-bit Fibonacci linear feedback shift
//! register (taps 16, 14, 13, 11, as in the Wikipedia article the spec cites),
//! `get_random(limit)` and the Fisher–Yates permutation built on it. Written
//! out bit for bit so a seed gives the same game as every other implementation
//! of the spec, on every platform.

/// The register's state before any seed: the start state of the cited article.
pub(crate) const DEFAULT_STATE: u16 = 0xACE1;

/// A 16-bit Fibonacci LFSR. Its state is never 0 (a zero state would stay 0 forever).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lfsr {
    state: u16,
}

impl Default for Lfsr {
    fn default() -> Self {
        Lfsr {
            state: DEFAULT_STATE,
        }
    }
}

impl Lfsr {
    /// A register seeded with `seed`; a seed of 0 keeps `DEFAULT_STATE` (spec 001's `seedRandom`).
    pub(crate) fn seeded(seed: u16) -> Lfsr {
        if seed == 0 {
            Lfsr::default()
        } else {
            Lfsr { state: seed }
        }
    }

    /// The current state (1 to 0xFFFF).
    pub(crate) fn state(&self) -> u16 {
        self.state
    }

    /// Advances the register one step and returns the new state (spec 001's `lfsrNext`).
    pub(crate) fn next_state(&mut self) -> u16 {
        let s = self.state;
        // Taps 16, 14, 13, 11 are bits 0, 2, 3 and 5 counted from the end that shifts out.
        let bit = (s ^ (s >> 2) ^ (s >> 3) ^ (s >> 5)) & 1;
        self.state = (s >> 1) | (bit << 15);
        self.state
    }

    /// A number in `0..limit` from exactly one step of the register (0 when `limit` is 0).
    pub(crate) fn get_random(&mut self, limit: u32) -> u32 {
        let value = u32::from(self.next_state());
        value.checked_rem(limit).unwrap_or(0)
    }

    /// A number in `0..limit` from sixteen steps of the register: a state
    /// that shares no bit with the one drawn before it (one step shares 15),
    /// for draws that must not depend on each other. Not spec 001's.
    pub(crate) fn get_fresh_random(&mut self, limit: u32) -> u32 {
        for _ in 1..16 {
            self.next_state();
        }
        self.get_random(limit)
    }

    /// Permutes `values` in place: for each `i` from the last index down to 1,
    /// swaps `values[i]` with `values[get_random(i + 1)]` (spec 001's `permute`).
    /// The game draws through [`permute_by`]; this one checks it against the spec.
    #[cfg(test)]
    pub(crate) fn permute<T>(&mut self, values: &mut [T]) {
        permute_by(values, |limit| self.get_random(limit));
    }
}

/// Fisher–Yates as spec 001 runs it, with `draw(n)` giving a number in `0..n`.
pub(crate) fn permute_by<T>(values: &mut [T], mut draw: impl FnMut(u32) -> u32) {
    for i in (1..values.len()).rev() {
        let limit = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let j = draw(limit) as usize;
        values.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_follow_the_cited_register() {
        let mut lfsr = Lfsr::default();
        let states: Vec<u16> = (0..4).map(|_| lfsr.next_state()).collect();
        assert_eq!(states, [0x5670, 0xAB38, 0x559C, 0x2ACE]);
    }

    #[test]
    fn the_period_is_every_nonzero_state() {
        let mut lfsr = Lfsr::default();
        let mut steps = 1u32;
        while lfsr.next_state() != DEFAULT_STATE {
            assert_ne!(lfsr.state(), 0);
            steps += 1;
        }
        assert_eq!(steps, 65_535);
    }

    #[test]
    fn seed_zero_keeps_the_default_state() {
        assert_eq!(Lfsr::seeded(0), Lfsr::default());
        assert_eq!(Lfsr::seeded(7).state(), 7);
    }

    #[test]
    fn get_random_advances_once_and_reduces_modulo_limit() {
        let mut a = Lfsr::seeded(1234);
        let mut b = Lfsr::seeded(1234);
        let value = a.get_random(6);
        assert_eq!(value, u32::from(b.next_state()) % 6);
        assert_eq!(a, b);
        assert_eq!(a.get_random(0), 0);
    }

    #[test]
    fn permute_runs_fisher_yates_from_the_end() {
        let mut values = [0, 1, 2, 3];
        let mut lfsr = Lfsr::default();
        lfsr.permute(&mut values);
        // By hand: states 0x5670 % 4 = 0, 0xAB38 % 3 = 2, 0x559C % 2 = 0.
        assert_eq!(values, [1, 3, 2, 0]);
    }
}
