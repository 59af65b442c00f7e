//! `contactlab bench`: step cost per preset and Lemke against PGS on contact LCPs of growing size.

pub fn run(_quick: bool) -> String {
    String::new()
}
