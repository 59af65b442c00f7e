# contactlab — `make serve` builds and serves the playground, `make test` runs every test,
# `make web` builds the static site under www/. Every setup step checks what is present and
# installs only what is missing (the wasm target, wasm-bindgen-cli at the Cargo.lock version,
# wasm-pack, Chromium and its driver from Debian, the npm packages).

CARGO ?= cargo
PORT ?= 8080
WASM_TARGET := wasm32-unknown-unknown
WASM_BINDGEN_VERSION := $(shell sed -n '/^name = "wasm-bindgen"$$/{n;s/^version = "\(.*\)"/\1/p;}' Cargo.lock)
WASM := target/$(WASM_TARGET)/release/contactlab.wasm
# wasm-opt from npm's binaryen (132); Debian's binaryen 108 breaks wasm-bindgen's externref
# table for current rustc output. The features rustc emits are named explicitly.
WASM_OPT := node_modules/.bin/wasm-opt
WASM_OPT_FLAGS := -O3 --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
	--enable-mutable-globals --enable-multivalue --enable-reference-types
# The release wasm bound for the web into $(1) and optimised in place; $(2): more wasm-opt
# flags (-g keeps the function names, for a profile).
bind_wasm = wasm-bindgen --target web --out-dir $(1) $(WASM) && \
	$(WASM_OPT) $(WASM_OPT_FLAGS) $(2) $(1)/contactlab_bg.wasm -o $(1)/contactlab_bg.wasm
CHROMIUM_FLAGS := --no-sandbox --disable-gpu --disable-dev-shm-usage --disable-background-networking

.PHONY: npm package-check test test-native test-wasm test-page fmt-check lint unit web serve bench bench-web \
	setup-native setup-web setup-browser setup-fuzz fuzz properties soak bench-pile profile-pile

## make test — set up what is missing, then formatting, lints, native, wasm and page tests.
test: test-native test-wasm test-page

test-native: setup-native fmt-check lint unit package-check

setup-native:
	@command -v $(CARGO) >/dev/null || { echo "cargo not found: install Rust with rustup first"; exit 1; }
	@rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
	@rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy

fmt-check:
	$(CARGO) fmt --check

lint: setup-web
	$(CARGO) clippy --all-targets --locked -- -D warnings
	$(CARGO) clippy --lib --tests --locked --target $(WASM_TARGET) -- -D warnings

unit:
	$(CARGO) test --locked

setup-web: setup-native
	@rustup target list --installed | grep -q '^$(WASM_TARGET)$$' || rustup target add $(WASM_TARGET)
	@wasm-bindgen --version 2>/dev/null | grep -q ' $(WASM_BINDGEN_VERSION)$$' || \
		$(CARGO) install --force wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION)
	@[ -x $(WASM_OPT) ] && [ -x node_modules/.bin/esbuild ] && [ -d node_modules/uplot ] && [ -d node_modules/playwright-core ] && [ -d node_modules/@dimforge/rapier3d-compat ] && [ -d node_modules/three ] || npm ci --no-audit --no-fund

setup-browser: setup-web
	@command -v wasm-pack >/dev/null || $(CARGO) install --locked wasm-pack
	@{ command -v chromium >/dev/null && command -v chromedriver >/dev/null; } || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; }

## make web — the complete static site in www/ (pkg/ and vendor/ filled).
web: setup-web
	$(CARGO) build --release --locked --lib --target $(WASM_TARGET)
	$(call bind_wasm,www/pkg,)
	mkdir -p www/vendor
	cp node_modules/uplot/dist/uPlot.esm.js node_modules/uplot/dist/uPlot.min.css www/vendor/
	mkdir -p www/vendor/three/addons/controls
	cp node_modules/three/build/three.module.js node_modules/three/build/three.core.js www/vendor/three/
	cp node_modules/three/examples/jsm/controls/OrbitControls.js www/vendor/three/addons/controls/
	node_modules/.bin/esbuild www/js/standalone.js --bundle --format=esm --minify \
		--loader:.wasm=binary --loader:.css=text --log-level=warning --outfile=www/dist/contact-figure.js
	sed 's|"./js/contact-figure.js"|"./contact-figure.js"|' www/embed.html > www/dist/embed.html
	@echo "site built in www/ ($$(wc -c < www/pkg/contactlab_bg.wasm) bytes of wasm; single file www/dist/contact-figure.js)"

## make npm — the npm package in target/npm/contactlab/ (the API, <contact-figure>, the
## single-file build, embed.html, an example); `npm pack` there makes the tarball.
NPM_DIR := target/npm/contactlab
FIGURE_JS := $(filter-out www/js/main.js www/js/view3d.js www/js/bench.js www/js/standalone.js www/js/standalone-assets.js,$(wildcard www/js/*.js))
npm: web
	rm -rf $(NPM_DIR) && mkdir -p $(NPM_DIR)/pkg $(NPM_DIR)/js $(NPM_DIR)/vendor $(NPM_DIR)/dist
	cp npm/package.json npm/README.md npm/example.html www/embed.html $(NPM_DIR)/
	cp www/pkg/contactlab.js www/pkg/contactlab_bg.wasm www/pkg/contactlab.d.ts www/pkg/contactlab_bg.wasm.d.ts $(NPM_DIR)/pkg/
	cp $(FIGURE_JS) $(NPM_DIR)/js/
	cp www/vendor/uPlot.esm.js www/vendor/uPlot.min.css $(NPM_DIR)/vendor/
	cp www/dist/contact-figure.js www/dist/embed.html $(NPM_DIR)/dist/
	@echo "npm package in $(NPM_DIR) ($$(du -sh $(NPM_DIR) | cut -f1)); cd there and run npm pack"

## The crate as crates.io would take it: docs without warnings, and `cargo package` builds.
package-check: setup-native
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps --lib --locked
	$(CARGO) package --locked --allow-dirty --quiet

## make serve — build, then serve www/ on http://127.0.0.1:$(PORT)/ (PORT=… to choose).
serve: web
	node tools/serve.mjs www $(PORT)

test-wasm: setup-browser
	wasm-pack test --headless --chrome -- --locked --test wasm_browser --test wasm_canvas
	wasm-pack test --node -- --locked --test wasm_node

test-page: setup-browser npm
	$(CARGO) build --release --locked --bin contactlab
	node --test tests/page/

## make fuzz — each cargo-fuzz target for FUZZ_SECONDS (default 600) s; crashes go to fuzz/artifacts/.
FUZZ_SECONDS ?= 600
setup-fuzz:
	@rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
	@command -v cargo-fuzz >/dev/null || $(CARGO) install cargo-fuzz --locked

fuzz: setup-fuzz
	@for t in scene api lcp; do \
		mkdir -p target/fuzz-corpus/$$t; \
		$(CARGO) +nightly fuzz run $$t target/fuzz-corpus/$$t fuzz/corpus/$$t -- \
			-max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=4096 -timeout=20 || exit 1; \
	done

## make properties — the property tests with PROPTEST_CASES (default 5000) random scenes each.
PROPTEST_CASES ?= 5000
properties: setup-native
	PROPTEST_CASES=$(PROPTEST_CASES) $(CARGO) test --release --locked --test properties

## make soak — 10⁶ steps of every preset under every stepper it accepts (SOAK_STEPS=… to change).
SOAK_STEPS ?= 1000000
soak:
	$(CARGO) run --release --locked -- soak --steps $(SOAK_STEPS)

## make bench — native step cost and Lemke vs PGS; make bench-web — the same presets in Chromium.
bench:
	$(CARGO) run --release --locked -- bench

bench-web: setup-browser web
	node tools/bench-web.mjs
	node tools/bench-figures.mjs

## make bench-pile — issue 11's pile: contactlab wasm vs Rapier wasm in one Node process, and
## native beside them (PILE_ARGS="--n 10,100,1000 --budget 600" for the full table).
PILE_ARGS ?= --n 10,100
bench-pile: web
	$(CARGO) build --release --locked --bin contactlab
	node tools/bench-pile.mjs $(PILE_ARGS)

## make profile-pile — where the wasm build spends a pile's steps, by function (V8's sampling
## profiler in Node; a build that keeps its names, in target/profile-pkg).
## PROFILE_ARGS="--n 300 --from 600 --steps 200" profiles a settled pile; see the script.
PROFILE_ARGS ?= --n 1000 --steps 300
PROFILE_PKG := target/profile-pkg
profile-pile: setup-web
	$(CARGO) build --release --locked --lib --target $(WASM_TARGET)
	$(call bind_wasm,$(PROFILE_PKG),-g)
	node tools/profile-pile.mjs --pkg $(PROFILE_PKG) $(PROFILE_ARGS)
