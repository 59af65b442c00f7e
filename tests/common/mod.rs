//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test file uses the helpers it needs

/// A small deterministic generator (xorshift64*), so failures reproduce; uniform in [−1, 1).
pub struct Rng(pub u64);

impl Rng {
    /// The next number in [−1, 1).
    pub fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D);
        (x >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

/// Runs the CLI with `args` (and `stdin` if given); returns (exit status, stdout, stderr).
pub fn contactlab(args: &[&str], stdin: Option<&str>) -> (i32, String, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    drop(child.stdin.take());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// A planar scene: a 1 kg block (0.2 × 0.1 m) standing on two feet on a half-plane turned by
/// `theta`, at rest, friction `mu`, with the `stepper` object given as JSON.
pub fn block_on_incline(theta: f64, mu: f64, stepper: &str) -> String {
    let (s, c) = theta.sin_cos();
    // The block sits on the incline: its centre 0.05 m along the incline's normal.
    format!(
        r#"{{"bodies": [
            {{"name": "incline", "fixed": true, "angle": {theta}, "shape": {{"type": "half_plane"}}}},
            {{"name": "block", "mass": 1, "position": [{x}, {y}], "angle": {theta},
              "shape": {{"type": "box", "width": 0.2, "height": 0.1}},
              "contact_points": [[-0.1, -0.05], [0.1, -0.05]]}}],
          "material": {{"friction": {mu}}},
          "stepper": {stepper},
          "contact_margin": 0.01}}"#,
        x = -0.05 * s,
        y = 0.05 * c,
    )
}

/// Checks every joint row of `sim` at time 0.7 s along the velocity `v` (any velocity, not
/// one the joints allow): G v + ∂g/∂t against the central difference of g, and the velocity
/// product Ġ v against the central difference of the row (ε = 1e-6). Returns the rows
/// checked.
pub fn joint_rows_are_derivatives(
    sim: &contactlab::Simulation,
    v: &nalgebra::DVector<f64>,
    label: &str,
) -> usize {
    use contactlab::contact::detect_contacts_at;
    let system = sim.system();
    let (t, eps) = (0.7, 1e-6);
    let rows = |q: &nalgebra::DVector<f64>, t: f64| detect_contacts_at(system, q, t, 0.0);
    let now = rows(&system.q, t);
    let plus = rows(&system.displace(&system.q, &(v * eps)), t + eps);
    let minus = rows(&system.displace(&system.q, &(v * -eps)), t - eps);
    for ((c, p), m) in now.iter().zip(&plus).zip(&minus) {
        assert!(c.bilateral && c.tangent_rows.is_empty());
        let numeric = (p.gap - m.gap) / (2.0 * eps);
        let row = c.normal_row.dot(v) + c.rate_bias;
        assert!(
            (numeric - row).abs() < 1e-8,
            "{label} {:?}: dg/dt {numeric} against G v + ∂g/∂t {row}",
            c.key
        );
        let product = (p.normal_row.dot(v) - m.normal_row.dot(v)) / (2.0 * eps);
        let exact = c.normal_velocity_product(system, v);
        assert!(
            (product - exact).abs() < 1e-7 * (1.0 + exact.abs()),
            "{label} {:?}: Ġv {product} by differences against {exact}",
            c.key
        );
    }
    now.len()
}
