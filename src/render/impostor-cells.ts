import { mat4, vec3 } from 'gl-matrix';

/**
 * The far field's impostor atlas layout, pure (no WebGL; tested in Node): which views of a model's clip are
 * captured, where each lies in the atlas, and the orthographic camera that captures it. glsl/impostor.vert
 * repeats cellOf's choice on the GPU.
 *
 * A model's atlas holds IMPOSTOR_AZIMUTHS directions around it (azimuth k · 2π / IMPOSTOR_AZIMUTHS, measured in
 * the model's own frame from +z towards +x) at each of IMPOSTOR_ELEVATIONS (radians above the horizon), for
 * `frames` evenly spaced times of the clip (time f · duration / frames). Cell (azimuth k, elevation e, frame f)
 * is column e · IMPOSTOR_AZIMUTHS + k, row f, each IMPOSTOR_CELL_PX square. Each cell is an orthographic view
 * of the clip's bounding sphere (centre c, radius r, model units) from direction d (unit, from c towards the
 * viewer): right = unit(up × d), up' = d × right; the cell's pixel (u, v) ∈ [0, 1]² shows the point
 * c + (2u − 1) · r · right + (2v − 1) · r · up'. The impostor quad is built the same way from the direction to
 * the camera, so a cell seen from its own direction lands where the mesh would.
 */

/** Directions around the model, per elevation. */
export const IMPOSTOR_AZIMUTHS = 12;
/** Elevations (radians above the horizon) of the captured rings: eye level and a raised view. */
export const IMPOSTOR_ELEVATIONS: readonly number[] = [0.1, 0.6];
/** Side of one cell in atlas pixels. */
export const IMPOSTOR_CELL_PX = 64;
/** Frames per clip: about this many per second, at most IMPOSTOR_MAX_FRAMES (the atlas's rows). */
export const IMPOSTOR_FRAME_RATE = 12;
export const IMPOSTOR_MAX_FRAMES = 16;

/** Frames captured for a clip of `duration` seconds (1 for a still clip). */
export function impostorFrames(duration: number): number {
  if (!(duration > 0)) return 1;
  return Math.max(1, Math.min(IMPOSTOR_MAX_FRAMES, Math.round(duration * IMPOSTOR_FRAME_RATE)));
}

/** The atlas size in pixels for `frames` frames: [width, height]. */
export function atlasSize(frames: number): [number, number] {
  return [IMPOSTOR_AZIMUTHS * IMPOSTOR_ELEVATIONS.length * IMPOSTOR_CELL_PX, frames * IMPOSTOR_CELL_PX];
}

/** The unit direction of azimuth index k at elevation index e (model frame), into `out`. */
export function cellDirection(k: number, e: number, out: vec3): vec3 {
  const az = (k * 2 * Math.PI) / IMPOSTOR_AZIMUTHS;
  const el = IMPOSTOR_ELEVATIONS[e]!;
  return vec3.set(out, Math.cos(el) * Math.sin(az), Math.sin(el), Math.cos(el) * Math.cos(az));
}

/**
 * The cell a viewer in direction `d` (unit, model frame, from the sphere's centre) sees at clip time `time` of
 * `duration` with `frames` frames: the azimuth index below its azimuth and the share towards the next (the
 * impostor blends the two), the nearest elevation ring and the frame (time rounded down to a frame). Into out:
 * [k0, k1, blend, e, f].
 */
export function cellOf(d: ArrayLike<number>, time: number, duration: number, frames: number, out: number[]): number[] {
  const az = Math.atan2(d[0]!, d[2]!);
  const a = ((az / (2 * Math.PI)) * IMPOSTOR_AZIMUTHS + IMPOSTOR_AZIMUTHS) % IMPOSTOR_AZIMUTHS;
  const k0 = Math.floor(a) % IMPOSTOR_AZIMUTHS;
  const el = Math.asin(Math.max(-1, Math.min(1, d[1]!)));
  let e = 0;
  for (let j = 1; j < IMPOSTOR_ELEVATIONS.length; j++) {
    if (Math.abs(el - IMPOSTOR_ELEVATIONS[j]!) < Math.abs(el - IMPOSTOR_ELEVATIONS[e]!)) e = j;
  }
  let f = 0;
  if (duration > 0 && frames > 1) {
    const t = time - duration * Math.floor(time / duration);
    f = Math.min(frames - 1, Math.floor((t / duration) * frames));
  }
  out[0] = k0;
  out[1] = (k0 + 1) % IMPOSTOR_AZIMUTHS;
  out[2] = a - Math.floor(a);
  out[3] = e;
  out[4] = f;
  return out;
}

const _eye = vec3.create();
const _centre = vec3.create();
const _up = vec3.fromValues(0, 1, 0);
const _view = mat4.create();
const _proj = mat4.create();

/**
 * The view-projection that captures direction `d` (unit, model frame) of the sphere (cx, cy, cz, r) into a
 * cell: orthographic, ±r across and up, looking at the centre from 2r away along d, depth over [r, 3r]
 * (the whole sphere). Into `out`. No allocation.
 */
export function captureViewProj(d: ArrayLike<number>, sphere: ArrayLike<number>, out: mat4): mat4 {
  const r = sphere[3]!;
  vec3.set(_centre, sphere[0]!, sphere[1]!, sphere[2]!);
  vec3.set(_eye, sphere[0]! + 2 * r * d[0]!, sphere[1]! + 2 * r * d[1]!, sphere[2]! + 2 * r * d[2]!);
  mat4.lookAt(_view, _eye, _centre, _up);
  mat4.ortho(_proj, -r, r, -r, r, r * 0.999, r * 3.001);
  return mat4.multiply(out, _proj, _view);
}

/** The camera position of captureViewProj's view (for the lit program's view direction), into `out`. */
export function captureEye(d: ArrayLike<number>, sphere: ArrayLike<number>, out: { [i: number]: number }): void {
  const r = sphere[3]!;
  for (let a = 0; a < 3; a++) out[a] = sphere[a]! + 2 * r * d[a]!;
}
