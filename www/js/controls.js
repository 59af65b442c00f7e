// Sliders with number inputs, built from Simulation.parameters() (name, label, unit, range, value).
// Values typed or dragged go to setParameter; a refused value shows the library's message.
// A parameter whose range spans three decades or more (a stiffness from 1e3 to 1e8 N/m) gets a
// logarithmic slider; the number box always holds the value itself. A parameter only some
// steppers read (a pile's penalty stiffness, Moreau–Jean's sweeps, NSGA's gap tolerance) is
// shown under those alone (showFor).

import { parseNumber } from "./options.js";

/** A value as a box shows it: ten significant digits at most (1/3 is 0.3333333333), so the
 * box is never too narrow for it; the simulation keeps the exact number. */
export function boxText(x) {
  return String(Number(x.toPrecision(10)));
}

/**
 * @param {HTMLElement} container
 * @param {Array<{name:string,label:string,unit:string,min:number,max:number,value:number}>} parameters
 * @param {(name: string, value: number) => void} onChange may throw an Error with a message
 * @param {(message: string) => void} onError
 */
export function buildControls(container, parameters, onChange, onError) {
  container.replaceChildren();
  for (const p of parameters) {
    const row = document.createElement("div");
    row.className = "param";
    if (p.steppers?.length) row.dataset.steppers = p.steppers.join(" ");
    const id = `param-${p.name}`;
    const label = document.createElement("label");
    label.htmlFor = id;
    label.textContent = `${p.label} — ${p.name} [${p.unit}]`;
    const logarithmic = p.step === 0 && p.min > 0 && p.max / p.min >= 1000;
    const toSlider = (x) => (logarithmic ? Math.log10(x) : x);
    const fromSlider = (x) => (logarithmic ? Number((10 ** x).toPrecision(3)) : x);
    const slider = document.createElement("input");
    slider.type = "range";
    slider.id = id;
    slider.min = String(toSlider(p.min));
    slider.max = String(toSlider(p.max));
    slider.step = String(p.step > 0 ? p.step : sliderStep(toSlider(p.min), toSlider(p.max)));
    slider.value = String(toSlider(p.value));
    slider.setAttribute("aria-label", `${p.label} slider`);
    // A logarithmic slider's position is an exponent: say the value instead.
    const announce = (x) => slider.setAttribute("aria-valuetext", `${boxText(x)} ${p.unit}`);
    announce(p.value);
    // Text, not type=number: a mistyped value stays visible and is named in the message
    // (a number box hands over "" for "abc").
    const number = document.createElement("input");
    number.type = "text";
    number.inputMode = "decimal";
    number.value = boxText(p.value);
    number.title = `${p.min} to ${p.max} ${p.unit}`;
    number.dataset.param = p.name;
    number.setAttribute("aria-label", `${p.label} in ${p.unit}`);
    let current = p.value;
    const apply = (value, text, source) => {
      try {
        if (value === null) throw new Error(`${p.name}: '${text}' is not a number; allowed ${p.min} to ${p.max} ${p.unit}`);
        onChange(p.name, value);
        current = value;
        if (source !== slider) slider.value = String(toSlider(value));
        if (source !== number) number.value = boxText(value);
        announce(value);
      } catch (e) {
        // Refused: the message names the field and its range; the controls show the value
        // the simulation keeps.
        onError(e.message ?? String(e));
        slider.value = String(toSlider(current));
        number.value = boxText(current);
      }
    };
    slider.addEventListener("input", () => apply(fromSlider(Number(slider.value)), slider.value, slider));
    number.addEventListener("change", () => apply(parseNumber(number.value), number.value, number));
    row.append(label, slider, number);
    container.append(row);
  }
}

/** Shows the controls the stepper `stepper` reads and hides the others' (rows built with a
 * list of steppers). */
export function showFor(container, stepper) {
  for (const row of container.querySelectorAll(".param[data-steppers]")) {
    row.hidden = !row.dataset.steppers.split(" ").includes(stepper);
  }
}

function sliderStep(min, max) {
  const span = max - min;
  return span > 0 ? Number((span / 1000).toPrecision(2)) : 1;
}
