//! The entry: one word path of a class packed into a `u128`, and the
//! merge of two sorted lists of entries.
//!
//! Everything the prover does to word paths it does to sorted lists of
//! entries, so an entry is laid out for that: its key (a letter per
//! position) in the top bits, position 0 highest, so that sorting the
//! entries sorts the paths in the order of the orderly tree; the positions
//! it uses next, so a pass finds them with one shift; its points at the
//! bottom, out of the key's way. Every bit-level detail of an entry is in
//! this file.
//!
//! Limits: 16 positions ([`MAX_CELLS`]), a trie of at most 2^24 nodes
//! ([`MAX_TRIE_NODES`]) and 255 points per word while collecting.

/// Most cells a board may have for `boggle prove`: an entry's key holds a
/// letter for each of 16 positions (and a path of positions is a mask that
/// fits 16 bits; larger boards have too many classes anyway).
pub(crate) const MAX_CELLS: usize = 16;

/// Most trie nodes a dictionary may have: a collected entry keeps its
/// word's node in 24 bits.
pub(crate) const MAX_TRIE_NODES: usize = 1 << 24;

/// Bits per position in an entry's key: a letter index plus one, 0 where
/// the path does not go.
pub(crate) const BITS: u32 = 5;

/// One word path: the (position, letter) pairs a word is spelled on, its
/// positions, and its points.
///
/// ```text
/// bit 127     123 122     118          52    48 47         32 31          8 7        0
///    +-----------+-----------+-- .. --+--------+-------------+-------------+----------+
///    | letter+1  | letter+1  |        | lt.+1  | positions   | trie node   | points   |  collected
///    | at pos. 0 | at pos. 1 |        | pos.15 | used        | (24 bits)   | (8 bits) |
///    +-----------+-----------+-- .. --+--------+-------------+-------------+----------+
///    |                                         | bit 32 + p  |                        |
///    |<------------- key: 16 x 5 bits -------->|             |<--- points (32 bits) ->|  merged
///    |<------------------------ path ----------------------->|
/// ```
///
/// A position's field is its letter index plus one (`A` = 1), or 0 where
/// the path does not go. The positions used repeat what the key says (a
/// field is not 0 exactly where its bit is set), so a pass over sorted
/// entries finds the pairs an entry opens with a mask instead of 16 field
/// reads.
///
/// *Collected* ([`crate::paths`]), the low 32 bits hold the word's trie
/// node and its points: entries equal in all 128 bits are the same word on
/// the same cells with the same letters (along another order of the cells),
/// which counts once, so the sorted list is deduplicated. *Merged*, the
/// entries of one path (different words on the same pairs: `EAT`, `TEA`
/// and `ATE` on the same three cells) become one whose low 32 bits hold
/// their points together: from then on an entry is a path and its points.
///
/// Sorted entries are the orderly tree in depth-first order: entries that
/// agree on their first fields share the sum nodes of those pairs, and an
/// entry that skips a position sorts before every entry that uses it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Entry(u128);

/// A mask that clears some positions' pairs from entries (their letters and
/// their bits among the positions used), made by [`Clear::positions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Clear(u128);

impl Clear {
    /// Clears the pairs of the positions in `positions` (as bits).
    #[inline(always)]
    pub(crate) fn positions(mut positions: u32) -> Clear {
        let mut clear = !0u128;
        while positions != 0 {
            let p = positions.trailing_zeros() as usize;
            positions &= positions - 1;
            clear &= !Entry::pair_bits(p);
        }
        Clear(clear)
    }

    /// Clears the pair of position `p`.
    #[inline(always)]
    pub(crate) fn position(p: usize) -> Clear {
        Clear(!Entry::pair_bits(p))
    }
}

/// The bits of an entry that say which path it is (its key and positions):
/// entries equal there are one path, whose points add up when merged.
const PATH: u128 = !0xffff_ffff;

impl Entry {
    /// The path of no pairs.
    pub(crate) const EMPTY: Entry = Entry(0);

    /// Where position `p`'s field sits (position 0 in the top bits).
    #[inline(always)]
    pub(crate) fn shift(p: usize) -> u32 {
        128 - BITS * (p as u32 + 1)
    }

    /// An entry's bits for position `p`: its field, and the bit that says the path goes there.
    #[inline(always)]
    fn pair_bits(p: usize) -> u128 {
        31u128 << Entry::shift(p) | 1u128 << (32 + p)
    }

    /// The path with one more pair: `letter` (0 = A) at position `p`, which it does not use yet.
    #[inline(always)]
    pub(crate) fn with(self, p: usize, letter: u32) -> Entry {
        Entry(self.0 | u128::from(letter + 1) << Entry::shift(p) | 1u128 << (32 + p))
    }

    /// A collected entry: the path, its word's trie node and its points (at most 255).
    #[inline(always)]
    pub(crate) fn collected(self, node: u32, points: u32) -> Entry {
        Entry(self.0 | u128::from(node) << 8 | u128::from(points))
    }

    /// A collected entry's points.
    #[inline(always)]
    pub(crate) fn collected_points(self) -> u32 {
        (self.0 & 0xff) as u32
    }

    /// The path alone: no trie node, no points.
    #[inline(always)]
    pub(crate) fn path(self) -> Entry {
        Entry(self.0 & PATH)
    }

    /// Whether two entries are the same path.
    #[inline(always)]
    pub(crate) fn same_path(self, other: Entry) -> bool {
        self.0 & PATH == other.0 & PATH
    }

    /// The entry with `points` more (a merged entry, whose points fit 32 bits).
    #[inline(always)]
    pub(crate) fn plus(self, points: u32) -> Entry {
        Entry(self.0 + u128::from(points))
    }

    /// A merged entry's points.
    #[inline(always)]
    pub(crate) fn points(self) -> u32 {
        self.0 as u32
    }

    /// The positions the path uses, as bits.
    #[inline(always)]
    pub(crate) fn positions(self) -> u32 {
        u32::from((self.0 >> 32) as u16)
    }

    /// The letter index plus one at position `p` (0 = none).
    #[inline(always)]
    pub(crate) fn letter_at(self, p: usize) -> u32 {
        // Positions 0..12 lie in the top 64 bits: a 64-bit shift is a few
        // instructions fewer than a 128-bit one, in the passes' innermost loops.
        if p < 12 {
            ((self.0 >> 64) as u64 >> (Entry::shift(p) - 64)) as u32 & 31
        } else {
            ((self.0 >> Entry::shift(p)) & 31) as u32
        }
    }

    /// The key's fields down to the one at `shift` ([`Entry::shift`]), that
    /// one in the lowest bits: a table indexed by the low bits reads one
    /// or two consecutive positions' letters at once.
    #[inline(always)]
    pub(crate) fn fields_to(self, shift: u32) -> usize {
        (self.0 >> shift) as usize
    }

    /// How many leading positions the keys of two entries agree on (16 if all).
    #[inline(always)]
    pub(crate) fn common_positions(self, previous: Entry) -> u32 {
        // The key is the top 80 bits: the high word, then 16 bits of the low one.
        let differ = self.0 ^ previous.0;
        let high = (differ >> 64) as u64;
        let bits = if high != 0 {
            high.leading_zeros()
        } else {
            64 + ((differ as u64 >> 48) as u16).leading_zeros()
        };
        bits / BITS
    }

    /// The entry with the pairs `clear` names cleared.
    #[inline(always)]
    pub(crate) fn clear(self, clear: Clear) -> Entry {
        Entry(self.0 & clear.0)
    }

    /// The first position from `from` on that the entry uses, or `None` if it uses none.
    #[cfg(test)]
    pub(crate) fn next_position(self, from: usize) -> Option<usize> {
        // The key is the top 16 * BITS = 80 bits; the rest is the word and its points.
        let key = self.0 >> 48;
        let tail = key & ((1u128 << (80 - BITS as usize * from)) - 1);
        (tail != 0).then(|| (tail.leading_zeros() as usize - 48) / BITS as usize)
    }

    /// An entry from its bits, for the tests.
    #[cfg(test)]
    pub(crate) fn from_bits(bits: u128) -> Entry {
        Entry(bits)
    }
}

/// Merges sorted `a` and sorted `b` into `out`, adding the points of equal paths.
pub(crate) fn merge_into(out: &mut Vec<Entry>, a: &[Entry], b: impl Iterator<Item = Entry>) {
    let mut a = a.iter().copied().peekable();
    let mut b = b.peekable();
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(&x), Some(&y)) => {
                if x.same_path(y) {
                    a.next();
                    b.next();
                    x.plus(y.points())
                } else if x < y {
                    a.next();
                    x
                } else {
                    b.next();
                    y
                }
            }
            (Some(&x), None) => {
                a.next();
                x
            }
            (None, Some(&y)) => {
                b.next();
                y
            }
            (None, None) => break,
        };
        out.push(next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_adds_the_points_of_equal_keys() {
        let key = |k: u128, points: u128| Entry::from_bits(k << 48 | points);
        let mut out = Vec::new();
        merge_into(
            &mut out,
            &[key(1, 2), key(3, 5)],
            [key(2, 1), key(3, 7), key(4, 1)].into_iter(),
        );
        assert_eq!(out, [key(1, 2), key(2, 1), key(3, 12), key(4, 1)]);
    }

    #[test]
    fn fields_read_back_what_was_written() {
        let entry = Entry::EMPTY.with(0, 19).with(3, 0).with(15, 25);
        assert_eq!(entry.letter_at(0), 20);
        assert_eq!(entry.letter_at(3), 1);
        assert_eq!(entry.letter_at(15), 26);
        assert_eq!(entry.letter_at(1), 0);
        assert_eq!(entry.positions(), 1 | 1 << 3 | 1 << 15);
        assert_eq!(entry.next_position(1), Some(3));
        assert_eq!(entry.next_position(4), Some(15));
        let word = entry.collected(1234, 11);
        assert_eq!(word.collected_points(), 11);
        assert_eq!(word.path(), entry);
        // Positions 1 and 2 are empty in both; position 3 differs.
        assert_eq!(entry.common_positions(Entry::EMPTY.with(0, 19)), 3);
        let cleared = entry.clear(Clear::position(3));
        assert_eq!(cleared.positions(), 1 | 1 << 15);
        assert_eq!(cleared.letter_at(3), 0);
        assert_eq!(
            entry.clear(Clear::positions(1 | 1 << 3 | 1 << 15)),
            Entry::EMPTY
        );
    }
}
