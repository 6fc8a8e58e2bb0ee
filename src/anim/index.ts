/**
 * Public API of the animation runtime: pure jobs over caller-owned typed arrays, plus AnimController (tracks,
 * events, markers, sync) and AnimPlayer, its single-clip facade. No WebGL.
 * The `…At` variants read their time or weight from a shared Float64Array slot (sampleTime, interpWeight)
 * instead of a number argument, for per-frame callers that must not box doubles (see sample-clip.ts).
 */

export { NLERP_DOT, interpWeight, slerpShortest, slerpShortestAt } from './quat-interp.ts';
export {
  createClipCursor,
  resetClipCursor,
  sampleClip,
  sampleClipAt,
  sampleTime,
  type ClipCursor,
} from './sample-clip.ts';
export { blendLocals, blendLocalsAt } from './blend.ts';
export { composeTRS, localToModel } from './local-to-model.ts';
export { mulAffine } from './affine.ts';
export { buildPalette, writeIdentityPalette } from './palette.ts';
export { AnimPlayer } from './player.ts';
export { skinMesh, skinTangents } from './software-skin.ts';
export { computeBounds, type WritableVec3 } from './bounds.ts';
export { PosedBounds } from './posed-bounds.ts';
export {
  AnimController,
  controllerStep,
  type PosePostProcess,
  type Priority,
  type Transition,
} from './controller/controller.ts';
export { EVENT_CAPACITY } from './controller/events.ts';
export { FIRED_RING, MAX_WHOLE_LOOPS } from './controller/markers.ts';
export { applyTracksSpec, formatTracksSpec, parseTracksSpec, type TrackSpec } from './controller/track-spec.ts';
