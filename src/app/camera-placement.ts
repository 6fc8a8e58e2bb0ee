import { vec3 } from 'gl-matrix';
import type { OrbitCamera } from '../render/camera.ts';
import type { Framing } from './framing.ts';
import { roundCamera, type CameraSetting } from './state.ts';

/**
 * Camera placement: where the orbit camera goes for a model — framed automatically (the model, or the whole
 * crowd from higher up), or from the state's camera setting (yaw and pitch in degrees, distance in model
 * radii, target in model units or the framing's centre) — and the reverse, the user's view read back into
 * a setting. Pure functions over the camera and the framing; the app decides when to place. Framed views and
 * views from a setting are centred in the part of the canvas the page's overlays leave free (camera.freeRects).
 */

/**
 * Puts the camera where `setting` says, or frames the model (or a crowd of half extents `crowdExtent`) when
 * null; a plaza crowd (`plazaEdge` > 0, crowd-placement.ts) is seen from its edge instead (plazaCamera).
 */
export function placeCamera(camera: OrbitCamera, framing: Framing, setting: CameraSetting | null, crowd: number, crowdExtent: readonly number[], plazaEdge = 0): void {
  const f = framing;
  camera.reach = 0;
  // Centred unless the framing below fits the model into the part of the canvas the page's overlays leave free.
  camera.shiftX = 0;
  camera.shiftY = 0;
  placeAt(camera, f, setting, crowd, crowdExtent, plazaEdge);
  zoomRange(camera, f, crowd > 1 ? Math.hypot(crowdExtent[0]!, crowdExtent[1]!) : 0);
}

/** Nearest zoom as a share of the model's radius (a hand, a face up close) and farthest in radii. */
export const ZOOM_NEAREST = 0.02;
export const ZOOM_FARTHEST = 60;

/**
 * The zoom range for the model in view: from ZOOM_NEAREST of its radius to ZOOM_FARTHEST times the radius of
 * what is shown (a crowd's: the model's radius plus the length of the crowd's half extents `spread`), or the
 * far reach where that is farther. It depends on the scene only, never on where the camera is (a placement
 * from the user's own view must not widen it).
 */
function zoomRange(camera: OrbitCamera, f: Framing, spread: number): void {
  const r = Math.max(f.radius, 1e-6);
  camera.minDistance = ZOOM_NEAREST * r;
  camera.maxDistance = Math.max(ZOOM_FARTHEST * (r + spread), camera.reach);
}

function placeAt(camera: OrbitCamera, f: Framing, setting: CameraSetting | null, crowd: number, crowdExtent: readonly number[], plazaEdge: number): void {
  if (crowd > 1 && !setting && plazaEdge > 0) {
    plazaCamera(camera, f, plazaEdge);
    return;
  }
  if (crowd > 1 && !setting) {
    // The whole crowd: the model's box grown by the grid's half extents, seen from higher up.
    const ex = crowdExtent[0]!;
    const ez = crowdExtent[1]!;
    camera.yawDeg = 25;
    camera.pitchDeg = 28;
    camera.frameBox([f.min[0] - ex, f.min[1], f.min[2] - ez], [f.max[0] + ex, f.max[1], f.max[2] + ez]);
    return;
  }
  if (setting) {
    const t = setting.target ?? f.centre;
    vec3.set(camera.target, t[0], t[1], t[2]);
    camera.yawDeg = setting.yaw;
    camera.pitchDeg = setting.pitch;
    camera.distance = setting.distance * f.radius;
    camera.fitShift(f.min, f.max);
  } else {
    camera.yawDeg = 25;
    camera.pitchDeg = 10;
    camera.frameBox(f.min, f.max);
  }
}

/** Eye height above the floor, as a share of the model's standing height. */
const EYE_HEIGHT = 0.93;
/** The least downward pitch of the plaza camera (degrees). */
const PLAZA_PITCH = 6;

/**
 * A person's view of a plaza crowd: the eye EYE_HEIGHT of the model's height above the floor, `edge` model
 * units from the plaza's centre (the framing centre's x, z) towards the default yaw (25°), looking across
 * the plaza towards its centre's floor, or PLAZA_PITCH down when that is flatter (a large plaza): near
 * figures fill the lower view, far ones shrink towards the horizon. The orbit target is where that view
 * meets the floor, so the user orbits about a point on the plaza. The far plane (`reach`) reaches past the
 * plaza's far side (2 · edge away) with a margin.
 */
function plazaCamera(camera: OrbitCamera, f: Framing, edge: number): void {
  const height = Math.max(f.max[1] - f.floorY, 1e-6);
  const eye = EYE_HEIGHT * height;
  const pitch = Math.max((PLAZA_PITCH * Math.PI) / 180, Math.atan2(eye, edge));
  const distance = eye / Math.sin(pitch);
  const yaw = (25 * Math.PI) / 180;
  // From the plaza's centre towards the eye, along the floor: (sin yaw, cos yaw).
  const ahead = edge - distance * Math.cos(pitch);
  vec3.set(camera.target, f.centre[0] + ahead * Math.sin(yaw), f.floorY, f.centre[2] + ahead * Math.cos(yaw));
  camera.yawDeg = 25;
  camera.pitchDeg = (pitch * 180) / Math.PI;
  camera.distance = distance;
  camera.reach = 2.2 * edge + 2 * f.radius;
}

/**
 * The camera's view as a setting, rounded to what a link carries (roundCamera), so the view a user leaves
 * is exactly the one a link to it reproduces. The target is omitted while it is the framing's centre.
 */
export function cameraSetting(camera: OrbitCamera, framing: Framing): CameraSetting {
  const c = framing.centre;
  const t = camera.target;
  const centred = Math.abs(t[0]! - c[0]) + Math.abs(t[1]! - c[1]) + Math.abs(t[2]! - c[2]) <= 1e-6 * framing.radius;
  return roundCamera({
    yaw: camera.yawDeg,
    pitch: camera.pitchDeg,
    distance: camera.distance / (framing.radius || 1),
    target: centred ? null : [t[0]!, t[1]!, t[2]!],
  });
}
