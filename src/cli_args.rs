//! Parsing the command line's numbers and comma-separated lists of whole numbers, with the error that names the option and its range.

/// `value` as whole numbers in [low, high] separated by commas, or the error naming `name`
/// and the range.
pub fn whole_numbers(
    name: &str,
    value: &str,
    low: usize,
    high: usize,
) -> Result<Vec<usize>, String> {
    value
        .split(',')
        .map(|s| s.parse().ok().filter(|k| (low..=high).contains(k)))
        .collect::<Option<Vec<usize>>>()
        .ok_or_else(|| {
            format!("{name}: whole numbers in [{low}, {high}] separated by commas, got '{value}'")
        })
}

/// `value` as one number within `range`, or the error naming `name` and what is allowed
/// (`allowed`, e.g. "m/s in [1e-9, 10] (as stepper.sleep_speed)"). NaN is never within a
/// range, so it is refused too.
pub fn number_in<T: std::str::FromStr + PartialOrd>(
    name: &str,
    value: &str,
    range: std::ops::RangeInclusive<T>,
    allowed: &str,
) -> Result<T, String> {
    value
        .parse()
        .ok()
        .filter(|x| range.contains(x))
        .ok_or_else(|| format!("{name}: {allowed}, got '{value}'"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_number_is_taken_within_its_range_and_refused_outside_it() {
        assert_eq!(
            super::number_in("--k", "7", 1..=10, "a whole number"),
            Ok(7usize)
        );
        assert_eq!(super::number_in("--x", "1e-3", 0.0..=1.0, "x"), Ok(1e-3));
        for bad in ["0", "11", "seven", ""] {
            assert_eq!(
                super::number_in::<usize>("--k", bad, 1..=10, "a whole number in [1, 10]"),
                Err(format!("--k: a whole number in [1, 10], got '{bad}'"))
            );
        }
        for bad in ["NaN", "inf", "-1e-300"] {
            assert!(
                super::number_in("--x", bad, 0.0..=f64::MAX, "x ≥ 0").is_err(),
                "{bad}"
            );
        }
    }
}
