import * as twgl from 'twgl.js';
import skinnedVert from '../../glsl/skinned.vert';
import litFrag from '../../glsl/lit.frag';
import flatFrag from '../../glsl/flat.frag';
import linesVert from '../../glsl/lines.vert';
import linesFrag from '../../glsl/lines.frag';
import impostorVert from '../../glsl/impostor.vert';
import impostorFrag from '../../glsl/impostor.frag';
import { PALETTE_BINDING } from './palette-ubo.ts';
import { PALETTE_TEXTURE_UNIT } from './palette-texture.ts';

/**
 * Compiled program variants, keyed by (vertex source, fragment source, sorted defines)
 * (glTF-Sample-Viewer's shader cache). Attribute locations are fixed for every program (ATTRIB), so
 * one vertex array object serves every variant and a technique switch is a program swap.
 * Compile errors throw with twgl's numbered source listing.
 */

export const SOURCES = {
  'skinned.vert': skinnedVert,
  'lit.frag': litFrag,
  'flat.frag': flatFrag,
  'lines.vert': linesVert,
  'lines.frag': linesFrag,
  'impostor.vert': impostorVert,
  'impostor.frag': impostorFrag,
} as const;
export type SourceName = keyof typeof SOURCES;

/** Fixed attribute locations shared by every program and vertex array. */
export const ATTRIB = {
  a_position: 0,
  a_normal: 1,
  a_colour: 1,
  a_uv: 2,
  a_joints: 3,
  a_weights: 4,
  // Dawn's sixth neutral input: the tangent (xyz, bitangent sign w; SkinnedMesh.tangents, or the constant
  // (1, 0, 0, 1)). Dawn stored the binormal and crossed for the tangent; we store the tangent and cross for
  // the bitangent (§4.3.2 allows either). The weights/influences views read a texture instead (VIEW_TEXTURE_UNIT).
  a_tangent: 5,
  // 6..15: Dawn's 5 (position diff, normal diff) pairs (MORPH_SLOTS), or the source vertex (MORPH_TEXTURE).
  a_morphVertex: 6,
  a_morphPosition0: 6,
  a_morphNormal0: 7,
  a_morphPosition1: 8,
  a_morphNormal1: 9,
  a_morphPosition2: 10,
  a_morphNormal2: 11,
  a_morphPosition3: 12,
  a_morphNormal3: 13,
  a_morphPosition4: 14,
  a_morphNormal4: 15,
  // Crowd mode (no morph targets there): the per-instance attributes, divisor 1 (gpu/crowd-instances.ts).
  a_crowdPlace: 6,
  a_crowdClip: 7,
  a_crowdLook: 8,
} as const;

/** First attribute of the morph slot pairs: slot s uses MORPH_SLOT_LOCATION + 2s (position) and + 2s + 1 (normal). */
export const MORPH_SLOT_LOCATION = 6;
/** Texture unit of the morph delta texture (MORPH_TEXTURE), set once per program like the palette texture's. */
export const MORPH_TEXTURE_UNIT = 6;
/** Texture unit of the weights/influences views' per-vertex data (render/view-data.ts), set once per program. */
export const VIEW_TEXTURE_UNIT = 13;
/** Texture unit of the `cor` technique's per-vertex centres of rotation (u_corCentres, techniques/cor.ts), set once per program. */
export const COR_TEXTURE_UNIT = 9;
/**
/**
 * Texture unit of the vertex colours (u_colourTex, render/vertex-colours.ts), set once per program. The fixed
 * units sit above 5: twgl's setters would hand units 0, 1, … to a program's samplers in order.
 */
export const COLOUR_TEXTURE_UNIT = 12;
/**
 * Samplers on fixed texture units, each set once per program and bound by its own setter (replacing twgl's,
 * which hands out units from 0 in the program's order and could land on the fixed units above): the material
 * maps of lit.frag and the pbr shading's environment cube (pbr_pars.glsl). A setter binds its texture to its
 * unit and leaves TEXTURE0 active. The units above 13 stay clear of every unit a lit program samples besides
 * (palette 7, morph 6, shadow 8, cor/ddm 9, colours 12, view data 13); WebGL2 guarantees 32 combined units.
 */
export const FIXED_SAMPLERS: Readonly<Record<string, { unit: number; cube?: true }>> = {
  u_diffuseMap: { unit: 0 },
  u_mrMap: { unit: 14 },
  u_normalMap: { unit: 15 },
  u_occlusionMap: { unit: 16 },
  u_emissiveMap: { unit: 17 },
  u_envMap: { unit: 18, cube: true },
};

/** The constant tangent of a mesh without tangents (a disabled location 5 reads it). */
export const DEFAULT_TANGENT: readonly [number, number, number, number] = [1, 0, 0, 1];

export type Defines = Readonly<Record<string, string | number | boolean>>;

export function defineKey(defines: Defines): string {
  return Object.keys(defines)
    .sort()
    .map((k) => `${k}=${String(defines[k])}`)
    .join(',');
}

function header(defines: Defines): string {
  const lines = ['#version 300 es'];
  for (const k of Object.keys(defines).sort()) {
    const v = defines[k];
    if (v === false) continue;
    lines.push(`#define ${k} ${v === true ? 1 : String(v)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Flags a linked program's shaders for deletion. twgl leaves the shaders it compiled attached and alive; once
 * linked they are not needed, and flagged this way GL frees them with the program (deleteProgram). Without
 * it every disposed program would leave its two shader objects behind.
 */
export function releaseShaders(gl: WebGL2RenderingContext, program: WebGLProgram): void {
  const shaders = gl.getAttachedShaders(program);
  if (shaders) for (const s of shaders) gl.deleteShader(s);
}

/**
 * Owns every program it compiled (the shaders are released at link, releaseShaders); dispose() deletes them.
 * Bounded by the distinct (sources, defines) a session asks for: techniques × views × the few scene-dependent
 * sizes (PALETTE_SIZE), so a switch back to a variant never compiles again.
 */
export class ProgramCache {
  private readonly programs = new Map<string, twgl.ProgramInfo>();
  /** Variants asked for ahead (request()): compiling and linking, nothing read back yet. */
  private readonly pending = new Map<string, WebGLProgram>();
  /**
   * Milliseconds spent compiling and linking since the cache was made (cache misses of get(), until the link
   * status is known): read before and after a piece of work to learn its share (stats().firstFrame.shadersMs).
   */
  compileMs = 0;

  /**
   * The live cache of a context (the renderer's), for mesh state that compiles a program of its own (stream-out's
   * skinning pass) without a renderer to ask; null before one exists or after it is disposed. No allocation.
   */
  static of(gl: WebGL2RenderingContext): ProgramCache | null {
    return CACHES.get(gl) ?? null;
  }

  constructor(private readonly gl: WebGL2RenderingContext) {
    CACHES.set(gl, this);
  }

  /** Programs compiled so far (grows when a variant is first asked for: the frame did one-time work). */
  get size(): number {
    return this.programs.size;
  }

  /**
   * `feedback` lists vertex outputs to capture with transform feedback (separate buffers, in order);
   * the program is then a different cache entry.
   */
  get(vert: SourceName, frag: SourceName, defines: Defines = {}, feedback: readonly string[] = []): twgl.ProgramInfo {
    const key = `${vert}|${frag}|${defineKey(defines)}|${feedback.join(',')}`;
    const cached = this.programs.get(key);
    if (cached) return cached;
    const t0 = performance.now();
    try {
      if (!this.pending.has(key)) this.start(key, vert, frag, defines, feedback);
      return this.finish(key) ?? this.compile(key, vert, frag, defines, feedback);
    } finally {
      this.compileMs += performance.now() - t0;
    }
  }

  /**
   * Starts compiling and linking a variant without waiting for it: no status is read back, so the GPU process
   * compiles while this thread goes on (a load asks for its first frame's programs before its textures and
   * buffers, app.ts). The get() of the same variant finishes it then — at once when the GPU is done. Does
   * nothing for a variant compiled or started already, or when the context is lost (get() reports it).
   */
  request(vert: SourceName, frag: SourceName, defines: Defines = {}, feedback: readonly string[] = []): void {
    const key = `${vert}|${frag}|${defineKey(defines)}|${feedback.join(',')}`;
    if (this.programs.has(key) || this.pending.has(key)) return;
    const t0 = performance.now();
    this.start(key, vert, frag, defines, feedback);
    this.compileMs += performance.now() - t0;
  }

  /**
   * Finishes every variant started by request() and not yet asked for: their link status and uniforms are read
   * back now (waiting for the GPU process where it is still compiling), so the get() that draws with one later
   * does not wait. A variant that failed to link is left to that get(), which reports it with its listing.
   * The time counts as compile time (compileMs).
   */
  finishPending(): void {
    if (this.pending.size === 0) return;
    const t0 = performance.now();
    for (const key of [...this.pending.keys()]) this.finish(key);
    this.compileMs += performance.now() - t0;
  }

  /** Compiles and links `key`'s program into `pending`, reading nothing back (nothing is made on a lost context). */
  private start(key: string, vert: SourceName, frag: SourceName, defines: Defines, feedback: readonly string[]): void {
    const gl = this.gl;
    const head = header(defines);
    const program = gl.createProgram();
    const vs = gl.createShader(gl.VERTEX_SHADER);
    const fs = gl.createShader(gl.FRAGMENT_SHADER);
    if (program && vs && fs) {
      gl.shaderSource(vs, head + SOURCES[vert]);
      gl.compileShader(vs);
      gl.shaderSource(fs, head + SOURCES[frag]);
      gl.compileShader(fs);
      gl.attachShader(program, vs);
      gl.attachShader(program, fs);
      for (const [name, location] of Object.entries(ATTRIB)) gl.bindAttribLocation(program, location, name);
      if (feedback.length > 0) gl.transformFeedbackVaryings(program, [...feedback], gl.SEPARATE_ATTRIBS);
      gl.linkProgram(program);
      // Flagged now, freed with the program (releaseShaders' rule).
      gl.deleteShader(vs);
      gl.deleteShader(fs);
      this.pending.set(key, program);
    } else {
      gl.deleteProgram(program);
      gl.deleteShader(vs);
      gl.deleteShader(fs);
    }
  }

  /** A started variant finished (its link status read: the wait for the GPU), or null when none was started or it failed. */
  private finish(key: string): twgl.ProgramInfo | null {
    const program = this.pending.get(key);
    if (!program) return null;
    this.pending.delete(key);
    const gl = this.gl;
    // A failure is compiled again by get() through twgl (compile()), for its numbered source listing in the error.
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) {
      gl.deleteProgram(program);
      return null;
    }
    return this.setUp(key, programInfo(gl, program));
  }

  /** The program built through twgl, for a variant that failed to link: the error carries twgl's numbered listing. */
  private compile(key: string, vert: SourceName, frag: SourceName, defines: Defines, feedback: readonly string[]): twgl.ProgramInfo {
    const head = header(defines);
    let message = '';
    const info = twgl.createProgramInfo(this.gl, [head + SOURCES[vert], head + SOURCES[frag]], {
      attribLocations: ATTRIB as unknown as Record<string, number>,
      ...(feedback.length > 0 ? { transformFeedbackVaryings: [...feedback], transformFeedbackMode: this.gl.SEPARATE_ATTRIBS } : {}),
      errorCallback: (msg: string) => {
        message += `${msg}\n`;
      },
    });
    if (!info) throw new Error(`shader compile failed for ${vert} + ${frag} [${defineKey(defines)}]\n${message}`);
    releaseShaders(this.gl, info.program);
    return this.setUp(key, info);
  }

  /** The fixed bindings of a linked program (uniform block, samplers on their units), then cached under `key`. */
  private setUp(key: string, info: twgl.ProgramInfo): twgl.ProgramInfo {
    const gl = this.gl;
    const block = gl.getUniformBlockIndex(info.program, 'Palette');
    if (block !== gl.INVALID_INDEX) gl.uniformBlockBinding(info.program, block, PALETTE_BINDING);
    // The palette texture's sampler is set once here, never through twgl's setters (which hand out units from 0).
    const paletteTex = gl.getUniformLocation(info.program, 'u_paletteTex');
    if (paletteTex) {
      gl.useProgram(info.program);
      gl.uniform1i(paletteTex, PALETTE_TEXTURE_UNIT);
      gl.useProgram(null);
    }
    const morphTex = gl.getUniformLocation(info.program, 'u_morphTex');
    if (morphTex) {
      gl.useProgram(info.program);
      gl.uniform1i(morphTex, MORPH_TEXTURE_UNIT);
      gl.useProgram(null);
    }
    const corTex = gl.getUniformLocation(info.program, 'u_corCentres');
    if (corTex) {
      gl.useProgram(info.program);
      gl.uniform1i(corTex, COR_TEXTURE_UNIT);
      gl.useProgram(null);
    }
    const colourTex = gl.getUniformLocation(info.program, 'u_colourTex');
    if (colourTex) {
      gl.useProgram(info.program);
      gl.uniform1i(colourTex, COLOUR_TEXTURE_UNIT);
      gl.useProgram(null);
    }
    const viewTex = gl.getUniformLocation(info.program, 'u_viewTex');
    if (viewTex) {
      gl.useProgram(info.program);
      gl.uniform1i(viewTex, VIEW_TEXTURE_UNIT);
      gl.useProgram(null);
    }
    for (const [name, { unit, cube }] of Object.entries(FIXED_SAMPLERS)) {
      const loc = gl.getUniformLocation(info.program, name);
      if (!loc) continue;
      gl.useProgram(info.program);
      gl.uniform1i(loc, unit);
      gl.useProgram(null);
      const target = cube ? gl.TEXTURE_CUBE_MAP : gl.TEXTURE_2D;
      (info.uniformSetters as Record<string, (v: unknown) => void>)[name] = (tex) => {
        gl.activeTexture(gl.TEXTURE0 + unit);
        gl.bindTexture(target, tex as WebGLTexture | null);
        gl.activeTexture(gl.TEXTURE0);
      };
    }
    this.programs.set(key, info);
    return info;
  }

  dispose(): void {
    for (const p of this.programs.values()) this.gl.deleteProgram(p.program);
    this.programs.clear();
    for (const p of this.pending.values()) this.gl.deleteProgram(p);
    this.pending.clear();
    if (CACHES.get(this.gl) === this) CACHES.delete(this.gl);
  }
}

/** The newest ProgramCache of each context (a renderer rebuilt after a context loss replaces its predecessor's). */
const CACHES = new WeakMap<WebGL2RenderingContext, ProgramCache>();

/**
 * A linked program's ProgramInfo as the renderer uses one: the program, its uniform setters (what UniformBinding and
 * twgl.setUniforms call) and its attribute setters, with their locations. twgl.createProgramInfoFromProgram reads
 * a WebGL2 program's uniform block layout and transform feedback varyings back as well: for a fresh program, a
 * round trip to the GPU process each, waited for, for fields nothing here reads (the palette block is bound by
 * name, setUp). The setters are twgl's own (the same active uniforms, locations and texture units).
 */
function programInfo(gl: WebGL2RenderingContext, program: WebGLProgram): twgl.ProgramInfo {
  const uniformSetters = twgl.createUniformSetters(gl, program);
  const attribSetters = twgl.createAttributeSetters(gl, program);
  const locations = <T>(setters: Record<string, unknown>): Record<string, T> =>
    Object.fromEntries(Object.entries(setters).map(([k, v]) => [k, (v as { location: T }).location]));
  return {
    program,
    uniformSetters,
    attribSetters,
    uniformLocations: locations<WebGLUniformLocation>(uniformSetters),
    attribLocations: locations<number>(attribSetters),
  };
}
