/**
 * The `camera` key's value (docs/api.md#url-parameters): a setting (yaw and pitch in degrees, distance in model
 * radii, an optional target in model units) or a named preset, its rounding to what a link carries, and its
 * text form both ways. Pure; no state.
 */

export interface CameraSetting {
  /** Degrees about the vertical axis, and above the horizon. */
  yaw: number;
  pitch: number;
  /** Distance from the target in model radii (the framing sphere's). */
  distance: number;
  /** What the camera looks at, in model units; null or absent: the model's framing centre. */
  target?: [number, number, number] | null;
}

/** Significant digits a camera number keeps in a link (and in the state, so the link is exact). */
const CAMERA_DIGITS = 6;

/** Rounds a setting to what `camera=` carries: the view it gives is then the same before and after a reload. */
export function roundCamera(c: CameraSetting): CameraSetting {
  const r = (x: number): number => {
    const v = Number(x.toPrecision(CAMERA_DIGITS));
    return Object.is(v, -0) ? 0 : v;
  };
  const out: CameraSetting = { yaw: r(c.yaw), pitch: r(c.pitch), distance: r(c.distance) };
  if (c.target) out.target = [r(c.target[0]), r(c.target[1]), r(c.target[2])];
  return out;
}

/** `yaw,pitch,distance[,tx,ty,tz]`: the inverse of the `camera` parameter's numeric form. */
export function formatCamera(c: CameraSetting): string {
  const parts = [c.yaw, c.pitch, c.distance, ...(c.target ?? [])];
  return parts.map((x) => String(x)).join(',');
}

export const CAMERA_PRESETS: Readonly<Record<string, CameraSetting>> = {
  front: { yaw: 0, pitch: 5, distance: 2.4 },
  back: { yaw: 180, pitch: 5, distance: 2.4 },
  left: { yaw: -90, pitch: 5, distance: 2.4 },
  right: { yaw: 90, pitch: 5, distance: 2.4 },
  top: { yaw: 0, pitch: 85, distance: 2.4 },
  'three-quarter': { yaw: 25, pitch: 12, distance: 2.4 },
};

/**
 * Reads a `camera` value: a preset name (a copy of it), '' or 'auto' (null: framed automatically), or
 * `yaw,pitch,distance[,tx,ty,tz]`; a string says why anything else is malformed.
 */
export function parseCamera(value: string): CameraSetting | null | string {
  const preset = CAMERA_PRESETS[value];
  if (preset) return { ...preset };
  if (value === '' || value === 'auto') return null;
  const parts = value.split(',').map(Number);
  if ((parts.length !== 3 && parts.length !== 6) || parts.some((x) => !Number.isFinite(x)) || parts[2]! <= 0) {
    return `expected yaw,pitch,distance[,tx,ty,tz] (degrees, degrees, model radii > 0, target in model units) or one of ${Object.keys(CAMERA_PRESETS).join(', ')}`;
  }
  const camera: CameraSetting = { yaw: parts[0]!, pitch: parts[1]!, distance: parts[2]! };
  if (parts.length === 6) camera.target = [parts[3]!, parts[4]!, parts[5]!];
  return camera;
}
