/**
 * AnimPlayer: playback state for one skeleton, and the glue that runs the jobs in order
 * (sampleClip → blendLocals while crossfading → localToModel → buildPalette per mesh).
 *
 * Contract
 * - Owns its pose buffers, sized once in the constructor: `locals` (TRS_STRIDE floats per node, parent
 *   space) and `model` (16 floats per node, column-major, node → model space). Both are valid after
 *   evaluate(); callers (skeleton overlays, bounds) read them and must not write them.
 * - Time is in seconds of the current clip, always within [0, duration]. advance(dt) moves it by
 *   dt · speed (speed may be negative) unless paused; with `loop` it wraps into [0, duration), without it
 *   clamps to [0, duration]. A clip of duration 0 stays at time 0.
 * - setTime(t) places the current clip exactly at t (wrapped or clamped the same way when outside
 *   [0, duration]; t = duration is kept, not wrapped) and ends any crossfade, so the pose is exactly
 *   sampleClip(clip, t).
 * - play(i, crossfadeSeconds) starts clip i at time 0. With crossfadeSeconds > 0 the pose fades from the
 *   old clip, which keeps playing at its own time, to the new one; the weight of the new clip ramps
 *   linearly 0 → 1 over crossfadeSeconds of playback time (|dt · speed|, frozen while paused), then the
 *   old clip is dropped. play() during a crossfade freezes the current blended pose and fades from that.
 *   Interpolation of rotations is shortest-path slerp (nlerp for nearly equal keys), see quat-interp.ts.
 * - A skeleton with no clips evaluates to its rest pose; play() then throws.
 * - advance, setTime, evaluate and writePalette allocate nothing; the constructor allocates everything.
 *   The clock's doubles live in a Float64Array and reach the jobs through their typed-array slots
 *   (sampleTime, interpWeight), because V8 boxes a computed double stored in a field or passed to a call it
 *   does not inline. test/anim/alloc.test.ts checks this with --trace-gc.
 * - Morph weights (constructed with morphTargetCount > 0, indexed like Scene.morphTargets): evaluate() also
 *   fills `morphWeights`. Two layers: the track layer (`morphTrackWeights`) samples the current clip's
 *   morphTracks at the clip time (targets without a track weigh 0; a crossfade blends the old clip's, or
 *   the frozen weights', linearly with the same weight as the pose); the manual layer holds a value per
 *   target set by hand (setMorphManual) or "from track". Final weight = the manual value where set, else
 *   the track weight while `morphTracksEnabled`, else 0. resetMorphs() puts every target back to "from track".
 */

import type { Clip, Skeleton, SkinnedMesh } from '../model/types.ts';
import { TRS_STRIDE } from '../model/types.ts';
import { blendLocalsAt } from './blend.ts';
import { interpWeight } from './quat-interp.ts';
import { localToModel } from './local-to-model.ts';
import { buildPalette } from './palette.ts';
import { createClipCursor, sampleClipAt, sampleTime, type ClipCursor } from './sample-clip.ts';
import { sampleMorphTracksAt } from './morph.ts';
import type { MorphTrack } from '../model/types.ts';

const NO_MORPH_TRACKS: readonly MorphTrack[] = [];

const FADE_NONE = 0;
/** Fading from a clip that keeps playing (fromClip at clock[FROM_TIME]). */
const FADE_FROM_CLIP = 1;
/** Fading from the pose frozen in fromLocals. */
const FADE_FROM_POSE = 2;

// Slots of AnimPlayer.clock (seconds).
const TIME = 0;
const FROM_TIME = 1;
const FADE_ELAPSED = 2;
const FADE_DURATION = 3;

/** Places clock[slot] into [0, clip.duration]: kept when inside, else wrapped (loop) or clamped. */
function placeTime(clock: Float64Array, slot: number, clip: Clip, loop: boolean): void {
  const t = clock[slot];
  const duration = clip.duration;
  if (!(duration > 0) || !Number.isFinite(duration) || Number.isNaN(t)) {
    clock[slot] = 0;
  } else if (t >= 0 && t <= duration) {
    // Inside: kept exactly.
  } else if (!loop) {
    clock[slot] = t < 0 ? 0 : duration;
  } else if (!Number.isFinite(t)) {
    clock[slot] = 0;
  } else {
    const r = t % duration;
    clock[slot] = r < 0 ? r + duration : r;
  }
}

export class AnimPlayer {
  readonly skeleton: Skeleton;
  readonly clips: readonly Clip[];
  readonly nodeCount: number;
  /** Local pose, TRS_STRIDE floats per node, parent space. Read-only for callers. */
  readonly locals: Float32Array;
  /** Model matrices, 16 floats per node, column-major. Read-only for callers. */
  readonly model: Float32Array;

  /** Final morph weights after evaluate(), one per morph target. Read-only for callers. */
  readonly morphWeights: Float32Array;
  /** The track layer of the last evaluate() (crossfade applied), one per morph target. Read-only for callers. */
  readonly morphTrackWeights: Float32Array;
  /** false: targets not set by hand weigh 0 (the expression track is off). */
  morphTracksEnabled = true;

  /** Playback rate; 1 is real time, negative plays backwards. */
  speed = 1;
  paused = false;
  loop = true;

  private readonly cursors: readonly ClipCursor[];
  private readonly fromLocals: Float32Array;
  private readonly morphCursors: readonly Uint32Array[];
  private readonly fromMorph: Float32Array;
  private readonly morphManual: Float32Array;
  /** 1 where the target's weight was set by hand. */
  private readonly morphManualSet: Uint8Array;
  /** TIME, FROM_TIME, FADE_ELAPSED, FADE_DURATION. */
  private readonly clock = new Float64Array(4);
  private current: number;
  private fadeKind = FADE_NONE;
  private fromClip = -1;

  constructor(skeleton: Skeleton, clips: readonly Clip[], morphTargetCount = 0) {
    const nodeCount = skeleton.parents.length;
    if (skeleton.restLocal.length !== nodeCount * TRS_STRIDE) {
      throw new Error(
        `AnimPlayer: restLocal has ${skeleton.restLocal.length} floats, expected ${nodeCount * TRS_STRIDE}`,
      );
    }
    this.skeleton = skeleton;
    this.clips = clips;
    this.nodeCount = nodeCount;
    this.locals = new Float32Array(nodeCount * TRS_STRIDE);
    this.fromLocals = new Float32Array(nodeCount * TRS_STRIDE);
    this.model = new Float32Array(nodeCount * 16);
    this.cursors = clips.map((clip) => createClipCursor(clip, skeleton.restLocal));
    const targets = Math.max(0, morphTargetCount | 0);
    this.morphWeights = new Float32Array(targets);
    this.morphTrackWeights = new Float32Array(targets);
    this.fromMorph = new Float32Array(targets);
    this.morphManual = new Float32Array(targets);
    this.morphManualSet = new Uint8Array(targets);
    this.morphCursors = clips.map((c) => new Uint32Array(c.morphTracks?.length ?? 0));
    this.current = clips.length > 0 ? 0 : -1;
    this.evaluate();
  }

  /** Index of the current clip, -1 when there are no clips. */
  get clipIndex(): number {
    return this.current;
  }

  /** Seconds into the current clip. */
  get time(): number {
    return this.clock[TIME];
  }

  /** Duration of the current clip in seconds (0 without clips). */
  get duration(): number {
    return this.current < 0 ? 0 : this.clips[this.current].duration;
  }

  /** True while a crossfade is in progress. */
  get fading(): boolean {
    return this.fadeKind !== FADE_NONE;
  }

  /** Weight of the current clip in the pose: 0 at the start of a crossfade, 1 outside one. */
  get fadeWeight(): number {
    if (this.fadeKind === FADE_NONE) return 1;
    const w = this.clock[FADE_ELAPSED] / this.clock[FADE_DURATION];
    return w < 0 ? 0 : w > 1 ? 1 : w;
  }

  advance(dtSeconds: number): void {
    const d = dtSeconds * this.speed;
    if (this.paused || this.current < 0 || !Number.isFinite(d)) return;
    const clock = this.clock;
    clock[TIME] += d;
    placeTime(clock, TIME, this.clips[this.current], this.loop);
    if (this.fadeKind === FADE_NONE) return;
    clock[FADE_ELAPSED] += Math.abs(d);
    if (clock[FADE_ELAPSED] >= clock[FADE_DURATION]) {
      this.fadeKind = FADE_NONE;
      this.fromClip = -1;
    } else if (this.fadeKind === FADE_FROM_CLIP) {
      clock[FROM_TIME] += d;
      placeTime(clock, FROM_TIME, this.clips[this.fromClip], this.loop);
    }
  }

  setTime(t: number): void {
    this.fadeKind = FADE_NONE;
    this.fromClip = -1;
    this.clock[TIME] = t;
    if (this.current < 0) this.clock[TIME] = 0;
    else placeTime(this.clock, TIME, this.clips[this.current], this.loop);
  }

  /** Starts clip `clipIndex` at time 0, crossfading over `crossfadeSeconds` (0 or non-finite: cut). */
  play(clipIndex: number, crossfadeSeconds = 0): void {
    if (!Number.isInteger(clipIndex) || clipIndex < 0 || clipIndex >= this.clips.length) {
      throw new RangeError(`AnimPlayer.play: clip ${clipIndex} out of range (${this.clips.length} clips)`);
    }
    if (crossfadeSeconds > 0 && Number.isFinite(crossfadeSeconds)) {
      if (this.fadeKind === FADE_NONE) {
        this.fadeKind = FADE_FROM_CLIP;
        this.fromClip = this.current;
        this.clock[FROM_TIME] = this.clock[TIME];
      } else {
        this.evaluateLocals();
        this.fromLocals.set(this.locals);
        this.evaluateMorphs();
        this.fromMorph.set(this.morphTrackWeights);
        this.fadeKind = FADE_FROM_POSE;
        this.fromClip = -1;
      }
      this.clock[FADE_ELAPSED] = 0;
      this.clock[FADE_DURATION] = crossfadeSeconds;
    } else {
      this.fadeKind = FADE_NONE;
      this.fromClip = -1;
    }
    this.current = clipIndex;
    this.clock[TIME] = 0;
  }

  /** Samples (and blends) the pose into `locals`, then fills `model`. */
  evaluate(): void {
    this.evaluateLocals();
    localToModel(this.skeleton.parents, this.locals, this.model);
    this.evaluateMorphs();
  }

  /** Sets target's weight by hand (overrides its track until clearMorphManual/resetMorphs); takes effect at the next evaluate(). */
  setMorphManual(target: number, weight: number): void {
    if (target < 0 || target >= this.morphManual.length) throw new RangeError(`AnimPlayer.setMorphManual: target ${target} out of range (${this.morphManual.length} targets)`);
    this.morphManual[target] = Number.isFinite(weight) ? weight : 0;
    this.morphManualSet[target] = 1;
  }

  /** Puts target back on its track. */
  clearMorphManual(target: number): void {
    if (target < 0 || target >= this.morphManual.length) return;
    this.morphManual[target] = 0;
    this.morphManualSet[target] = 0;
  }

  /** Every target back on its track (or 0 while the tracks are off). */
  resetMorphs(): void {
    this.morphManual.fill(0);
    this.morphManualSet.fill(0);
  }

  /** True when target's weight was set by hand. */
  isMorphManual(target: number): boolean {
    return this.morphManualSet[target] === 1;
  }

  /** Track layer (with crossfade) into morphTrackWeights, then the manual layer on top into morphWeights. */
  private evaluateMorphs(): void {
    const out = this.morphWeights;
    const n = out.length;
    if (n === 0) return;
    const track = this.morphTrackWeights;
    track.fill(0);
    const current = this.current;
    if (current >= 0) {
      const clock = this.clock;
      sampleTime[0] = clock[TIME];
      sampleMorphTracksAt(this.clips[current]!.morphTracks ?? NO_MORPH_TRACKS, this.morphCursors[current]!, track);
      if (this.fadeKind !== FADE_NONE) {
        const from = this.fromMorph;
        if (this.fadeKind === FADE_FROM_CLIP) {
          from.fill(0);
          sampleTime[0] = clock[FROM_TIME];
          sampleMorphTracksAt(this.clips[this.fromClip]!.morphTracks ?? NO_MORPH_TRACKS, this.morphCursors[this.fromClip]!, from);
        }
        const w = clock[FADE_ELAPSED] / clock[FADE_DURATION];
        const f = w < 0 ? 0 : w > 1 ? 1 : w;
        for (let i = 0; i < n; i++) track[i] = from[i]! + (track[i]! - from[i]!) * f;
      }
    }
    const manual = this.morphManual;
    const set = this.morphManualSet;
    const enabled = this.morphTracksEnabled;
    for (let i = 0; i < n; i++) out[i] = set[i] === 1 ? manual[i]! : enabled ? track[i]! : 0;
  }

  /**
   * Writes mesh's palette (model[bones[k]] · invBind[k], 16 floats per slot) at out[offsetFloats..],
   * from the pose of the last evaluate().
   */
  writePalette(mesh: SkinnedMesh, out: Float32Array, offsetFloats = 0): void {
    buildPalette(this.model, mesh.bones, mesh.invBind, out, offsetFloats);
  }

  private evaluateLocals(): void {
    const rest = this.skeleton.restLocal;
    const current = this.current;
    if (current < 0) {
      this.locals.set(rest);
      return;
    }
    const clock = this.clock;
    sampleTime[0] = clock[TIME];
    sampleClipAt(this.clips[current], this.cursors[current], rest, this.locals);
    if (this.fadeKind === FADE_NONE) return;
    if (this.fadeKind === FADE_FROM_CLIP) {
      const from = this.fromClip;
      sampleTime[0] = clock[FROM_TIME];
      sampleClipAt(this.clips[from], this.cursors[from], rest, this.fromLocals);
    }
    const w = clock[FADE_ELAPSED] / clock[FADE_DURATION];
    interpWeight[0] = w < 0 ? 0 : w > 1 ? 1 : w;
    blendLocalsAt(this.fromLocals, this.locals, this.locals, this.nodeCount);
  }
}
