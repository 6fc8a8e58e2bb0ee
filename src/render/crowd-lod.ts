/**
 * Crowd mode's distance LOD, pure (no WebGL; tested in Node): the switch distances of a model's detail
 * levels from the camera's projection, each instance's level by its distance, and the stable sort of the
 * culled order into one contiguous range per level. No allocation.
 *
 * Levels are numbered from the nearest: 0 is the level the user chose, 1 the next lighter, and so on. A
 * detail level k of a model's levels (lightest first, 0 = the lightest) is drawn while the figure's
 * projected height is under LOD_PIXELS[k] (at or above it, the next heavier level); so with Dawn's low,
 * medium and high, high is drawn above 150 px, medium from 60 to 150 px, low under 60 px, and a chosen
 * level caps them (chosen medium: medium above 60 px, low under it).
 */

/** Projected figure heights (px) under which detail level k (lightest first) replaces level k + 1. */
export const LOD_PIXELS = [60, 150] as const;
/** Most levels a crowd draws (the chosen one and the lighter ones). */
export const MAX_LOD_LEVELS = LOD_PIXELS.length + 1;

/**
 * The camera distance at which a figure `height` model units tall projects to `pixels` px on a viewport
 * `viewportPx` px high through a vertical field of view of `fovYDeg` degrees (perspective, on the view axis):
 * d = height · viewportPx / (2 · tan(fov / 2) · pixels).
 */
export function distanceForPixels(height: number, fovYDeg: number, viewportPx: number, pixels: number): number {
  const tanHalf = Math.tan((fovYDeg * Math.PI) / 360);
  return (height * viewportPx) / (2 * tanHalf * pixels);
}

/**
 * The switch distances of a crowd whose chosen level is detail level `chosen` (index among the model's
 * levels, lightest first): out[j] is where drawn level j hands over to j + 1 (drawn level j is detail level
 * chosen − j). Returns the number of drawn levels (1 + the lighter levels LOD_PIXELS has a threshold for,
 * at most chosen + 1); out[0..levels − 1) are written, increasing.
 */
export function lodDistances(chosen: number, height: number, fovYDeg: number, viewportPx: number, out: Float32Array | number[]): number {
  let levels = 1;
  for (let k = Math.min(chosen, LOD_PIXELS.length) - 1; k >= 0; k--) {
    out[levels - 1] = distanceForPixels(height, fovYDeg, viewportPx, LOD_PIXELS[k]!);
    levels++;
  }
  return levels;
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
