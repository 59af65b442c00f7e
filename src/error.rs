//! Errors as values: every failure names the field or item at fault and what is allowed.

use thiserror::Error;

/// Everything the library can refuse. Messages are written for the person who typed the input.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum Error {
    /// A field holds a value outside its allowed range (or NaN / infinite).
    #[error("{field}: {reason}")]
    InvalidField {
        /// Dotted path of the field, e.g. `bodies[1].mass`.
        field: String,
        /// What is wrong and what is allowed.
        reason: String,
    },
    /// A name (preset, parameter, stepper, body, solver) that is not known.
    #[error("unknown {what} '{name}'; known: {known}")]
    Unknown {
        /// The kind of name, e.g. `preset`.
        what: &'static str,
        /// The name given.
        name: String,
        /// The names that would have been accepted, comma separated.
        known: String,
    },
    /// Input that is not valid JSON or does not have the expected shape.
    #[error("JSON: {0}")]
    Json(String),
    /// A solver could not produce a trustworthy answer (the state is left unchanged).
    #[error("solver: {0}")]
    Solver(String),
}

/// Result with the library's [`Error`](enum@Error).
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// Shorthand for [`Error::InvalidField`].
    pub fn field(field: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::InvalidField {
            field: field.into(),
            reason: reason.into(),
        }
    }

    /// Shorthand for [`Error::Unknown`], listing the accepted names.
    pub fn unknown<S: AsRef<str>>(what: &'static str, name: &str, known: &[S]) -> Self {
        Error::Unknown {
            what,
            name: name.to_string(),
            known: known
                .iter()
                .map(|s| s.as_ref().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::Json(e.to_string())
    }
}

/// A number for a message: at most six significant digits, plain between 1e-4 and 1e15,
/// scientific outside (1e308 prints as `1e308`, not 309 digits).
pub fn fmt_number(x: f64) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    if (1e-4..1e15).contains(&a) {
        let exponent = libm::floor(libm::log10(a)) as i32;
        let decimals = (5 - exponent).max(0) as usize;
        let text = format!("{x:.decimals$}");
        if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            text
        }
    } else {
        let text = format!("{x:.5e}");
        match text.split_once('e') {
            Some((mantissa, exponent)) => {
                let mantissa = if mantissa.contains('.') {
                    mantissa.trim_end_matches('0').trim_end_matches('.')
                } else {
                    mantissa
                };
                format!("{mantissa}e{exponent}")
            }
            None => text,
        }
    }
}

/// Checks that `value` is finite and inside `[min, max]`; the error names `field` and the range.
pub fn check_range(field: &str, value: f64, min: f64, max: f64) -> Result<f64> {
    if !value.is_finite() {
        return Err(Error::field(
            field,
            format!("must be a finite number, got {value}"),
        ));
    }
    if value < min || value > max {
        return Err(Error::field(
            field,
            format!(
                "must be in [{}, {}], got {}",
                fmt_number(min),
                fmt_number(max),
                fmt_number(value)
            ),
        ));
    }
    Ok(value)
}

/// Checks that every entry of `values` is finite and inside `[min, max]`.
pub fn check_each(field: &str, values: &[f64], min: f64, max: f64) -> Result<()> {
    for (i, v) in values.iter().enumerate() {
        check_range(&format!("{field}[{i}]"), *v, min, max)?;
    }
    Ok(())
}

/// Checks that `value` is finite and strictly positive.
pub fn check_positive(field: &str, value: f64) -> Result<f64> {
    if !value.is_finite() || value <= 0.0 {
        return Err(Error::field(
            field,
            format!("must be a finite number > 0, got {}", fmt_number(value)),
        ));
    }
    Ok(value)
}

/// Checks that `value` is finite and not negative.
pub fn check_non_negative(field: &str, value: f64) -> Result<f64> {
    if !value.is_finite() || value < 0.0 {
        return Err(Error::field(
            field,
            format!("must be a finite number >= 0, got {}", fmt_number(value)),
        ));
    }
    Ok(value)
}

/// Checks that every entry of `values` is finite.
pub fn check_finite(field: &str, values: &[f64]) -> Result<()> {
    for (i, v) in values.iter().enumerate() {
        if !v.is_finite() {
            return Err(Error::field(
                format!("{field}[{i}]"),
                format!("must be a finite number, got {v}"),
            ));
        }
    }
    Ok(())
}

/// Checks that a count is within `[min, max]` (the same limit natively and in wasm).
pub fn check_count(field: &str, value: u64, min: u64, max: u64) -> Result<usize> {
    if value < min || value > max {
        return Err(Error::field(
            field,
            format!("must be a whole number in [{min}, {max}], got {value}"),
        ));
    }
    Ok(value as usize)
}
