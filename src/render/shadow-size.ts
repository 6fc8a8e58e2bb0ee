/**
 * How many texels the key light's shadow map has along a side (render/shadow-map.ts), for the view it is drawn
 * for. A module of its own, without GL, so the three.js stage of the time-to-first-frame benchmark
 * (bench/three-gltf-page.ts) sizes its map by the same rule.
 */

/** The fewest texels along a side of the map. */
export const SHADOW_MAP_MIN = 1024;
/** The most texels along a side of the map. */
export const SHADOW_MAP_MAX = 2048;

/**
 * Texels along each side of the shadow map for a drawing buffer of `width` × `height` pixels: the power of two at
 * or above the buffer's larger side, from SHADOW_MAP_MIN to SHADOW_MAP_MAX, and never above `maxTextureSize`.
 *
 * Why the view decides: a single model's map is fitted to the box of its casters (ShadowMap.fit), which the
 * automatic camera frames inside the view, so a side of the map covers at most about the view's larger side in pixels. This many
 * texels keep a texel or more per pixel there, and a small view does not pay, in GPU memory and in the map's
 * first clear, for texels it cannot show: 1024² is a quarter of 2048²'s memory, and on a software GPU its first
 * clear takes about 1 ms against 13 (docs/performance.md). A view zoomed past the framing magnifies the map at
 * either size. A crowd's box reaches far past the view: its map has SHADOW_MAP_MAX texels whatever the view.
 */
export function shadowMapSize(width: number, height: number, maxTextureSize: number): number {
  const side = Math.max(width, height);
  let size = SHADOW_MAP_MIN;
  while (size < side && size < SHADOW_MAP_MAX) size *= 2;
  return Math.max(1, Math.min(size, maxTextureSize));
}
