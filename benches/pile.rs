//! `cargo bench --bench pile`: issue 11's pile benchmark natively, the same runner as `contactlab bench-pile` (its modules compiled in here).
//!
//! Arguments after `--` are the CLI's: `cargo bench --bench pile -- --n 100 --presets pile
//! --steppers nsga`. Without any, the default set (piles of 10 and 100, 3-D and planar, NSGA
//! and Moreau–Jean, 1000 steps each) runs. `make bench-pile` runs this table beside the wasm
//! build and Rapier in one Node process; this target is the native half alone.

#[path = "../src/alloc_count.rs"]
mod alloc_count;
#[path = "../src/bench_pile.rs"]
mod bench_pile;
#[path = "../src/cli_args.rs"]
mod cli_args;

use std::process::ExitCode;

// The counting allocator, as in the CLI: the table's allocations a step come from it.
#[global_allocator]
static ALLOCATOR: alloc_count::Counting = alloc_count::Counting;

fn main() -> ExitCode {
    // Cargo passes `--bench` to every bench target; the runner's options are the rest.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match bench_pile::run(&args) {
        Ok(table) => {
            print!("{table}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("pile: {message}");
            ExitCode::from(2)
        }
    }
}
