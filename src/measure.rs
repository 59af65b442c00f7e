//! Frequencies and growth measured from a simulated trace, to set beside the modal prediction.
//!
//! The run starts from the scene's state; the contacts compressed at the start fix the modes
//! (seed 003's check: preload, perturb, measure). Each mode's coordinate in the trace is the
//! K-weighted projection cⱼ(t) = Σᵢ ξⱼᵢ kᵢ (dᵢ(t) − dᵢ*) of the gap deviations from the
//! static equilibrium d*, and its frequency comes from the zero crossings of cⱼ
//! ([`crate::modes::measure_frequency`]). Growth compares the largest gap deviation late in
//! the run with the largest early on: about 1 for a stable step, huge past the limit.

use serde::Serialize;

use crate::Simulation;
use crate::contact::{Contact, ContactKey};
use crate::error::{Error, Result};

/// Most steps a measured run records (each keeps one gap per contact).
pub const MAX_STEPS: usize = 10_000_000;
use crate::modes::{self, measure_frequency};

/// What one run showed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunMeasurement {
    /// Predicted angular frequencies at the start, rad/s.
    pub omega: Vec<f64>,
    /// Frequencies measured from the trace, one per predicted mode (None if not excited), rad/s.
    pub measured_omega: Vec<Option<f64>>,
    /// Fewest and most oscillating modes seen over the run (changes when a contact opens).
    pub frequency_count: [usize; 2],
    /// Largest h·ω_max over the run (the central-difference limit is 2).
    pub max_h_omega: f64,
    /// Largest gap deviation in the last tenth of the run over that in the first tenth.
    pub growth: f64,
    /// True when a contact compressed at the start opened during the run.
    pub opened: bool,
}

/// Runs `sim` for `duration` seconds and measures its contact modes.
pub fn measure_run(sim: &mut Simulation, duration: f64) -> Result<RunMeasurement> {
    let start: Vec<Contact> = sim.compressed_contacts();
    let keys: Vec<ContactKey> = start.iter().map(|c| c.key).collect();
    let refs: Vec<&Contact> = start.iter().collect();
    let k = vec![sim.contact_settings().material.stiffness; refs.len()];
    let analysis = modes::analyse(sim.system(), &refs, &k);
    let (_, equilibrium) = modes::static_equilibrium(sim.system(), &refs, &k);

    let steps = sim.steps_for(duration);
    if steps > MAX_STEPS {
        return Err(Error::field(
            "duration",
            format!(
                "a measured run keeps every step; at most {MAX_STEPS} steps, got {steps} (lower the duration or raise dt)"
            ),
        ));
    }
    let mut times = Vec::new();
    let mut deviations: Vec<Vec<f64>> = Vec::new();
    let mut count = [usize::MAX, 0];
    let mut max_h_omega = 0.0f64;
    let mut opened = false;
    for _ in 0..steps {
        sim.step()?;
        let report = sim.last_report();
        let d: Vec<f64> = keys
            .iter()
            .zip(&equilibrium)
            .map(|(key, eq)| {
                let gap = report
                    .contacts
                    .iter()
                    .find(|c| c.key == *key)
                    .map(|c| c.gap)
                    .unwrap_or(f64::INFINITY);
                opened |= gap >= 0.0;
                gap - eq
            })
            .collect();
        let now = sim.modes();
        count[0] = count[0].min(now.omega.len());
        count[1] = count[1].max(now.omega.len());
        max_h_omega = max_h_omega.max(sim.time_step() * now.omega_max());
        times.push(sim.time());
        deviations.push(d);
    }
    if count[0] == usize::MAX {
        count[0] = 0;
    }
    let coordinates: Vec<Vec<f64>> = analysis
        .mode_shapes
        .iter()
        .map(|xi| {
            deviations
                .iter()
                .map(|d| xi.iter().zip(d).zip(&k).map(|((x, d), k)| x * k * d).sum())
                .collect()
        })
        .collect();
    let amplitude = |c: &Vec<f64>| c.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let strongest = coordinates.iter().map(amplitude).fold(0.0f64, f64::max);
    let measured_omega = coordinates
        .iter()
        .map(|c| {
            if !c.iter().all(|x| x.is_finite()) || amplitude(c) < 1e-3 * strongest {
                None
            } else {
                measure_frequency(&times, c)
            }
        })
        .collect();
    let envelope = |range: &[Vec<f64>]| {
        range
            .iter()
            .flat_map(|d| d.iter())
            .fold(0.0f64, |m, x| m.max(x.abs()))
    };
    let tenth = (deviations.len() / 10).max(1);
    let early = envelope(&deviations[..tenth.min(deviations.len())]);
    let late = envelope(&deviations[deviations.len().saturating_sub(tenth)..]);
    Ok(RunMeasurement {
        omega: analysis.omega,
        measured_omega,
        frequency_count: count,
        max_h_omega,
        growth: if early > 0.0 { late / early } else { f64::NAN },
        opened,
    })
}
