import { MORPH_PATHS } from '../anim/morph.ts';
import { paletteSimdInUse } from '../anim/palette-simd.ts';
import { poseSimdInUse } from '../anim/pose-simd.ts';
import { VIEW_IDS } from '../render/views.ts';
import { paletteRange, TECHNIQUES, type Technique } from '../techniques/index.ts';
import { findBuiltin } from './builtins.ts';
import type { AppContext } from './context.ts';
import type { ParseFigures } from './loader.ts';
import type { LoadedModel } from './loaded-model.ts';
import { techniqueOptions } from './model-state.ts';
import { formatMorph } from './state.ts';

/**
 * The facts the page reports about itself: `info()` (docs/api.md#info: the model, its clips, bones and
 * morph targets, the state, what each technique can do here) and the stats box's model facts, filled into
 * one reused object at 4 Hz. Reads the context, the last parse and the last frame's draw count; writes
 * nothing outside its own objects. info() allocates (a fresh object per call); overlayFacts() does not.
 */

/** What the stats box shows about the model. */
export interface OverlayFacts {
  bones: number;
  vertices: number;
  triangles: number;
  technique: string;
  clip: string | null;
  t: number;
}

/** Why `technique` cannot draw the current model with the current options, or null. */
export function unsupportedReason(ctx: AppContext, technique: Technique): string | null {
  const m = ctx.current;
  return m ? technique.unsupportedReason(m.scene, ctx.renderer.caps, techniqueOptions(ctx.state)) : null;
}

/** Smallest workable and largest device palette for ff-indexed on the current model at the current influences. */
export function currentPaletteRange(ctx: AppContext): { min: number; max: number } | null {
  const m = ctx.current;
  return m ? paletteRange(m.scene, ctx.renderer.caps, ctx.state.influences) : null;
}

/** The model's bones by name (the `bone` key's names, in index order). */
export function boneNames(model: LoadedModel | null): string[] {
  return model ? model.bones.map((b) => model.scene.skeleton.names[b] ?? String(b)) : [];
}

export class Facts {
  private readonly facts: OverlayFacts = { bones: 0, vertices: 0, triangles: 0, technique: '', clip: null, t: 0 };
  private factsModel: LoadedModel | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly lastParse: () => ParseFigures | null,
    private readonly drawCalls: () => number,
    private readonly lod: () => { status: string; error: string; details: string[]; timing?: { ms: number; wasmMs: number; totalMs: number } | null } = () => ({ status: 'off', error: '', details: [] }),
    private readonly crowdModels: () => unknown[] = () => [],
  ) {}

  /** info().lod (allocates). */
  private lodFacts(): {
    on: boolean;
    status: string;
    error: string;
    loading: string[];
    levels: { detail: string; from: number; to: number | null }[];
    timing: { ms: number; wasmMs: number; totalMs: number } | null;
  } {
    const { state, renderer } = this.ctx;
    const loader = this.lod();
    const levels: { detail: string; from: number; to: number | null }[] = [];
    if (state.crowd > 1 && this.ctx.current) {
      const { details, to } = renderer.crowdLevels();
      let from = 0;
      for (let l = 0; l < details.length; l++) {
        levels.push({ detail: details[l] || this.ctx.current.detail, from, to: to[l]! });
        from = to[l] ?? from;
      }
    }
    const timing = loader.timing ? { ...loader.timing } : null;
    return { on: state.lod, status: loader.status, error: loader.error, loading: loader.status === 'loading' ? [...loader.details] : [], levels, timing };
  }

  /**
   * The stats box's facts about the current model and clip, filled into one reused object: the box
   * refreshes at 4 Hz and needs none of info()'s lists. Null without a model.
   */
  overlay(): OverlayFacts | null {
    const m = this.ctx.current;
    if (!m) return null;
    const f = this.facts;
    if (this.factsModel !== m) {
      this.factsModel = m;
      const bones = new Set<number>();
      f.vertices = 0;
      f.triangles = 0;
      for (const mesh of m.scene.meshes) {
        if (mesh.skinned) for (const b of mesh.bones) bones.add(b);
        f.vertices += mesh.vertexCount;
        f.triangles += mesh.indices.length / 3;
      }
      f.bones = bones.size;
    }
    f.technique = this.ctx.state.technique;
    f.clip = m.player.clipIndex >= 0 ? m.scene.clips[m.player.clipIndex]!.name : null;
    f.t = m.player.time;
    return f;
  }

  /** `info()` (docs/api.md#info). */
  info(): Record<string, unknown> {
    const ctx = this.ctx;
    const state = ctx.state;
    const m = ctx.current;
    const scene = m?.scene;
    const bones = new Set<number>();
    for (const mesh of scene?.meshes ?? []) if (mesh.skinned) for (const b of mesh.bones) bones.add(b);
    const cam = ctx.camera;
    return {
      model: m?.id ?? null,
      label: m?.label ?? null,
      /** Where the model came from: 'builtin' and 'url' can be linked to, 'file' cannot. */
      origin: m?.origin ?? null,
      detail: m?.detail || null,
      /** The file's axis stood up ('y' as stored, 'z'/'-z' turned), why (stored, detected, asked, built-in), and the `up` key. */
      up: m ? { ...m.up, asked: state.up } : null,
      /** The framed box in model units (the rest pose and every clip sampled; app/framing.ts): { min, max }, or null. */
      bounds: m ? { min: [...m.framing.min], max: [...m.framing.max] } : null,
      details: Object.keys(findBuiltin(m?.id ?? '')?.details ?? {}),
      clips: scene?.clips.map((c) => c.name) ?? [],
      clip: scene && m.player.clipIndex >= 0 ? scene.clips[m.player.clipIndex]!.name : null,
      duration: m?.player.duration ?? 0,
      t: m?.player.time ?? 0,
      paused: state.t !== null || state.paused,
      speed: state.speed,
      technique: state.technique,
      /** Side-by-side compare (state `compare`): A left, B right, the divider's share of the width; null when off. */
      compare: state.compare ? { a: state.compare.a, b: state.compare.b, split: state.compareSplit } : null,
      techniques: TECHNIQUES.map((t) => t.id),
      /** What cor's and ddm's load-time data cost this model: {cor?: {ms, where: 'worker' | 'main' | 'cache'}, ddm?: …}. */
      precompute: ctx.deform.figures(m),
      /** Per technique id: null when it can draw this model here, else the reason (greyed out in the GUI). */
      techniqueSupport: Object.fromEntries(TECHNIQUES.map((t) => [t.id, unsupportedReason(ctx, t)])),
      influences: state.influences,
      palette: state.palette,
      paletteRange: currentPaletteRange(ctx),
      view: state.view,
      views: [...VIEW_IDS],
      bone: state.bone,
      boneNames: boneNames(m),
      bindPose: state.bindPose,
      grid: state.grid,
      /** The key light's shadow map is drawn (state `shadows`). */
      shadows: state.shadows,
      /** Texels along a side of the shadow map drawn (1024 or 2048: render/shadow-map.ts), 0 with shadows off. */
      shadowMap: state.shadows ? ctx.renderer.shadowMapSize : 0,
      /** The shading drawn ('studio' | 'pbr'; a crowd draws studio; null without a model) and the setting (state `shading`: 'auto' | 'studio' | 'pbr'). */
      shading: m ? (state.crowd > 1 ? 'studio' : ctx.renderer.shadingOf(m.gpu)) : null,
      shadingSetting: state.shading,
      skeleton: state.skeleton,
      morphTargets: scene?.morphTargets ?? [],
      morphKinds: scene ? scene.morphTargets.map((_, i) => scene.morphKinds?.[i] ?? 'modifier') : [],
      morphs: state.morphs,
      morphPaths: [...MORPH_PATHS],
      /** Hand-set weights (state `morph`), and every non-zero weight applied this frame (track or hand). */
      morph: formatMorph(state.morph),
      morphTrack: state.morphTrack,
      morphWeights: m ? Object.fromEntries(scene!.morphTargets.map((n, i) => [n, m.player.morphWeights[i]!]).filter(([, w]) => w !== 0)) : {},
      bones: bones.size,
      frames: scene?.skeleton.parents.length ?? 0,
      /** The file's format as `inspect` names it ('x-text', 'm3d', 'gltf', 'glb', …), and the images it carries (glTF). */
      format: scene?.format ?? null,
      images: scene?.images?.length ?? 0,
      /** Meshes given MikkTSpace tangents at load (normal-mapped, no tangents in the file). */
      tangentsGenerated: scene?.tangentsGenerated ?? 0,
      vertices: scene?.meshes.reduce((n, x) => n + x.vertexCount, 0) ?? 0,
      triangles: scene?.meshes.reduce((n, x) => n + x.indices.length / 3, 0) ?? 0,
      meshes: scene?.meshes.length ?? 0,
      /** Meshes that carry vertex colours (SkinnedMesh.colors). */
      vertexColours: scene?.meshes.filter((x) => x.colors).length ?? 0,
      drawCalls: this.drawCalls(),
      /** The animation controller's enabled tracks (`info().tracks`, docs/api.md#info), and the `tracks` spec ('' = one clip). */
      tracks: m ? trackFacts(m) : [],
      tracksSpec: state.tracks,
      priorityBlend: m ? m.player.controller.priorityBlend : 1,
      /** The last callback keys fired, newest first: {track, clip, name, time (clip s), at (controller s)}. */
      events: m ? eventFacts(m) : [],
      lookAt: state.lookAt,
      lookAtChain: m?.lookAt ? m.lookAt.joints.map((j) => m.scene.skeleton.names[j.node] ?? String(j.node)) : [],
      wander: state.wander && state.crowd > 1,
      crowd: state.crowd,
      /**
       * Crowd mode's path actually drawn ('baked' or 'cpu'; wander draws 'cpu'); outside crowd mode the path a
       * crowd would draw (the `crowdPath` setting, 'cpu' with wander). crowdPathNote says what it is.
       */
      crowdPath: state.crowd > 1 ? ctx.renderer.crowdPath || state.crowdPath : state.wander ? 'cpu' : state.crowdPath,
      crowdPathWanted: state.crowdPath,
      /** Where the crowd stands: 'grid' or 'plaza' (the state's; wander walks its own square whatever it says). */
      crowdLayout: state.crowdLayout,
      /** A tint per crowd instance (crowdTint, default on). */
      crowdTint: state.crowdTint,
      cull: state.cull,
      /** Where the crowd draws impostors: 'far' (default), 'all' or 'off'. */
      impostors: state.impostors,
      crowdBake: ctx.renderer.crowdBake(),
      /**
       * Crowd mode's distance LOD (docs/crowds.md): `on` (state.lod); `status` of the lighter levels: 'off' (none
       * wanted: no crowd, lod=0, wander, no levels below the chosen one), 'loading', 'ready' or 'failed' (`error`);
       * `levels` the detail levels the last crowd frame drew, nearest first, each with the camera distance where
       * it starts and ends (model units; to null: no end); [] outside crowd mode. `timing`: generated levels'
       * times, ms — `ms` the simplification in the LOD worker, `wasmMs` waiting for its WebAssembly first (0 when
       * warm), `totalMs` from the request to the levels; null without generated levels held.
       */
      lod: this.lodFacts(),
      /**
       * The crowd's detail levels held (docs/crowds.md): `source` 'generated' (simplified from the model) or
       * 'authored' (Dawn's files), `levels` nearest first, each {detail, triangles, error} (error in model units;
       * 0 for the chosen level). null when none are held.
       */
      lodLevels: ctx.renderer.crowdLevelTable(),
      /**
       * Mixed crowds (`crowdModels`, docs/crowds.md): the loaded model first, then each other model listed, as
       * {id, status: 'loading' | 'ready' | 'failed', instances (last crowd frame), triangles, error?}.
       */
      crowdModels: this.crowdModels(),
      crowdPathNote:
        state.crowd > 1
          ? `instanced, texture palette${state.wander ? ', wander: every instance its own controller' : ''} (technique menu and view ignored; morph targets not applied)`
          : null,
      /** The orbit camera as drawn: degrees, distance in model units, target in model units. */
      camera: { yaw: cam.yawDeg, pitch: cam.pitchDeg, distance: cam.distance, target: [cam.target[0], cam.target[1], cam.target[2]] },
      warnings: m?.warnings ?? [],
      /** The last completed parse: { name, bytes (with its external files), resources (their count), where: 'worker' | 'main', parseMs, totalMs }, or null. */
      parse: this.lastParse(),
      renderer: ctx.renderer.rendererName,
      /** The CPU palette product's path: 'wasm-simd' (the WebAssembly SIMD kernel) or 'scalar' (no WebAssembly SIMD here, or compiling it refused). */
      paletteKernel: paletteSimdInUse() ? 'wasm-simd' : 'scalar',
      /** The CPU pose jobs' path (clip sampling, local → model): 'wasm-simd' (the WebAssembly kernels) or 'scalar' (plain JavaScript), as paletteKernel. */
      poseKernel: poseSimdInUse() ? 'wasm-simd' : 'scalar',
      canvas: [ctx.canvas.width, ctx.canvas.height],
    };
  }
}

/** info().tracks: every enabled track of the model's controller. */
function trackFacts(m: LoadedModel): Record<string, unknown>[] {
  const c = m.player.controller;
  const { clips, skeleton } = m.scene;
  const out: Record<string, unknown>[] = [];
  for (let t = 0; t < c.trackCount; t++) {
    const clip = c.trackClip(t);
    if (clip < 0 || !c.trackEnabled(t)) continue;
    const mask = c.trackMask(t);
    out.push({
      track: t,
      clip: clips[clip]!.name,
      weight: c.trackWeight(t),
      speed: c.trackSpeed(t),
      time: c.trackTime(t),
      duration: c.trackDuration(t),
      enabled: c.trackEnabled(t),
      priority: c.trackPriority(t),
      mask: mask >= 0 ? skeleton.names[mask] ?? String(mask) : null,
      additive: c.trackAdditive(t),
      sync: c.trackSync(t),
    });
  }
  return out;
}

/** info().events: the controller's ring of fired callback keys, newest first. */
function eventFacts(m: LoadedModel): Record<string, unknown>[] {
  const c = m.player.controller;
  const out: Record<string, unknown>[] = [];
  const n = Math.min(c.firedCount, 32);
  for (let k = 0; k < n; k++) {
    const clip = c.firedClip(k);
    const marker = c.marker(clip, c.firedMarker(k));
    out.push({ track: c.firedTrack(k), clip: m.scene.clips[clip]?.name ?? null, name: marker.name, time: marker.time, at: c.firedAt(k) });
  }
  return out;
}
