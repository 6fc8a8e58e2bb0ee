import { PaletteSet } from '../anim/palette-set.ts';
import type { AnimPlayer } from '../anim/player.ts';
import { ProgramCache } from '../gpu/programs.ts';
import { MAX_INFLUENCES } from '../model/types.ts';
import { liveQuality, REST_VERSION } from '../quality/live.ts';
import { software } from '../techniques/software.ts';
import { TECHNIQUE_IDS, type DeviceCaps, type PoseSource, type Technique, type TechniqueMesh } from '../techniques/technique.ts';
import type { OrbitCamera } from './camera.ts';
import type { LodLevelInput } from './crowd-lod-set.ts';
import { CrowdPass } from './crowd-pass.ts';
import { DiffSchedule } from './diff-count.ts';
import { DiffView } from './diff-view.ts';
import { countSkinOnce, resetFigures, type FrameFigures, type RenderOptions } from './frame-types.ts';
import { LinesPass } from './lines-pass.ts';
import type { Scene } from '../model/types.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { MorphPath } from './morph-runtime.ts';
import { SceneUniforms } from './scene-uniforms.ts';
import { ShadowMap } from './shadow-map.ts';
import { ShadowPass } from './shadow-pass.ts';
import { readbackSkin, type SkinReadback } from './skin-readback.ts';
import { SurfacePass } from './surface-pass.ts';
import { Variants } from './variants.ts';
import { surfaceView } from './views.ts';
import { DrawRegion } from './draw-region.ts';

/**
 * Draws one model per frame: updates the technique's state for the pose (palettes, CPU skinning, morph
 * inputs) — the pose's palettes computed once per distinct skin (PaletteSet.update after the player's
 * evaluate; the techniques copy them: Dawn's 4 meshes share one skin) — then hands the picture to the passes —
 * with `shadows`, ShadowPass first (the key light's shadow map, drawn with the technique's own skinning), then
 * SurfacePass (floor, surfaces, wireframe; both receive the shadow), the diff view's two-target composite
 * (each image with its own shadow pass), LinesPass's skeleton overlay, or CrowdPass in crowd mode (its own
 * instanced caster pass). Owns the context-wide resources (program cache, shared uniforms and white texture,
 * the passes, the shadow map, the diff targets); dispose() deletes them all. Per-frame work reuses its objects: no allocation in render().
 *
 * Side-by-side compare (compare-split.ts) calls render() once per half, with setRegion() first: the half's
 * viewport and scissor, its own variant slot (`half`), its own shadow map pass; fullCanvas() ends it.
 */

/** Diff-view signature: technique, influences, palette, bind pose, time, canvas size, floor, shadows, viewProj (16). */
const DIFF_SIGNATURE = 24;

export class Renderer {
  readonly programs: ProgramCache;
  readonly caps: DeviceCaps;
  private name: string | null = null;
  private readonly uniforms: SceneUniforms;
  private readonly variants: Variants;
  private readonly lines: LinesPass;
  private readonly surfaces: SurfacePass;
  private readonly crowd: CrowdPass;
  /** The key light's shadow map (its texture made on the first frame with shadows) and its caster pass. */
  private readonly shadowMap: ShadowMap;
  private readonly shadowPass: ShadowPass;
  /**
   * Draw the key light's shadow map (AppState `shadows`, set by the frame before render()): the model casts
   * onto the floor and onto itself; the contact shadow stays either way.
   */
  shadows = true;
  /**
   * How the shaded colouring lights the model (AppState `shading`, set by the frame before render()): 'studio',
   * 'pbr' (the material as authored, pbr_pars.glsl), or 'auto': pbr for a model with metallic-roughness (glTF)
   * materials, studio otherwise. The crowd always draws studio.
   */
  shading: 'auto' | 'studio' | 'pbr' = 'auto';
  /** The diff view's targets and composite, created the first time the view is drawn. */
  private diff: DiffView | null = null;
  private readonly diffSchedule = new DiffSchedule(DIFF_SIGNATURE);
  private readonly diffSignature = new Float64Array(DIFF_SIGNATURE);
  /** The palettes of the model drawn when the caller passes none to render() (built when the model changes). */
  private paletteSet: PaletteSet | null = null;
  /** The part of the buffer drawn into (a compare half, or all of it). */
  private readonly region: DrawRegion;
  /** Technique options of the frame being drawn (reused object). */
  private readonly techniqueOptions = { influences: 4, palette: 12 };

  constructor(readonly gl: WebGL2RenderingContext) {
    this.programs = new ProgramCache(gl);
    this.region = new DrawRegion(gl);
    this.caps = {
      maxUniformBlockSize: gl.getParameter(gl.MAX_UNIFORM_BLOCK_SIZE) as number,
      maxVertexUniformVectors: gl.getParameter(gl.MAX_VERTEX_UNIFORM_VECTORS) as number,
      maxTextureSize: gl.getParameter(gl.MAX_TEXTURE_SIZE) as number,
    };
    this.uniforms = new SceneUniforms(gl);
    this.variants = new Variants(gl, this.programs, this.caps, this.uniforms);
    this.lines = new LinesPass(gl, this.programs, this.uniforms);
    const clear = (): void => this.clear();
    this.surfaces = new SurfacePass(gl, this.uniforms, this.lines, clear);
    this.shadowMap = new ShadowMap(gl);
    this.shadowPass = new ShadowPass(gl, this.uniforms, this.shadowMap);
    this.crowd = new CrowdPass(gl, this.programs, this.caps.maxTextureSize, this.uniforms, this.lines, this.shadowPass, this.shadowMap, clear);
  }

  /**
   * The GPU's name as WebGL reports it (the unmasked renderer string where the page may read it), asked on first
   * use: the query waits for the GPU process, which is busy starting the context while the page starts.
   */
  get rendererName(): string {
    if (this.name === null) {
      const gl = this.gl;
      const dbg = gl.getExtension('WEBGL_debug_renderer_info');
      this.name = String(gl.getParameter(dbg ? dbg.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    }
    return this.name;
  }

  /**
   * Starts, without waiting, the GPU work of any model's first frame under `shadows`: the floor's receiver program
   * (ProgramCache.request) and the shadow map (ShadowMap.prepare). settle() or the first frame finishes them.
   * Nothing on a lost context.
   */
  prepareStage(shadows: boolean): void {
    if (!shadows || this.gl.isContextLost()) return;
    this.lines.requestReceiver();
    this.shadowMap.prepare();
    this.gl.flush();
  }

  /** Texels along a side of the key light's shadow map (shadow-size.ts: it follows the drawing buffer's size). */
  get shadowMapSize(): number {
    return this.shadowMap.size;
  }

  /**
   * Starts compiling, without waiting, the programs warm() and the first frame will ask for a scene not yet on
   * the GPU: the technique's variant and, with shadows, the floor's receiver (ProgramCache.request), under
   * the shadows and shading the load will be adopted with.
   */
  prefetch(scene: Scene, technique: Technique, influences: number, palette: number, morphs: MorphPath, shadows: boolean, shading: Renderer['shading']): void {
    this.variants.request(scene, technique, influences, palette, 'shaded', morphs, shadows, SceneUniforms.pbrForScene(scene, shading));
    if (shadows) this.lines.requestReceiver();
    // Sent to the GPU process now: it compiles while this thread goes on (queued commands wait for a flush).
    this.gl.flush();
  }

  /**
   * The GPU work a first frame would otherwise wait for, done now: every program asked for ahead is finished
   * (ProgramCache.finishPending) and, with `shadows`, the shadow map made (its framebuffer checked). A load calls
   * it while its textures decode on the browser's threads, so the waits for the GPU process overlap the decode.
   * Nothing on a lost context (the restored one builds everything anew).
   */
  settle(shadows: boolean): void {
    if (this.gl.isContextLost()) return;
    this.programs.finishPending();
    if (shadows) this.shadowMap.ensure();
  }

  /** Compiles the technique's variants for a scene up front so the first frame (and a switch) is a program swap. */
  warm(model: ModelGpu, technique: Technique, influences: number, palette: number, morphs: MorphPath = 'slots'): void {
    this.variants.get(0, model, technique, influences, palette, 'shaded', morphs, this.shadows, SceneUniforms.pbrFor(model, this.shading));
  }

  /** The shading the shaded colouring of `model` uses now (see `shading`). */
  shadingOf(model: ModelGpu): 'studio' | 'pbr' {
    return SceneUniforms.pbrFor(model, this.shading) ? 'pbr' : 'studio';
  }

  /** The technique's mesh state for the model under these options (built on first use). */
  techniqueMeshes(model: ModelGpu, technique: Technique, influences: number, palette: number): TechniqueMesh[] {
    const o = this.techniqueOptions;
    o.influences = influences;
    o.palette = palette;
    return model.techniqueMeshesFor(technique, this.caps, o);
  }

  /**
   * Draws the following render() calls into one region of the buffer only (a compare half): the viewport and
   * scissor are set to it when a pass clears. fullCanvas() goes back to the whole buffer.
   */
  setRegion(region: ArrayLike<number>): void {
    this.region.set(region);
  }

  /** Back to drawing the whole buffer (scissor off). */
  fullCanvas(): void {
    this.region.whole();
  }

  /**
   * Clears the bound framebuffer (the canvas or a diff target; within the region while one is set) to the
   * background colour (also what is drawn while no model is loaded).
   */
  clear(): void {
    this.region.clear();
  }

  /**
   * Draws `model` in `player`'s pose (evaluated). `palettes`: the model's PaletteSet (LoadedModel.palettes,
   * built at load with the player); without it the renderer keeps its own for the model drawn. It is
   * updated here, once per frame, from player.model, and is what the techniques read (every technique's
   * palette equals player.writePalette's bit for bit). `half`: compare's right half (1) draws through its own
   * variant slot, so two techniques in one frame are each a program swap.
   */
  render(model: ModelGpu, player: AnimPlayer, camera: OrbitCamera, opts: RenderOptions, out: FrameFigures, palettes: PaletteSet | null = null, half = 0): void {
    this.variants.forgetOthers(model);
    if (opts.crowd > 1) {
      this.diffSchedule.reset();
      this.crowd.render(model, player, camera, opts, out, this.shadows);
      return;
    }
    out.crowd = 1;
    out.crowdPoseUs = 0;
    out.wander = false;
    out.footsteps = 0;
    out.instancesDrawn = 1;
    out.instancesCulled = 0;
    out.crowdPath = '';
    out.lodLevels = 1;
    out.instancesPerLevel[0] = 1;
    out.crowdModels = 1;
    out.instancesPerModel[0] = 1;
    out.drawnPerModel[0] = 1;
    // A crowd state of a model no longer drawn is released (its model may be disposed already).
    if (this.crowd.holdsOther(model)) this.crowd.release();
    const gl = this.gl;
    resetFigures(out);
    const fu = this.uniforms.frame;
    fu.u_viewProj = camera.viewProj;
    fu.u_cameraPos = camera.position;
    let pose: PoseSource = model.bindPose;
    if (!opts.bindPose) {
      const set = palettes ?? this.ownPalettes(model);
      set.update(player.model);
      pose = set;
    }

    // One-time work (a first compile, a technique's mesh state, morph storage) is timed apart from the frame's.
    const technique = opts.technique;
    const surface = surfaceView(opts.view);
    const morph = model.morph;
    const compiled = this.programs.size;
    const builds = model.techniqueBuilds;
    const stored = morph ? morph.storageBytes : 0;
    const s0 = performance.now();
    const shadows = this.shadows;
    const pbr = SceneUniforms.pbrFor(model, this.shading);
    const v = this.variants.get(half === 1 ? 2 : 0, model, technique, opts.influences, opts.palette, surface, opts.morphs, shadows, pbr);
    const tmeshes = this.techniqueMeshes(model, technique, opts.influences, opts.palette);
    const t0 = performance.now();
    morph?.prepare(opts.morphs, player.morphWeights, tmeshes, v.gpuMorph);
    const t1 = performance.now();
    const built = this.programs.size !== compiled || model.techniqueBuilds !== builds;
    const morphBuilt = morph !== null && morph.storageBytes !== stored;
    if (built || morphBuilt) {
      out.setupUs = ((morphBuilt ? t1 : t0) - s0) * 1000;
      out.setupWhat = built && morphBuilt ? `${technique.id} programs, mesh state and morph storage` : built ? `${technique.id} programs and mesh state` : `${opts.morphs} morph storage`;
    }
    for (let i = 0; i < tmeshes.length; i++) {
      const tm = tmeshes[i]!;
      out.uploadBytes += tm.update(pose);
      out.groups += tm.cost.groups;
      out.duplicatedVertices += tm.cost.duplicatedVertices;
      out.vertexBytes += tm.cost.vertexBytes;
      out.approximatedTriangles += tm.cost.approximatedTriangles;
      if (tm.unrepresentableScale > out.unrepresentableScale) out.unrepresentableScale = tm.unrepresentableScale;
    }
    out.skinUs = (performance.now() - (morphBuilt ? t1 : t0)) * 1000;
    countSkinOnce(out, technique, tmeshes);
    if (surface === 'weights' || surface === 'influences') {
      const meshes = model.scene.meshes;
      for (let i = 0; i < tmeshes.length; i++) model.viewData.prepare(tmeshes[i]!, meshes[i]!, opts.bone, opts.influences);
    } else if (surface === 'distortion') {
      // The values the frame measured before drawing (src/quality/live.ts), for the technique on screen.
      const q = liveQuality(model.scene, half);
      // The bind pose drawn by hand (`bindPose`) is the rest shape: nothing has changed.
      for (let i = 0; i < tmeshes.length; i++) {
        if (opts.bindPose) model.viewData.prepareValues(tmeshes[i]!, q.unchanged[i]!, REST_VERSION);
        else model.viewData.prepareValues(tmeshes[i]!, q.logs[i]!, q.version);
      }
    }

    if (shadows) {
      this.shadowPass.fit(model);
      this.shadowMap.bindTexture();
    }

    if (opts.view === 'diff') {
      // The reference first, into its own target, then the technique into another; the canvas gets the composite.
      // The reference is software with every influence (MAX_INFLUENCES), so truncation shows as well as the technique's own error.
      const dv = (this.diff ??= new DiffView(gl));
      dv.resize(gl.drawingBufferWidth, gl.drawingBufferHeight);
      const reference = software;
      const rv = this.variants.get(1, model, reference, MAX_INFLUENCES, opts.palette, 'shaded', opts.morphs, shadows, pbr);
      const rmeshes = this.techniqueMeshes(model, reference, MAX_INFLUENCES, opts.palette);
      if (rmeshes !== tmeshes) {
        // The reference morphs on the CPU with the same path's weights: the diff shows skinning differences.
        morph?.prepare(opts.morphs, player.morphWeights, rmeshes, false);
        for (let i = 0; i < rmeshes.length; i++) rmeshes[i]!.update(pose);
      }
      // Each image casts its own shadow (the map is redrawn between them), so the diff compares shadows too.
      if (shadows) this.shadowPass.draw(model, rv, rmeshes, out, false);
      gl.bindFramebuffer(gl.FRAMEBUFFER, dv.reference.framebuffer);
      this.surfaces.draw(model, rv, rmeshes, opts, out, false);
      if (rmeshes !== tmeshes) morph?.prepare(opts.morphs, player.morphWeights, tmeshes, v.gpuMorph);
      if (shadows) this.shadowPass.draw(model, v, tmeshes, out, true);
      gl.bindFramebuffer(gl.FRAMEBUFFER, dv.image.framebuffer);
      this.surfaces.draw(model, v, tmeshes, opts, out, true);
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      this.region.use();
      dv.composite();
      out.drawCalls++;
      const sig = this.diffSignature;
      sig[0] = TECHNIQUE_IDS.indexOf(technique.id);
      sig[1] = opts.influences;
      sig[2] = opts.palette;
      sig[3] = opts.bindPose ? 1 : 0;
      sig[4] = player.time;
      sig[5] = gl.drawingBufferWidth * 65536 + gl.drawingBufferHeight;
      sig[6] = opts.grid ? 1 : 0;
      sig[7] = shadows ? 1 : 0;
      for (let i = 0; i < 16; i++) sig[8 + i] = camera.viewProj[i]!;
      // A compare half's targets hold both halves: the count (of the whole buffer) is left out.
      if (this.region.partial) {
        out.diffPixels = -1;
        out.diffShare = -1;
      } else {
        if (this.diffSchedule.due(sig)) dv.count();
        out.diffPixels = dv.differing;
        out.diffShare = dv.share;
      }
    } else {
      this.diffSchedule.reset();
      out.diffPixels = -1;
      out.diffShare = -1;
      if (shadows) this.shadowPass.draw(model, v, tmeshes, out, true);
      this.surfaces.draw(model, v, tmeshes, opts, out, true);
      if (opts.view === 'tangents') this.lines.drawTangentFrames(model, pose, out);
    }

    // Skeleton (bones and joints) on top of everything, in the pose drawn.
    if (opts.skeleton || opts.view === 'skeleton') {
      this.lines.drawSkeleton(model, opts.bindPose ? model.bindPose.model : player.model, opts.view === 'weights' ? opts.bone : opts.selectedBone, out);
    }
    gl.disable(gl.BLEND);
    gl.bindVertexArray(null);
  }

  /**
   * Debug path for tests: the technique's GPU-skinned model-space positions and tangents of every mesh,
   * read back with transform feedback (skin-readback.ts). Allocates: not for the frame loop.
   */
  readbackSkin(model: ModelGpu, player: AnimPlayer, technique: Technique, influences: number, palette: number, morphs: MorphPath = 'slots'): SkinReadback[] {
    const tmeshes = this.techniqueMeshes(model, technique, influences, palette);
    return readbackSkin(this.gl, this.programs, this.variants, this.uniforms, model, tmeshes, player, technique, influences, palette, morphs);
  }

  /** The renderer's own PaletteSet for `model`'s meshes, made again only when the model changes. */
  private ownPalettes(model: ModelGpu): PaletteSet {
    const meshes = model.scene.meshes;
    if (this.paletteSet === null || this.paletteSet.meshes !== meshes) this.paletteSet = new PaletteSet(meshes);
    return this.paletteSet;
  }

  /** The path the last crowd frame drew: 'baked' or 'cpu' ('' before any). */
  get crowdPath(): string {
    return this.crowd.lastPath;
  }

  /** The crowd bake of the model last drawn as a crowd: {frames, bytes, ms}, or null before one. */
  crowdBake(): { frames: number; bytes: number; ms: number } | null {
    return this.crowd.bakeFacts();
  }

  /** Crowd mode's distance LOD: hands over (or with null releases) the lighter detail levels of `model` (CrowdPass.setLevels). */
  setCrowdLevels(model: ModelGpu | null, chosenDetail: string, levels: LodLevelInput[] | null, source: 'generated' | 'authored' = 'authored'): void {
    this.crowd.setLevels(model, chosenDetail, levels, source);
  }

  /** The crowd's detail levels held: triangles and error per level and their source (null: none). Allocates. */
  crowdLevelTable(): { source: 'generated' | 'authored'; levels: { detail: string; triangles: number; error: number }[] } | null {
    return this.crowd.levelTable();
  }

  /** The detail levels the last crowd frame drew, nearest first, and where each ends in model units (null: no end). */
  crowdLevels(): { details: string[]; to: (number | null)[] } {
    return this.crowd.levelFacts();
  }

  /** Frees crowd mode's palette texture (rebuilt on the next crowd frame). */
  releaseCrowd(): void {
    this.crowd.release();
  }

  /**
   * Deletes every object the renderer owns (programs, white texture, crowd palette, shadow map, diff targets) and forgets
   * the variants and crowd state. On a lost context the deletes are no-ops: the handles are just dropped.
   * The renderer is unusable afterwards (the app builds a new one after a context loss).
   */
  dispose(): void {
    this.crowd.dispose();
    this.variants.clear();
    this.diff?.dispose();
    this.diff = null;
    this.shadowMap.dispose();
    this.programs.dispose();
    this.uniforms.dispose();
  }
}
