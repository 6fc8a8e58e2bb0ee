/**
 * A skin palette in an RGBA32F texture read with texelFetch: slot s is 4 texels (the mat4's columns) at
 * x = (s mod 256) · 4, y = s div 256, so a row holds 256 matrices and the height grows with the bone count
 * (no uniform limit). `data` is the texture's own Float32Array, 16 floats per slot in slot order, written
 * straight by the animation; `upload()` sends it once per frame. Bound to PALETTE_TEXTURE_UNIT.
 */
/** A unit above the ones twgl hands to the material samplers (0, 1, ...). */
export const PALETTE_TEXTURE_UNIT = 7;
export const PALETTE_TEXTURE_ROW_SLOTS = 256;

/** Binds `texture` (a palette, a crowd's palettes or its bake) to PALETTE_TEXTURE_UNIT, leaving unit 0 active. */
export function bindPaletteTexture(gl: WebGL2RenderingContext, texture: WebGLTexture | null): void {
  gl.activeTexture(gl.TEXTURE0 + PALETTE_TEXTURE_UNIT);
  gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.activeTexture(gl.TEXTURE0);
}

export class PaletteTexture {
  readonly data: Float32Array;
  readonly width: number;
  readonly height: number;
  private texture: WebGLTexture | null;
  lastUploadBytes = 0;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    readonly slots: number,
  ) {
    const n = Math.max(1, slots);
    this.width = Math.min(n, PALETTE_TEXTURE_ROW_SLOTS) * 4;
    this.height = Math.ceil(n / PALETTE_TEXTURE_ROW_SLOTS);
    this.data = new Float32Array(this.width * this.height * 4);
    this.texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, this.width, this.height);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.bindTexture(gl.TEXTURE_2D, null);
  }

  upload(): void {
    const gl = this.gl;
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, this.width, this.height, gl.RGBA, gl.FLOAT, this.data);
    gl.bindTexture(gl.TEXTURE_2D, null);
    this.lastUploadBytes = this.data.byteLength;
  }

  bind(): void {
    bindPaletteTexture(this.gl, this.texture);
  }

  dispose(): void {
    if (this.texture) this.gl.deleteTexture(this.texture);
    this.texture = null;
  }
}
