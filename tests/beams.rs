//! Flexible beams (seed 002's flexible elements): the co-rotational element's forces and
//! tangent are exact derivatives, rigid motions strain nothing, and the cantilever meets its
//! closed forms: PL³/(3EI) for a small load, the elastica for large ones, the flexural
//! frequencies (βₙL)²√(EI/(ρAL⁴)).
#![cfg(not(target_arch = "wasm32"))]

use contactlab::Simulation;
use contactlab::beam_theory::{cantilever_elastica, cantilever_frequency, cantilever_wavenumber};
use contactlab::model::corotational::{Element, SectionStiffness};
use contactlab::scene::Scene;
use contactlab::statics::static_equilibrium;

const SECTION: SectionStiffness = SectionStiffness {
    axial: 2.1e11 * 1e-4,
    bending: 2.1e11 * 1e-8 / 12.0,
};

/// A steel cantilever 1 m long, 10 mm × 10 mm, clamped at x = 0, with a tip load `p` (N)
/// downward and no gravity.
fn cantilever(elements: usize, p: f64, mass: &str) -> Simulation {
    let json = format!(
        r#"{{"gravity": [0, 0], "bodies": [],
            "beams": [{{"name": "rod", "start": [0, 0], "end": [1, 0], "elements": {elements},
                "youngs_modulus": 2.1e11, "density": 7850, "width": 0.01, "height": 0.01,
                "supports": ["clamped", "free"], "mass": "{mass}"}}],
            "forces": [{{"type": "constant", "body": "rod", "force": [0, {}]}}],
            "stepper": {{"kind": "nsga"}}}}"#,
        -p
    );
    Simulation::from_scene(Scene::from_json(&json).unwrap()).unwrap()
}

fn bending() -> f64 {
    SECTION.bending
}

#[test]
fn the_element_force_is_the_energy_gradient_and_the_tangent_its_derivative() {
    let el = Element::new([0.0, 0.0, 0.0], [0.5, 0.0, 0.0]);
    let d = [0.01, -0.02, 0.3, 0.47, 0.15, -0.2];
    let state = |d: &[f64; 6]| el.state(SECTION, [d[0], d[1], d[2]], [d[3], d[4], d[5]]);
    let st = state(&d);
    let f = st.internal_force();
    let k = st.tangent(SECTION, el.length);
    for j in 0..6 {
        let eps = 1e-7;
        let mut plus = d;
        let mut minus = d;
        plus[j] += eps;
        minus[j] -= eps;
        let (sp, sm) = (state(&plus), state(&minus));
        let grad = (el.energy(SECTION, &sp) - el.energy(SECTION, &sm)) / (2.0 * eps);
        assert!(
            (grad - f[j]).abs() <= 1e-6 * f.iter().fold(0.0f64, |m, x| m.max(x.abs())),
            "f[{j}] = {} against dV/dd = {grad}",
            f[j]
        );
        let (fp, fm) = (sp.internal_force(), sm.internal_force());
        for i in 0..6 {
            let fd = (fp[i] - fm[i]) / (2.0 * eps);
            let scale = k.iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
            assert!(
                (fd - k[i][j]).abs() <= 1e-6 * scale,
                "K[{i}][{j}] = {} against {fd}",
                k[i][j]
            );
            assert!((k[i][j] - k[j][i]).abs() <= 1e-9 * scale, "K not symmetric");
        }
    }
}

#[test]
fn a_rigid_motion_strains_nothing() {
    let el = Element::new([0.1, 0.2, 0.3], [0.6, 0.2 + 0.5 * 0.3f64.tan(), 0.3]);
    // Turn the element by 2.5 rad about a far point and move it.
    let (c, s) = (2.5f64.cos(), 2.5f64.sin());
    let turn = |p: [f64; 3]| {
        let (x, y) = (p[0] - 3.0, p[1] + 1.0);
        [c * x - s * y + 7.0, s * x + c * y - 4.0, p[2] + 2.5]
    };
    let a = [0.1, 0.2, 0.3];
    let b = [0.6, 0.2 + 0.5 * 0.3f64.tan(), 0.3];
    let st = el.state(SECTION, turn(a), turn(b));
    assert!(st.stretch.abs() < 1e-14, "stretch {}", st.stretch);
    assert!(
        st.rotations.iter().all(|r| r.abs() < 1e-14),
        "{:?}",
        st.rotations
    );
    assert!(el.energy(SECTION, &st) < 1e-12);
}

/// The tip's (x, y, θ): the last three generalized positions of a cantilever.
fn tip(q: &nalgebra::DVector<f64>) -> (f64, f64, f64) {
    let n = q.len();
    (q[n - 3], q[n - 2], q[n - 1])
}

#[test]
fn a_small_tip_load_deflects_the_cantilever_by_pl3_over_3ei_with_any_element_count() {
    // Hermite elements are exact for a tip load in linear theory; at P = 1 mN the
    // deflection is 2e-6 L, so the geometric nonlinearity is ~1e-12 relative.
    let p = 1e-3;
    let exact = p / (3.0 * bending());
    for n in [1, 2, 4, 10] {
        let sim = cantilever(n, p, "consistent");
        let eq = static_equilibrium(sim.system(), 1, 1e-12).unwrap();
        let (_, y, theta) = tip(&eq.q);
        assert!(
            (-y - exact).abs() <= 1e-6 * exact,
            "n = {n}: {} against {exact}",
            -y
        );
        // Tip slope PL²/(2EI).
        let slope = p / (2.0 * bending());
        assert!(
            (-theta - slope).abs() <= 1e-6 * slope,
            "n = {n}: slope {}",
            -theta
        );
    }
}

#[test]
fn the_elastica_of_bisshopp_and_drucker() {
    // Their table: PL²/EI = 1 gives δ_v/L = 0.30172 and δ_h/L = 0.05643.
    let e = cantilever_elastica(1.0);
    assert!((e.deflection - 0.30172).abs() < 1e-5, "{e:?}");
    assert!((e.shortening - 0.05643).abs() < 1e-5, "{e:?}");
    // Small loads: α/3 and the slope α/2.
    let small = cantilever_elastica(1e-4);
    assert!((small.deflection / (1e-4 / 3.0) - 1.0).abs() < 1e-4);
    assert!((small.tip_angle / 0.5e-4 - 1.0).abs() < 1e-4);
}

/// A slender cantilever (1 mm high: axial strain P/EA ~ 1e-7 α, so the inextensible
/// elastica is the right reference to 1e-6) under PL²/EI = `alpha`, solved statically.
fn slender_tip(elements: usize, alpha: f64) -> (f64, f64, f64) {
    let ei = 2.1e11 * 0.01 * 1e-9 / 12.0;
    let json = format!(
        r#"{{"gravity": [0, 0], "bodies": [],
            "beams": [{{"name": "rod", "start": [0, 0], "end": [1, 0], "elements": {elements},
                "youngs_modulus": 2.1e11, "density": 7850, "width": 0.01, "height": 0.001,
                "supports": ["clamped", "free"]}}],
            "forces": [{{"type": "constant", "body": "rod", "force": [0, {}]}}],
            "stepper": {{"kind": "nsga"}}}}"#,
        -alpha * ei
    );
    let sim = Simulation::from_scene(Scene::from_json(&json).unwrap()).unwrap();
    let eq = static_equilibrium(sim.system(), 10, 1e-10).unwrap();
    // Equilibrium to the rounding of the internal forces (EA ε ≈ 5e-10 N per element).
    assert!(eq.residual <= 1e-6 * eq.load, "residual {}", eq.residual);
    let (x, y, theta) = tip(&eq.q);
    (-y, 1.0 - x, -theta)
}

#[test]
fn large_deflections_converge_to_the_elastica_at_second_order_in_the_element_length() {
    for (alpha, elements) in [(1.0, 40), (3.0, 40), (10.0, 80)] {
        let e = cantilever_elastica(alpha);
        let (dv, dh, angle) = slender_tip(elements, alpha);
        assert!(
            (dv - e.deflection).abs() <= 1e-4,
            "α = {alpha}: δ_v {dv} against {}",
            e.deflection
        );
        assert!(
            (dh - e.shortening).abs() <= 1e-4,
            "α = {alpha}: δ_h {dh} against {}",
            e.shortening
        );
        assert!(
            (angle - e.tip_angle).abs() <= 1e-4,
            "α = {alpha}: θ {angle} against {}",
            e.tip_angle
        );
    }
    // The order: halving the elements divides the error by about 4.
    let e = cantilever_elastica(3.0);
    let errors: Vec<f64> = [10, 20, 40]
        .iter()
        .map(|&n| (slender_tip(n, 3.0).0 - e.deflection).abs())
        .collect();
    for pair in errors.windows(2) {
        let order = (pair[0] / pair[1]).log2();
        assert!((1.8..2.3).contains(&order), "order {order} from {errors:?}");
    }
}

#[test]
fn the_cantilever_frequencies_are_within_0_1_percent_with_40_elements_and_converge_at_second_order()
{
    let rho_a = 7850.0 * 1e-4;
    let exact: Vec<f64> = (1..=2)
        .map(|k| cantilever_frequency(k, bending(), rho_a, 1.0))
        .collect();
    // (βL)² = 3.5160 and 22.0345.
    assert!((cantilever_wavenumber(1) - 1.875_104_068_7).abs() < 1e-9);
    assert!((cantilever_wavenumber(2) - 4.694_091_132_97).abs() < 1e-9);
    let error = |n: usize| -> Vec<f64> {
        let modes = cantilever(n, 0.0, "consistent").modes();
        assert_eq!(modes.free_motions, 0, "a clamped beam has no free motion");
        (0..2).map(|k| modes.omega[k] / exact[k] - 1.0).collect()
    };
    let (e20, e40) = (error(20), error(40));
    for k in 0..2 {
        assert!(e40[k].abs() <= 1e-3, "mode {}: {:.2e}", k + 1, e40[k]);
        let order = (e20[k] / e40[k]).abs().log2();
        assert!((1.8..2.3).contains(&order), "mode {}: order {order}", k + 1);
    }
}
