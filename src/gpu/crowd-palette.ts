import { bindPaletteTexture, PALETTE_TEXTURE_ROW_SLOTS } from './palette-texture.ts';

/**
 * Every crowd instance's skin palettes in ONE RGBA32F texture read with texelFetch (skin_pars.glsl
 * PALETTE_TEXTURE + CROWD). Layout: `slotsPerInstance` mat4 slots per instance (each mesh's palette at its
 * own base inside the block, crowd.ts), instance i's block starting at slot i · slotsPerInstance; slot k of
 * the texture is 4 texels (the mat4's columns, column-major) at x = (k mod 256) · 4, y = k div 256, as
 * PaletteTexture. `data` is the texture's own Float32Array, 16 floats per slot in slot order: the animation
 * writes into it and upload(count) sends the rows the first `count` instances use, once per frame.
 * Capacity grows (reallocating texture and array) only in reserve(), never per frame. Bound to
 * PALETTE_TEXTURE_UNIT like the single-model palette texture.
 */
export class CrowdPalette {
  data: Float32Array;
  /** Instances the texture holds. */
  capacity = 0;
  readonly width = PALETTE_TEXTURE_ROW_SLOTS * 4;
  height = 0;
  lastUploadBytes = 0;
  private texture: WebGLTexture | null = null;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    readonly slotsPerInstance: number,
    private readonly maxTextureSize: number,
  ) {
    this.data = new Float32Array(0);
  }

  /** Rows of the texture the first `count` instances use. */
  rowsFor(count: number): number {
    return Math.max(1, Math.ceil((count * this.slotsPerInstance) / PALETTE_TEXTURE_ROW_SLOTS));
  }

  /** Instances a texture of the device's largest height holds. */
  get maxInstances(): number {
    return Math.floor((this.maxTextureSize * PALETTE_TEXTURE_ROW_SLOTS) / Math.max(1, this.slotsPerInstance));
  }

  /** Makes room for `count` instances (grows to at least that, never shrinks). Allocates; not per frame. */
  reserve(count: number): void {
    if (count <= this.capacity) return;
    const gl = this.gl;
    const capacity = Math.min(this.maxInstances, Math.max(count, this.capacity * 2, 16));
    const height = this.rowsFor(capacity);
    if (this.texture) gl.deleteTexture(this.texture);
    this.texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, this.width, height);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.bindTexture(gl.TEXTURE_2D, null);
    this.data = new Float32Array(this.width * height * 4);
    this.capacity = capacity;
    this.height = height;
  }

  /** One texSubImage2D of the rows the first `count` instances use (count ≤ capacity). */
  upload(count: number): void {
    const gl = this.gl;
    const rows = Math.min(this.height, this.rowsFor(count));
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, this.width, rows, gl.RGBA, gl.FLOAT, this.data, 0);
    gl.bindTexture(gl.TEXTURE_2D, null);
    this.lastUploadBytes = this.width * rows * 16;
  }

  bind(): void {
    bindPaletteTexture(this.gl, this.texture);
  }

  dispose(): void {
    if (this.texture) this.gl.deleteTexture(this.texture);
    this.texture = null;
    this.capacity = 0;
    this.height = 0;
    this.data = new Float32Array(0);
  }
}
