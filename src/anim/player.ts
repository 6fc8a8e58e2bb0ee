/**
 * AnimPlayer: the single-clip playback API the app, the CLI and the benchmarks use, as a facade over an
 * AnimController (controller/controller.ts), plus the manual morph layer.
 *
 * Contract
 * - `controller` is the player's own AnimController (8 tracks). `locals` (TRS_STRIDE floats per node, parent
 *   space) and `model` (16 floats per node, column-major, node → model space) are the controller's arrays,
 *   valid after evaluate(); callers read them and must not write them.
 * - The primary track is the one play() started: clipIndex, time and duration report it. Time is in seconds of
 *   that clip, within [0, duration]. advance(dt) moves the controller clock by |dt · speed| with the player's
 *   tracks at speed sign(speed) (unless paused), so track times move by dt · speed and a crossfade's progress
 *   is playback time (frozen while paused, scaled by speed). With `loop` times wrap into [0, duration),
 *   without it they clamp. A clip of duration 0 stays at time 0.
 * - setTime(t) places the primary clip exactly at t (wrapped or clamped when outside [0, duration]; t =
 *   duration is kept) and ends any crossfade (every other track disabled, events removed), so the pose is
 *   exactly sampleClip(clip, t).
 * - play(i, crossfadeSeconds) starts clip i at time 0 on a free track. With crossfadeSeconds > 0 it schedules
 *   weight events on the controller clock: the new track 0 → 1 linearly over crossfadeSeconds, and every other
 *   playing track from its current weight → 0 over the same span, then disabled; the old clips keep playing
 *   while they fade. So play() during a crossfade fades the current primary out from its current weight too
 *   (the weights keep summing to 1 and the pose continues without a jump). This replaces the earlier rule
 *   that froze the blended pose: the controller blends live tracks, and a frozen pose stopped the outgoing
 *   motion mid-stride. Without a crossfade play() cuts: every other track is disabled.
 * - Tracks mode: an app that configures the tracks itself through `controller` (applyTracksSpec) says so
 *   with useTracks(). Then clipIndex/time/duration report track 0, `clockTime` is the controller clock and
 *   setTime(t) does controller.seek(t) (every track at its start + t · speed), however many tracks there are;
 *   speed, pause and loop still apply to every track (a speed sign change negates each track's speed).
 *   play() leaves tracks mode. Outside it, `clockTime` is `time`, the primary clip's.
 * - A skeleton with no clips evaluates to its rest pose; play() then throws.
 * - advance, setTime, evaluate and writePalette allocate nothing; the step reaches the controller through
 *   controllerStep (V8 boxes a double argument of a call it does not inline). test/anim/alloc.test.ts checks it.
 * - Morph weights (constructed with morphTargetCount > 0, indexed like Scene.morphTargets): evaluate() also
 *   fills `morphWeights`. Two layers: the track layer (`morphTrackWeights`, the controller's blended clip
 *   morph tracks; targets without a track take their rest weight, Scene.morphDefaults given to the
 *   constructor, else 0) and the manual layer, a value per target set by hand (setMorphManual) or "from
 *   track". Final weight = the manual value where set, else the track weight while `morphTracksEnabled`,
 *   else the rest weight. resetMorphs() puts every target back to "from track".
 */

import type { Clip, Scene, Skeleton, SkinnedMesh } from '../model/types.ts';
import { AnimController, controllerStep } from './controller/controller.ts';

const PLAYER_TRACKS = 8;

// Slots of AnimPlayer.clock (controller seconds).
const FADE_END = 0;

export class AnimPlayer {
  readonly controller: AnimController;
  readonly skeleton: Skeleton;
  readonly clips: readonly Clip[];
  readonly nodeCount: number;
  /** Local pose, TRS_STRIDE floats per node, parent space (the controller's). Read-only for callers. */
  readonly locals: Float32Array;
  /** Model matrices, 16 floats per node, column-major (the controller's). Read-only for callers. */
  readonly model: Float32Array;

  /** Final morph weights after evaluate(), one per morph target. Read-only for callers. */
  readonly morphWeights: Float32Array;
  /** The track layer of the last evaluate() (crossfade applied), one per morph target. Read-only for callers. */
  readonly morphTrackWeights: Float32Array;
  /** false: targets not set by hand take their rest weight (the expression track is off). */
  morphTracksEnabled = true;

  /** Playback rate; 1 is real time, negative plays backwards. */
  speed = 1;
  paused = false;
  loop = true;

  private readonly morphManual: Float32Array;
  /** 1 where the target's weight was set by hand. */
  private readonly morphManualSet: Uint8Array;
  private readonly clock = new Float64Array(1);
  private current: number;
  private primary = 0;
  /** Set by useTracks(), cleared by play(). */
  private tracksMode = false;
  /** The speed sign and loop flag last given to the tracks. */
  private appliedSign = 1;
  private appliedLoop = true;

  /**
   * The player of a whole scene, posed as the page draws it: its clips, and its morph targets at their rest
   * weights with the clips' morph tracks playing. Every caller that poses a scene for what a user sees
   * (framing, `inspect --t`, the page's loader) builds its player here, so none forgets the morph targets.
   */
  static forScene(scene: Pick<Scene, 'skeleton' | 'clips' | 'morphTargets' | 'morphDefaults'>): AnimPlayer {
    return new AnimPlayer(scene.skeleton, scene.clips, scene.morphTargets.length, scene.morphDefaults);
  }

  /** `morphDefaults`: the targets' rest weights (Scene.morphDefaults); absent or short: 0. */
  constructor(skeleton: Skeleton, clips: readonly Clip[], morphTargetCount = 0, morphDefaults?: ArrayLike<number>) {
    const targets = Math.max(0, morphTargetCount | 0);
    this.controller = new AnimController(skeleton, clips, {
      tracks: PLAYER_TRACKS,
      morphTargetCount: targets,
      ...(morphDefaults ? { morphDefaults } : {}),
    });
    this.skeleton = skeleton;
    this.clips = clips;
    this.nodeCount = this.controller.nodeCount;
    this.locals = this.controller.locals;
    this.model = this.controller.model;
    this.morphTrackWeights = this.controller.morphTrackWeights;
    this.morphWeights = new Float32Array(targets);
    this.morphManual = new Float32Array(targets);
    this.morphManualSet = new Uint8Array(targets);
    this.clock[FADE_END] = -Infinity;
    this.current = clips.length > 0 ? 0 : -1;
    if (this.current >= 0) this.setupTrack(0, 0, 1);
    this.evaluate();
  }

  /** Tracks mode (see the contract): the caller has set the controller's tracks itself. */
  useTracks(): void {
    this.tracksMode = true;
    this.clock[FADE_END] = -Infinity;
  }

  /** True in tracks mode (useTracks() since the last play()). */
  get usesTracks(): boolean {
    return this.tracksMode;
  }

  /** The track clipIndex/time/duration report. */
  private get reported(): number {
    return this.tracksMode ? 0 : this.primary;
  }

  /** The time `setTime` places: the controller clock in tracks mode, else the primary clip's time. */
  get clockTime(): number {
    return this.tracksMode ? this.controller.timeSlot[0]! : this.time;
  }

  /** Index of the current clip, -1 when there are no clips (or the reported track has none). */
  get clipIndex(): number {
    return this.current < 0 ? -1 : this.controller.trackClip(this.reported);
  }

  /** Seconds into the current clip. */
  get time(): number {
    return this.current < 0 ? 0 : this.controller.trackTime(this.reported);
  }

  /** Duration of the current clip in seconds (0 without clips). */
  get duration(): number {
    return this.current < 0 ? 0 : this.controller.trackDuration(this.reported);
  }

  /** True while a crossfade started by play() is in progress. */
  get fading(): boolean {
    return this.controller.pendingEvents > 0 && this.controller.timeSlot[0] < this.clock[FADE_END];
  }

  /** Weight of the current clip in the pose: 0 at the start of a crossfade, 1 outside one. */
  get fadeWeight(): number {
    if (!this.fading) return 1;
    const w = this.controller.trackWeight(this.primary);
    return w < 0 ? 0 : w > 1 ? 1 : w;
  }

  advance(dtSeconds: number): void {
    const d = dtSeconds * this.speed;
    if (this.paused || this.current < 0 || !Number.isFinite(d)) return;
    this.applyFlags();
    controllerStep[0] = d < 0 ? -d : d;
    this.controller.advanceAt();
  }

  setTime(t: number): void {
    if (this.current < 0) return;
    this.applyFlags();
    const c = this.controller;
    if (this.tracksMode) {
      c.seek(t);
      return;
    }
    c.unkeyAllEvents();
    for (let k = 0; k < c.trackCount; k++) if (k !== this.primary) c.setTrackEnable(k, false);
    c.setTrackWeight(this.primary, 1);
    c.setTrackPosition(this.primary, t);
    this.clock[FADE_END] = -Infinity;
  }

  /** Starts clip `clipIndex` at time 0, crossfading over `crossfadeSeconds` (0 or non-finite: cut). */
  play(clipIndex: number, crossfadeSeconds = 0): void {
    if (!Number.isInteger(clipIndex) || clipIndex < 0 || clipIndex >= this.clips.length) {
      throw new RangeError(`AnimPlayer.play: clip ${clipIndex} out of range (${this.clips.length} clips)`);
    }
    this.applyFlags();
    this.tracksMode = false;
    const c = this.controller;
    if (crossfadeSeconds > 0 && Number.isFinite(crossfadeSeconds)) {
      const now = c.time;
      const next = this.freeTrack();
      c.unkeyTrackEvents(next);
      for (let t = 0; t < c.trackCount; t++) {
        if (t === next || !c.trackEnabled(t)) continue;
        c.unkeyTrackEvents(t);
        c.keyTrackWeight(t, 0, now, crossfadeSeconds, 'linear');
        c.keyTrackEnable(t, false, now + crossfadeSeconds);
      }
      this.setupTrack(next, clipIndex, 0);
      c.keyTrackWeight(next, 1, now, crossfadeSeconds, 'linear');
      this.clock[FADE_END] = now + crossfadeSeconds;
      this.primary = next;
    } else {
      c.unkeyAllEvents();
      for (let t = 0; t < c.trackCount; t++) if (t !== this.primary) c.setTrackEnable(t, false);
      this.setupTrack(this.primary, clipIndex, 1);
      this.clock[FADE_END] = -Infinity;
    }
    this.current = clipIndex;
  }

  /** A disabled track other than the primary, else the lightest one. */
  private freeTrack(): number {
    const c = this.controller;
    let best = -1;
    for (let t = 0; t < c.trackCount; t++) {
      if (t === this.primary) continue;
      if (!c.trackEnabled(t)) return t;
      if (best < 0 || c.trackWeight(t) < c.trackWeight(best)) best = t;
    }
    return best;
  }

  /** Puts track t at clip 0-time, full skeleton, low priority, the player's speed sign and loop flag. */
  private setupTrack(t: number, clip: number, weight: number): void {
    const c = this.controller;
    c.setTrackClip(t, clip);
    c.setTrackWeight(t, weight);
    c.setTrackSpeed(t, this.appliedSign);
    c.setTrackMask(t, -1);
    c.setTrackAdditive(t, false);
    c.setTrackPriority(t, 'low');
    c.setTrackSync(t, -1);
    c.setTrackLoop(t, this.appliedLoop);
    c.setTrackPosition(t, 0);
    c.setTrackEnable(t, true);
  }

  /** Gives every track the sign of `speed` and the `loop` flag when they changed. */
  private applyFlags(): void {
    const c = this.controller;
    const sign = this.speed < 0 ? -1 : 1;
    if (sign !== this.appliedSign) {
      for (let t = 0; t < c.trackCount; t++) c.setTrackSpeed(t, -c.trackSpeed(t));
      this.appliedSign = sign;
    }
    if (this.loop !== this.appliedLoop) {
      for (let t = 0; t < c.trackCount; t++) c.setTrackLoop(t, this.loop);
      this.appliedLoop = this.loop;
    }
  }

  /** Blends the tracks into `locals`, fills `model`, then the morph layers. */
  evaluate(): void {
    this.controller.evaluate();
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

  /** Every target back on its track (or its rest weight while the tracks are off). */
  resetMorphs(): void {
    this.morphManual.fill(0);
    this.morphManualSet.fill(0);
  }

  /** True when target's weight was set by hand. */
  isMorphManual(target: number): boolean {
    return this.morphManualSet[target] === 1;
  }

  /** The manual layer over the controller's track layer, into morphWeights. */
  private evaluateMorphs(): void {
    const out = this.morphWeights;
    const n = out.length;
    if (n === 0) return;
    const track = this.morphTrackWeights;
    const manual = this.morphManual;
    const set = this.morphManualSet;
    const enabled = this.morphTracksEnabled;
    const rest = this.controller.morphDefaults;
    for (let i = 0; i < n; i++) out[i] = set[i] === 1 ? manual[i]! : enabled ? track[i]! : rest[i]!;
  }

  /**
   * Writes mesh's palette (model[bones[k]] · invBind[k], 16 floats per slot) at out[offsetFloats..],
   * from the pose of the last evaluate().
   */
  writePalette(mesh: SkinnedMesh, out: Float32Array, offsetFloats = 0): void {
    this.controller.writePalette(mesh, out, offsetFloats);
  }
}
