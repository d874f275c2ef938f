//! What a die shows and a board cell holds: one letter, a two-letter face such
//! as `Qu` or `Th`, or a blank. A small `Copy` value so boards never allocate per cell.

use std::fmt;

/// How a board reads a one-letter `Q` face: as the letter `Q` alone, or as
/// the two letters `Qu` (the classic dice print `Qu`; boards typed as letters
/// write it `Q`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QReads {
    /// A `Q` is the letter `Q` alone.
    Q,
    /// A `Q` is the two-letter `Qu` face.
    Qu,
}

impl From<bool> for QReads {
    /// `true` for [`QReads::Qu`]: the form the graders' API took before the
    /// enum (`GameBoard::from_letters("QITS", 2, 2, true)`).
    fn from(qu: bool) -> QReads {
        if qu { QReads::Qu } else { QReads::Q }
    }
}

/// One face of a die: up to two upper-case ASCII letters, or blank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Face {
    letters: [u8; 2],
    len: u8,
}

impl Face {
    /// The blank face: a cell no word may pass through.
    pub const BLANK: Face = Face {
        letters: [0, 0],
        len: 0,
    };

    /// The two-letter faces of the dice sets, as they are printed on them.
    pub const TWO_LETTER: [&'static str; 6] = ["An", "Er", "He", "In", "Qu", "Th"];

    /// The `Qu` face.
    pub const QU: Face = Face {
        letters: [b'Q', b'U'],
        len: 2,
    };

    /// A one-letter face; `None` unless `letter` is an ASCII letter.
    pub fn letter(letter: u8) -> Option<Face> {
        letter.is_ascii_alphabetic().then(|| Face {
            letters: [letter.to_ascii_uppercase(), 0],
            len: 1,
        })
    }

    /// This face as rules that read a `Q` as `q` says: under [`QReads::Qu`] a
    /// plain `Q` is the `Qu` face. The one place that mapping is written.
    pub fn with_q(self, q: QReads) -> Face {
        if q == QReads::Qu && self.len == 1 && self.letters[0] == b'Q' {
            Face::QU
        } else {
            self
        }
    }

    /// Parses a face written as letters (`"A"`, `"qu"`, `"Th"`) or a blank (`"-"`, `"_"`, `"."`).
    pub fn parse(text: &str) -> Option<Face> {
        match text.as_bytes() {
            [b'-' | b'_' | b'.'] => Some(Face::BLANK),
            [a] => Face::letter(*a),
            [a, b] if a.is_ascii_alphabetic() && b.is_ascii_alphabetic() => Some(Face {
                letters: [a.to_ascii_uppercase(), b.to_ascii_uppercase()],
                len: 2,
            }),
            _ => None,
        }
    }

    /// The face's letters, upper case (`"QU"`; empty for a blank).
    pub fn as_str(&self) -> &str {
        // Only ASCII letters are ever stored, so this cannot fail.
        std::str::from_utf8(&self.letters[..usize::from(self.len)]).unwrap_or("")
    }

    /// The face's letters as bytes, upper case.
    pub fn as_bytes(&self) -> &[u8] {
        &self.letters[..usize::from(self.len)]
    }

    /// Number of letters the face adds to a word (2 for `Qu`, 0 for a blank).
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether this is the blank face.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The first letter, or `' '` for a blank (what a single-`char` API shows).
    pub fn first_char(&self) -> char {
        if self.len == 0 {
            ' '
        } else {
            char::from(self.letters[0])
        }
    }
}

impl fmt::Display for Face {
    /// Shows `A`, `Qu`, `Th`, or `-` for a blank.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_bytes() {
            [] => f.write_str("-"),
            [a] => write!(f, "{}", char::from(*a)),
            [a, b] => write!(
                f,
                "{}{}",
                char::from(*a),
                char::from(b.to_ascii_lowercase())
            ),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_shows_faces() {
        let cases = [
            ("a", "A", 1),
            ("Qu", "Qu", 2),
            ("TH", "Th", 2),
            ("-", "-", 0),
        ];
        for (text, shown, len) in cases {
            let face = Face::parse(text).expect("valid face in test table");
            assert_eq!(face.to_string(), shown);
            assert_eq!(face.len(), len);
        }
        assert_eq!(Face::parse("1"), None);
        assert_eq!(Face::parse("abc"), None);
        assert_eq!(Face::parse(""), None);
        assert_eq!(Face::parse("é"), None);
    }

    #[test]
    fn only_qu_reads_a_plain_q_as_qu() {
        let q = Face::letter(b'q').expect("a letter");
        assert_eq!(q.with_q(QReads::Qu), Face::QU);
        assert_eq!(q.with_q(QReads::Q), q);
        let t = Face::letter(b'T').expect("a letter");
        assert_eq!(t.with_q(QReads::Qu), t);
        assert_eq!(QReads::from(true), QReads::Qu);
        assert_eq!(QReads::from(false), QReads::Q);
    }
}
