//! Named scenes for the seed cases, each declaring its tunable parameters (name, unit, range, default).
//!
//! A preset is a function from parameter values to a [`Scene`]. The parameter list is the one
//! source of truth for the CLI's `--set`, the page's sliders and share links.

use serde::Serialize;

use crate::error::{Error, Result, check_range};
use crate::scene::{
    BodySpec, ForceSpec, Scene, ShapeSpec, SpatialBodySpec, SpatialShapeSpec, StepperSpec,
    TorqueSpec,
};

/// One tunable parameter of a preset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parameter {
    /// Name used by `--set NAME=VALUE`.
    pub name: &'static str,
    /// Human label.
    pub label: &'static str,
    /// SI unit.
    pub unit: &'static str,
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
    /// Default value.
    pub default: f64,
    /// Granularity of meaningful values (1 for a choice such as `kind`; 0 = continuous).
    pub step: f64,
    /// The steppers that read it (empty: every one). The page shows the parameter's control
    /// only under these, so that a pile's settings for one stepper do not push the rest of the
    /// panel down a phone's screen; a link or `--set` may still give it under any stepper.
    pub steppers: &'static [&'static str],
}

pub(crate) const fn p(
    name: &'static str,
    label: &'static str,
    unit: &'static str,
    min: f64,
    max: f64,
    default: f64,
) -> Parameter {
    Parameter {
        name,
        label,
        unit,
        min,
        max,
        default,
        step: 0.0,
        steppers: &[],
    }
}

/// A parameter that takes whole numbers only (a choice).
const fn choice(name: &'static str, label: &'static str, max: f64, default: f64) -> Parameter {
    Parameter {
        step: 1.0,
        ..p(name, label, "1", 0.0, max, default)
    }
}

/// A named scene with its parameters.
#[derive(Debug, Clone, Serialize)]
pub struct Preset {
    /// Name, e.g. `block-pull`.
    pub name: &'static str,
    /// One line saying what it shows.
    pub description: &'static str,
    /// Tunables.
    pub parameters: &'static [Parameter],
    #[serde(skip)]
    build: fn(&Values) -> Scene,
}

/// Parameter values by name, in declaration order.
#[derive(Debug, Clone, PartialEq)]
pub struct Values {
    entries: Vec<(&'static str, f64)>,
}

impl Values {
    /// The value of `name` (declared parameters always have one).
    pub fn get(&self, name: &str) -> f64 {
        self.entries
            .iter()
            .find(|(n, _)| *n == name)
            .map(|e| e.1)
            .unwrap_or(f64::NAN)
    }

    /// (name, value) pairs in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.entries.iter().copied()
    }
}

impl Preset {
    /// Default values with `overrides` applied; unknown names and out-of-range values are errors.
    pub fn values(&self, overrides: &[(String, f64)]) -> Result<Values> {
        let mut entries: Vec<(&'static str, f64)> = self
            .parameters
            .iter()
            .map(|p| (p.name, p.default))
            .collect();
        for (name, value) in overrides {
            let Some(param) = self.parameters.iter().find(|p| p.name == name) else {
                let known: Vec<&str> = self.parameters.iter().map(|p| p.name).collect();
                return Err(Error::unknown("parameter", name, &known));
            };
            let field = format!("{} ({}, {})", param.name, param.label, param.unit);
            check_range(&field, *value, param.min, param.max)?;
            if param.step > 0.0 && (value / param.step).fract() != 0.0 {
                return Err(Error::field(
                    field,
                    format!("must be a multiple of {}, got {value}", param.step),
                ));
            }
            if let Some(e) = entries.iter_mut().find(|e| e.0 == param.name) {
                e.1 = *value;
            }
        }
        Ok(Values { entries })
    }

    /// The scene for these values.
    pub fn scene(&self, values: &Values) -> Result<Scene> {
        let scene = (self.build)(values);
        scene.validate()?;
        Ok(scene)
    }
}

/// Every preset, in the order the CLI lists them.
pub fn all() -> &'static [Preset] {
    PRESETS
}

/// The preset called `name`.
pub fn find(name: &str) -> Result<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name).ok_or_else(|| {
        let known: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        Error::unknown("preset", name, &known)
    })
}

static PRESETS: &[Preset] = &[
    Preset {
        name: "block-pull",
        description: "Block on a rigid floor pulled upward through its centre: N = mg − u until lift-off, then d̈ = (u − mg)/m (seed 001).",
        parameters: &[
            p("m", "block mass", "kg", 0.1, 20.0, 2.0),
            p("u", "upward pull", "N", 0.0, 100.0, 5.0),
            p("g", "gravity", "m/s²", 0.0, 20.0, 9.81),
            PENALTY_STIFFNESS,
        ],
        build: block_pull,
    },
    Preset {
        name: "coupled-pair",
        description: "Bar on two supports whose contact LCP is W = [[2,1],[1,2]] 1/kg, b = (−3,−3) m/s²: N = (1, 1) N, not the decoupled 1.5 N each (seed 001).",
        parameters: &[
            p("m", "bar mass", "kg", 0.01, 100.0, 2.0 / 3.0),
            p("I", "bar moment of inertia", "kg·m²", 1e-5, 10.0, 0.02),
            p("a", "support half spacing", "m", 0.01, 1.0, 0.1),
            p("g", "gravity", "m/s²", 0.0, 20.0, 3.0),
        ],
        build: coupled_pair,
    },
    Preset {
        name: "penalty-block",
        description: "The block of block-pull on a penalty floor: static overlap d = −N/k (14.62 N at k = 1e5 N/m → −0.1462 mm) (seed 001).",
        parameters: &[
            p("k", "penalty stiffness", "N/m", 1e3, 1e8, 1e5),
            p("c", "penalty damping", "N·s/m", 0.0, 1e5, 200.0),
            p("m", "block mass", "kg", 0.1, 20.0, 2.0),
            p("u", "upward pull", "N", 0.0, 100.0, 5.0),
        ],
        build: penalty_block,
    },
    Preset {
        name: "bouncing-ball",
        description: "Ball dropped on the floor with restitution e: rebounds e times slower each time, impacts accumulate at t∞, then it rests with N = mg.",
        parameters: &[
            p("e", "coefficient of restitution", "1", 0.0, 1.0, 0.5),
            p(
                "height",
                "drop height (gap at release)",
                "m",
                0.001,
                10.0,
                1.0,
            ),
            p("m", "ball mass", "kg", 0.01, 100.0, 1.0),
            p("R", "ball radius", "m", 0.005, 1.0, 0.05),
        ],
        build: bouncing_ball,
    },
    Preset {
        name: "load-cell",
        description: "The seed's apparatus: a spring balance pulls up with a force that ramps at a fixed rate; the load-cell reading falls to zero at lift-off, t = mg/rate.",
        parameters: &[
            p("m", "block mass", "kg", 0.1, 20.0, 2.0),
            p("rate", "pull rate", "N/s", 0.1, 1000.0, 10.0),
            p("g", "gravity", "m/s²", 0.0, 20.0, 9.81),
        ],
        build: load_cell,
    },
    Preset {
        name: "stacked-boxes",
        description: "A 1 kg box under a 1000 kg box: N = (9819.81, 9810) N exactly with Lemke; PGS creeps at 0.999 a sweep (reference F4).",
        parameters: &[
            p("m1", "lower box mass", "kg", 0.01, 1e4, 1.0),
            p("m2", "upper box mass", "kg", 0.01, 1e4, 1000.0),
        ],
        build: stacked_boxes,
    },
    Preset {
        name: "disk-over-disk",
        description: "A frictionless disk slides off the top of a fixed disk; the contact point moves, so acceleration-level contact drifts unless Baumgarte feedback is on. It leaves at cos φ = 2/3.",
        parameters: &[
            p("phi0", "start angle from the top", "rad", 0.0, 1.0, 0.05),
            p(
                "baumgarte",
                "Baumgarte rate β (α = β), 0 = off",
                "1/s",
                0.0,
                1e4,
                0.0,
            ),
            p("R", "fixed disk radius", "m", 0.05, 5.0, 0.5),
            p("r", "sliding disk radius", "m", 0.01, 1.0, 0.1),
        ],
        build: disk_over_disk,
    },
    Preset {
        name: "rocking-bar",
        description: "A bar on two penalty supports, preloaded by gravity and perturbed: coupled modes √(2k/m) = 316.2 rad/s (heave) and √(2ka²/I) = 632.5 rad/s (rocking), not 500 each; central difference needs h < 2/ω_max = 3.162 ms (seed 003).",
        parameters: BAR_PARAMETERS,
        build: rocking_bar,
    },
    Preset {
        name: "three-support-bar",
        description: "The rocking bar on three supports (−a, 0, +a): one gap combination is redundant, so one eigenvalue of K^½ A K^½ is zero and only two modes oscillate.",
        parameters: BAR_PARAMETERS,
        build: three_support_bar,
    },
    Preset {
        name: "sphere-slide",
        description: "A sphere launched sliding on a level plane: friction μmg slows the slip until it rolls at t* = 2(v₀ − Rω₀)/(7μg), then v = (5v₀ + 2Rω₀)/7 (reference F1).",
        parameters: &[
            p("m", "sphere mass", "kg", 0.01, 100.0, 1.0),
            p("R", "sphere radius", "m", 0.01, 1.0, 0.1),
            p("mu", "friction coefficient", "1", 0.0, 2.0, 0.2),
            p("v0", "initial speed (x)", "m/s", -20.0, 20.0, 2.0),
            p(
                "omega0",
                "initial spin about y (ω₀R = v₀ rolls)",
                "rad/s",
                -200.0,
                200.0,
                0.0,
            ),
        ],
        build: sphere_slide,
    },
    Preset {
        name: "sphere-rolling-resistance",
        description: "A sphere rolling on a level plane with rolling resistance ρ: it slows at (5/7)ρg/R and then stays exactly at rest (reference F2).",
        parameters: &[
            p("m", "sphere mass", "kg", 0.01, 100.0, 1.0),
            p("R", "sphere radius", "m", 0.01, 1.0, 0.1),
            p("mu", "friction coefficient", "1", 0.0, 2.0, 0.5),
            p("v0", "initial rolling speed (x)", "m/s", 0.0, 20.0, 1.0),
            p("rho", "rolling resistance length", "m", 0.0, 0.1, 0.002),
        ],
        build: sphere_rolling_resistance,
    },
    Preset {
        name: "sphere-spin",
        description: "A sphere spinning about the vertical on the plane with spinning resistance γ: ω = ω₀ − (5/2)(γg/R²)t until it stops; the centre does not move (reference F3).",
        parameters: &[
            p("m", "sphere mass", "kg", 0.01, 100.0, 1.0),
            p("R", "sphere radius", "m", 0.01, 1.0, 0.1),
            p("mu", "friction coefficient", "1", 0.0, 2.0, 0.5),
            p(
                "omega0",
                "initial spin about z",
                "rad/s",
                -200.0,
                200.0,
                20.0,
            ),
            p("gamma", "spinning resistance length", "m", 0.0, 0.1, 0.001),
        ],
        build: sphere_spin,
    },
    Preset {
        name: "sphere-incline",
        description: "A sphere released on an incline: it rolls at a = (5/7) g (sin θ − (ρ/R) cos θ) if μ ≥ (2/7) tan θ, and stays put if tan θ ≤ ρ/R.",
        parameters: &[
            p("m", "sphere mass", "kg", 0.01, 100.0, 1.0),
            p("R", "sphere radius", "m", 0.01, 1.0, 0.1),
            p("mu", "friction coefficient", "1", 0.0, 2.0, 0.5),
            p("rho", "rolling resistance length", "m", 0.0, 0.1, 0.002),
            p("theta", "incline angle", "deg", 0.0, 60.0, 10.0),
        ],
        build: sphere_incline,
    },
    Preset {
        name: "bouncing-sphere",
        description: "A spinning sphere dropped on the plane: Newton's law with restitution e at each impact, friction turns spin into forward motion, and it comes to rest on the plane with no penetration.",
        parameters: &[
            p("m", "sphere mass", "kg", 0.01, 100.0, 1.0),
            p("R", "sphere radius", "m", 0.01, 1.0, 0.1),
            p("mu", "friction coefficient", "1", 0.0, 2.0, 0.3),
            p("e", "coefficient of restitution", "1", 0.0, 1.0, 0.5),
            p(
                "height",
                "drop height (gap at release)",
                "m",
                0.001,
                10.0,
                0.5,
            ),
            p(
                "omega0",
                "initial spin about y",
                "rad/s",
                -200.0,
                200.0,
                10.0,
            ),
        ],
        build: bouncing_sphere,
    },
    Preset {
        name: "two-spheres",
        description: "A sphere rolling into an equal sphere at rest on the plane: a frictional impact between them (restitution e), then both roll.",
        parameters: &[
            p("m", "sphere mass (each)", "kg", 0.01, 100.0, 1.0),
            p("R", "sphere radius (each)", "m", 0.01, 1.0, 0.1),
            p("mu", "friction coefficient", "1", 0.0, 2.0, 0.3),
            p("e", "coefficient of restitution", "1", 0.0, 1.0, 0.9),
            p(
                "v0",
                "rolling speed of the first sphere",
                "m/s",
                0.0,
                20.0,
                1.0,
            ),
        ],
        build: two_spheres,
    },
    Preset {
        name: "block-pull-3d",
        description: "Seed 001 in space: a box on one foot under its centre, pulled up through it: N = mg − u until lift-off, then d̈ = (u − mg)/m (m = 2 kg: u = 5 N → 14.62 N, u = 25 N → 2.69 m/s²).",
        parameters: &[
            p("m", "block mass", "kg", 0.1, 20.0, 2.0),
            p("u", "upward pull", "N", 0.0, 100.0, 5.0),
            p("g", "gravity", "m/s²", 0.0, 20.0, 9.81),
            PENALTY_STIFFNESS,
        ],
        build: crate::presets_space::block_pull_3d,
    },
    Preset {
        name: "table-modes",
        description: "Seed 003 in space: a square plate on three or four penalty legs, preloaded and perturbed: heave √(nk/m), roll and pitch √(kΣy²/I) from K^½AK^½; with four legs one zero mode (the 3-D three-support bar).",
        parameters: &[
            Parameter {
                step: 1.0,
                ..p("legs", "number of legs", "1", 3.0, 4.0, 4.0)
            },
            p("m", "plate mass", "kg", 0.1, 100.0, 2.0),
            p("k", "stiffness per leg", "N/m", 1e3, 1e8, 1e5),
            p("L", "half side of the plate", "m", 0.05, 1.0, 0.2),
            p(
                "amplitude",
                "perturbation of the gaps",
                "m",
                -1e-3,
                1e-3,
                1e-5,
            ),
            choice(
                "kind",
                "perturbation: 0 heave, 1 roll (about x), 2 pitch (about y)",
                2.0,
                0.0,
            ),
        ],
        build: crate::presets_space::table_modes,
    },
    Preset {
        name: "sphere-on-penalty-floor",
        description: "A sphere on a penalty floor in space settles at the overlap d = −mg/k (−98.1 µm for 1 kg at k = 1e5 N/m); friction is the penalty steppers' regularised Coulomb law.",
        parameters: &[
            p("m", "sphere mass", "kg", 0.01, 100.0, 1.0),
            p("R", "sphere radius", "m", 0.01, 1.0, 0.1),
            p("k", "penalty stiffness", "N/m", 1e3, 1e8, 1e5),
            p("c", "penalty damping", "N·s/m", 0.0, 1e4, 50.0),
        ],
        build: crate::presets_space::sphere_on_penalty_floor,
    },
    Preset {
        name: "box-slide-3d",
        description: "A box launched sliding on a level plane with Coulomb friction: it decelerates at μg and stops after v₀²/(2μg) (2 m/s at μ = 0.3: 0.6797 m).",
        parameters: &[
            p("m", "box mass", "kg", 0.01, 100.0, 1.0),
            p("mu", "friction coefficient", "1", 0.05, 2.0, 0.3),
            p("v0", "initial speed (x)", "m/s", 0.0, 10.0, 2.0),
        ],
        build: crate::presets_space::box_slide_3d,
    },
    Preset {
        name: "sphere-in-box",
        description: "A sphere rolling into a box that rests on the floor: a frictional impact on the box's face with restitution e, then the box slides and the sphere rolls on.",
        parameters: &[
            p("m", "sphere mass", "kg", 0.01, 100.0, 1.0),
            p("R", "sphere radius", "m", 0.02, 0.2, 0.1),
            p("M", "box mass", "kg", 0.01, 100.0, 2.0),
            p("v0", "rolling speed of the sphere", "m/s", 0.0, 10.0, 2.0),
            p("mu", "friction coefficient", "1", 0.0, 2.0, 0.3),
            p("e", "coefficient of restitution", "1", 0.0, 1.0, 0.5),
        ],
        build: crate::presets_space::sphere_in_box,
    },
    Preset {
        name: "pendulum",
        description: "A rigid rod on a revolute joint (seed 002's mechanism), released at rest from θ₀: NSGA-GGL holds the pin exactly (|g|, |ġ| at rounding) and the period follows the elliptic integral 4K(sin(θ₀/2))/ω₀, not the small-angle 2π/ω₀ (to second order in h: within 3e-6 at the preset's 1 ms).",
        parameters: &[
            p(
                "theta0",
                "release angle from the vertical",
                "rad",
                0.0,
                3.1,
                1.5,
            ),
            p("L", "rod length", "m", 0.05, 10.0, 1.0),
            p("m", "rod mass", "kg", 0.01, 100.0, 1.0),
        ],
        build: pendulum,
    },
    Preset {
        name: "sphere-mill",
        description: "An edge mill (seed 002's sphere in a mechanism): a shaft driven at Ω swings an arm on a pitch hinge; at its end a gimbal holds the sphere's axle, so the sphere rolls on the floor and spins against it at Ω. Four hinges held exactly; the floor's load N = (m + m_g)g + m_a g x_a/R, the outward friction (2/5)mΩ²R and the drive torque N(ρR/r + γ) against their closed forms.",
        parameters: &[
            p("omega", "drive speed Ω", "rad/s", -20.0, 20.0, 2.0),
            p(
                "R",
                "arm radius (shaft to sphere centre)",
                "m",
                0.15,
                1.0,
                0.3,
            ),
            p("r", "sphere radius", "m", 0.02, 0.1, 0.05),
            p("m", "sphere mass", "kg", 0.1, 20.0, 2.0),
            p("mu", "friction coefficient", "1", 0.1, 2.0, 0.5),
            p("rho", "rolling resistance length ρ", "m", 0.0, 0.005, 0.001),
            p(
                "gamma",
                "spinning resistance length γ",
                "m",
                0.0,
                0.005,
                0.001,
            ),
        ],
        build: crate::presets_space::sphere_mill,
    },
    Preset {
        name: "slider-crank",
        description: "A crank driven at constant speed Ω turns a rigid connecting rod that pushes a slider along a guide (revolute, driven revolute and prismatic joints): NSGA-GGL puts the slider exactly where the kinematics says, x = r cos φ + √(l² − r² sin² φ), every step, and reports the drive torque.",
        parameters: &[CRANK_RADIUS, CRANK_RATIO, CRANK_SPEED],
        build: slider_crank,
    },
    Preset {
        name: "pile",
        // (No longer than this: a line more pushed the pile's last controls past a phone's
        // screen below the view, which the page test checks; the `shape` parameter's label
        // names the boxes.)
        description: "N spheres (r = 5 cm, 0.524 kg, μ = 1) dropped into an open box 0.7 m wide, 25 to a layer (issue 11's benchmark): one island of thousands of contacts; NSGA keeps every gap ≥ 0 to rounding (or to gap).",
        parameters: PILE_PARAMETERS,
        build: crate::presets_pile::pile,
    },
    Preset {
        name: "pile-2d",
        description: "The planar pile: N disks (r = 5 cm, 0.524 kg, μ = 1) dropped 25 to a row into a 2-D box 3.1 m wide.",
        parameters: PILE_PARAMETERS,
        build: crate::presets_pile::pile_2d,
    },
    Preset {
        name: "cantilever",
        description: "A steel cantilever (10 mm square, co-rotational beam elements) under a tip load P applied suddenly: it vibrates about its static deflection, which follows PL³/(3EI) for small loads and the elastica beyond; its modes give (βₙL)²√(EI/(ρAL⁴)) (within 0.1 % at 40 elements).",
        parameters: &[
            p("L", "length", "m", 0.2, 3.0, 1.0),
            p("P", "tip load", "N", 0.0, 2000.0, 50.0),
            Parameter {
                step: 1.0,
                ..p("n", "elements", "1", 2.0, 60.0, 20.0)
            },
        ],
        build: crate::presets_beams::cantilever,
    },
    Preset {
        name: "spatial-cantilever",
        description: "A steel cantilever in space (co-rotational beam elements, rotations on SO(3)), 10 mm wide and 20 mm high, under a tip load P at φ from the vertical and a torque T about its axis, applied suddenly: the tip orbits its static deflection (PL³/(3EI) about each section axis, TL/(GJ) in twist), tracing a Lissajous figure of its two flexural frequencies, 2 : 1.",
        parameters: &[
            p("L", "length", "m", 0.3, 3.0, 1.0),
            p("P", "tip load", "N", 0.0, 500.0, 20.0),
            p(
                "phi",
                "load's angle from the vertical",
                "deg",
                0.0,
                90.0,
                30.0,
            ),
            p("T", "tip torque about the axis", "N m", 0.0, 50.0, 0.2),
            Parameter {
                step: 1.0,
                ..p("n", "elements", "1", 2.0, 24.0, 6.0)
            },
        ],
        build: crate::presets_spatial_beams::spatial_cantilever,
    },
    Preset {
        name: "elastic-rod-impact",
        description: "A free elastic rod (1 m, c = √(E/ρ) = 1000 m/s) hits a rigid wall along its axis at v₀: the wall pushes with ρcAv₀ for 2L/c and the rod leaves at −v₀ (the nonsmooth generalized-α benchmark; h = one element's transit time).",
        parameters: &[
            p("v0", "impact speed", "m/s", 0.1, 10.0, 1.0),
            Parameter {
                step: 1.0,
                ..p("n", "elements", "1", 10.0, 300.0, 100.0)
            },
        ],
        build: crate::presets_beams::elastic_rod_impact,
    },
    Preset {
        name: "flexible-slider-crank",
        description: "The slider-crank with an elastic connecting rod (a co-rotational beam pinned to the crank and the slider at its end nodes): the joints held exactly every step, the slider near the rigid kinematics as EI and EA grow, and the drive's work ∫τΩ dt balancing the energy gained.",
        parameters: &[
            CRANK_RADIUS,
            CRANK_RATIO,
            Parameter {
                default: 3.0 * std::f64::consts::TAU,
                ..CRANK_SPEED
            },
            p("E", "rod's Young's modulus", "Pa", 1e7, 2.1e11, 1e9),
            Parameter {
                step: 1.0,
                ..p("n", "rod elements", "1", 1.0, 40.0, 8.0)
            },
        ],
        build: crate::presets_beams::flexible_slider_crank,
    },
    Preset {
        name: "flexible-bar-on-supports",
        description: "Seed 003 with an elastic bar: a uniform bar (length 2a, mass m) on two penalty supports at its ends; its coupled heave and rocking frequencies tend to the rigid bar's √(2k/m) = 316.2 and √(6k/m) = 547.7 rad/s as EI grows, and its first bending mode to the free–free 4.7300² √(EI/(ρAL⁴)).",
        parameters: &[
            p("m", "bar mass", "kg", 0.01, 100.0, 2.0),
            p("a", "half length (supports at ±a)", "m", 0.02, 1.0, 0.1),
            p("k", "support stiffness", "N/m", 1e3, 1e8, 1e5),
            p("E", "Young's modulus", "Pa", 1e8, 1e13, 2.1e11),
            Parameter {
                step: 1.0,
                ..p("n", "elements", "1", 2.0, 40.0, 8.0)
            },
            p("amplitude", "initial lift or tilt", "m", -1e-3, 1e-3, 1e-5),
            Parameter {
                step: 1.0,
                ..p("kind", "0 lift, 1 tilt", "1", 0.0, 1.0, 0.0)
            },
        ],
        build: crate::presets_beams::flexible_bar,
    },
    Preset {
        name: "sphere-on-bridge",
        description: "A ball (a disk in the plane) rolling slowly across a simply supported steel bridge 20 mm × 10 mm on a compliant contact, implicit penalty steps: the midspan deflection follows the influence line P x(3L² − 4x²)/(48EI) + 5qL⁴/(384EI), PL³/(48EI) with the ball at midspan, and the loaded bridge's first coupled mode (K_beam + Jᵀ k J) φ = ω² M φ the beam's modal series with the ball on its contact spring.",
        parameters: &[
            p("m", "ball mass", "kg", 0.1, 100.0, 10.0),
            p("R", "ball radius", "m", 0.01, 0.2, 0.05),
            p("v0", "rolling speed", "m/s", 0.0, 2.0, 0.1),
            p("x0", "start along the bridge", "m", 0.0, 5.0, 0.05),
            p("L", "span", "m", 0.2, 5.0, 1.0),
            p("E", "Young's modulus", "Pa", 1e9, 1e12, 2.1e11),
            Parameter {
                step: 2.0,
                ..p("n", "elements (even)", "1", 2.0, 100.0, 20.0)
            },
            p("k", "contact stiffness", "N/m", 1e5, 1e10, 1e8),
            p("mu", "friction coefficient", "1", 0.0, 1.0, 0.5),
        ],
        build: crate::presets_beams::sphere_on_bridge,
    },
];

/// The slider-crank's crank radius, rod length ratio and crank speed (rigid and flexible).
const CRANK_RADIUS: Parameter = p("r", "crank radius", "m", 0.02, 1.0, 0.1);
const CRANK_RATIO: Parameter = p(
    "ratio",
    "rod length over crank radius l/r",
    "1",
    1.2,
    10.0,
    3.0,
);
const CRANK_SPEED: Parameter = p(
    "omega",
    "crank speed Ω",
    "rad/s",
    -50.0,
    50.0,
    std::f64::consts::TAU,
);

/// The penalty stiffness k of a rigid scene, for the penalty steppers (the others ignore it,
/// and the page shows it under those two alone).
const PENALTY_STIFFNESS: Parameter = Parameter {
    steppers: &["penalty-explicit", "penalty-implicit"],
    ..p(
        "k",
        "penalty stiffness (penalty steppers)",
        "N/m",
        1e3,
        1e8,
        1e5,
    )
};

const PILE_PARAMETERS: &[Parameter] = &[
    Parameter {
        step: 1.0,
        // Up to issue 11's thousand. A step of the pile of 1000 takes from tens to hundreds
        // of milliseconds while its layers land; the playground's loop then takes one step a
        // frame (it never spends more than its budget catching up), says "slower than real
        // time" and shows the step time, so the page stays live.
        ..p("N", "number of bodies", "1", 1.0, 1000.0, 10.0)
    },
    p("mu", "friction coefficient", "1", 0.0, 2.0, 1.0),
    p("e", "coefficient of restitution", "1", 0.0, 1.0, 0.0),
    p("rho", "rolling resistance length", "m", 0.0, 0.01, 0.0),
    p("gamma", "spinning resistance length", "m", 0.0, 0.01, 0.0),
    // Penalty steppers only. At the default and h = 1/240 s two spheres pressed together
    // alone have h√(2k/m) = 2.57 > 2, so central difference is unstable (the pile of 30
    // diverges at step 61); at 2e4 N/m the bound on h·ω_max stays below 1.2 through that
    // pile's first 2 s (docs/modes.md).
    PENALTY_STIFFNESS,
    choice(
        "sleep",
        "sleeping: 0 off, 1 islands at rest sleep until touched",
        1.0,
        0.0,
    ),
    // The issue's "pile of boxes": cubes (squares in the plane) of 8 cm and 0.512 kg, each
    // turned by up to 0.2 rad, in place of the spheres (disks); the benchmark runs spheres.
    // (A label of one line on a phone: the pile's controls must stay within a screen of the
    // view there, which the page test checks.)
    choice("shape", "bodies: 0 round, 1 boxes of 8 cm", 1.0, 0.0),
    Parameter {
        step: 1.0,
        steppers: &["moreau-jean"],
        // 0: the impulses solved to the tolerance, as the benchmark runs them. 1 to 50:
        // Moreau–Jean's impulses get a fixed budget of that many sweeps a step
        // (`stepper.velocity_sweeps`), as an engine of fixed iterations takes (Rapier: 4),
        // for a large pile at interactive speed; the steps that stop short are counted
        // unconverged. NSGA ignores it.
        ..p(
            "sweeps",
            "Moreau–Jean's impulse sweeps a step: 0 solved to the tolerance, else a fixed budget (Rapier: 4)",
            "1",
            0.0,
            50.0,
            0.0,
        )
    },
    // The least, 1e-14 m: NSGA's gaps resolved to rounding, as the benchmark runs them. Up to
    // the issue's 1e-6 m: the position passes end once every gap is within it
    // (`stepper.gap_tolerance`; a logarithmic slider on the page). The other steppers have
    // no position level.
    Parameter {
        steppers: &["nsga"],
        ..p(
            "gap",
            "NSGA's gap tolerance, the deepest gap a step may leave (1e-14: resolved to rounding)",
            "m",
            crate::integrators::nsga::EXACT_GAP,
            1e-6,
            crate::integrators::nsga::EXACT_GAP,
        )
    },
    // The relative residual the contact laws are solved to (`stepper.newton_tolerance`):
    // 1e-8, as the benchmark runs them, up to the 1e-2 a scene allows (a logarithmic slider
    // on the page). The residual is measured against the problem's largest impulse, at the
    // pile's bottom, so a loose tolerance meets the upper layers' laws far less closely than
    // its number says: at 1e-3 the piles of 1000 cost 0.26 to 0.85 times their steps at 1e-8
    // and end moving at 6 to 13 cm/s, not millimetres (docs/benchmarks.md, thirty-seventh
    // sitting). The penalty steppers solve no contact laws.
    Parameter {
        steppers: &["nsga", "moreau-jean"],
        ..p(
            "tol",
            "the contact laws' tolerance, a relative residual; 1e-8 as the benchmark",
            "1",
            1e-10,
            1e-2,
            1e-8,
        )
    },
];

const BAR_PARAMETERS: &[Parameter] = &[
    p("m", "bar mass", "kg", 0.01, 100.0, 2.0),
    p("I", "bar moment of inertia", "kg·m²", 1e-5, 10.0, 0.005),
    p("a", "support half spacing", "m", 0.01, 1.0, 0.1),
    p("k", "stiffness per support", "N/m", 1e3, 1e8, 1e5),
    p(
        "amplitude",
        "perturbation of the gap",
        "m",
        -1e-3,
        1e-3,
        1e-5,
    ),
    choice(
        "kind",
        "perturbation: 0 symmetric, 1 antisymmetric, 2 one support",
        2.0,
        0.0,
    ),
];

fn floor() -> BodySpec {
    BodySpec {
        name: "floor".into(),
        fixed: true,
        mass: None,
        inertia: None,
        position: [0.0, 0.0],
        angle: 0.0,
        velocity: [0.0, 0.0],
        angular_velocity: 0.0,
        shape: ShapeSpec::HalfPlane,
        contact_points: vec![],
    }
}

fn moving(name: &str, mass: f64, position: [f64; 2], shape: ShapeSpec) -> BodySpec {
    BodySpec {
        name: name.into(),
        fixed: false,
        mass: Some(mass),
        inertia: None,
        position,
        angle: 0.0,
        velocity: [0.0, 0.0],
        angular_velocity: 0.0,
        shape,
        contact_points: vec![],
    }
}

fn scene(name: &str, gravity: f64, bodies: Vec<BodySpec>, forces: Vec<ForceSpec>) -> Scene {
    Scene {
        beams: Vec::new(),
        name: name.into(),
        gravity: Some(vec![0.0, -gravity]),
        bodies,
        spatial_bodies: vec![],
        spatial_beams: vec![],
        forces,
        joints: vec![],
        material: Default::default(),
        stepper: StepperSpec::default(),
        contact_margin: 1.0,
        duration: 1.0,
    }
}

/// A 0.2 m × 0.1 m block standing on one support at the middle of its base (a load cell).
fn block(mass: f64) -> BodySpec {
    let mut b = moving(
        "block",
        mass,
        [0.0, 0.05],
        ShapeSpec::Box {
            width: 0.2,
            height: 0.1,
        },
    );
    b.contact_points = vec![[0.0, -0.05]];
    b
}

fn block_pull(v: &Values) -> Scene {
    let mut s = scene(
        "block-pull",
        v.get("g"),
        vec![floor(), block(v.get("m"))],
        vec![ForceSpec::Constant {
            body: "block".into(),
            force: vec![0.0, v.get("u")],
            torque: TorqueSpec::default(),
        }],
    );
    s.material.stiffness = v.get("k");
    s
}

fn coupled_pair(v: &Values) -> Scene {
    let a = v.get("a");
    let mut bar = moving(
        "bar",
        v.get("m"),
        [0.0, 0.01],
        ShapeSpec::Box {
            width: 2.0 * a,
            height: 0.02,
        },
    );
    bar.inertia = Some(v.get("I"));
    bar.contact_points = vec![[-a, -0.01], [a, -0.01]];
    scene("coupled-pair", v.get("g"), vec![floor(), bar], vec![])
}

fn penalty_block(v: &Values) -> Scene {
    let mut s = scene(
        "penalty-block",
        9.81,
        vec![floor(), block(v.get("m"))],
        vec![ForceSpec::Constant {
            body: "block".into(),
            force: vec![0.0, v.get("u")],
            torque: TorqueSpec::default(),
        }],
    );
    s.material.stiffness = v.get("k");
    s.material.damping = v.get("c");
    s.stepper.kind = "penalty-explicit".into();
    s.stepper.dt = 1e-4;
    s
}

fn bouncing_ball(v: &Values) -> Scene {
    let r = v.get("R");
    let mut s = scene(
        "bouncing-ball",
        9.81,
        vec![
            floor(),
            moving(
                "ball",
                v.get("m"),
                [0.0, v.get("height") + r],
                ShapeSpec::Disk { radius: r },
            ),
        ],
        vec![],
    );
    s.material.restitution = v.get("e");
    s.contact_margin = v.get("height") + 1.0;
    s.duration = 3.0;
    s
}

fn load_cell(v: &Values) -> Scene {
    let mut s = scene(
        "load-cell",
        v.get("g"),
        vec![floor(), block(v.get("m"))],
        vec![ForceSpec::Ramp {
            body: "block".into(),
            rate: vec![0.0, v.get("rate")],
            start: 0.0,
            // Capped at 1.5 mg (reached after the run's 1.25 mg/rate): a lifted block then
            // rises at g/2 instead of ever faster, so long runs stay in range.
            max: Some((1.5 * v.get("m") * v.get("g")).max(v.get("rate"))),
        }],
    );
    s.duration = 1.25 * v.get("m") * v.get("g") / v.get("rate");
    s
}

fn stacked_boxes(v: &Values) -> Scene {
    let mut lower = moving(
        "lower",
        v.get("m1"),
        [0.0, 0.05],
        ShapeSpec::Box {
            width: 0.2,
            height: 0.1,
        },
    );
    lower.contact_points = vec![[0.0, -0.05]];
    let mut upper = moving(
        "upper",
        v.get("m2"),
        [0.0, 0.15],
        ShapeSpec::Box {
            width: 0.2,
            height: 0.1,
        },
    );
    upper.contact_points = vec![[0.0, -0.05]];
    let mut s = scene("stacked-boxes", 9.81, vec![floor(), lower, upper], vec![]);
    s.contact_margin = 0.01;
    s
}

fn disk_over_disk(v: &Values) -> Scene {
    let (big, small, phi) = (v.get("R"), v.get("r"), v.get("phi0"));
    let mut support = moving("support", 1.0, [0.0, 0.0], ShapeSpec::Disk { radius: big });
    support.fixed = true;
    support.mass = None;
    let reach = big + small;
    let slider = moving(
        "slider",
        1.0,
        [reach * libm::sin(phi), reach * libm::cos(phi)],
        ShapeSpec::Disk { radius: small },
    );
    let mut s = scene("disk-over-disk", 9.81, vec![support, slider], vec![]);
    let beta = v.get("baumgarte");
    if beta > 0.0 {
        s.stepper.baumgarte = Some([beta, beta]);
    }
    s.contact_margin = 0.5;
    s.duration = 1.5;
    s
}

/// Plots the playground opens with for a preset whose contact plots would stay empty (a
/// mechanism, a beam): entries `Y~X` of quantity names as in the trace's CSV header, with
/// `{tip}` for a beam's last node ([`crate::Simulation::suggested_plots`] fills it in).
pub fn suggested_plots(preset: &str) -> &'static [&'static str] {
    match preset {
        "pendulum" => &[
            "rod.theta [rad]~t [s]",
            "rod.omega [rad/s]~rod.theta [rad]",
            "pin.Ry [N]~t [s]",
        ],
        "slider-crank" => &["slider.x [m]~t [s]", "drive.torque [N m]~t [s]"],
        "sphere-mill" => &[
            "drive.torque [N m]~t [s]",
            "sphere/floor#0.normal [N]~t [s]",
        ],
        "flexible-slider-crank" => &[
            "slider.x [m]~t [s]",
            "drive.torque [N m]~t [s]",
            "rod.n{half}.y [m]~t [s]",
        ],
        // `{tip}` stands for the beam's last node (n20 for 20 elements), `{last}` for its
        // number (the feature of its contact).
        "cantilever" => &[
            "beam.{tip}.y [m]~t [s]",
            "beam.{tip}.vy [m/s]~beam.{tip}.y [m]",
        ],
        "flexible-bar-on-supports" => &["bar.n0.y [m]~t [s]", "bar.{tip}.y [m]~bar.n0.y [m]"],
        "spatial-cantilever" => &[
            "beam.{tip}.z [m]~beam.{tip}.y [m]",
            "beam.{tip}.z [m]~t [s]",
        ],
        "sphere-on-bridge" => &[
            "bridge.n{half}.y [m]~ball.x [m]",
            "ball/bridge#0.normal [N]~t [s]",
        ],
        "elastic-rod-impact" => &[
            "rod/wall#{last}.normal [N]~t [s]",
            "rod.{tip}.vx [m/s]~t [s]",
        ],
        _ => &[],
    }
}

/// Thickness of the pendulum rod as a fraction of its length.
pub const ROD_THICKNESS: f64 = 0.04;

/// A rod of length L and thickness 0.04 L hanging from a pin at the origin (a small fixed disk
/// marks the pivot), released at rest at θ₀ from the vertical. The rod's body x-axis runs
/// from the pin to the tip.
fn pendulum(v: &Values) -> Scene {
    let (theta, length, mass) = (v.get("theta0"), v.get("L"), v.get("m"));
    let mut pivot = moving(
        "pivot",
        1.0,
        [0.0, 0.0],
        ShapeSpec::Disk {
            radius: 0.03 * length,
        },
    );
    pivot.fixed = true;
    pivot.mass = None;
    let direction = [libm::sin(theta), -libm::cos(theta)];
    let mut rod = moving(
        "rod",
        mass,
        [0.5 * length * direction[0], 0.5 * length * direction[1]],
        ShapeSpec::Box {
            width: length,
            height: ROD_THICKNESS * length,
        },
    );
    rod.angle = theta - std::f64::consts::FRAC_PI_2;
    let mut s = scene("pendulum", 9.81, vec![pivot, rod], vec![]);
    s.joints = vec![crate::scene::JointSpec {
        name: "pin".into(),
        kind: crate::scene_joints::JointType::Revolute,
        bodies: ["rod".into(), "pivot".into()],
        anchor: vec![0.0, 0.0],
        axis: None,
        anchor_b: None,
        drive_speed: None,
        drive_oscillation: None,
    }];
    s.stepper.kind = "nsga".into();
    // NSGA carries the pin's reaction in its predictor: the period is second order in h,
    // within 3e-6 at 1 ms from θ₀ = 1.5 (docs/joints.md).
    s.stepper.dt = 1e-3;
    s.contact_margin = 0.01 * length;
    s.duration = 5.0;
    s
}

/// The slider's position and velocity for crank angle φ and speed Ω (crank radius r, rod l):
/// x = r cos φ + √(l² − r² sin² φ), ẋ = −r Ω sin φ (1 + r cos φ / √(l² − r² sin² φ)).
pub fn slider_kinematics(r: f64, l: f64, phi: f64, omega: f64) -> (f64, f64) {
    let (s, c) = (libm::sin(phi), libm::cos(phi));
    let root = (l * l - r * r * s * s).sqrt();
    (r * c + root, -r * omega * s * (1.0 + r * c / root))
}

/// A crank of radius r turning about the origin at Ω from φ = 0.3 rad, a rod of length
/// l = ratio·r from the crank pin to the slider's pin, and a slider on the x axis.
fn slider_crank(v: &Values) -> Scene {
    slider_crank_with(v, None)
}

/// The slider-crank with a rigid rod, or with a flexible one: `flexible` = (E, elements)
/// makes the rod a beam of the same length, mass (0.5 kg) and square section as thick as the
/// crank, pinned at its end nodes.
pub(crate) fn slider_crank_with(v: &Values, flexible: Option<(f64, usize)>) -> Scene {
    let (r, omega) = (v.get("r"), v.get("omega"));
    let l = v.get("ratio") * r;
    let phi = SLIDER_CRANK_PHI0;
    let (x_slider, slider_speed) = slider_kinematics(r, l, phi, omega);
    let pin = [r * libm::cos(phi), r * libm::sin(phi)];
    // Velocities consistent with the joints: the crank pin moves at r Ω (−sin φ, cos φ), the
    // rod (angle β, sin β = −r sin φ / l) turns at β̇ = −r Ω cos φ / (l cos β).
    let pin_velocity = [-r * omega * libm::sin(phi), r * omega * libm::cos(phi)];
    let thickness = 0.15 * r;
    // The frame carries the crank's bearing and the slider's guide. It is the ground below
    // the mechanism (a half-plane 1.5 r down, out of reach): a disk at the bearing would be
    // hit by the rod, which sweeps through the bearing at φ = π.
    let mut frame = floor();
    frame.name = "frame".into();
    frame.position = [0.0, -1.5 * r];
    let mut crank = moving(
        "crank",
        0.5,
        [0.5 * pin[0], 0.5 * pin[1]],
        ShapeSpec::Box {
            width: r,
            height: thickness,
        },
    );
    crank.angle = phi;
    crank.angular_velocity = omega;
    crank.velocity = [0.5 * pin_velocity[0], 0.5 * pin_velocity[1]];
    let mut rod = moving(
        "rod",
        0.5,
        [0.5 * (pin[0] + x_slider), 0.5 * pin[1]],
        ShapeSpec::Box {
            width: l,
            height: thickness,
        },
    );
    rod.angle = libm::atan2(-pin[1], x_slider - pin[0]);
    rod.angular_velocity = -r * omega * libm::cos(phi) / (l * libm::cos(rod.angle));
    rod.velocity = [
        0.5 * (pin_velocity[0] + slider_speed),
        0.5 * pin_velocity[1],
    ];
    let beam = flexible.map(|(modulus, elements)| {
        let side = thickness;
        let length = (x_slider - pin[0]).hypot(pin[1]);
        crate::scene::BeamSpec {
            name: "rod".into(),
            start: pin,
            end: [x_slider, 0.0],
            elements,
            youngs_modulus: modulus,
            density: rod.mass.unwrap_or(0.5) / (side * side * length),
            width: side,
            height: side,
            supports: Default::default(),
            mass: Default::default(),
            damping: None,
            // The rigid rod's motion about its start, the crank pin.
            velocity: pin_velocity,
            angular_velocity: rod.angular_velocity,
        }
    });
    let mut slider = moving(
        "slider",
        1.0,
        [x_slider, 0.0],
        ShapeSpec::Box {
            width: 0.6 * r,
            height: 0.4 * r,
        },
    );
    slider.velocity = [slider_speed, 0.0];
    let joint = |name: &str, kind, bodies: [&str; 2], anchor: [f64; 2]| crate::scene::JointSpec {
        name: name.into(),
        kind,
        bodies: bodies.map(String::from),
        anchor: anchor.to_vec(),
        axis: None,
        anchor_b: None,
        drive_speed: None,
        drive_oscillation: None,
    };
    use crate::scene_joints::JointType::{Prismatic, Revolute};
    let mut drive = joint("drive", Revolute, ["crank", "frame"], [0.0, 0.0]);
    drive.drive_speed = Some(omega);
    let mut guide = joint("guide", Prismatic, ["slider", "frame"], [x_slider, 0.0]);
    guide.axis = Some(vec![1.0, 0.0]);
    let mut s = match beam {
        None => scene(
            "slider-crank",
            9.81,
            vec![frame, crank, rod, slider],
            vec![],
        ),
        Some(beam) => {
            let mut s = scene(
                "flexible-slider-crank",
                9.81,
                vec![frame, crank, slider],
                vec![],
            );
            s.beams.push(beam);
            s
        }
    };
    s.joints = vec![
        drive,
        joint("crank_pin", Revolute, ["rod", "crank"], pin),
        joint("wrist_pin", Revolute, ["slider", "rod"], [x_slider, 0.0]),
        guide,
    ];
    s.stepper.kind = "nsga".into();
    s.stepper.dt = 1e-3;
    s.contact_margin = 0.01 * r;
    s.duration = 3.0;
    s
}

/// The slider-crank's crank angle at t = 0, rad.
pub const SLIDER_CRANK_PHI0: f64 = 0.3;

/// A bar resting on penalty supports at body-fixed x = `supports`, placed at its static
/// overlap under gravity and then perturbed by `amplitude` in the chosen pattern.
fn bar_on_supports(name: &str, v: &Values, supports: &[f64]) -> Scene {
    let (m, a, k, amp) = (v.get("m"), v.get("a"), v.get("k"), v.get("amplitude"));
    let thickness = 0.02;
    // Equal supports symmetric about the centre share the weight equally.
    let preload_gap = -m * 9.81 / (k * supports.len() as f64);
    let (dy, dtheta) = match v.get("kind").round() as i64 {
        1 => (0.0, amp / a),               // antisymmetric: d(±a) changes by ±amp
        2 => (amp / 2.0, amp / (2.0 * a)), // one support (+a) by amp, the other unchanged
        _ => (amp, 0.0),                   // symmetric: every gap changes by amp
    };
    let mut bar = moving(
        "bar",
        m,
        [0.0, 0.5 * thickness + preload_gap + dy],
        ShapeSpec::Box {
            width: 2.0 * a + 0.06,
            height: thickness,
        },
    );
    bar.angle = dtheta;
    bar.inertia = Some(v.get("I"));
    bar.contact_points = supports
        .iter()
        .map(|&x| [x * a, -0.5 * thickness])
        .collect();
    let mut s = scene(name, 9.81, vec![floor(), bar], vec![]);
    s.material.stiffness = k;
    s.material.damping = 0.0;
    s.stepper.kind = "penalty-explicit".into();
    s.stepper.dt = 1e-4;
    s.contact_margin = 0.01;
    s.duration = 0.2;
    s
}

fn rocking_bar(v: &Values) -> Scene {
    bar_on_supports("rocking-bar", v, &[-1.0, 1.0])
}

fn three_support_bar(v: &Values) -> Scene {
    bar_on_supports("three-support-bar", v, &[-1.0, 0.0, 1.0])
}

fn plane(angle_about_y: f64) -> SpatialBodySpec {
    let half = 0.5 * angle_about_y;
    SpatialBodySpec {
        name: "plane".into(),
        fixed: true,
        mass: None,
        inertia: None,
        position: [0.0, 0.0, 0.0],
        orientation: [libm::cos(half), 0.0, libm::sin(half), 0.0],
        velocity: [0.0; 3],
        angular_velocity: [0.0; 3],
        shape: SpatialShapeSpec::Plane,
        contact_points: vec![],
    }
}

fn sphere(name: &str, m: f64, r: f64, position: [f64; 3]) -> SpatialBodySpec {
    SpatialBodySpec {
        name: name.into(),
        fixed: false,
        mass: Some(m),
        inertia: None,
        position,
        orientation: [1.0, 0.0, 0.0, 0.0],
        velocity: [0.0; 3],
        angular_velocity: [0.0; 3],
        shape: SpatialShapeSpec::Sphere { radius: r },
        contact_points: vec![],
    }
}

fn spatial_scene(name: &str, bodies: Vec<SpatialBodySpec>, duration: f64) -> Scene {
    let mut s = scene(name, 9.81, vec![], vec![]);
    s.gravity = None;
    s.spatial_bodies = bodies;
    s.stepper.kind = "nsga".into();
    s.stepper.dt = 1e-3;
    s.contact_margin = 0.05;
    s.duration = duration;
    s
}

fn sphere_slide(v: &Values) -> Scene {
    let r = v.get("R");
    let mut ball = sphere("sphere", v.get("m"), r, [0.0, 0.0, r]);
    ball.velocity = [v.get("v0"), 0.0, 0.0];
    ball.angular_velocity = [0.0, v.get("omega0"), 0.0];
    let mut s = spatial_scene("sphere-slide", vec![plane(0.0), ball], 1.0);
    s.material.friction = v.get("mu");
    s
}

fn sphere_rolling_resistance(v: &Values) -> Scene {
    let r = v.get("R");
    let mut ball = sphere("sphere", v.get("m"), r, [0.0, 0.0, r]);
    ball.velocity = [v.get("v0"), 0.0, 0.0];
    ball.angular_velocity = [0.0, v.get("v0") / r, 0.0];
    let mut s = spatial_scene("sphere-rolling-resistance", vec![plane(0.0), ball], 9.0);
    s.material.friction = v.get("mu");
    s.material.rolling_resistance = v.get("rho");
    s
}

fn sphere_spin(v: &Values) -> Scene {
    let r = v.get("R");
    let mut ball = sphere("sphere", v.get("m"), r, [0.0, 0.0, r]);
    ball.angular_velocity = [0.0, 0.0, v.get("omega0")];
    let mut s = spatial_scene("sphere-spin", vec![plane(0.0), ball], 10.0);
    s.material.friction = v.get("mu");
    s.material.spinning_resistance = v.get("gamma");
    s
}

fn sphere_incline(v: &Values) -> Scene {
    let r = v.get("R");
    let theta = v.get("theta").to_radians();
    // The plane turned by θ about y: normal (sin θ, 0, cos θ), downhill along +x.
    let n = [libm::sin(theta), 0.0, libm::cos(theta)];
    let ball = sphere("sphere", v.get("m"), r, [r * n[0], 0.0, r * n[2]]);
    let mut s = spatial_scene("sphere-incline", vec![plane(theta), ball], 2.0);
    s.material.friction = v.get("mu");
    s.material.rolling_resistance = v.get("rho");
    s
}

fn bouncing_sphere(v: &Values) -> Scene {
    let r = v.get("R");
    let mut ball = sphere("sphere", v.get("m"), r, [0.0, 0.0, r + v.get("height")]);
    ball.angular_velocity = [0.0, v.get("omega0"), 0.0];
    let mut s = spatial_scene("bouncing-sphere", vec![plane(0.0), ball], 3.0);
    s.material.friction = v.get("mu");
    s.material.restitution = v.get("e");
    s.contact_margin = v.get("height") + 0.5;
    s
}

fn two_spheres(v: &Values) -> Scene {
    let (m, r) = (v.get("m"), v.get("R"));
    let mut first = sphere("first", m, r, [0.0, 0.0, r]);
    first.velocity = [v.get("v0"), 0.0, 0.0];
    first.angular_velocity = [0.0, v.get("v0") / r, 0.0];
    let second = sphere("second", m, r, [6.0 * r, 0.0, r]);
    let mut s = spatial_scene("two-spheres", vec![plane(0.0), first, second], 2.0);
    s.material.friction = v.get("mu");
    s.material.restitution = v.get("e");
    s.contact_margin = 10.0 * r;
    s
}
