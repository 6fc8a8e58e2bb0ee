import { liveQualityIfAny } from '../quality/live.ts';
import type { FrameFigures } from '../render/frame-types.ts';
import type { LoadedModel } from './loaded-model.ts';
import type { FirstFrame } from './first-frame.ts';

/**
 * Per-frame figures and the stats window: what `stats()` returns and the stats box shows — figures averaged
 * over the last second, the current technique's load-time costs shown at once after a switch, and one-time
 * work (a first compile, a technique's mesh state, morph storage) reported once as such, never averaged
 * into a per-frame figure. Owns the window and the reported object; reads the frame's figures, never GL.
 * record() allocates nothing.
 */

/**
 * Figures averaged over the last second (`stats()`, docs/api.md#stats), plus the live cost panel of the
 * current technique: its draws, bone groups, duplicated vertices, vertex bytes, CPU skinning time.
 */
export interface Stats {
  fps: number;
  cpuAnimUs: number;
  paletteBytes: number;
  uploadBytes: number;
  drawCalls: number;
  technique: string;
  /** Draws of the skinned meshes (drawCalls less floor and overlays). */
  meshDrawCalls: number;
  /** Passes that drew the model's meshes in the last frame (surfaces, wireframe edges, shadow map …). */
  passes: number;
  /**
   * Vertex skinnings in the last frame: per pass for techniques that skin in the vertex shader, once for those
   * that skin once and draw the result in every pass (software, stream-out).
   */
  skinnedVerticesPerFrame: number;
  /** Bytes the technique's own skinning pass writes per frame (stream-out's transform feedback), averaged like uploadBytes; 0 for the others. */
  feedbackBytes: number;
  groups: number;
  duplicatedVertices: number;
  vertexBytes: number;
  /** Triangles the technique draws with reduced influences (more bones than a group holds). */
  approximatedTriangles: number;
  /** CPU time of the technique's per-frame work (palette, CPU skinning, uploads), µs; one-time work excluded. */
  cpuSkinUs: number;
  /** The last one-time work: what was built and how long it took (ms), or null before any. */
  oneTime: { what: string; ms: number } | null;
  /** A limit of the technique the current pose runs into (dual-quat and scale), or null. */
  warning: string | null;
  /** Diff view: pixels that differ from the software reference (last count) and their share of the canvas; -1 in other views. */
  diffPixels: number;
  diffShare: number;
  /** The view drawn, and the weights view's bone name (for the legend). */
  view: string;
  bone: string;
  /** How morph targets are applied (state `morphs`), or null for a model without targets. */
  morphPath: string | null;
  /** Slots path: the targets bound to Dawn's 5 attribute slots this frame (ascending target index); [] on other paths. */
  morphSlots: string[];
  /** Their weights, in the same order. */
  morphSlotWeights: number[];
  /** Slots path: Σ|w| of the non-zero targets that got no slot this frame (0 on other paths). */
  morphDropped: number;
  /** Instances drawn (1 outside crowd mode); `technique` then reads e.g. "crowd 100 (instanced, texture palette)". */
  crowd: number;
  /** Wander crowd: footsteps its agents' callback keys fired over the last second of wander time; else 0. */
  footstepsPerSecond: number;
  /** Wander crowd: µs of CPU per instance per frame (its controllers, steering and palettes), averaged over the window; else 0. */
  wanderUsPerInstance: number;
  /** Crowd mode: instances the camera pass drew and culled, as of the last frame of the window (not averaged); 1 and 0 outside it. */
  instancesDrawn: number;
  instancesCulled: number;
  /** Crowd mode: triangles drawn in the last frame, every pass (camera, shadow casters; an impostor counts 2); 0 outside it. */
  crowdTriangles: number;
  /**
   * Crowd mode's distance LOD: the camera pass's instances per drawn level, nearest (the chosen level) first,
   * the impostors last when drawn, as of the last frame; [1] outside crowd mode, [drawn] without LOD.
   */
  instancesPerLevel: number[];
  /** Mixed crowds: the camera pass's instances per model, the loaded model first, as of the last frame; [instancesDrawn] for one model. */
  instancesPerModel: number[];
  /**
   * The technique on screen's artifact figures at the pose (src/quality/live.ts, its CPU reference, updated a
   * few times a second): whole-model volume ratio posed / rest and p95 |log₂| one-ring area change; null when
   * not available (crowd mode, a technique without a CPU reference).
   */
  volumeRatio: number | null;
  areaP95: number | null;
  /**
   * Stats windows closed since the page started. Each close copies the figures of its last frame (and the
   * window's averages), so figures read once this has advanced twice past a change describe frames after it.
   */
  windows: number;
  /**
   * Time to first frame of the last model loaded, ms (its `firstFrame.totalMs`), or null before one; filled in by
   * the app (first-frame.ts), not by the stats window.
   */
  firstFrameMs: number | null;
  /** Its parts (first-frame.ts FirstFrame): fetch, parse, prepare, upload, shaders, wait, draw; null before a model. */
  firstFrame: FirstFrame | null;
}

export class FrameStats {
  private readonly window = { start: 0, frames: 0, cpuUs: 0, upload: 0, skinUs: 0, feedback: 0, crowdUs: 0 };
  private readonly last: Stats = {
    fps: 0,
    cpuAnimUs: 0,
    paletteBytes: 0,
    uploadBytes: 0,
    drawCalls: 0,
    technique: '',
    meshDrawCalls: 0,
    passes: 0,
    skinnedVerticesPerFrame: 0,
    feedbackBytes: 0,
    groups: 0,
    duplicatedVertices: 0,
    vertexBytes: 0,
    approximatedTriangles: 0,
    cpuSkinUs: 0,
    oneTime: null,
    warning: null,
    diffPixels: -1,
    diffShare: -1,
    view: 'shaded',
    bone: '',
    morphPath: null,
    morphSlots: [],
    morphSlotWeights: [],
    morphDropped: 0,
    crowd: 1,
    footstepsPerSecond: 0,
    wanderUsPerInstance: 0,
    instancesDrawn: 1,
    instancesCulled: 0,
    crowdTriangles: 0,
    instancesPerLevel: [1],
    instancesPerModel: [1],
    volumeRatio: null,
    areaP95: null,
    windows: 0,
    firstFrameMs: null,
    firstFrame: null,
  };
  private readonly oneTime = { what: '', ms: 0 };

  /** A model became current: its palette size is known before its first frame. */
  modelChanged(model: LoadedModel): void {
    this.last.paletteBytes = model.paletteBytes;
  }

  /**
   * One drawn frame: `cpuUs` of animation (crowd posing included), the renderer's figures `f`, the technique
   * label shown, the view and bone for the legend, at clock time `now` (ms).
   */
  record(model: LoadedModel, f: FrameFigures, cpuUs: number, now: number, technique: string, view: string, bone: string, slot = 0): void {
    const st = this.last;
    // Not averaged: the diff count is already a sampled figure, and the legend follows the view at once.
    st.diffPixels = f.diffPixels;
    st.diffShare = f.diffShare;
    st.view = view;
    st.bone = bone;
    const q = liveQualityIfAny(model.scene, slot);
    const shown = q !== undefined && q.technique === technique;
    st.volumeRatio = shown && Number.isFinite(q.summary.volumeRatio) ? q.summary.volumeRatio : null;
    st.areaP95 = shown && Number.isFinite(q.summary.areaP95) ? q.summary.areaP95 : null;
    if (f.setupUs > 0) {
      // One-time work is reported once, as such; the frame that did it stays out of the per-frame averages.
      this.oneTime.what = f.setupWhat;
      this.oneTime.ms = f.setupUs / 1000;
      st.oneTime = this.oneTime;
      if (st.technique !== technique || st.groups !== f.groups || st.vertexBytes !== f.vertexBytes) {
        this.copyFigures(model, f, f.uploadBytes, f.skinUs, f.feedbackBytes, f.crowdPoseUs, technique);
        st.cpuAnimUs = cpuUs;
        this.window.frames = 0;
      }
      return;
    }
    const w = this.window;
    if (w.frames === 0) {
      // A new window (also after a one-time frame cut the last one short): nothing of the last one carries over.
      w.start = now;
      w.cpuUs = 0;
      w.upload = 0;
      w.skinUs = 0;
      w.feedback = 0;
      w.crowdUs = 0;
    }
    w.frames++;
    w.cpuUs += cpuUs;
    w.upload += f.uploadBytes;
    w.skinUs += f.skinUs;
    w.feedback += f.feedbackBytes;
    w.crowdUs += f.crowdPoseUs;
    if (st.technique !== technique || st.groups !== f.groups || st.vertexBytes !== f.vertexBytes) {
      // A switch (technique, palette, influences) shows the new mesh state's costs at once; the averages restart.
      w.frames = 1;
      w.start = now;
      w.cpuUs = cpuUs;
      w.upload = f.uploadBytes;
      w.skinUs = f.skinUs;
      w.feedback = f.feedbackBytes;
      w.crowdUs = f.crowdPoseUs;
      this.copyFigures(model, f, w.upload, w.skinUs, w.feedback, w.crowdUs, technique);
      st.cpuAnimUs = cpuUs;
    }
    if (now - w.start >= 1000) {
      st.windows++;
      st.fps = ((w.frames - 1) * 1000) / (now - w.start) || 0;
      st.cpuAnimUs = w.cpuUs / w.frames;
      this.copyFigures(model, f, w.upload / w.frames, w.skinUs / w.frames, w.feedback / w.frames, w.crowdUs / w.frames, technique);
      w.frames = 0;
      w.cpuUs = 0;
      w.upload = 0;
      w.skinUs = 0;
      w.feedback = 0;
      w.crowdUs = 0;
    }
  }

  private copyFigures(model: LoadedModel, f: FrameFigures, upload: number, skinUs: number, feedback: number, crowdUs: number, technique: string): void {
    const st = this.last;
    st.technique = technique;
    st.uploadBytes = upload;
    st.feedbackBytes = feedback;
    st.cpuSkinUs = skinUs;
    st.paletteBytes = model.paletteBytes;
    st.drawCalls = f.drawCalls;
    st.meshDrawCalls = f.meshDrawCalls;
    st.passes = f.passes;
    st.skinnedVerticesPerFrame = f.skinnedVertices;
    st.crowd = f.crowd;
    st.instancesDrawn = f.instancesDrawn;
    st.instancesCulled = f.instancesCulled;
    st.crowdTriangles = f.crowdTriangles;
    const perLevel = st.instancesPerLevel;
    perLevel.length = f.lodLevels;
    for (let l = 0; l < f.lodLevels; l++) perLevel[l] = f.instancesPerLevel[l]!;
    const perModel = st.instancesPerModel;
    perModel.length = f.crowdModels;
    for (let k = 0; k < f.crowdModels; k++) perModel[k] = f.drawnPerModel[k]!;
    st.footstepsPerSecond = f.footsteps;
    // Averaged over the window: one frame's posing can read 0 under the page's coarse clock.
    st.wanderUsPerInstance = f.wander && f.crowd > 0 ? crowdUs / f.crowd : 0;
    st.groups = f.groups;
    st.duplicatedVertices = f.duplicatedVertices;
    st.vertexBytes = f.vertexBytes;
    st.approximatedTriangles = f.approximatedTriangles;
    const shear = f.unrepresentableScale;
    if (shear > 1e-3) {
      if (st.warning === null || !st.warning.startsWith(`pose has shear ${shear.toFixed(3)}`)) {
        st.warning = `pose has shear ${shear.toFixed(3)} (|cos| between palette axes) that dual quaternions cannot represent; drawn without it`;
      }
    } else st.warning = null;
  }

  /** The reported figures with the current model's morph slots filled in (a copy: allocates; not per frame). */
  snapshot(model: LoadedModel | null): Stats {
    const out = {
      ...this.last,
      oneTime: this.last.oneTime ? { ...this.last.oneTime } : null,
      instancesPerLevel: [...this.last.instancesPerLevel],
      instancesPerModel: [...this.last.instancesPerModel],
      morphPath: null as string | null,
      morphSlots: [] as string[],
      morphSlotWeights: [] as number[],
      morphDropped: 0,
    };
    const morph = model?.gpu.morph;
    if (morph) {
      out.morphPath = morph.path;
      if (morph.path === 'slots') {
        const names = model!.scene.morphTargets;
        for (const t of morph.slots) {
          if (t < 0) continue;
          out.morphSlots.push(names[t]!);
          out.morphSlotWeights.push(morph.applied[t]!);
        }
        out.morphDropped = morph.dropped;
      }
    }
    return out;
  }
}
