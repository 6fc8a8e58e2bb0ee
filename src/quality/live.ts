import type { PoseSource } from '../anim/posed-bounds.ts';
import type { Scene } from '../model/types.ts';
import { cpuReferenceOf } from './cpu-skin.ts';
import { QualityProbe, type QualitySummary } from './probe.ts';

/**
 * The live artifact figures of the technique on screen, for the stats box and the distortion view: one
 * LiveQuality per scene and slot (liveQuality(scene, slot), cached; slot 1 is compare's right half), updated by the frame before it draws and read by the
 * stats box (`summary`) and the distortion view's data (`logs`, `version`).
 *
 * Contract
 * - update() recomputes when the technique, influences or wanted data changed, or when the pose changed
 *   (the player's model matrices or the morph weights differ from the last computed ones): at once when the
 *   animation is not playing (a time set by hand, a recorded shot: the frame drawn shows its own pose's
 *   figures), else once `interval` ms have passed since the last computation. The interval grows with the work: MIN_INTERVAL_MS, or
 *   MS_PER_VERTEX per vertex of the scene when that is longer (Dawn medium, 35k vertices: 350 ms; one
 *   measurement costs it ~14 ms in Node, ~4 % of the time), so a huge mesh is measured less often. A paused
 *   pose is measured once.
 * - summary: whole-model volume ratio and p95 |log₂| area change of the technique's own CPU reference
 *   (cpu-skin.ts) at that pose; NaN when the technique has no CPU reference or the scene has no triangles.
 * - logs (with `wantLogs`): log₂ one-ring area ratio per mesh vertex (probe.ts vertexLogRatios), 1 float per
 *   vertex of mesh i in logs[i]; `version` increases each time they are rewritten.
 * - Allocates at construction (and the probe's buffers on first use); update() allocates nothing after.
 */

export const MIN_INTERVAL_MS = 200;
/** The version of `unchanged` (never one of `logs`' versions, which count up from 0). */
export const REST_VERSION = -2;
export const MS_PER_VERTEX = 0.01;

export class LiveQuality {
  readonly probe: QualityProbe;
  readonly summary: QualitySummary = { volumeRatio: NaN, areaP95: NaN };
  readonly logs: readonly Float32Array[];
  /** Zeros shaped like `logs` (version REST_VERSION): the bind pose drawn by hand has changed nothing. */
  readonly unchanged: readonly Float32Array[];
  version = 0;
  /** The technique measured last ('' before any). */
  technique = '';
  private influences = -1;
  private hadLogs = false;
  private last = -1e9;
  private readonly interval: number;
  private pose: Float32Array = new Float32Array(0);
  private weights: Float32Array = new Float32Array(0);

  constructor(readonly scene: Scene) {
    this.probe = new QualityProbe(scene);
    this.logs = scene.meshes.map((m) => new Float32Array(m.vertexCount));
    this.unchanged = scene.meshes.map((m) => new Float32Array(m.vertexCount));
    this.interval = Math.max(MIN_INTERVAL_MS, MS_PER_VERTEX * this.probe.vertexCount);
  }

  /**
   * The frame's call, after the player is evaluated: `model` is its node → model matrices (AnimPlayer.model),
   * compared with the last computed pose. `playing`: the clock moves the pose (throttle); `now` in ms.
   * Returns true when it recomputed.
   */
  update(player: PoseSource & { readonly model: Float32Array }, technique: string, influences: number, morphWeights: Float32Array, wantLogs: boolean, playing: boolean, now: number): boolean {
    const changedSetup = technique !== this.technique || influences !== this.influences || (wantLogs && !this.hadLogs);
    const model = player.model;
    const moved = !sameValues(model, this.pose) || !sameValues(morphWeights, this.weights);
    if (!changedSetup && (!moved || (playing && now - this.last < this.interval))) return false;
    this.technique = technique;
    this.influences = influences;
    this.hadLogs = wantLogs;
    if (this.pose.length !== model.length) this.pose = new Float32Array(model.length);
    copyValues(model, this.pose);
    if (this.weights.length !== morphWeights.length) this.weights = new Float32Array(morphWeights.length);
    copyValues(morphWeights, this.weights);
    this.last = now;
    const reference = cpuReferenceOf(technique);
    if (!reference || this.probe.vertexCount === 0) {
      this.summary.volumeRatio = NaN;
      this.summary.areaP95 = NaN;
      if (wantLogs) {
        for (const l of this.logs) l.fill(0);
        this.version++;
      }
      return true;
    }
    const positions = this.probe.skin(reference, player, morphWeights, influences);
    this.probe.summary(reference, positions, this.summary);
    if (wantLogs) {
      this.probe.vertexLogRatios(reference, positions, this.logs);
      this.version++;
    }
    return true;
  }
}

/** Per scene, one LiveQuality per slot: 0 the view (and compare's left half), 1 compare's right half. */
const cache = new WeakMap<Scene, LiveQuality[]>();

/** The scene's LiveQuality of `slot` (0, or 1 for compare's right half), made on first use. */
export function liveQuality(scene: Scene, slot = 0): LiveQuality {
  let list = cache.get(scene);
  if (!list) {
    list = [];
    cache.set(scene, list);
  }
  let q = list[slot];
  if (!q) {
    q = new LiveQuality(scene);
    list[slot] = q;
  }
  return q;
}

/** The scene's LiveQuality of `slot` if one was made, else undefined (readers that must not build one). */
export function liveQualityIfAny(scene: Scene, slot = 0): LiveQuality | undefined {
  return cache.get(scene)?.[slot];
}

/** A plain loop rather than TypedArray.prototype.set, which allocates now and then. */
function copyValues(from: Float32Array, to: Float32Array): void {
  for (let i = 0; i < from.length; i++) to[i] = from[i]!;
}

function sameValues(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
