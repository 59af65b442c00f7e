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

/// Result with the library's [`Error`].
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
            format!("must be in [{min}, {max}], got {value}"),
        ));
    }
    Ok(value)
}

/// Checks that `value` is finite and strictly positive.
pub fn check_positive(field: &str, value: f64) -> Result<f64> {
    if !value.is_finite() || value <= 0.0 {
        return Err(Error::field(
            field,
            format!("must be a finite number > 0, got {value}"),
        ));
    }
    Ok(value)
}

/// Checks that `value` is finite and not negative.
pub fn check_non_negative(field: &str, value: f64) -> Result<f64> {
    if !value.is_finite() || value < 0.0 {
        return Err(Error::field(
            field,
            format!("must be a finite number >= 0, got {value}"),
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
