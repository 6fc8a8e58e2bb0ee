/**
 * The skin palette as a std140 uniform block `Palette { mat4 u_palette[PALETTE_SIZE]; }`.
 * `data` is the block's own Float32Array: the animation writes column-major mat4s straight into it
 * (16 floats per slot, std140 needs no padding for mat4 arrays) and `upload(slots)` sends only the
 * written range, once per frame. One block per mesh, bound to UNIFORM_BINDING at draw time.
 */
export const PALETTE_BINDING = 0;

export class PaletteUbo {
  readonly data: Float32Array;
  private buffer: WebGLBuffer | null;
  /** Bytes sent by the last upload (for the stats overlay). */
  lastUploadBytes = 0;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    /** Declared array length in the shader (PALETTE_SIZE); slots beyond the mesh's stay identity. */
    readonly capacity: number,
  ) {
    this.data = new Float32Array(capacity * 16);
    for (let i = 0; i < capacity; i++) {
      this.data[i * 16] = this.data[i * 16 + 5] = this.data[i * 16 + 10] = this.data[i * 16 + 15] = 1;
    }
    this.buffer = gl.createBuffer();
    gl.bindBuffer(gl.UNIFORM_BUFFER, this.buffer);
    gl.bufferData(gl.UNIFORM_BUFFER, this.data, gl.DYNAMIC_DRAW);
    gl.bindBuffer(gl.UNIFORM_BUFFER, null);
  }

  /** Sends slots [0, slots) of `data`. */
  upload(slots: number): void {
    const gl = this.gl;
    gl.bindBuffer(gl.UNIFORM_BUFFER, this.buffer);
    gl.bufferSubData(gl.UNIFORM_BUFFER, 0, this.data, 0, slots * 16);
    gl.bindBuffer(gl.UNIFORM_BUFFER, null);
    this.lastUploadBytes = slots * 64;
  }

  bind(): void {
    this.gl.bindBufferBase(this.gl.UNIFORM_BUFFER, PALETTE_BINDING, this.buffer);
  }

  dispose(): void {
    if (this.buffer) this.gl.deleteBuffer(this.buffer);
    this.buffer = null;
  }
}
