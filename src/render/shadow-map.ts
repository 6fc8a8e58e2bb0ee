import { mat4, vec3 } from 'gl-matrix';
import { SHADOW_MAP_MAX, shadowMapSize } from './shadow-size.ts';

/**
 * The key light's shadow map: a square depth texture (DEPTH_COMPONENT16, hardware comparison, LINEAR so a
 * `sampler2DShadow` lookup is a bilinear 2×2 PCF) and its framebuffer, plus the light's orthographic
 * frustum. Owns the texture and framebuffer (created on first use, dispose() deletes them; after a context
 * loss the renderer that owns this is rebuilt, and this with it).
 *
 * The frustum (fit) depends only on a world-space box and the light direction, never on the camera, so the
 * map is stable while the camera moves; its extent is squared and its window snapped to whole texels so a
 * box that changes (another crowd size) moves the texel grid by whole texels: no shimmering edges.
 *
 * Spaces: `lightViewProj` maps world → the light's clip space (the caster pass's u_viewProj);
 * `shadowMatrix` maps world → shadow-map texture space ([0,1]³: uv and depth, what lit.frag compares).
 * `params` = (one texel in uv, normal offset in world units, depth bias in map depth units): shadow_pars.glsl.
 *
 * The map's size: for a box the automatic camera frames (a single model) it follows the drawing buffer
 * (shadow-size.ts shadowMapSize: 1024² up to views of 1024 pixels, else 2048²); a crowd's box reaches far past
 * the view, so a crowd's map has the most texels (SHADOW_MAP_MAX). fit() and prepare() decide it, and a size that
 * changed (the canvas resized across 1024 pixels, a crowd started or ended) drops the texture and framebuffer,
 * made again at the new size on their next use.
 */

/** Texture unit the shadow map is bound to (above twgl's units for the material, the view, morph and palette textures). */
export const SHADOW_TEXTURE_UNIT = 8;

/** Normal offset of a receiving point, in texels of the map (shadow_pars.glsl moves the point along its normal). */
const NORMAL_OFFSET_TEXELS = 1.5;
/**
 * Constant depth bias in map depth units. The map's 16-bit depth resolves 1 / 65536 of the light frustum's depth
 * range, 50 times finer than this: the frustum is fitted to the casters' box (fit()), so even a 10,000-character
 * plaza's few hundred metres resolve to millimetres. 24 bits draw the same pictures (a 300-character plaza differs
 * in 0.35 % of its pixels, one character in 0.01 %, nearly all by a few levels) and cost twice the memory and, on
 * a software GPU, twice the first clear of a 2048² map (docs/performance.md).
 */
const DEPTH_BIAS = 0.0008;

const _view = mat4.create();
const _proj = mat4.create();
const _eye = vec3.create();
const _centre = vec3.create();
const _up = vec3.create();
const _corner = vec3.create();
const BIAS = mat4.fromValues(0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, 0.5, 0.5, 0.5, 1);

export class ShadowMap {
  /** World units one texel of the map covers, for the box fitted last (fit()). */
  texel = 0;
  readonly lightViewProj = mat4.create();
  readonly shadowMatrix = mat4.create();
  readonly params = new Float32Array(3);
  private texture: WebGLTexture | null = null;
  private framebuffer: WebGLFramebuffer | null = null;
  /** Whether the framebuffer's completeness was read back (ensure()). */
  private checked = false;
  /** Texels along each side: what the texture has, or will have when it is made. */
  private side: number;
  private readonly maxTextureSize: number;
  /** Whether the box last fitted is one the camera frames (fit's `framed`); prepare() sizes for the same. */
  private framed = true;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.maxTextureSize = gl.getParameter(gl.MAX_TEXTURE_SIZE) as number;
    this.side = this.sideFor(true);
  }

  /** Texels along each side of the map, as last fitted or prepared. */
  get size(): number {
    return this.side;
  }

  /**
   * The side for a framed box (shadowMapSize of the drawing buffer as it is now: no GL round trip, the sizes are
   * the context's own) or for a crowd's (the most texels).
   */
  private sideFor(framed: boolean): number {
    if (!framed) return Math.min(SHADOW_MAP_MAX, this.maxTextureSize);
    return shadowMapSize(this.gl.drawingBufferWidth, this.gl.drawingBufferHeight, this.maxTextureSize);
  }

  /** Takes the size sideFor gives: a side that changed drops the texture and framebuffer (made again on use). */
  private follow(framed: boolean): void {
    this.framed = framed;
    const side = this.sideFor(framed);
    if (side === this.side) return;
    this.dispose();
    this.side = side;
  }

  /** The texture and framebuffer exist (they are made on the first begin()). */
  get allocated(): boolean {
    return this.texture !== null;
  }

  /**
   * Fits the light frustum around the world-space box [min, max] for a directional light towards `lightDir`
   * (unit, from the surface towards the light). The box must hold every caster; a receiver outside the
   * map's window is lit. `framed`: the box is the one the automatic camera frames (a single model's), so the
   * map's size follows the drawing buffer; false for a crowd's (the most texels). No allocation.
   */
  fit(min: ArrayLike<number>, max: ArrayLike<number>, lightDir: ArrayLike<number>, framed = true): void {
    this.follow(framed);
    vec3.set(_centre, (min[0]! + max[0]!) / 2, (min[1]! + max[1]!) / 2, (min[2]! + max[2]!) / 2);
    const radius = Math.max(1e-6, Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!) / 2);
    vec3.set(_eye, _centre[0]! + lightDir[0]! * radius * 2, _centre[1]! + lightDir[1]! * radius * 2, _centre[2]! + lightDir[2]! * radius * 2);
    if (Math.abs(lightDir[1]!) > 0.99) vec3.set(_up, 0, 0, 1);
    else vec3.set(_up, 0, 1, 0);
    mat4.lookAt(_view, _eye, _centre, _up);
    // The box's corners in light view space: the window (x, y) and depth range (-z) they need.
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    let z0 = Infinity;
    let z1 = -Infinity;
    for (let i = 0; i < 8; i++) {
      vec3.set(_corner, i & 1 ? max[0]! : min[0]!, i & 2 ? max[1]! : min[1]!, i & 4 ? max[2]! : min[2]!);
      vec3.transformMat4(_corner, _corner, _view);
      x0 = Math.min(x0, _corner[0]!);
      x1 = Math.max(x1, _corner[0]!);
      y0 = Math.min(y0, _corner[1]!);
      y1 = Math.max(y1, _corner[1]!);
      z0 = Math.min(z0, -_corner[2]!);
      z1 = Math.max(z1, -_corner[2]!);
    }
    // A square window a little larger than the box (the PCF footprint at its edge), snapped to whole texels.
    const extent = Math.max(x1 - x0, y1 - y0) * 1.04;
    const texel = extent / this.side;
    this.texel = texel;
    const cx = Math.round((x0 + x1) / 2 / texel) * texel;
    const cy = Math.round((y0 + y1) / 2 / texel) * texel;
    const half = extent / 2;
    // Depth: the casters' range, reaching past the far corner for receivers beyond it (the floor past the box).
    const margin = radius * 0.05;
    mat4.ortho(_proj, cx - half, cx + half, cy - half, cy + half, Math.max(1e-6, z0 - margin), z1 + radius);
    mat4.multiply(this.lightViewProj, _proj, _view);
    mat4.multiply(this.shadowMatrix, BIAS, this.lightViewProj);
    this.params[0] = 1 / this.side;
    this.params[1] = texel * NORMAL_OFFSET_TEXELS;
    this.params[2] = DEPTH_BIAS;
  }

  /**
   * Binds the map's framebuffer (creating it on first use), sets the viewport to it and clears its depth;
   * depth test and writes on, colour writes off, polygon offset (slope-scaled bias) on. end() undoes them.
   */
  begin(): void {
    const gl = this.gl;
    this.ensure();
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.framebuffer);
    gl.viewport(0, 0, this.side, this.side);
    // A compare half scissors the canvas to itself; the map is cleared and drawn whole.
    gl.disable(gl.SCISSOR_TEST);
    gl.depthMask(true);
    gl.clear(gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.colorMask(false, false, false, false);
    gl.disable(gl.BLEND);
    gl.enable(gl.POLYGON_OFFSET_FILL);
    gl.polygonOffset(1.5, 2);
  }

  /** Leaves the map: the default framebuffer bound (the caller binds its own target and viewport), state restored. */
  end(): void {
    const gl = this.gl;
    gl.disable(gl.POLYGON_OFFSET_FILL);
    gl.polygonOffset(0, 0);
    gl.colorMask(true, true, true, true);
    gl.disable(gl.CULL_FACE);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  /** Binds the map to SHADOW_TEXTURE_UNIT for the receivers (lit.frag, the floor). */
  bindTexture(): void {
    const gl = this.gl;
    this.ensure();
    gl.activeTexture(gl.TEXTURE0 + SHADOW_TEXTURE_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.activeTexture(gl.TEXTURE0);
  }

  /**
   * Makes the texture and framebuffer when they do not exist yet and checks the framebuffer once (begin() and
   * bindTexture() do; a load does ahead of its first frame). Throws when it is incomplete.
   */
  ensure(): void {
    this.prepare();
    if (!this.checked) this.check();
  }

  /**
   * Makes the texture and framebuffer when they do not exist yet, reading nothing back: the GPU process makes
   * them while the caller goes on (a load starts it before its model is parsed); ensure() checks them later.
   * At the size the last fit() asked for, for the drawing buffer as it is now.
   */
  prepare(): void {
    this.follow(this.framed);
    if (!this.framebuffer) this.allocate();
  }

  /** The framebuffer's completeness read back (a wait for the GPU process); an incomplete one is deleted. */
  private check(): void {
    const gl = this.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.framebuffer);
    const status = gl.checkFramebufferStatus(gl.FRAMEBUFFER);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    if (status !== gl.FRAMEBUFFER_COMPLETE) {
      this.dispose();
      throw new Error(`the shadow map's framebuffer is incomplete (status 0x${status.toString(16)})`);
    }
    this.checked = true;
  }

  private allocate(): void {
    const gl = this.gl;
    const texture = gl.createTexture();
    const framebuffer = gl.createFramebuffer();
    if (!texture || !framebuffer) throw new Error('could not create the shadow map (context lost?)');
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.DEPTH_COMPONENT16, this.side, this.side);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_COMPARE_MODE, gl.COMPARE_REF_TO_TEXTURE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_COMPARE_FUNC, gl.LEQUAL);
    gl.bindTexture(gl.TEXTURE_2D, null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.TEXTURE_2D, texture, 0);
    gl.drawBuffers([gl.NONE]);
    gl.readBuffer(gl.NONE);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    this.texture = texture;
    this.framebuffer = framebuffer;
    this.checked = false;
  }

  /** Deletes the texture and framebuffer (no-ops on a lost context) and forgets them; begin() would make new ones. */
  dispose(): void {
    const gl = this.gl;
    if (this.framebuffer) gl.deleteFramebuffer(this.framebuffer);
    if (this.texture) gl.deleteTexture(this.texture);
    this.framebuffer = null;
    this.texture = null;
    this.checked = false;
  }
}

/** Points a program's `u_shadowMap` sampler at SHADOW_TEXTURE_UNIT (once, when the program is made; no-op without it). */
export function bindShadowSampler(gl: WebGL2RenderingContext, program: WebGLProgram): void {
  const loc = gl.getUniformLocation(program, 'u_shadowMap');
  if (!loc) return;
  gl.useProgram(program);
  gl.uniform1i(loc, SHADOW_TEXTURE_UNIT);
  gl.useProgram(null);
}
