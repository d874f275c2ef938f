//! One die: its faces and a roll that shows one of them, uniformly.

use rand::RngCore;

use crate::face::Face;
use crate::random;

/// A die with any number of faces (six for every real set).
///
/// ```
/// use boggle_game::Die;
///
/// let die = Die::new("RIFOBX"); // spec 004's first die
/// assert_eq!(die.faces().len(), 6);
/// let letter = die.roll();
/// assert!("RIFOBX".contains(letter));
///
/// // A face may have two letters, written as a capital and a small letter.
/// let new_dice_q = Die::new("HIMNQuU");
/// assert_eq!(new_dice_q.faces()[4].to_string(), "Qu");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Die {
    faces: Vec<Face>,
}

impl Die {
    /// A die from its faces written in a row: `"RIFOBX"`, or `"ABJMOQu"` where an
    /// upper-case letter followed by lower-case ones is one face, and `-` is a blank face.
    /// Characters that are not letters or `-` are ignored.
    pub fn new(faces: &str) -> Die {
        let mixed_case = faces.bytes().any(|b| b.is_ascii_uppercase())
            && faces.bytes().any(|b| b.is_ascii_lowercase());
        let mut parsed: Vec<Face> = Vec::new();
        let mut pending: Vec<u8> = Vec::new();
        let flush = |pending: &mut Vec<u8>, parsed: &mut Vec<Face>| {
            if let Ok(text) = std::str::from_utf8(pending) {
                parsed.extend(Face::parse(text));
            }
            pending.clear();
        };
        for byte in faces.bytes() {
            let continues_face = mixed_case && byte.is_ascii_lowercase() && !pending.is_empty();
            if !continues_face {
                flush(&mut pending, &mut parsed);
            }
            if byte.is_ascii_alphabetic() || byte == b'-' {
                pending.push(byte);
            }
        }
        flush(&mut pending, &mut parsed);
        Die { faces: parsed }
    }

    /// A die from already parsed faces.
    pub fn from_faces(faces: Vec<Face>) -> Die {
        Die { faces }
    }

    /// Rolls the die with the thread's generator and returns the face's first letter.
    pub fn roll(&self) -> char {
        self.roll_face(&mut rand::rng()).first_char()
    }

    /// Rolls the die with `rng` and returns the face that came up (blank for a die with no faces).
    pub fn roll_face<R: RngCore + ?Sized>(&self, rng: &mut R) -> Face {
        if self.faces.is_empty() {
            return Face::BLANK;
        }
        self.faces[random::below(rng, self.faces.len())]
    }

    /// The die's faces.
    pub fn faces(&self) -> &[Face] {
        &self.faces
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_multi_letter_faces() {
        let shown = |die: &Die| {
            die.faces()
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(shown(&Die::new("RIFOBX")), ["R", "I", "F", "O", "B", "X"]);
        assert_eq!(shown(&Die::new("ABJMOQu")), ["A", "B", "J", "M", "O", "Qu"]);
        assert_eq!(shown(&Die::new("EIO---")), ["E", "I", "O", "-", "-", "-"]);
        assert_eq!(shown(&Die::new("rifobx")).len(), 6);
    }

    #[test]
    fn every_face_comes_up() {
        let die = Die::new("ABCDEF");
        let mut rng = random::seeded(3);
        let mut seen = [false; 6];
        for _ in 0..600 {
            let face = die.roll_face(&mut rng);
            seen[usize::from(face.as_bytes()[0] - b'A')] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
