import type { CrowdBake } from '../anim/crowd-bake.ts';
import { bindPaletteTexture, PALETTE_TEXTURE_ROW_SLOTS } from './palette-texture.ts';

/**
 * The baked crowd's palettes (anim/crowd-bake.ts) in one RGBA32F texture, uploaded once when built and
 * never again: baked frame g's slot s is texture slot g · slotsPerFrame + s, 4 texels (the mat4's columns)
 * at x = (slot mod 256) · 4, y = slot div 256, as PaletteTexture and CrowdPalette lay it out. Bound to
 * PALETTE_TEXTURE_UNIT (the crowd's palette unit). `fits` is false (and no texture made) when the bake needs
 * more rows than the device's largest texture; the crowd then draws on its cpu path. dispose() deletes it.
 */
export class CrowdBakeTexture {
  readonly width = PALETTE_TEXTURE_ROW_SLOTS * 4;
  readonly height: number;
  readonly fits: boolean;
  /** Bytes of texture memory the bake takes (width · height · 16). */
  readonly bytes: number;
  private texture: WebGLTexture | null = null;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    bake: CrowdBake,
    maxTextureSize: number,
  ) {
    const slots = bake.frameCount * bake.slotsPerFrame;
    this.height = Math.max(1, Math.ceil(slots / PALETTE_TEXTURE_ROW_SLOTS));
    this.fits = this.height <= maxTextureSize;
    this.bytes = this.fits ? this.width * this.height * 16 : 0;
    if (!this.fits) return;
    const data = new Float32Array(this.width * this.height * 4);
    data.set(bake.palettes);
    this.texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.RGBA32F, this.width, this.height);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, this.width, this.height, gl.RGBA, gl.FLOAT, data);
    gl.bindTexture(gl.TEXTURE_2D, null);
  }

  bind(): void {
    bindPaletteTexture(this.gl, this.texture);
  }

  dispose(): void {
    if (this.texture) this.gl.deleteTexture(this.texture);
    this.texture = null;
  }
}
