import { AnimPlayer } from '../anim/player.ts';
import { PosedBounds } from '../anim/posed-bounds.ts';
import { orientScene, type Orientation } from '../model/orient.ts';
import type { Scene } from '../model/types.ts';
import type { UpParam } from './up-param.ts';

/**
 * Which of a file's axes stands up on screen (URL key `up`, docs/api.md#url-parameters), and the scene turned
 * so that it does. skinlab draws +Y up; many DCC exports (3ds Max, Blender without conversion) store +Z up, so
 * the character lies on the floor. `up=z` turns the file's +Z to +Y, `up=y` keeps the file as stored, and
 * `auto` (the default) turns only files whose pose shows robust evidence of Z-up (detectZUp) — never one
 * that already stands.
 *
 * The turn for the file's +Z, in the file's own frame, is −90° about X (+Z becomes +Y and −Y, where Blender
 * and 3ds Max put the character's front, becomes +Z: it faces the default camera). A .x or .m3d file is
 * left-handed and mirrored in Z by its loader, so its +Z is skinlab's −Z: the turn is then the one the DirectX
 * MultiAnimation sample's world matrix makes (builtins.ts `tiny4`). Both are proper rotations (orient.ts):
 * lengths, winding and handedness are kept.
 */

export { UP_PARAMS, type UpParam } from './up-param.ts';

/** What was done about the up axis, as info().up reports it. */
export interface UpChoice {
  /** The file's axis shown upward: 'y' (as stored), 'z' or '-z' (turned upright). In the file's own axes. */
  readonly axis: 'y' | 'z' | '-z';
  /** Why: 'stored' (nothing asked or found), 'detected' (auto found Z-up), 'asked' (`up=`), 'built-in' (the built-in's known orientation). */
  readonly by: 'stored' | 'detected' | 'asked' | 'built-in';
}

/** Formats whose loaders mirror the file's left-handed Z (the file's +Z is skinlab's −Z). */
function leftHanded(scene: Scene): boolean {
  return scene.format.startsWith('x') || scene.format === 'm3d';
}

/** The orientation standing skinlab axis `up` (±Z) upright, facing the camera (see the file comment). */
function zOrientation(up: '+z' | '-z'): Orientation {
  return { up, forward: '-y' };
}

/**
 * The scene stood upright as `up` asks (a built-in's own orientation, when it has one, stands for `auto`),
 * with what was done. Returns the input scene itself when nothing is turned. Load time only (allocates).
 */
export function standUpright(scene: Scene, up: UpParam, builtin?: Orientation): { scene: Scene; up: UpChoice } {
  const fileZ: '+z' | '-z' = leftHanded(scene) ? '-z' : '+z';
  if (up === 'y') return { scene, up: { axis: 'y', by: builtin ? 'asked' : 'stored' } };
  if (up === 'z') return { scene: orientScene(scene, zOrientation(fileZ)), up: { axis: 'z', by: 'asked' } };
  // In the file's axes: its ±Z is skinlab's ±Z, or ∓Z for a mirrored (left-handed) file.
  const fileAxis = (a: string): UpChoice['axis'] => (a[1] !== 'z' ? 'y' : a === fileZ ? 'z' : '-z');
  if (builtin) return { scene: orientScene(scene, builtin), up: { axis: fileAxis(builtin.up), by: 'built-in' } };
  const found = detectZUp(scene);
  if (!found) return { scene, up: { axis: 'y', by: 'stored' } };
  return { scene: orientScene(scene, zOrientation(found)), up: { axis: fileAxis(found), by: 'detected' } };
}

/** A joint named like a head ("Head", "Bip01_Head", "mixamorig:Head", "b_Head_05"; not "Headgear"). */
const HEAD = /head(?!gear|set|phone|light|band)/i;
/** A joint named like a foot ("LeftFoot", "Bip01_L_Foot", "toe_r", "ankle.L"; not "footstep"). */
const FOOT = /foot(?!step)|toe|ankle/i;

/** How strongly an offset must lie along an axis: its component there at least this many times the rest. */
const DOMINANT = 2;
/** Feet lie opposite the head: at least this share of the head's distance beyond the joints' centroid. */
const FEET_BELOW = 0.5;
/** A figure lying along Z is at least this many times as long along Z as deep along Y. */
const LONG_ALONG_Z = 2;

/**
 * '+z' or '−z' (skinlab axes) when the scene is a Z-up character lying on skinlab's floor, else null. The rule,
 * all in the pose the page first shows (the first clip at 0 s, or the rest pose without clips):
 * 1. a joint named like a head lies from the skeleton joints' centroid along ±Z: |dz| ≥ 2·√(dx² + dy²);
 * 2. a joint named like a foot lies on the opposite side, at least half the head's distance beyond the
 *    centroid along that direction and mostly along it (≥ 2× its offset across): legs hang from the hips;
 * 3. the skinned meshes' posed box is at least 2× as long along Z as along Y (a standing figure's depth).
 * A quadruped or a fish (head ahead along Z, feet below along −Y), a helicopter (no head) or an upright
 * character (head along +Y) fails one of them, so it is never turned. Files without named head and feet
 * joints are never detected (`up=z` turns them).
 */
export function detectZUp(scene: Scene): '+z' | '-z' | null {
  const names = scene.skeleton.names;
  const n = names.length;
  if (n < 3 || scene.meshes.every((m) => m.vertexCount === 0)) return null;
  const head = names.findIndex((s) => HEAD.test(s));
  const feet = names.map((s, i) => (FOOT.test(s) ? i : -1)).filter((i) => i >= 0);
  if (head < 0 || feet.length === 0) return null;
  const player = AnimPlayer.forScene(scene);
  if (scene.clips.length > 0) {
    player.play(0, 0);
    player.setTime(0);
  }
  player.evaluate();
  const model = player.model;
  const at = (i: number, k: number): number => model[i * 16 + 12 + k]!;
  const c = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) c[k]! += at(i, k) / n;
  const d = [at(head, 0) - c[0]!, at(head, 1) - c[1]!, at(head, 2) - c[2]!];
  const len = Math.hypot(d[0]!, d[1]!, d[2]!);
  if (!(len > 0) || Math.abs(d[2]!) < DOMINANT * Math.hypot(d[0]!, d[1]!)) return null;
  const sign = Math.sign(d[2]!);
  const feetOpposite = feet.some((f) => {
    const along = -sign * (at(f, 2) - c[2]!);
    const across = Math.hypot(at(f, 0) - c[0]!, at(f, 1) - c[1]!);
    return along >= FEET_BELOW * len && along >= DOMINANT * across;
  });
  if (!feetOpposite) return null;
  const min = [0, 0, 0];
  const max = [0, 0, 0];
  new PosedBounds(scene).measure(player, min, max);
  const depth = max[1]! - min[1]!;
  const length = max[2]! - min[2]!;
  if (!(length >= LONG_ALONG_Z * depth)) return null;
  return sign > 0 ? '+z' : '-z';
}
