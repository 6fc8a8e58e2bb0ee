import type { Clip, Scene } from '../model/types.ts';
import { firstWithSkinOf, PaletteSet } from './palette-set.ts';
import { AnimPlayer } from './player.ts';
import { clipSphere, slotSpheres } from './slot-spheres.ts';

/**
 * The baked crowd's animation data (NVIDIA's SkinnedInstancing, DirectX 10 SDK 2007): every clip's palettes
 * sampled once at a fixed rate, so a crowd instance needs only (clip, time offset, speed, place) and the
 * vertex stage blends the two baked frames around its time (glsl/include/crowd_pars.glsl repeats
 * bakedFrame; keep the two in step). Pure: no WebGL; the page uploads `palettes` into a float texture
 * (gpu/crowd-bake-texture.ts), the tests and the error measurement read it directly.
 *
 * Rate: clip c is sampled at F_c + 1 evenly spaced times k · duration / F_c, k = 0..F_c, with
 * F_c = max(1, ⌈duration · min(maxRate, keyRate)⌉), maxRate 30 samples/s by default and keyRate the clip's
 * densest channel ((keys − 1) / duration): a clip keyed more sparsely than 30/s is baked at its own key rate,
 * since sampling between its keys adds nothing the blend cannot. The last frame is the pose at `duration`
 * (the player keeps t = duration), so the interval before the loop wraps blends towards the clip's end pose
 * (for a looping clip, its first pose) instead of jumping back to frame 0 early.
 *
 * Layout: one block of `slotsPerFrame` mat4 slots per baked frame holding one palette per distinct skin
 * (crowdSlots: meshes whose bones and offset matrices are equal share one, as PaletteSet decides; Dawn's
 * four meshes are one skin of 100 slots), mesh m's palette at meshBase[m] inside the block (the CPU crowd's
 * instance block layout too, render/crowd.ts), clips one after another; frame g's slot s at
 * palettes[(g · slotsPerFrame + s) · 16 ..], column-major, bind space → model space, exactly what
 * AnimPlayer.writePalette writes for mesh m at that time.
 *
 * Bounds: per clip a sphere (centre, radius; model space) holding the skinned meshes at every baked frame
 * and every linear blend of two of them (what the vertex stage draws), from per-slot bind-space spheres
 * moved by the baked palettes (slot-spheres.ts: no vertex is posed), the radius padded by 5 % for the
 * exactly sampled poses between frames the cpu path draws.
 */

/** Default baking rate, samples per second. */
export const BAKE_RATE = 30;

export interface BakedClip {
  /** Global index of the clip's frame 0. */
  readonly first: number;
  /** Intervals: the clip has frames first..first+frames (frames + 1 of them). */
  readonly frames: number;
  readonly duration: number;
  /** frames / duration (0 for a clip of duration 0). */
  readonly rate: number;
}

export interface CrowdBake {
  readonly slotsPerFrame: number;
  /** Per mesh, its palette's first slot in a frame's block (meshes sharing a skin share it; crowdSlots). */
  readonly meshBase: Int32Array;
  readonly clips: readonly BakedClip[];
  /** Frames over every clip (Σ frames + 1). */
  readonly frameCount: number;
  /** frameCount · slotsPerFrame · 16 floats. */
  readonly palettes: Float32Array;
  /** Per clip: centre x, y, z, radius (model space). */
  readonly spheres: Float32Array;
}

/** Samples per second of the densest channel of `clip`, 0 when no channel has two keys or the clip has no length. */
export function keyRate(clip: Clip): number {
  if (!(clip.duration > 0)) return 0;
  let keys = 0;
  for (const t of clip.tracks) {
    for (const ch of [t.translation, t.rotation, t.scale]) if (ch && ch.times.length > keys) keys = ch.times.length;
  }
  return keys > 1 ? (keys - 1) / clip.duration : 0;
}

/** Intervals F the clip is baked with at `maxRate` (see the header); `keyCap` false bakes at maxRate whatever the keys. */
export function bakeIntervals(clip: Clip, maxRate = BAKE_RATE, keyCap = true): number {
  if (!(clip.duration > 0)) return 1;
  const rate = keyCap ? Math.min(maxRate, keyRate(clip)) : maxRate;
  return Math.max(1, Math.ceil(clip.duration * rate - 1e-6));
}

/**
 * Mat4 slots of one instance block (Σ max(1, bones) over the distinct skins), mesh m's palette at base[m],
 * written into `base`: a mesh whose bones and offset matrices equal an earlier mesh's (PaletteSet's test)
 * takes that mesh's slots.
 */
export function crowdSlots(scene: Scene, base: Int32Array): number {
  let slots = 0;
  for (let m = 0; m < scene.meshes.length; m++) {
    const first = firstWithSkinOf(scene.meshes, m);
    if (first < m) {
      base[m] = base[first]!;
      continue;
    }
    base[m] = slots;
    slots += Math.max(1, scene.meshes[m]!.bones.length);
  }
  return slots;
}

/**
 * Bakes every clip of `scene` (allocates: load-time work). `measureBounds` false leaves the spheres at the
 * origin with radius Infinity (never culled), for callers that only want the palettes, as does a vertex
 * naming a joint past its mesh's bones (no bound is known then); `keyCap` false ignores the key rate (the
 * error measurement's fixed rates).
 */
export function bakeCrowd(scene: Scene, maxRate = BAKE_RATE, measureBounds = true, keyCap = true): CrowdBake {
  const meshBase = new Int32Array(scene.meshes.length);
  const slotsPerFrame = crowdSlots(scene, meshBase);
  const clips: BakedClip[] = [];
  let frameCount = 0;
  for (const clip of scene.clips) {
    const frames = bakeIntervals(clip, maxRate, keyCap);
    clips.push({ first: frameCount, frames, duration: clip.duration, rate: clip.duration > 0 ? frames / clip.duration : 0 });
    frameCount += frames + 1;
  }
  const palettes = new Float32Array(frameCount * slotsPerFrame * 16);
  const spheres = new Float32Array(clips.length * 4);
  // One mesh per skin writes the skin's slots (its palette is every mesh's of that skin).
  const writers: number[] = [];
  for (let m = 0; m < scene.meshes.length; m++) if (firstWithSkinOf(scene.meshes, m) === m) writers.push(m);
  const player = new AnimPlayer(scene.skeleton, scene.clips);
  const set = new PaletteSet(scene.meshes);
  for (let c = 0; c < clips.length; c++) {
    const b = clips[c]!;
    player.play(c, 0);
    for (let k = 0; k <= b.frames; k++) {
      player.setTime(b.frames > 0 && b.duration > 0 ? (k * b.duration) / b.frames : 0);
      player.evaluate();
      set.update(player.model);
      const block = (b.first + k) * slotsPerFrame;
      for (const m of writers) set.writePalette(scene.meshes[m]!, palettes, (block + meshBase[m]!) * 16);
    }
  }
  // Crowds draw no morph targets (render/crowd.ts), so the spheres bound the unmorphed poses they draw.
  const slots = measureBounds ? slotSpheres(scene, meshBase, slotsPerFrame) : null;
  for (let c = 0; c < clips.length; c++) {
    if (slots === null || !slots.complete) {
      spheres[c * 4 + 3] = Infinity;
      continue;
    }
    clipSphere(palettes, slotsPerFrame, clips[c]!.first, clips[c]!.frames + 1, slots, spheres, c * 4);
    spheres[c * 4 + 3] *= 1.05;
  }
  return { slotsPerFrame, meshBase, clips, frameCount, palettes, spheres };
}

/** Clip time of an instance at frame time `t`: t · speed + offset wrapped into [0, duration) (0 for a clip of no length). */
export function instanceClipTime(t: number, offset: number, speed: number, duration: number): number {
  if (!(duration > 0)) return 0;
  const x = t * speed + offset;
  return x - duration * Math.floor(x / duration);
}

/**
 * The two baked frames around clip time `time` (in [0, duration]) of clip `b`: out[0] the global index of
 * the first (the second is out[0] + 1), out[1] the blend weight of the second, in [0, 1]. No allocation.
 */
export function bakedFrame(time: number, b: BakedClip, out: Float64Array | number[]): void {
  const f = time * b.rate;
  const k = Math.max(0, Math.min(Math.floor(f), b.frames - 1));
  out[0] = b.first + k;
  out[1] = Math.max(0, Math.min(1, f - k));
}

/**
 * The palette the vertex stage reads for slot range [slot, slot + count) of a frame blended as bakedFrame says:
 * palette(k) · (1 − w) + palette(k + 1) · w, a linear blend of the matrices (not of rotations), into
 * out[offset..]. No allocation.
 */
export function blendBaked(bake: CrowdBake, frame: number, w: number, slot: number, count: number, out: Float32Array, offset = 0): void {
  const p = bake.palettes;
  const a = (frame * bake.slotsPerFrame + slot) * 16;
  const b = a + bake.slotsPerFrame * 16;
  for (let i = 0; i < count * 16; i++) out[offset + i] = p[a + i]! * (1 - w) + p[b + i]! * w;
}
