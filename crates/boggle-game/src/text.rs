//! Numbers in words for what the program prints: counts with commas between
//! thousands (num-format's English locale), and a noun's singular or plural
//! for a count. English only.

use num_format::{Locale, ToFormattedString};

/// `n` with commas between thousands: `1,068,363`.
pub(crate) fn thousands(n: u64) -> String {
    n.to_formatted_string(&Locale::en)
}

/// `one` when `n` is 1, `many` otherwise: `plural(n, "point", "points")`
/// for `1 point`, `0 points`, `2 points`. Any integer type.
pub fn plural<'a, N>(n: N, one: &'a str, many: &'a str) -> &'a str
where
    N: PartialEq + From<u8>,
{
    if n == N::from(1) { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::{plural, thousands};

    #[test]
    fn only_one_takes_the_singular() {
        assert_eq!(plural(1u32, "point", "points"), "point");
        assert_eq!(plural(0u32, "point", "points"), "points");
        assert_eq!(plural(2usize, "guess", "guesses"), "guesses");
        assert_eq!(plural(u64::MAX, "line", "lines"), "lines");
        assert_eq!(plural(1u64, "", "s"), "");
    }

    #[test]
    fn counts_have_commas_between_thousands() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_068_363), "1,068,363");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
    }
}
