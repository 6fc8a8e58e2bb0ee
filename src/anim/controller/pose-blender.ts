/**
 * Pose blender of the animation controller: the tracks of a TrackTable → one local pose and the morph-track
 * weights, by the rules of mixer.ts (priority groups, rest fill, priority blend, additive tracks).
 *
 * Contract
 * - blend() writes every node of `locals` (TRS_STRIDE floats per node, parent space) and every target of
 *   `morph`; it reads the track table and state[blendSlot] (priorityBlend, 0..1), and owns only its scratch
 *   (the high group's pose and the per-node / per-target weight totals), sized in the constructor.
 * - Active track: enabled, weight > 0, with a clip. Fast path: exactly one non-additive active track, weight
 *   1, mask -1, and low priority or priorityBlend ≥ 1: its clip is sampled straight into `locals` (the cost
 *   of a single-clip player; the general rules give the same pose). Masked tracks do not drive morph weights.
 * - Morph rest weights: a target no active track drives takes its rest weight (`morphDefaults`, Scene.morphDefaults),
 *   and a low group of total weight W < 1 blends from it: m = d + W · (m_avg − d). mixer.ts blends morphs
 *   with rest 0; the rest weight is added here as (1 − W) · d.
 * - Doubles cross calls through sampleTime / mixWeight slots; nothing here allocates per call.
 */

import { TRS_STRIDE } from '../../model/types.ts';
import { sampleMorphTracksAt } from '../morph.ts';
import { sampleClipAt, sampleTime } from '../sample-clip.ts';
import {
  accumulateMorph,
  accumulatePose,
  additiveMorph,
  claimPose,
  applyAdditive,
  fillMorphRest,
  fillRest,
  mixWeight,
  overlayHigh,
  overlayHighMorph,
} from './mixer.ts';
import type { TrackTable } from './tracks.ts';

const NO_MORPH_TRACKS: readonly never[] = [];

export class PoseBlender {
  private readonly highLocals: Float32Array;
  private readonly totalsLow: Float64Array;
  private readonly totalsHigh: Float64Array;
  private readonly morphHigh: Float32Array;
  private readonly morphTotalsLow: Float64Array;
  private readonly morphTotalsHigh: Float64Array;
  private readonly morphDefaults: Float32Array;
  private readonly anyMorphDefault: boolean;

  /** `morphDefaults`: one rest weight per morph target (its length is the target count); kept, not copied. */
  constructor(nodeCount: number, morphDefaults: Float32Array) {
    const targetCount = morphDefaults.length;
    this.morphDefaults = morphDefaults;
    this.anyMorphDefault = morphDefaults.some((d) => d !== 0);
    this.highLocals = new Float32Array(nodeCount * TRS_STRIDE);
    this.totalsLow = new Float64Array(nodeCount);
    this.totalsHigh = new Float64Array(nodeCount);
    this.morphHigh = new Float32Array(targetCount);
    this.morphTotalsLow = new Float64Array(targetCount);
    this.morphTotalsHigh = new Float64Array(targetCount);
  }

  /** Blends the tracks into `locals` and `morph` (see the file contract); state[blendSlot] = priorityBlend. */
  blend(tr: TrackTable, state: Float64Array, blendSlot: number, locals: Float32Array, morph: Float32Array): void {
    const rest = tr.skeleton.restLocal;
    const targets = morph.length;
    const blend = state[blendSlot];
    let active = 0;
    let single = -1;
    let anyHigh = false;
    let anyAdditive = false;
    for (let t = 0; t < tr.count; t++) {
      if (tr.enabled[t] === 0 || !(tr.weight[t] > 0) || tr.clip[t] < 0) continue;
      if (tr.additive[t] === 1) {
        anyAdditive = true;
        continue;
      }
      active++;
      single = t;
      if (tr.high[t] === 1) anyHigh = true;
    }
    if (active === 1 && tr.weight[single] === 1 && tr.mask[single] === -1 && (!anyHigh || blend >= 1)) {
      const clip = tr.clips[tr.clip[single]];
      sampleTime[0] = tr.time[single];
      sampleClipAt(clip, tr.cursor(single), rest, locals);
      if (targets > 0) {
        morph.set(this.morphDefaults);
        sampleTime[0] = tr.time[single];
        sampleMorphTracksAt(clip.morphTracks ?? NO_MORPH_TRACKS, tr.morphCursor(single), morph);
      }
    } else {
      this.blendGroups(tr, state, blendSlot, locals, morph, active, anyHigh);
    }
    if (anyAdditive) this.applyAdditives(tr, locals, morph);
  }

  private blendGroups(tr: TrackTable, state: Float64Array, blendSlot: number, locals: Float32Array, morph: Float32Array, active: number, anyHigh: boolean): void {
    const nodes = tr.nodeCount;
    const targets = morph.length;
    this.totalsLow.fill(0);
    if (targets > 0) this.morphTotalsLow.fill(0);
    if (anyHigh) {
      this.totalsHigh.fill(0);
      if (targets > 0) this.morphTotalsHigh.fill(0);
    }
    if (active > 0) {
      let lowStarted = false;
      let highStarted = false;
      for (let t = 0; t < tr.count; t++) {
        if (tr.enabled[t] === 0 || !(tr.weight[t] > 0) || tr.clip[t] < 0 || tr.additive[t] === 1) continue;
        const morphs = targets > 0 && tr.mask[t] === -1;
        const high = tr.high[t] === 1;
        const acc = high ? this.highLocals : locals;
        const totals = high ? this.totalsHigh : this.totalsLow;
        mixWeight[0] = tr.weight[t];
        if (high ? highStarted : lowStarted) {
          tr.sample(t, morphs);
          accumulatePose(acc, totals, tr.sampled[t], tr.contrib, t * nodes, nodes);
        } else {
          // The group's first track: every total is 0, so accumulatePose would copy the sample where the
          // track contributes; sampling straight into the accumulator gives those very values.
          const clip = tr.clips[tr.clip[t]];
          sampleTime[0] = tr.time[t];
          sampleClipAt(clip, tr.cursor(t), tr.skeleton.restLocal, acc);
          if (morphs) {
            sampleTime[0] = tr.time[t];
            sampleMorphTracksAt(clip.morphTracks ?? NO_MORPH_TRACKS, tr.morphCursor(t), tr.sampledMorph[t]);
          }
          claimPose(totals, tr.contrib, t * nodes, nodes);
          if (high) highStarted = true;
          else lowStarted = true;
        }
        if (morphs) {
          accumulateMorph(
            high ? this.morphHigh : morph,
            high ? this.morphTotalsHigh : this.morphTotalsLow,
            tr.sampledMorph[t],
            tr.clipTargets[tr.clip[t]],
            targets,
          );
        }
      }
    }
    fillRest(locals, this.totalsLow, tr.skeleton.restLocal, nodes);
    fillMorphRest(morph, this.morphTotalsLow, targets);
    if (this.anyMorphDefault) addMorphRest(morph, this.morphTotalsLow, this.morphDefaults, targets);
    if (anyHigh) {
      mixWeight[0] = state[blendSlot];
      overlayHigh(locals, this.highLocals, this.totalsHigh, nodes);
      overlayHighMorph(morph, this.morphHigh, this.morphTotalsHigh, targets);
    }
  }

  private applyAdditives(tr: TrackTable, locals: Float32Array, morph: Float32Array): void {
    const nodes = tr.nodeCount;
    const targets = morph.length;
    for (let t = 0; t < tr.count; t++) {
      if (tr.enabled[t] === 0 || !(tr.weight[t] > 0) || tr.clip[t] < 0 || tr.additive[t] === 0) continue;
      const c = tr.clip[t];
      const morphs = targets > 0 && tr.mask[t] === -1;
      tr.sample(t, morphs);
      mixWeight[0] = tr.weight[t];
      applyAdditive(locals, tr.sampled[t], tr.pose0Of(c), tr.contrib, t * nodes, nodes);
      if (morphs) additiveMorph(morph, tr.sampledMorph[t], tr.morph0Of(c), tr.clipTargets[c], targets);
    }
  }
}

/** After fillMorphRest (rest 0): adds (1 − W) · rest where the low group's total W is below 1. */
function addMorphRest(morph: Float32Array, totals: Float64Array, rest: Float32Array, count: number): void {
  for (let i = 0; i < count; i++) {
    const W = totals[i];
    if (W < 1) morph[i] += (1 - W) * rest[i];
  }
}
