// Entry of the single-file build (www/dist/contact-figure.js): the wasm and CSS inlined, so a
// host that cannot serve .wasm files needs only this one JavaScript file.
import "./standalone-assets.js";
export * from "./contact-figure.js";
