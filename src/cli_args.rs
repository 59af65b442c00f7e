//! Parsing the command line's comma-separated lists of whole numbers, with the error that names the option and its range.

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
