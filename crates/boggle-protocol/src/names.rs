//! Player and room names, and any text from the network a client shows:
//! [`check_name`] and [`check_room`] say whether a name may be used (and
//! why not, [`BadName`]), [`NameKey`] is what two names are compared by so
//! that look-alikes collide, and [`clean`] is what a client does to text
//! before printing it, so no one's bytes reach another player's terminal
//! as an escape sequence. The character data is Unicode's identifier and
//! confusable data (UTS #39) from `unicode-security`, so no list of
//! invisible characters is kept by hand.

use crate::message::{MAX_NAME, MAX_ROOM};

/// Whether `c` may be in a name, and be shown on another player's terminal:
/// printable ASCII (a space, letters, digits, punctuation), or a character
/// Unicode allows in identifiers (UTS #39's General Security Profile:
/// letters and marks of the scripts in use today; no control, format or
/// default-ignorable character, no filler that looks blank, no symbol). The
/// two joiners it allows for some scripts are invisible, so not here.
pub fn is_printable(c: char) -> bool {
    use unicode_security::GeneralSecurityProfile;
    matches!(c, ' '..='~')
        || (c.identifier_allowed()
            && c.identifier_type()
                != Some(
                    unicode_security::general_security_profile::IdentifierType::Default_Ignorable,
                )
            && !matches!(c, '\u{200C}' | '\u{200D}'))
}

/// `text` with every character that is not [`is_printable`] replaced by `?`:
/// what a client does to anything from the network before printing it.
pub fn clean(text: &str) -> String {
    text.chars()
        .map(|c| if is_printable(c) { c } else { '?' })
        .collect()
}

/// Why a player or room name is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BadName {
    /// It has no character.
    #[error("the {what} is empty")]
    Empty {
        /// What the name names: "name" or "room name".
        what: &'static str,
    },
    /// It has more characters than the cap.
    #[error("the {what} is longer than {max} characters")]
    TooLong {
        /// What the name names.
        what: &'static str,
        /// The cap, in characters.
        max: usize,
    },
    /// It has a character that is not [`is_printable`].
    #[error(
        "the {what} has a character that is invisible, a control or a symbol (U+{:04X}); \
         use letters, digits, spaces and punctuation",
        u32::from(*found)
    )]
    Unprintable {
        /// What the name names.
        what: &'static str,
        /// The first such character.
        found: char,
    },
    /// It has no letter or digit.
    #[error("the {what} has no letter or digit")]
    NoLetter {
        /// What the name names.
        what: &'static str,
    },
    /// It starts or ends with a space.
    #[error("the {what} starts or ends with a space")]
    Spaced {
        /// What the name names.
        what: &'static str,
    },
    /// It has more than 3 combining marks on one character.
    #[error("the {what} stacks more than {MAX_MARKS} accents or other marks on one letter")]
    Stacked {
        /// What the name names.
        what: &'static str,
    },
    /// It ends in a number in brackets, as the server marks a second
    /// player of one name on a leaderboard.
    #[error("the name ends in a number in brackets, which the server adds to tell names apart")]
    Suffixed,
}

/// The most combining marks one character may carry in a name: Vietnamese
/// written decomposed puts two on a vowel, an Indic or Tibetan stack up to
/// three; more only stacks marks over other players' names (Zalgo text).
pub(crate) const MAX_MARKS: usize = 3;

/// Whether `name` is a good player name: 1 to [`MAX_NAME`] [`is_printable`]
/// characters, a letter or digit among them, no leading or trailing space.
pub fn check_name(name: &str) -> Result<(), BadName> {
    check_label("name", name, MAX_NAME)?;
    if numbered(name) {
        return Err(BadName::Suffixed);
    }
    Ok(())
}

/// Whether `name` ends in ` (N)`, N a number in any script's digits.
fn numbered(name: &str) -> bool {
    name.strip_suffix(')')
        .and_then(|rest| rest.rsplit_once(" ("))
        .is_some_and(|(_, n)| !n.is_empty() && n.chars().all(char::is_numeric))
}

/// Whether more than [`MAX_MARKS`] combining marks follow one another.
fn stacked(text: &str) -> bool {
    let mut run = 0;
    for c in text.chars() {
        run = if unicode_normalization::char::is_combining_mark(c) {
            run + 1
        } else {
            0
        };
        if run > MAX_MARKS {
            return true;
        }
    }
    false
}

/// Whether `room` is a good room name: as for player names, at most [`MAX_ROOM`].
pub fn check_room(room: &str) -> Result<(), BadName> {
    check_label("room name", room, MAX_ROOM)
}

fn check_label(what: &'static str, text: &str, max: usize) -> Result<(), BadName> {
    let count = text.chars().count();
    if count == 0 {
        return Err(BadName::Empty { what });
    }
    if count > max {
        return Err(BadName::TooLong { what, max });
    }
    if let Some(found) = text.chars().find(|&c| !is_printable(c)) {
        return Err(BadName::Unprintable { what, found });
    }
    if !text.chars().any(char::is_alphanumeric) {
        return Err(BadName::NoLetter { what });
    }
    if text.trim() != text {
        return Err(BadName::Spaced { what });
    }
    if stacked(text) {
        return Err(BadName::Stacked { what });
    }
    Ok(())
}

/// What two names are compared by: Unicode's confusable skeleton (UTS #39:
/// normalised, look-alike characters mapped to one) with case folded before
/// it and after it, and the accents of Latin, Greek and Cyrillic letters
/// left out. Folding first makes `Ann`, `ann` and `аnn` (a Cyrillic
/// а) one name, and `main` and `ｍａｉｎ`; folding after catches what
/// only looks alike in capitals (`Ian`, whose capital I the tables map to
/// small l, and `lan`), which folding first would have turned into an i.
/// An accent is easily missed at a glance (`Maín` passes for `Main`), so
/// the combining diacritics those scripts use (U+0300 to U+036F, which the
/// skeleton's decomposition splits off) are dropped; the marks of other
/// scripts, whose vowels they often are, are kept.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NameKey {
    /// Case folded, then the skeleton: the key rooms are filed under.
    folded: String,
    /// The skeleton, then case folded.
    shown: String,
}

impl NameKey {
    /// Whether the two names pass for each other.
    pub fn same_as(&self, other: &NameKey) -> bool {
        self.folded == other.folded || self.shown == other.shown
    }

    /// The key that rooms are filed under (look-alikes after case folding).
    pub fn as_str(&self) -> &str {
        &self.folded
    }

    /// Both forms compared by [`NameKey::same_as`]: two names pass for each
    /// other when either form is equal, so a table of names indexes both.
    pub fn forms(&self) -> [&str; 2] {
        [&self.folded, &self.shown]
    }
}

/// The [`NameKey`] of `name`.
pub fn name_key(name: &str) -> NameKey {
    let skeleton = |text: &str| {
        unicode_security::skeleton(text)
            .filter(|c| !matches!(c, '\u{300}'..='\u{36F}'))
            .collect::<String>()
    };
    NameKey {
        folded: skeleton(&name.to_lowercase()),
        shown: skeleton(name).to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_printable_and_short() {
        assert_eq!(check_name("Ann B."), Ok(()));
        assert_eq!(check_name("Zoë"), Ok(()));
        for bad in [
            "",
            " ann",
            "ann ",
            "\x1b[31mred",
            "a\u{202E}b",
            "a\nb",
            "a\u{9b}b",
            "abcdefghijklmnopqrstu",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert_eq!(clean("a\x1b]0;x\x07b"), "a?]0;x?b");
    }

    /// Every invisible or blank-looking character, after a name,
    /// in one, or alone, is refused, in player and room names alike, and the
    /// client's filter replaces each.
    #[test]
    fn invisible_and_blank_looking_characters_are_refused() {
        let sneaky = [
            '\u{AD}',
            '\u{61C}',
            '\u{3164}',
            '\u{FFA0}',
            '\u{115F}',
            '\u{2800}',
            '\u{34F}',
            '\u{180E}',
            '\u{FE0F}',
            '\u{E0100}',
            '\u{1D173}',
            '\u{600}',
            '\u{FFFC}',
            '\u{200D}',
            '\u{200B}',
            '\u{2028}',
            '\u{FEFF}',
            '\u{E0041}',
            '\u{202E}',
        ];
        for c in sneaky {
            for text in [format!("ann{c}"), format!("a{c}nn"), c.to_string()] {
                assert!(check_name(&text).is_err(), "{text:?}");
                assert!(check_room(&text).is_err(), "{text:?}");
            }
            assert_eq!(clean(&format!("ann{c}")), "ann?", "{c:?}");
        }
        for good in [
            "Ann B.",
            "Zoë",
            "O'Brien",
            "李小龍",
            "Ελένη",
            "José-María",
            "r2d2",
        ] {
            assert_eq!(check_name(good), Ok(()), "{good:?}");
            assert_eq!(clean(good), good);
        }
        for blank in ["...", "-", "' '"] {
            assert!(check_name(blank).is_err(), "{blank:?}");
        }
        assert!(name_key("Main").same_as(&name_key("main")));
        assert!(name_key("m\u{430}in").same_as(&name_key("main")));
        // Look-alikes in capitals, after folding both sides.
        assert!(name_key("Ian").same_as(&name_key("lan")));
        assert!(name_key("lan").same_as(&name_key("IAN")));
        assert!(name_key("Ian").same_as(&name_key("ian")));
        assert!(!name_key("ian").same_as(&name_key("lan")));
        // Accents on Latin letters are easily missed; other scripts' marks count.
        assert!(name_key("Ma\u{ed}n").same_as(&name_key("Main")));
        assert!(name_key("Zo\u{eb}").same_as(&name_key("zoe")));
        assert!(name_key("Jos\u{e9}").same_as(&name_key("Jose\u{301}")));
        assert!(!name_key("\u{915}\u{93f}").same_as(&name_key("\u{915}")));
        for (one, other) in [("Olive", "0live"), ("Bill", "BiII"), ("AI", "Al")] {
            assert!(name_key(one).same_as(&name_key(other)), "{one} {other}");
        }
    }

    /// A name may not end as the server's suffix for a second player of one
    /// name does, in any digits; brackets elsewhere are fine.
    #[test]
    fn a_name_may_not_end_in_a_number_in_brackets() {
        for bad in ["ann (2)", "ann (12)", "ann (\u{663})", "(1) (2)"] {
            assert_eq!(check_name(bad), Err(BadName::Suffixed), "{bad:?}");
        }
        for good in [
            "ann (two)",
            "ann(2)",
            "ann (2) b",
            "(2) ann",
            "ann ()",
            "ann 2",
        ] {
            assert_eq!(check_name(good), Ok(()), "{good:?}");
        }
        assert_eq!(check_room("room (2)"), Ok(()));
        assert_eq!(
            BadName::Suffixed.to_string(),
            "the name ends in a number in brackets, which the server adds to tell names apart"
        );
    }

    /// Marks stacked on one letter are refused; the marks of real
    /// writing (decomposed Vietnamese, Indic and Tibetan stacks) are not.
    #[test]
    fn stacked_combining_marks_are_refused() {
        let zalgo = format!("a{}b", "\u{301}\u{300}\u{302}\u{308}");
        assert_eq!(check_name(&zalgo), Err(BadName::Stacked { what: "name" }));
        assert_eq!(
            check_room(&format!("x{}", "\u{300}".repeat(10))),
            Err(BadName::Stacked { what: "room name" })
        );
        for good in [
            "Vie\u{323}\u{302}t",
            "\u{938}\u{94d}\u{924}\u{93f}",
            "\u{f66}\u{f92}\u{fb2}\u{f74}",
            "Jose\u{301}",
        ] {
            assert_eq!(check_name(good), Ok(()), "{good:?}");
        }
        assert_eq!(
            BadName::Stacked { what: "name" }.to_string(),
            "the name stacks more than 3 accents or other marks on one letter"
        );
    }
}
