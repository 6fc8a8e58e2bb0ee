import { mat4, vec3 } from 'gl-matrix';
import { CrowdInstances, INSTANCE_FLOATS } from '../gpu/crowd-instances.ts';
import type { DrawRange } from '../techniques/technique.ts';
import type { CrowdModel } from './crowd.ts';
import type { CrowdLodLevel } from './crowd-lod-level.ts';
import type { CrowdUniforms } from './crowd-programs.ts';
import { atlasSize, captureEye, captureViewProj, cellDirection, IMPOSTOR_AZIMUTHS, IMPOSTOR_CELL_PX, IMPOSTOR_ELEVATIONS, impostorFrames } from './impostor-cells.ts';
import type { ModelGpu } from './model-gpu.ts';
import type { SceneUniforms } from './scene-uniforms.ts';
import type { UniformBinding } from '../gpu/uniforms.ts';
import type * as twgl from 'twgl.js';

/** Texture units of the atlas's colour and normal textures (impostor.frag). */
export const IMPOSTOR_COLOUR_UNIT = 10;
export const IMPOSTOR_NORMAL_UNIT = 11;
/** Coarsest mip level kept: cells of IMPOSTOR_CELL_PX / 16 texels, so a level never mixes neighbouring cells much. */
const MAX_MIP = 4;

/** What a capture draws with: the capture program (lit.frag's IMPOSTOR_CAPTURE) and its bindings. */
export interface ImpostorCaptureProgram {
  program: twgl.ProgramInfo;
  frame: UniformBinding<SceneUniforms['frame']>;
  material: UniformBinding<SceneUniforms['material']>;
  crowd: UniformBinding<CrowdUniforms>;
}

/** What a capture draws: the model, its crowd state, its levels and the level to draw (0: the model itself). */
export interface ImpostorSource {
  model: ModelGpu;
  crowd: CrowdModel;
  draws: readonly DrawRange[][];
  levels: readonly CrowdLodLevel[];
  level: number;
  /** The baked clip table (crowd-programs.ts u_bakeClips) and the clip captured, its duration and its bounding sphere (model units). */
  bakeClips: Float32Array;
  clip: number;
  duration: number;
  sphere: ArrayLike<number>;
}

/**
 * One model's impostor atlas for the crowd's far field (docs/crowds.md): every cell of impostor-cells.ts's
 * layout for one clip, captured once on the GPU by drawing the model (at `level`, light enough that its error is
 * under an atlas pixel) through the crowd's own baked skinning into two RGBA8 textures, mipmapped: base colour
 * (sRGB, untinted) and model-space normal, each with coverage in alpha. capture() is one-time work (allocates:
 * the textures on first use, a framebuffer and a small instance buffer it frees again); bind() per frame
 * allocates nothing. `sphere`, `frames` and `clip` say what the atlas holds (clip −1: nothing). dispose() frees
 * the textures.
 */
export class CrowdImpostor {
  clip = -1;
  frames = 0;
  readonly sphere = new Float32Array(4);
  /**
   * The specular colour and exponent the impostors are lit with (the atlas keeps base colour and normal only):
   * those of the material covering the most triangles.
   */
  readonly specular = new Float32Array(3);
  specularPower = 32;
  /** (azimuths, 1 / frames, frames, 1 / columns): impostor.vert's u_impostorGrid. */
  readonly grid = new Float32Array(4);
  /** Milliseconds the last capture took (CPU side, including the mipmaps' request). */
  captureMs = 0;
  private colour: WebGLTexture | null = null;
  private normal: WebGLTexture | null = null;
  private size: [number, number] = [0, 0];

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /** The atlas holds clip `clip` (captured). */
  holds(clip: number): boolean {
    return this.clip === clip && this.colour !== null;
  }

  /** Bytes of the atlas's textures with their mip levels. */
  get bytes(): number {
    return this.colour ? Math.round(this.size[0] * this.size[1] * 4 * 2 * (4 / 3)) : 0;
  }

  /**
   * Captures `s`'s clip into the atlas with program `p` (its uniforms in `u` and `cu`, which are left as they
   * were). Leaves the default framebuffer bound (the caller binds its target and viewport after, as after the
   * shadow map), depth test on, blending off.
   */
  capture(p: ImpostorCaptureProgram, u: SceneUniforms, cu: CrowdUniforms, s: ImpostorSource): void {
    const gl = this.gl;
    const t0 = performance.now();
    const frames = impostorFrames(s.duration);
    this.allocate(frames);
    const framebuffer = gl.createFramebuffer();
    const depth = gl.createRenderbuffer();
    if (!framebuffer || !depth) throw new Error('could not create the impostor atlas framebuffer (context lost?)');
    const [w, h] = this.size;
    gl.bindRenderbuffer(gl.RENDERBUFFER, depth);
    gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, w, h);
    gl.bindRenderbuffer(gl.RENDERBUFFER, null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, this.colour, 0);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT1, gl.TEXTURE_2D, this.normal, 0);
    gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, depth);
    gl.drawBuffers([gl.COLOR_ATTACHMENT0, gl.COLOR_ATTACHMENT1]);
    const instances = new CrowdInstances(gl, s.model.meshes);
    try {
      const status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
      if (status !== gl.FRAMEBUFFER_COMPLETE) throw new Error(`the impostor atlas framebuffer is incomplete (status 0x${status.toString(16)})`);
      gl.disable(gl.SCISSOR_TEST);
      gl.viewport(0, 0, w, h);
      gl.clearColor(0, 0, 0, 0);
      gl.depthMask(true);
      gl.colorMask(true, true, true, true);
      gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
      gl.enable(gl.DEPTH_TEST);
      gl.depthFunc(gl.LEQUAL);
      gl.disable(gl.BLEND);
      this.drawCells(p, u, cu, s, frames, instances);
    } finally {
      instances.dispose();
      gl.bindFramebuffer(gl.FRAMEBUFFER, null);
      gl.deleteFramebuffer(framebuffer);
      gl.deleteRenderbuffer(depth);
      gl.bindVertexArray(null);
    }
    for (const t of [this.colour, this.normal]) {
      gl.bindTexture(gl.TEXTURE_2D, t);
      gl.generateMipmap(gl.TEXTURE_2D);
    }
    gl.bindTexture(gl.TEXTURE_2D, null);
    this.sphere.set([s.sphere[0]!, s.sphere[1]!, s.sphere[2]!, s.sphere[3]!]);
    this.takeSpecular(s);
    this.frames = frames;
    this.clip = s.clip;
    this.grid.set([IMPOSTOR_AZIMUTHS, 1 / frames, frames, 1 / (IMPOSTOR_AZIMUTHS * IMPOSTOR_ELEVATIONS.length)]);
    this.captureMs = performance.now() - t0;
  }

  /** Every cell: one instance per frame (at its frame's middle, speed 0), drawn once per direction into its cell. */
  private drawCells(p: ImpostorCaptureProgram, u: SceneUniforms, cu: CrowdUniforms, s: ImpostorSource, frames: number, instances: CrowdInstances): void {
    const gl = this.gl;
    instances.setLevels(s.levels.map((l) => l.meshes));
    instances.reserve(frames);
    const data = instances.data;
    for (let f = 0; f < frames; f++) {
      data.set([0, 0, ((f + 0.5) / frames) * s.duration, 0, s.clip, 0, 1, 1, 1], f * INSTANCE_FLOATS);
    }
    instances.upload(0, frames);
    const fu = u.frame;
    const savedViewProj = fu.u_viewProj;
    const savedEye = fu.u_cameraPos;
    const savedModel = Float32Array.from(cu.u_crowdModel);
    const viewProj = mat4.create();
    const eye = vec3.create();
    const dir = vec3.create();
    const lod = s.level === 0 ? null : s.levels[s.level - 1]!;
    const own = lod?.bake() ?? null;
    const crowd = own ?? s.crowd;
    (own ? own.bakeTexture! : s.crowd.bakeTexture!).bind();
    const meshDraws = lod === null ? s.draws : lod.draws;
    gl.useProgram(p.program.program);
    cu.u_bakeClips.set(s.bakeClips);
    cu.u_crowdModel.set([1, 0, 0, 0]);
    cu.u_crowdSlots = crowd.bake().slotsPerFrame;
    cu.u_crowdTime = 0;
    cu.u_crowdBindPose = 0;
    u.material.u_alpha = 1;
    fu.u_viewProj = viewProj;
    fu.u_cameraPos = eye;
    try {
      const cell = IMPOSTOR_CELL_PX;
      for (let e = 0; e < IMPOSTOR_ELEVATIONS.length; e++) {
        for (let k = 0; k < IMPOSTOR_AZIMUTHS; k++) {
          cellDirection(k, e, dir);
          captureViewProj(dir, s.sphere, viewProj);
          captureEye(dir, s.sphere, eye);
          p.frame.apply();
          for (let f = 0; f < frames; f++) {
            gl.viewport((e * IMPOSTOR_AZIMUTHS + k) * cell, f * cell, cell, cell);
            for (let m = 0; m < meshDraws.length; m++) {
              const draws = meshDraws[m]!;
              if (draws.length === 0) continue;
              cu.u_crowdBase = crowd.meshBase[m]!;
              p.crowd.apply();
              s.model.vertexColours.bindMesh(instances.levelMesh(s.level, m));
              gl.bindVertexArray(instances.levelVao(s.level, m, f));
              let material = -1;
              for (const draw of draws) {
                if (draw.material !== material) {
                  material = draw.material;
                  u.applyMaterial(s.model, material, p.material);
                }
                gl.drawElementsInstanced(gl.TRIANGLES, draw.count, gl.UNSIGNED_INT, draw.first * 4, 1);
              }
            }
          }
        }
      }
    } finally {
      fu.u_viewProj = savedViewProj;
      fu.u_cameraPos = savedEye;
      cu.u_crowdModel.set(savedModel);
      gl.disable(gl.CULL_FACE);
    }
  }

  /** The specular of the material drawn over the most triangles at full detail. */
  private takeSpecular(s: ImpostorSource): void {
    const share = new Map<number, number>();
    for (const draws of s.draws) for (const d of draws) share.set(d.material, (share.get(d.material) ?? 0) + d.count);
    let best = 0;
    let most = -1;
    for (const [material, count] of share) if (count > most) [best, most] = [material, count];
    const materials = s.model.scene.materials;
    const m = materials[best] ?? materials[0];
    this.specular.set(m ? m.specular : [0, 0, 0]);
    this.specularPower = m ? m.specularPower : 32;
  }

  /** Textures for `frames` frames (made again when the size changes). */
  private allocate(frames: number): void {
    const gl = this.gl;
    const size = atlasSize(frames);
    if (this.colour && size[0] === this.size[0] && size[1] === this.size[1]) return;
    this.dispose();
    const levels = Math.min(MAX_MIP, Math.floor(Math.log2(Math.min(size[0], size[1])))) + 1;
    const make = (): WebGLTexture => {
      const t = gl.createTexture();
      if (!t) throw new Error('could not create the impostor atlas (context lost?)');
      gl.bindTexture(gl.TEXTURE_2D, t);
      gl.texStorage2D(gl.TEXTURE_2D, levels, gl.RGBA8, size[0], size[1]);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR_MIPMAP_LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAX_LEVEL, levels - 1);
      return t;
    };
    this.colour = make();
    this.normal = make();
    gl.bindTexture(gl.TEXTURE_2D, null);
    this.size = size;
  }

  /** Binds the atlas to IMPOSTOR_COLOUR_UNIT and IMPOSTOR_NORMAL_UNIT. */
  bind(): void {
    const gl = this.gl;
    gl.activeTexture(gl.TEXTURE0 + IMPOSTOR_COLOUR_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.colour);
    gl.activeTexture(gl.TEXTURE0 + IMPOSTOR_NORMAL_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.normal);
    gl.activeTexture(gl.TEXTURE0);
  }

  /** Frees the textures (no-ops on a lost context); the atlas then holds nothing. */
  dispose(): void {
    const gl = this.gl;
    if (this.colour) gl.deleteTexture(this.colour);
    if (this.normal) gl.deleteTexture(this.normal);
    this.colour = null;
    this.normal = null;
    this.size = [0, 0];
    this.clip = -1;
    this.frames = 0;
  }
}
