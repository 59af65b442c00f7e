// The scene editor: the running scene as JSON (sceneJson()), editable, applied as a new
// simulation only when the library accepts it (its message, naming the field and its range,
// shows under the text, and the running scene and the typed text are both kept); simple
// forms add a body, delete one, or set the material; edited scenes travel in links as
// deflate-compressed base64url text.

const $ = (id) => document.getElementById(id);

/** Text → deflate-raw → base64url (for `&scene-json=` in links and figure attributes). */
export async function packScene(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The inverse of packScene; throws with a plain message on bad input. */
export async function unpackScene(packed) {
  try {
    const binary = atob(packed.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return await new Response(stream).text();
  } catch {
    throw new Error("scene-json: not a packed scene (deflate-raw, base64url)");
  }
}

/** JSON with one entry per line, but arrays of numbers kept on one line ([0, 0, 0.1]). */
function pretty(value) {
  return JSON.stringify(value, null, 1).replace(/\[\s+([-0-9.e+,\s]*?)\s+\]/g, (m, inner) => `[${inner.replace(/\s+/g, " ")}]`);
}

/** A body for the scene's world from the add form's numbers. */
/** True for a scene in space: it lists spatial bodies or beams in space. */
function isSpatial(scene) {
  return ["spatial_bodies", "spatial_beams"].some((k) => Array.isArray(scene[k]) && scene[k].length > 0);
}

function newBody(spatial, form, names) {
  let name = form.name.trim() || form.shape;
  for (let k = 2; names.has(name); k++) name = `${form.shape}${k}`;
  const [x, y, z] = form.position;
  const [vx, vy, vz] = form.velocity;
  if (spatial) {
    const shape = form.shape === "box"
      ? { type: "box", size: [form.size, form.size, form.size] }
      : { type: "sphere", radius: form.size / 2 };
    return { name, fixed: false, mass: form.mass, position: [x, y, z], orientation: [1, 0, 0, 0], velocity: [vx, vy, vz], angular_velocity: [0, 0, 0], shape };
  }
  const shape = form.shape === "box"
    ? { type: "box", width: form.size, height: form.size }
    : { type: "disk", radius: form.size / 2 };
  return { name, fixed: false, mass: form.mass, position: [x, y], angle: 0, velocity: [vx, vy], angular_velocity: 0, shape };
}

export class SceneEditor {
  /**
   * @param {(json: string) => void} apply builds and runs the scene; throws with the library's
   *   message when it refuses it
   */
  constructor(apply) {
    this.apply = apply;
    this.text = $("scene-json");
    $("editor-apply").addEventListener("click", () => this.tryApply(this.text.value));
    $("editor-revert").addEventListener("click", () => this.show(this.current));
    $("editor-add").addEventListener("click", () => this.edit((scene) => this.addBody(scene)));
    $("editor-delete").addEventListener("click", () => this.edit((scene) => this.deleteBody(scene)));
    $("editor-material").addEventListener("click", () => this.edit((scene) => this.setMaterial(scene)));
  }

  /** Shows the running scene's JSON (after a load or an accepted edit). */
  show(json) {
    this.current = json;
    this.text.value = pretty(JSON.parse(json));
    this.error("");
    const scene = JSON.parse(json);
    const spatial = isSpatial(scene);
    $("editor-shape").replaceChildren(...(spatial ? ["sphere", "box"] : ["disk", "box"]).map((s) => new Option(s, s)));
    $("editor-z").hidden = !spatial;
    $("editor-vz-row").hidden = !spatial;
    const bodies = (spatial ? scene.spatial_bodies : scene.bodies) ?? [];
    $("editor-body").replaceChildren(...bodies.map((b) => new Option(b.name, b.name)));
    const m = scene.material ?? {};
    $("editor-mu").value = m.friction ?? 0;
    $("editor-e").value = m.restitution ?? 0;
  }

  error(text) {
    const box = $("editor-error");
    box.textContent = text;
    box.hidden = !text;
  }

  /** Applies `json`; on refusal the message shows and nothing else changes. */
  tryApply(json) {
    try {
      this.apply(json);
      this.error("");
      return true;
    } catch (e) {
      this.error(e.message ?? String(e));
      return false;
    }
  }

  /** Parses the text, changes it with `change(scene)`, writes it back and applies it. */
  edit(change) {
    let scene;
    try {
      scene = JSON.parse(this.text.value);
    } catch (e) {
      this.error(`JSON: ${e.message}`);
      return;
    }
    try {
      change(scene);
    } catch (e) {
      this.error(e.message);
      return;
    }
    this.text.value = pretty(scene);
    this.tryApply(this.text.value);
  }

  /** Reads a number field, naming it when it is not a number. */
  number(id, label) {
    const x = Number($(id).value);
    if ($(id).value.trim() === "" || !Number.isFinite(x)) throw new Error(`${label}: '${$(id).value}' is not a number`);
    return x;
  }

  addBody(scene) {
    const spatial = isSpatial(scene);
    const list = spatial ? (scene.spatial_bodies ??= []) : (scene.bodies ??= []);
    const form = {
      shape: $("editor-shape").value,
      name: $("editor-name").value,
      size: this.number("editor-size", "size"),
      mass: this.number("editor-mass", "mass"),
      position: [this.number("editor-x", "x"), this.number("editor-y", "y"), spatial ? this.number("editor-zv", "z") : 0],
      velocity: [this.number("editor-vx", "vx"), this.number("editor-vy", "vy"), spatial ? this.number("editor-vz", "vz") : 0],
    };
    list.push(newBody(spatial, form, new Set(list.map((b) => b.name))));
  }

  deleteBody(scene) {
    const name = $("editor-body").value;
    for (const key of ["bodies", "spatial_bodies"]) {
      if (Array.isArray(scene[key])) scene[key] = scene[key].filter((b) => b.name !== name);
    }
    // Loads on the body go with it.
    if (Array.isArray(scene.forces)) scene.forces = scene.forces.filter((f) => f.body !== name);
  }

  setMaterial(scene) {
    scene.material ??= {};
    scene.material.friction = this.number("editor-mu", "friction μ");
    scene.material.restitution = this.number("editor-e", "restitution e");
  }
}
