/**
 * Crowd mode's distance LOD, pure (no WebGL; tested in Node): the switch distances of a model's detail
 * levels from their errors and the camera's projection, each instance's level by its distance, and the stable
 * sort of the culled order into one contiguous range per level. No allocation.
 *
 * Levels are numbered from the nearest: 0 is the level the user chose (the model itself), 1 the next lighter,
 * and so on; each has an error in model units (level 0: 0; generated levels: the simplifier's, authored ones:
 * measured against the chosen level, src/model/lod-error.ts). An instance draws the lightest level whose error,
 * projected at the instance's distance, is under ERROR_PIXELS: errorPx = error · H / (2 · tan(fov / 2) · d) on
 * a viewport H px high through a vertical field of view fov. So level l is allowed from the distance
 * d_l = error_l · H / (2 · tan(fov / 2) · ERROR_PIXELS) on, and the switch distances are those, made
 * non-decreasing (a level is never drawn nearer than a heavier one).
 */

/** Largest projected error (px) a level may show. */
export const ERROR_PIXELS = 1;
/** Most mesh levels a crowd draws (the chosen one and five lighter ones). */
export const MAX_MESH_LEVELS = 6;
/** Most levels a crowd draws: the mesh levels and the impostors past them (crowd-impostor-pass.ts). */
export const MAX_LOD_LEVELS = MAX_MESH_LEVELS + 1;

/** The size in px of `error` model units at camera distance `distance` (perspective, on the view axis). */
export function projectedErrorPx(error: number, fovYDeg: number, viewportPx: number, distance: number): number {
  const tanHalf = Math.tan((fovYDeg * Math.PI) / 360);
  return (error * viewportPx) / (2 * tanHalf * distance);
}

/** The camera distance at which `error` model units project to `pixels` px: error · viewportPx / (2 · tan(fov / 2) · pixels). */
export function distanceForError(error: number, fovYDeg: number, viewportPx: number, pixels = ERROR_PIXELS): number {
  const tanHalf = Math.tan((fovYDeg * Math.PI) / 360);
  return (error * viewportPx) / (2 * tanHalf * pixels);
}

/**
 * The switch distances of `levels` drawn levels with errors `errors[0..levels)` (model units, nearest first):
 * out[j] is where drawn level j hands over to j + 1, the distance where level j + 1's error falls to
 * ERROR_PIXELS, never less than out[j − 1]. out[0..levels − 1) are written.
 */
export function lodDistances(errors: ArrayLike<number>, levels: number, fovYDeg: number, viewportPx: number, out: Float32Array | number[]): void {
  let d = 0;
  for (let j = 0; j < levels - 1; j++) {
    d = Math.max(d, distanceForError(errors[j + 1]!, fovYDeg, viewportPx));
    out[j] = d;
  }
}

/** The drawn level (0 = nearest) of an instance at squared distance `d2`, for squared switch distances `switches2[0..levels − 1)`. */
export function levelForDistance2(d2: number, switches2: ArrayLike<number>, levels: number): number {
  let level = 0;
  while (level < levels - 1 && d2 >= switches2[level]!) level++;
  return level;
}

/**
 * Sorts order[0..live) stably by level (levelOf[order[j]] in [0, levels)): level 0's instances first, then
 * level 1's … each in their previous order. starts[l] is the first slot of level l and starts[levels] = live
 * (so level l's range is [starts[l], starts[l + 1])). `scratch` holds at least `live` entries. The entries
 * past `live` (the culled) are left as they are.
 */
export function sortByLevel(order: Int32Array, live: number, levelOf: Uint8Array, levels: number, starts: Int32Array, scratch: Int32Array): void {
  for (let l = 0; l <= levels; l++) starts[l] = 0;
  for (let j = 0; j < live; j++) starts[levelOf[order[j]!]! + 1]!++;
  for (let l = 1; l <= levels; l++) starts[l]! += starts[l - 1]!;
  // starts[l] now counts the instances below level l: the first slot of level l. Place them, then restore.
  for (let j = 0; j < live; j++) {
    const i = order[j]!;
    scratch[starts[levelOf[i]!]!++] = i;
  }
  for (let l = levels; l > 0; l--) starts[l] = starts[l - 1]!;
  starts[0] = 0;
  for (let j = 0; j < live; j++) order[j] = scratch[j]!;
}
