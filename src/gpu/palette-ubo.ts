/**
 * A skin palette in a std140 uniform block bound at PALETTE_BINDING, e.g.
 * `Palette { mat4 u_palette[PALETTE_SIZE]; }` (16 floats per slot) or `Palette { vec4 u_dualQuat[2 * PALETTE_SIZE]; }`
 * (8 floats per slot). `data` is the block's own Float32Array: the animation writes each slot straight into
 * it (std140 arrays of mat4 / vec4 have no padding) and `upload(slots)` sends only the written range, once
 * per frame. One block per mesh, bound at draw time. Unwritten slots hold the identity (`identity`).
 */
export const PALETTE_BINDING = 0;

const MAT4_IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

export class PaletteUbo {
  readonly data: Float32Array;
  private buffer: WebGLBuffer | null;
  /** Bytes sent by the last upload (for the stats overlay). */
  lastUploadBytes = 0;

  constructor(
    private readonly gl: WebGL2RenderingContext,
    /** Declared slot count in the shader (PALETTE_SIZE). */
    readonly capacity: number,
    readonly floatsPerSlot = 16,
    identity: readonly number[] = MAT4_IDENTITY,
  ) {
    this.data = new Float32Array(capacity * floatsPerSlot);
    for (let i = 0; i < capacity; i++) this.data.set(identity, i * floatsPerSlot);
    this.buffer = gl.createBuffer();
    gl.bindBuffer(gl.UNIFORM_BUFFER, this.buffer);
    gl.bufferData(gl.UNIFORM_BUFFER, this.data, gl.DYNAMIC_DRAW);
    gl.bindBuffer(gl.UNIFORM_BUFFER, null);
  }

  /** Sends slots [0, slots) of `data`. */
  upload(slots: number): void {
    const gl = this.gl;
    gl.bindBuffer(gl.UNIFORM_BUFFER, this.buffer);
    gl.bufferSubData(gl.UNIFORM_BUFFER, 0, this.data, 0, slots * this.floatsPerSlot);
    gl.bindBuffer(gl.UNIFORM_BUFFER, null);
    this.lastUploadBytes = slots * this.floatsPerSlot * 4;
  }

  bind(): void {
    this.gl.bindBufferBase(this.gl.UNIFORM_BUFFER, PALETTE_BINDING, this.buffer);
  }

  dispose(): void {
    if (this.buffer) this.gl.deleteBuffer(this.buffer);
    this.buffer = null;
  }
}
