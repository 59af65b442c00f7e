// Single-file build only: hands the inlined wasm bytes and uPlot's CSS to contact-figure.js
// before it loads (esbuild inlines the two imports; see `make web` and docs/embed.md).
import wasmBytes from "../pkg/contactlab_bg.wasm";
import uplotCss from "../vendor/uPlot.min.css";

globalThis.__contactlabAssets = { wasm: wasmBytes, uplotCss };
