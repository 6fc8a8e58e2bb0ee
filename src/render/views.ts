/** Debug views (docs/api.md#view-ids) that this build draws (no GL here: the URL layer imports it). */
export const VIEW_IDS = ['shaded', 'wireframe', 'skeleton', 'weights', 'influences', 'groups', 'diff', 'distortion', 'tangents'] as const;
export type ViewId = (typeof VIEW_IDS)[number];

/**
 * What each view shows (GUI tooltips, the legend):
 * - shaded: the lit model. wireframe: edges over it. skeleton: a ghosted model under the bones and joints.
 * - weights: heat map of one bone's weight per vertex after truncation to `influences` (blue 0 → red 1).
 * - influences: non-zero influences per vertex after truncation (1, 2, 3, 4: INFLUENCE_COLOURS).
 * - groups: one hashed colour per bone group of the technique's partition (per draw for one-group techniques).
 * - diff: |technique − software| per pixel, amplified, in red to yellow over a dimmed grey of the image.
 * - distortion: per vertex, log₂ of its one-ring area posed / at rest under the technique's own CPU reference
 *   (src/quality): blue shrinks, white unchanged, red grows, saturating at ±DISTORTION_SCALE.
 * - tangents: the skinned tangent frame. The surface is coloured by the world tangent (normal-mapped frame where
 *   the material has a normal map; x red, y green, z blue, as 0.5 + 0.5 · t; grey: a mesh without tangents),
 *   and short segments at up to 800 vertices show the skinned frame (tangent red, bitangent green, normal blue).
 */
export const VIEW_SUMMARY: Readonly<Record<ViewId, string>> = {
  shaded: 'lit model',
  wireframe: 'edges over the lit model',
  skeleton: 'bones and joints over a ghosted model',
  weights: "the chosen bone's weight per vertex: blue 0 → red 1",
  influences: 'influences per vertex after truncation: 1, 2, 3, 4',
  groups: "the technique's bone groups (draws with their own matrices), one colour each",
  diff: 'this technique against the software reference: differing pixels red (small) to yellow (large)',
  distortion: 'surface area change per vertex: blue shrinks, white unchanged, red grows (±1 = halved/doubled)',
  tangents: 'skinned tangent frame: surface coloured by the world tangent (x red, y green, z blue; grey: no tangents), T/B/N segments at vertices',
};

/** The distortion view's saturation: |log₂ area ratio| at which the colour is full blue or red (1: halved/doubled). glsl/include/debug_views.glsl holds the same. */
export const DISTORTION_SCALE = 1;
/** The distortion view's end colours, sRGB 0..1 (shrink, unchanged, grow); debug_views.glsl distortionColour holds the same. */
export const DISTORTION_COLOURS: readonly (readonly [number, number, number])[] = [
  [0.1, 0.3, 1.0],
  [0.96, 0.96, 0.96],
  [1.0, 0.15, 0.1],
];

/** The influences view's colours for 1..4 influences, sRGB 0..1; glsl/include/view_colours.glsl holds the same. */
export const INFLUENCE_COLOURS: readonly (readonly [number, number, number])[] = [
  [0.2, 0.45, 1.0],
  [0.25, 0.8, 0.3],
  [1.0, 0.78, 0.1],
  [0.95, 0.2, 0.3],
];

/** Views drawn by the lit program with a define set of their own (lit.frag): the per-vertex and per-draw colourings. */
export type SurfaceView = 'shaded' | 'weights' | 'influences' | 'groups' | 'distortion' | 'tangents';

export function surfaceView(view: ViewId): SurfaceView {
  return view === 'weights' || view === 'influences' || view === 'groups' || view === 'distortion' || view === 'tangents' ? view : 'shaded';
}
