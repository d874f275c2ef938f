//! The dictionary's prefix index: a compact trie laid out for the board search.
//!
//! Each node is 8 bytes: a 26-bit mask of the letters that have a child (bit 31
//! marks the end of a word, bit 30 a node whose children the vector walk
//! gathers, bits 26–29 hold its depth) and the index of its first child.
//! Children of a node are stored next to each other, so the child for a
//! letter is `first + popcount(mask & ((1 << letter) - 1))` (no pointer per
//! letter).
//! Nodes are numbered breadth-first, which keeps the short prefixes that every
//! board visits (the first two or three levels) together at the front, where
//! they stay in cache.
//!
//! For `CAT`, `CAR` and `COT`: node 0 (root) has mask {C}; node 1 (`C`) has
//! mask {A, O}; nodes 2 (`CA`, mask {R, T}) and 3 (`CO`, mask {T}); nodes 4
//! (`CAR`), 5 (`CAT`) and 6 (`COT`) are word ends with empty masks.

/// Bit of `Node::mask` that marks a word's last letter.
pub(crate) const TERMINAL: u32 = 1 << 31;
/// Bits of `Node::mask` that hold the child letters A..Z.
const LETTERS: u32 = (1 << 26) - 1;
/// Where `Node::mask` holds the node's depth, up to [`DEEP`]. A search
/// reads a found word's length there: its node was loaded a moment before
/// by the step that reached it, where a table of depths is a cold load.
const DEPTH_SHIFT: u32 = 26;
/// The depth `Node::mask` holds for every node at least this deep (the
/// trie's table of depths has theirs).
const DEEP: u32 = 15;
/// Bit of `Node::mask` set on a node whose children the vector walk on
/// AVX2 gathers rather than loads sixteen at a time: it has more than 16,
/// or 16 nodes from its first would pass the trie's end. A flag, not a
/// count and a bounds check, on every step.
const GATHERED: u32 = 1 << 30;

/// One trie node: the letters it has children for, and where they start.
/// `repr(C)`, mask first: the vector walk loads a node as one `u64` whose
/// low half is the mask (see `crate::vector`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
pub struct Node {
    mask: u32,
    first: u32,
}

impl Node {
    /// Whether a word ends here.
    #[inline]
    pub fn is_word(self) -> bool {
        self.mask & TERMINAL != 0
    }

    /// Whether any word continues past this node.
    #[inline]
    pub fn has_children(self) -> bool {
        self.mask & LETTERS != 0
    }

    /// The letters this node has children for, as bits (A = bit 0).
    #[inline]
    pub fn letters(self) -> u32 {
        self.mask & LETTERS
    }

    /// Whether the vector walk gathers this node's children: more than 16
    /// of them, or 16 nodes from its first would pass the trie's end.
    #[inline(always)]
    pub(crate) fn gathered(self) -> bool {
        self.mask & GATHERED != 0
    }

    /// The index of the first child (where the children would start, for a leaf).
    #[inline(always)]
    pub fn first(self) -> u32 {
        self.first
    }

    /// The index of the child for `letter` (0 = A), if there is one.
    #[inline(always)]
    pub fn child(self, letter: u8) -> Option<u32> {
        let bit = 1u32 << letter;
        (self.mask & bit != 0).then(|| self.first + (self.mask & (bit - 1)).count_ones())
    }
}

/// A read-only trie over upper-case A–Z words.
///
/// # Invariant
///
/// Every node's children lie inside the trie: for every node,
/// `first() + letters().count_ones() <= len()`. The vector walk's unchecked
/// loads of a node's children rely on it. [`Trie::from_sorted`] establishes
/// it by construction (a letter's bit is set only when its child is pushed,
/// and the children are pushed before the trie is handed out) and checks it
/// in debug builds; no method changes a built trie.
#[derive(Clone, Debug)]
pub struct Trie {
    nodes: Vec<Node>,
    /// Parent of each node and the letter that leads to it, for spelling a word
    /// back from its last node; kept apart so the search never loads them.
    parent: Vec<u32>,
    letter: Vec<u8>,
    /// Each node's depth (its word's length), held at 255.
    depth: Vec<u8>,
    /// Number of words.
    words: usize,
    /// The longest word's length.
    longest: usize,
}

impl Default for Trie {
    /// The trie of no words: a root alone, so every query on it is valid.
    fn default() -> Trie {
        Trie::from_sorted(&[])
    }
}

impl Trie {
    /// Builds the trie from any words, in any case and order: words with a
    /// byte other than a letter are left out, and repeats kept once.
    pub fn from_words<I>(words: I) -> Trie
    where
        I: IntoIterator,
        I::Item: AsRef<[u8]>,
    {
        let mut words: Vec<Vec<u8>> = words
            .into_iter()
            .map(|word| word.as_ref().to_ascii_uppercase())
            .filter(|word| !word.is_empty() && word.iter().all(u8::is_ascii_uppercase))
            .collect();
        words.sort_unstable();
        words.dedup();
        let words: Vec<&[u8]> = words.iter().map(Vec::as_slice).collect();
        Trie::from_sorted(&words)
    }

    /// Builds the trie from words that are sorted, free of duplicates and made of A–Z only.
    pub fn from_sorted(words: &[&[u8]]) -> Trie {
        // A trie has fewer nodes than letters, and rarely fewer than half as many.
        let letters: usize = words.iter().map(|w| w.len()).sum();
        let mut trie = Trie {
            nodes: Vec::with_capacity(letters / 2 + 1),
            parent: Vec::with_capacity(letters / 2 + 1),
            letter: Vec::with_capacity(letters / 2 + 1),
            depth: Vec::with_capacity(letters / 2 + 1),
            words: words.len(),
            longest: words.iter().map(|w| w.len()).max().unwrap_or(0),
        };
        trie.nodes.push(Node::default());
        trie.parent.push(0);
        trie.letter.push(0);
        trie.depth.push(0);
        // Breadth-first: each queued node owns the range of words that share its prefix.
        let mut queue = std::collections::VecDeque::with_capacity(words.len());
        queue.push_back((0u32, 0usize, words.len(), 0usize));
        while let Some((node, lo, hi, depth)) = queue.pop_front() {
            let mut i = lo;
            let mut mask = (depth as u32).min(DEEP) << DEPTH_SHIFT;
            if i < hi && words[i].len() == depth {
                mask |= TERMINAL;
                i += 1;
            }
            let first = trie.nodes.len() as u32;
            while i < hi {
                let letter = words[i][depth] - b'A';
                let start = i;
                while i < hi && words[i][depth] - b'A' == letter {
                    i += 1;
                }
                mask |= 1 << letter;
                let child = trie.nodes.len() as u32;
                trie.nodes.push(Node::default());
                trie.parent.push(node);
                trie.letter.push(letter);
                trie.depth.push((depth + 1).min(255) as u8);
                queue.push_back((child, start, i, depth + 1));
            }
            trie.nodes[node as usize] = Node { mask, first };
        }
        debug_assert!(trie.children_in_bounds(), "the trie's invariant");
        let len = trie.nodes.len();
        for node in &mut trie.nodes {
            if node.letters().count_ones() > 16 || node.first as usize + 16 > len {
                node.mask |= GATHERED;
            }
        }
        trie
    }

    /// Whether every node's children lie inside the trie (the type's invariant).
    fn children_in_bounds(&self) -> bool {
        self.nodes.iter().all(|node| {
            node.first() as usize + node.letters().count_ones() as usize <= self.nodes.len()
        })
    }

    /// The root node's index.
    pub const ROOT: u32 = 0;

    /// The node at `index`.
    #[inline]
    pub fn node(&self, index: u32) -> Node {
        self.nodes[index as usize]
    }

    /// All nodes, breadth-first.
    pub(crate) fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The length of the word `node` spells (its depth), held at 255.
    #[inline]
    pub(crate) fn depth(&self, node: u32) -> u32 {
        let held = self.nodes[node as usize].mask >> DEPTH_SHIFT & DEEP;
        if held < DEEP {
            held
        } else {
            u32::from(self.depth[node as usize])
        }
    }

    /// The longest word's length, 0 for no words: no word found is longer.
    pub(crate) fn longest(&self) -> usize {
        self.longest
    }

    /// Number of words.
    pub(crate) fn words(&self) -> usize {
        self.words
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the trie holds no words.
    pub fn is_empty(&self) -> bool {
        !self.nodes[0].has_children() && !self.nodes[0].is_word()
    }

    /// The node reached by spelling `word` (A–Z, any case) from the root.
    pub fn walk(&self, word: &[u8]) -> Option<u32> {
        word.iter().try_fold(Self::ROOT, |node, &byte| {
            let upper = byte.to_ascii_uppercase();
            if !upper.is_ascii_uppercase() {
                return None;
            }
            self.node(node).child(upper - b'A')
        })
    }

    /// The word spelled by the path from the root to `node`.
    pub fn word(&self, node: u32) -> String {
        let mut letters = Vec::new();
        let mut at = node as usize;
        while at != 0 {
            letters.push(b'A' + self.letter[at]);
            at = self.parent[at] as usize;
        }
        letters.reverse();
        String::from_utf8(letters).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trie(words: &[&str]) -> Trie {
        let bytes: Vec<&[u8]> = words.iter().map(|w| w.as_bytes()).collect();
        Trie::from_sorted(&bytes)
    }

    /// A node is marked gathered exactly when the vector walk may not load
    /// 16 nodes from its first: more than 16 children, or past the end.
    #[test]
    fn a_node_is_gathered_when_its_sixteen_would_not_do() {
        // `A` has 26 children; the last `Bx` nodes' 16 from their first
        // would pass the trie's end (the `BxZ` leaves).
        let mut words: Vec<String> = ('A'..='Z').map(|c| format!("A{c}")).collect();
        words.extend(('A'..='Z').map(|c| format!("B{c}Z")));
        let small = Trie::from_words(&words);
        let gathered = |prefix: &[u8]| small.node(small.walk(prefix).expect("prefix")).gathered();
        assert!(gathered(b"A") && gathered(b"B") && gathered(b"BQ"));
        assert!(!gathered(b"AA") && !gathered(b"BA"));
        for t in [&small, crate::testing::course_trie(), &trie(&["CAT"])] {
            for index in 0..t.len() as u32 {
                let node = t.node(index);
                let wide = node.letters().count_ones() > 16;
                let short = node.first() as usize + 16 > t.len();
                assert_eq!(node.gathered(), wide || short, "node {index}");
                assert_eq!(
                    t.depth(index) < DEEP,
                    node.mask >> DEPTH_SHIFT & DEEP < DEEP
                );
            }
        }
    }

    #[test]
    fn layout_matches_the_module_example() {
        let t = trie(&["CAR", "CAT", "COT"]);
        assert_eq!(t.len(), 7);
        assert_eq!(t.walk(b"CA"), Some(2));
        assert_eq!(t.walk(b"CO"), Some(3));
        assert_eq!(t.walk(b"CAR"), Some(4));
        assert_eq!(t.walk(b"cot"), Some(6));
        assert_eq!(t.walk(b"CUT"), None);
        assert!(t.node(5).is_word() && !t.node(2).is_word());
        assert_eq!(t.word(6), "COT");
    }

    #[test]
    fn the_default_trie_is_empty_and_answers_queries() {
        let t = Trie::default();
        assert!(t.is_empty());
        assert_eq!((t.len(), t.words()), (1, 0));
        assert_eq!(t.walk(b"A"), None);
        assert_eq!(t.walk(b""), Some(Trie::ROOT));
    }

    #[test]
    fn a_word_can_be_a_prefix_of_another() {
        let t = trie(&["A", "AB", "ABC"]);
        for w in ["A", "AB", "ABC"] {
            let node = t.walk(w.as_bytes()).expect("word is in trie");
            assert!(t.node(node).is_word());
            assert_eq!(t.word(node), w);
        }
        assert!(!t.node(Trie::ROOT).is_word());
    }

    #[test]
    fn depth_is_the_word_length_past_what_a_node_holds() {
        let long: Vec<String> = (1..=40).map(|n| "Z".repeat(n)).collect();
        let mut words: Vec<&str> = long.iter().map(String::as_str).collect();
        words.insert(0, "CAT");
        let t = trie(&words);
        for w in &words {
            let node = t.walk(w.as_bytes()).expect("word is in trie");
            assert_eq!(t.depth(node), w.len() as u32, "{w}");
            assert_eq!(
                t.node(node).letters(),
                u32::from(w.starts_with('Z') && w.len() < 40) << 25
            );
        }
        assert_eq!(t.depth(Trie::ROOT), 0);
    }

    #[test]
    fn empty_trie() {
        let t = trie(&[]);
        assert!(t.is_empty());
        assert_eq!(t.walk(b"A"), None);
    }
}
