import { mat4, vec4 } from 'gl-matrix';
import { liveQuality } from '../quality/live.ts';
import type { OrbitCamera } from '../render/camera.ts';
import { emptyFigures, type FrameFigures, type RenderOptions } from '../render/frame-types.ts';
import { findTechnique, TECHNIQUES, type TechniqueId } from '../techniques/index.ts';
import { placeCamera } from './camera-placement.ts';
import { CompareFrame } from './compare-frame.ts';
import type { AppContext } from './context.ts';
import { CrowdPlacement } from './crowd-placement.ts';
import { CrowdLodLoader } from './crowd-lod-loader.ts';
import { CrowdModels } from './crowd-models.ts';
import { FrameStats } from './frame-stats.ts';
import type { LoadedModel } from './loaded-model.ts';

/**
 * One frame of the current model: advances or pins the animation clock from the state, evaluates the
 * pose, lays out a crowd and places the camera when they are due, fills the render options from the
 * state, draws through the renderer and records the figures in the stats window. Owns the render options,
 * the frame's figures, the crowd placement and the stats; reads the state, never writes it (except
 * rounding a paused time so a link carries it exactly). With `compare` on, the two halves are drawn by
 * compare-frame.ts (the left half's figures and stats are this drawer's own). No allocation.
 */
export class FrameDrawer {
  readonly figures: FrameFigures = emptyFigures();
  readonly stats = new FrameStats();
  readonly crowd = new CrowdPlacement();
  /** Crowd mode's lighter detail levels, loaded in the background (crowd-lod-loader.ts). */
  readonly lod = new CrowdLodLoader();
  /** Mixed crowds: the other models of the crowd, loaded in the background (crowd-models.ts). */
  readonly mixed: CrowdModels;
  /** Side-by-side compare: the split frame and the right half's figures (compare-frame.ts). */
  readonly compare = new CompareFrame();
  /** The last frame was split (compare): a change re-frames an automatic camera for the new aspect. */
  private wasSplit = false;
  /** state.bone resolved against the current model: a skeleton node, or -1 (App sets it). */
  boneNode = -1;
  /** The bone name a click, the bone menu or `bone=` chose (null: none; App sets it): highlighted in the skeleton overlay while state.bone still names it. */
  selectedBone: string | null = null;
  /**
   * [held, x, y]: while held is 1 the look-at chain follows the pointer at (x, y) in normalised device
   * coordinates (ui/input.ts writes it) instead of the camera.
   */
  readonly lookPointer = new Float32Array(3);
  /** The camera must be placed from the state (or framed) before the next frame. */
  cameraDirty = true;
  /** The model the last frame drew (its first frame skips the artifact figures: see draw()). */
  private shown: LoadedModel | null = null;
  /** The last frame's CPU animation time, µs (crowd posing included): what the stats window averages (benchmark probe). */
  lastCpuUs = 0;
  /** Filled from the state each frame (no per-frame object). */
  private readonly options: RenderOptions = {
    technique: TECHNIQUES[0]!,
    influences: 4,
    palette: 12,
    view: 'shaded',
    skeleton: false,
    grid: true,
    bindPose: false,
    bone: -1,
    selectedBone: -1,
    morphs: 'slots',
    crowd: 1,
    crowdSpacing: 1,
    crowdLayout: 'grid',
    crowdFacing: 0,
    crowdPivot: new Float32Array(2),
    crowdTint: true,
    crowdFloor: mat4.create(),
    wander: false,
    wanderSpacing: 1,
    wanderFloorY: 0,
    crowdPath: 'baked',
    cull: true,
    impostors: 'far',
    lod: true,
    crowdMix: [],
  };

  constructor(private readonly ctx: AppContext) {
    this.mixed = new CrowdModels((message) => ctx.fail(message));
  }

  /** The technique the single view draws now (the state's may still wait for its load-time data). */
  get drawnTechnique(): TechniqueId {
    return this.options.technique.id;
  }

  draw(model: LoadedModel, dt: number, now: number): void {
    const { state: s, camera, canvas } = this.ctx;
    const player = model.player;
    const controller = player.controller;
    const t0 = performance.now();
    player.speed = s.speed;
    // `t` pins, and a link carries, the player's clock time: the clip's time, or in tracks mode the
    // controller clock (every track at its start + clock × speed, AnimPlayer.useTracks).
    if (s.t !== null) {
      if (player.clockTime !== s.t || player.fading) player.setTime(s.t);
      player.paused = true;
    } else {
      player.paused = s.paused;
      player.advance(dt);
      // Paused by the user: the time a link carries (`t`, 4 decimals) is exactly the one drawn.
      if (s.paused && !player.fading) {
        const r = roundTime(player.clockTime);
        if (r !== player.clockTime) player.setTime(r);
      }
    }
    // Look-at runs inside evaluate, after the tracks, towards where the camera was last drawn from, or
    // towards the pointer while its key is held (lookPointer).
    const look = model.lookAt;
    const pointer = this.lookPointer;
    if (look !== null && (s.lookAt > 0 || pointer[0] === 1)) {
      look.weight = s.lookAt > 0 ? s.lookAt : 1;
      if (pointer[0] === 1) pointerTarget(camera, pointer[1]!, pointer[2]!, look.target);
      else {
        look.target[0] = camera.position[0]!;
        look.target[1] = camera.position[1]!;
        look.target[2] = camera.position[2]!;
      }
      if (controller.postProcess !== look) controller.postProcess = look;
    } else if (controller.postProcess !== null) controller.postProcess = null;
    player.evaluate();
    let cpuUs = (performance.now() - t0) * 1000;
    const o = this.options;
    o.wander = s.wander && s.crowd > 1;
    this.mixed.update(model, s, this.ctx.renderer);
    o.crowdMix = this.mixed.mix;
    o.crowdLayout = s.crowdLayout;
    if (this.crowd.update(model, s.crowd, o) && s.camera === null) this.cameraDirty = true;
    // cor and ddm draw once their load-time data exists (deform-gate.ts starts it); until then the last technique.
    const deform = this.ctx.deform;
    const split = this.compare.active(s) && deform.ready(model, s.compare!.a) && deform.ready(model, s.compare!.b);
    if (split !== this.wasSplit) {
      this.wasSplit = split;
      if (s.camera === null) this.cameraDirty = true;
    }
    camera.aspect = split ? this.compare.framingAspect(canvas.width, canvas.height) : canvas.width / Math.max(1, canvas.height);
    if (this.cameraDirty) {
      placeCamera(camera, model.framing, s.camera, s.crowd, this.crowd.extent, this.crowd.plazaEdge);
      this.cameraDirty = false;
    }
    camera.update();
    if (o.technique.id !== s.technique && deform.ready(model, s.technique)) o.technique = findTechnique(s.technique) ?? TECHNIQUES[0]!;
    o.influences = s.influences;
    o.palette = s.palette;
    o.view = s.view;
    o.skeleton = s.skeleton;
    o.grid = s.grid;
    o.bindPose = s.bindPose;
    o.bone = this.boneNode;
    o.selectedBone = this.selectedBone !== null && this.selectedBone === s.bone ? this.boneNode : -1;
    o.morphs = s.morphs;
    o.crowd = s.crowd;
    o.crowdPath = s.crowdPath;
    o.crowdTint = s.crowdTint;
    o.cull = s.cull;
    o.impostors = s.impostors;
    o.lod = s.lod;
    this.lod.update(model, s, this.ctx.renderer);
    player.morphTracksEnabled = s.morphTrack;
    // The stats box's artifact figures and the distortion view's data: throttled, from the CPU reference. Not
    // on a model's first frame, whose picture needs them only in the distortion view: their probe's setup is
    // tens of ms on a character, and the stats box shows them from the next frame on.
    const wantLogs = s.view === 'distortion';
    if (s.crowd <= 1 && (wantLogs || this.shown === model)) {
      // The figures of what is on screen: each compare half's technique, else the view's.
      liveQuality(model.scene).update(player, split ? s.compare!.a : o.technique.id, s.influences, player.morphWeights, wantLogs, !player.paused, now);
      if (split) liveQuality(model.scene, 1).update(player, s.compare!.b, s.influences, player.morphWeights, wantLogs, !player.paused, now);
    }
    const f = this.figures;
    this.ctx.renderer.shadows = s.shadows;
    this.ctx.renderer.shading = s.shading;
    if (split) this.compare.draw(this.ctx.renderer, model, camera, o, f, s.compareSplit);
    else this.ctx.renderer.render(model.gpu, player, camera, o, f, model.palettes);
    // The crowd's CPU animation (posing instances 1..N-1, writing every palette) is animation time too.
    cpuUs += f.crowdPoseUs;
    this.lastCpuUs = cpuUs;
    this.shown = model;
    this.stats.record(model, f, cpuUs, now, f.crowd > 1 ? (f.crowdPath === 'baked' ? this.crowd.bakedLabel : this.crowd.label) : split ? s.compare!.a : o.technique.id, s.view, s.bone);
    if (split) this.compare.statsB.record(model, this.compare.figuresB, cpuUs, now, s.compare!.b, s.view, s.bone, 1);
  }
}

const _invViewProj = mat4.create();
const _near = vec4.create();
const _far = vec4.create();

/**
 * The point under the pointer (NDC x, y) at the camera's orbit distance along the pointer's ray, in world
 * (= model) space, into out. No allocation.
 */
function pointerTarget(camera: OrbitCamera, x: number, y: number, out: Float32Array): void {
  mat4.invert(_invViewProj, camera.viewProj);
  vec4.set(_near, x, y, -1, 1);
  vec4.set(_far, x, y, 1, 1);
  vec4.transformMat4(_near, _near, _invViewProj);
  vec4.transformMat4(_far, _far, _invViewProj);
  let dx = 0;
  let dy = 0;
  let dz = 0;
  if (_near[3] !== 0 && _far[3] !== 0) {
    dx = _far[0]! / _far[3]! - _near[0]! / _near[3]!;
    dy = _far[1]! / _far[3]! - _near[1]! / _near[3]!;
    dz = _far[2]! / _far[3]! - _near[2]! / _near[3]!;
  }
  const len = Math.hypot(dx, dy, dz) || 1;
  const d = camera.distance;
  const p = camera.position;
  out[0] = p[0]! + (dx / len) * d;
  out[1] = p[1]! + (dy / len) * d;
  out[2] = p[2]! + (dz / len) * d;
}

/** A paused time as a link writes it: 4 decimals (0.1 ms). */
export function roundTime(t: number): number {
  return Math.round(t * 1e4) / 1e4;
}

/**
 * A pinned time (`t`) as a link writes it: whole microseconds, so a frame step (1/30 s) reads `0.033333`
 * rather than its float noise. Idempotent: a time already rounded (one read back from a link, one the
 * frame-step keys pinned) is returned unchanged, so the link and the frame drawn agree exactly.
 */
export function linkTime(t: number): number {
  return Math.round(t * 1e6) / 1e6;
}
