# contactlab: one command to set up and run every test, one to benchmark.
# Installs are idempotent: each step checks for what it needs and skips what is there.

CARGO ?= cargo

.PHONY: test setup-native fmt-check lint unit bench

## make test — set up what is missing, then formatting, lints and every test.
test: setup-native fmt-check lint unit

setup-native:
	@command -v $(CARGO) >/dev/null || { echo "cargo not found: install Rust with rustup first"; exit 1; }
	@rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
	@rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy

fmt-check:
	$(CARGO) fmt --check

lint:
	$(CARGO) clippy --all-targets --locked -- -D warnings

unit:
	$(CARGO) test --locked

## make bench — step cost per preset and Lemke against PGS (release build).
bench:
	$(CARGO) run --release --locked -- bench
