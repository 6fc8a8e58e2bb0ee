import type * as twgl from 'twgl.js';
import type { Defines, ProgramCache } from '../gpu/programs.ts';
import { UniformBinding } from '../gpu/uniforms.ts';
import type { DeviceCaps, Technique } from '../techniques/technique.ts';
import type { Scene } from '../model/types.ts';
import type { ModelGpu } from './model-gpu.ts';
import { morphDefines, morphLocations, type MorphLocations, type MorphPath } from './morph-runtime.ts';
import type { SceneUniforms } from './scene-uniforms.ts';
import { bindShadowSampler } from './shadow-map.ts';
import type { SurfaceView } from './views.ts';

/**
 * Program variants: which define set a (model, technique, influences, palette, morph path, colouring,
 * shadows) needs, and the cache of resolved variants with their uniform bindings, per slot (0: the chosen
 * technique in the view's colouring — compare's left half; 1: the diff view's software reference; 2: compare's
 * right half). Compiling goes through the
 * context's ProgramCache (which owns the programs); this file owns only the small binding objects.
 */

/** A program variant of one slot and its uniform bindings. */
export interface Variant {
  model: ModelGpu;
  technique: Technique;
  influences: number;
  palette: number;
  surface: SurfaceView;
  morphs: MorphPath;
  /** The programs carry a GPU morph define (MORPH_SLOTS / MORPH_TEXTURE). */
  gpuMorph: boolean;
  litMorph: MorphLocations | null;
  lit: twgl.ProgramInfo;
  /** The wireframe overlay's program (flat.frag), compiled on the first wireframe drawn; the same object after. */
  flat: () => FlatProgram;
  litFrame: UniformBinding<SceneUniforms['frame']>;
  litMaterial: UniformBinding<SceneUniforms['material']>;
  litView: UniformBinding<SceneUniforms['view']>;
  /** The technique's per-draw group uniform in the lit program (null when it has none). */
  litGroup: WebGLUniformLocation | null;
  /** The shaded colouring draws the material as authored (lit.frag SHADING_PBR); false: the studio shading. */
  pbr: boolean;
  /** lit.frag's u_tangentFrame (per mesh: 1 when it has tangents), in the programs that read it (pbr, the tangents view); else null. */
  litTangentFrame: WebGLUniformLocation | null;
  /** The key light's shadow map is drawn and received (lit program with SHADOW_RECEIVE in the shaded colouring; `caster` set). */
  shadows: boolean;
  /** The shadow map's caster program: the technique's own define set (its skinning, its morph path) + SHADOW_DEPTH; null without shadows. */
  caster: CasterProgram | null;
}

/** The wireframe's program (skinned.vert + flat.frag, the technique's own define set) and its bindings. */
export interface FlatProgram {
  info: twgl.ProgramInfo;
  frame: UniformBinding<SceneUniforms['frame']>;
  colour: UniformBinding<SceneUniforms['flat']>;
  morph: MorphLocations | null;
  /** The technique's per-draw group uniform (null when it has none). */
  group: WebGLUniformLocation | null;
}

/** A caster program (skinned.vert + lit.frag's depth-only path) and its bindings. */
export interface CasterProgram {
  info: twgl.ProgramInfo;
  frame: UniformBinding<SceneUniforms['frame']>;
  material: UniformBinding<SceneUniforms['material']>;
  morph: MorphLocations | null;
  group: WebGLUniformLocation | null;
}

/** lit.frag's define set for a colouring: the technique's defines plus the view's (VIEW_TEXTURE: skinned.vert fetches the view data). */
export function surfaceDefines(defines: Defines, surface: SurfaceView): Defines {
  if (surface === 'weights') return { ...defines, VIEW_WEIGHTS: true, VIEW_TEXTURE: true };
  if (surface === 'influences') return { ...defines, VIEW_INFLUENCES: true, VIEW_TEXTURE: true };
  if (surface === 'groups') return { ...defines, VIEW_GROUPS: true };
  if (surface === 'distortion') return { ...defines, VIEW_DISTORTION: true, VIEW_TEXTURE: true };
  if (surface === 'tangents') return { ...defines, VIEW_TANGENTS: true };
  return defines;
}

export class Variants {
  private readonly slots: (Variant | null)[] = [null, null, null];
  /** Technique options being resolved (reused object). */
  private readonly options = { influences: 4, palette: 12 };

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly programs: ProgramCache,
    private readonly caps: DeviceCaps,
    private readonly uniforms: SceneUniforms,
  ) {}

  /** The technique's define set plus the morph path's (morph-runtime.ts morphDefines). */
  defines(model: ModelGpu, technique: Technique, influences: number, palette: number, morphs: MorphPath): { defines: Defines; gpuMorph: boolean } {
    return this.sceneDefines(model.scene, technique, influences, palette, morphs);
  }

  private sceneDefines(scene: Scene, technique: Technique, influences: number, palette: number, morphs: MorphPath): { defines: Defines; gpuMorph: boolean } {
    const o = this.options;
    o.influences = influences;
    o.palette = palette;
    const defines = technique.defines(scene, this.caps, o);
    const extra = morphDefines(scene, morphs, defines.NO_SKIN === true);
    return extra ? { defines: { ...defines, ...extra }, gpuMorph: true } : { defines, gpuMorph: false };
  }

  /** The define sets of a variant's programs: the colouring's (lit.frag), the wireframe's (flat.frag), the shadow caster's when `shadows`. */
  private programDefines(defines: Defines, surface: SurfaceView, shadows: boolean, pbr: boolean): { lit: Defines; flat: Defines; caster: Defines | null } {
    let lit = surfaceDefines(defines, surface);
    if (shadows && surface === 'shaded') lit = { ...lit, SHADOW_RECEIVE: true };
    if (pbr && surface === 'shaded') lit = { ...lit, SHADING_PBR: true };
    return { lit, flat: defines, caster: shadows ? { ...defines, SHADOW_DEPTH: true } : null };
  }

  /**
   * Starts compiling the programs get() would compile for a scene not yet on the GPU (ProgramCache.request):
   * a load asks as soon as the Scene is parsed, so the GPU process compiles while the page uploads the rest.
   */
  request(scene: Scene, technique: Technique, influences: number, palette: number, surface: SurfaceView, morphs: MorphPath, shadows: boolean, pbr: boolean): void {
    const { defines } = this.sceneDefines(scene, technique, influences, palette, morphs);
    const p = this.programDefines(defines, surface, shadows, pbr);
    this.programs.request('skinned.vert', 'lit.frag', p.lit);
    if (p.caster) this.programs.request('skinned.vert', 'lit.frag', p.caster);
  }

  /**
   * The slot's variant, re-resolved (compiling on first use) only when one of its keys changed. `pbr`: the
   * shaded colouring uses the pbr shading (one more define; the environment is made on first use).
   */
  get(slot: number, model: ModelGpu, technique: Technique, influences: number, palette: number, surface: SurfaceView, morphs: MorphPath, shadows = false, pbr = false): Variant {
    const c = this.slots[slot];
    if (c && c.model === model && c.technique === technique && c.influences === influences && c.palette === palette && c.surface === surface && c.morphs === morphs && c.shadows === shadows && c.pbr === pbr) return c;
    const { defines, gpuMorph } = this.defines(model, technique, influences, palette, morphs);
    const p = this.programDefines(defines, surface, shadows, pbr);
    if (pbr && surface === 'shaded') this.uniforms.ensureEnvironment();
    const lit = this.programs.get('skinned.vert', 'lit.frag', p.lit);
    if (shadows) bindShadowSampler(this.gl, lit.program);
    const group = technique.groupUniform;
    const u = this.uniforms;
    let caster: CasterProgram | null = null;
    if (shadows) {
      const info = this.programs.get('skinned.vert', 'lit.frag', p.caster!);
      caster = {
        info,
        frame: new UniformBinding(info, u.frame),
        material: new UniformBinding(info, u.material),
        morph: gpuMorph ? morphLocations(this.gl, info.program) : null,
        group: group ? this.gl.getUniformLocation(info.program, group) : null,
      };
    }
    const v: Variant = {
      model,
      technique,
      influences,
      palette,
      surface,
      morphs,
      gpuMorph,
      litMorph: gpuMorph ? morphLocations(this.gl, lit.program) : null,
      lit,
      litFrame: new UniformBinding(lit, u.frame),
      litMaterial: new UniformBinding(lit, u.material),
      litView: new UniformBinding(lit, u.view),
      litGroup: group ? this.gl.getUniformLocation(lit.program, group) : null,
      flat: this.lazyFlat(p.flat, gpuMorph, group),
      pbr,
      litTangentFrame: this.gl.getUniformLocation(lit.program, 'u_tangentFrame'),
      shadows,
      caster,
    };
    this.slots[slot] = v;
    return v;
  }

  /** The wireframe program of a define set, compiled and bound on the first call, then kept. */
  private lazyFlat(defines: Defines, gpuMorph: boolean, group: string | null): () => FlatProgram {
    let flat: FlatProgram | null = null;
    return () => {
      if (flat) return flat;
      const info = this.programs.get('skinned.vert', 'flat.frag', defines);
      const u = this.uniforms;
      flat = {
        info,
        frame: new UniformBinding(info, u.frame),
        colour: new UniformBinding(info, u.flat),
        morph: gpuMorph ? morphLocations(this.gl, info.program) : null,
        group: group ? this.gl.getUniformLocation(info.program, group) : null,
      };
      return flat;
    };
  }

  /**
   * Drops variants bound to a model other than `model` (a replaced, disposed one), so neither slot keeps its
   * scene alive: the diff view's reference slot is otherwise only revisited in the diff view. No allocation.
   */
  forgetOthers(model: ModelGpu): void {
    const v = this.slots;
    for (let i = 0; i < v.length; i++) if (v[i] && v[i]!.model !== model) v[i] = null;
  }

  /** Forgets every slot (after a readback that bound other programs, on dispose). */
  clear(): void {
    this.slots.fill(null);
  }
}
