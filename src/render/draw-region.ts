/**
 * The part of the drawing buffer the renderer draws into: the whole buffer, or one region of it (a compare
 * half, [x, y, width, height] in buffer pixels) with the scissor on, and the background clear within it.
 * Owns no GL object; allocates nothing after construction.
 */
export class DrawRegion {
  private readonly rect = new Int32Array(4);
  private on = false;

  constructor(private readonly gl: WebGL2RenderingContext) {}

  /** True while a region is set (not the whole buffer). */
  get partial(): boolean {
    return this.on;
  }

  /** Draws go into `region` only from now on; the viewport and scissor are set when a pass clears (use()). */
  set(region: ArrayLike<number>): void {
    for (let i = 0; i < 4; i++) this.rect[i] = region[i]!;
    this.on = true;
  }

  /** Back to the whole buffer (scissor off, viewport over the buffer). */
  whole(): void {
    this.on = false;
    this.gl.disable(this.gl.SCISSOR_TEST);
    this.gl.viewport(0, 0, this.gl.drawingBufferWidth, this.gl.drawingBufferHeight);
  }

  /** Sets the viewport (and in a region, the scissor) to what is drawn into. */
  use(): void {
    const gl = this.gl;
    const r = this.rect;
    if (this.on) {
      gl.viewport(r[0]!, r[1]!, r[2]!, r[3]!);
      gl.enable(gl.SCISSOR_TEST);
      gl.scissor(r[0]!, r[1]!, r[2]!, r[3]!);
    } else {
      gl.disable(gl.SCISSOR_TEST);
      gl.viewport(0, 0, gl.drawingBufferWidth, gl.drawingBufferHeight);
    }
  }

  /** Clears the bound framebuffer within what is drawn into to the background colour (what shows while no model is loaded). */
  clear(): void {
    const gl = this.gl;
    this.use();
    gl.clearColor(0.105, 0.115, 0.135, 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
  }
}
