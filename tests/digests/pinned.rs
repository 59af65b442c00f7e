// Pinned trace digests of fixed runs (included by tests/determinism.rs and tests/wasm_api/cases.rs).
//
// Each entry: preset (default parameters), stepper ("" = the preset's own), steps, and the
// 16-hex digest of (t, q, v) after every step. Native, Node and Chromium must all print these.
// A change here must be deliberate: say in the commit which arithmetic changed and why.

/// (preset, stepper, steps, digest)
const PINNED_DIGESTS: [(&str, &str, u32, &str); 10] = [
    ("block-pull", "", 500, "600d32f7e1075277"),
    ("bouncing-ball", "", 3000, "51d6228a6cc28b42"),
    ("penalty-block", "penalty-implicit", 2000, "8f1d8d6c83d751cd"),
    ("rocking-bar", "", 1000, "abba67c3f9546658"),
    ("disk-over-disk", "moreau-jean", 800, "040c3b1742e99e9e"),
    ("stacked-boxes", "nsga", 300, "569e9ab34fe579ff"),
    ("sphere-slide", "", 600, "4c555426db3d6cba"),
    ("sphere-rolling-resistance", "moreau-jean", 600, "a05be9e618fa0335"),
    ("two-spheres", "", 600, "7d8f57841b65c853"),
    ("bouncing-sphere", "", 1500, "3eae650f636838ae"),
];

/// Piles of 30, one island past the dense limit, so the block-sparse solver (its sweeps and
/// Newton–Krylov rounds) decides every step: (preset, N, stepper, steps, digest). Any change
/// to that solver's settings moves them, as it moves the piles' trajectories.
const PINNED_PILE_DIGESTS: [(&str, f64, &str, u32, &str); 2] = [
    ("pile", 30.0, "nsga", 240, "1ba30cb0cfdd6e6c"),
    ("pile-2d", 30.0, "moreau-jean", 240, "348e57d24b719a69"),
];
