import * as twgl from 'twgl.js';
import diffVert from '../../glsl/diff.vert';
import diffFrag from '../../glsl/diff.frag';
import { releaseShaders } from '../gpu/programs.ts';
import { countDifferingPixels, DIFF_GAIN, DIFF_THRESHOLD } from './diff-count.ts';

interface Target {
  framebuffer: WebGLFramebuffer;
  colour: WebGLTexture;
  depth: WebGLRenderbuffer;
}

/**
 * The diff view's GPU resources: two offscreen targets the size of the drawing buffer (RGBA8 colour texture
 * + 24-bit depth), `image` for the chosen technique and `reference` for software, and the composite program.
 * Targets are (re)allocated only when the drawing buffer's size changes; so is the readback array of the
 * differing-pixel count. dispose() deletes everything.
 */
export class DiffView {
  readonly image: Target;
  readonly reference: Target;
  private width = 0;
  private height = 0;
  private readonly program: twgl.ProgramInfo;
  private readonly vao: WebGLVertexArrayObject;
  private readonly uniforms = { u_image: null as WebGLTexture | null, u_reference: null as WebGLTexture | null, u_gain: DIFF_GAIN, u_threshold: DIFF_THRESHOLD };
  private readonly locations: { image: WebGLUniformLocation | null; reference: WebGLUniformLocation | null; gain: WebGLUniformLocation | null; threshold: WebGLUniformLocation | null };
  private pixelsA = new Uint8Array(0);
  private pixelsB = new Uint8Array(0);
  /** Pixels that differed at the last count, and their share of the drawing buffer; -1 before the first. */
  differing = -1;
  share = -1;

  constructor(private readonly gl: WebGL2RenderingContext) {
    let message = '';
    const info = twgl.createProgramInfo(gl, [`#version 300 es\n${diffVert}`, `#version 300 es\n${diffFrag}`], {
      errorCallback: (msg: string) => {
        message += `${msg}\n`;
      },
    });
    if (!info) throw new Error(`shader compile failed for diff.vert + diff.frag\n${message}`);
    releaseShaders(gl, info.program);
    this.program = info;
    const p = info.program;
    this.locations = {
      image: gl.getUniformLocation(p, 'u_image'),
      reference: gl.getUniformLocation(p, 'u_reference'),
      gain: gl.getUniformLocation(p, 'u_gain'),
      threshold: gl.getUniformLocation(p, 'u_threshold'),
    };
    const vao = gl.createVertexArray();
    if (!vao) throw new Error('createVertexArray failed');
    this.vao = vao;
    this.image = this.target();
    this.reference = this.target();
  }

  private target(): Target {
    const gl = this.gl;
    const framebuffer = gl.createFramebuffer();
    const colour = gl.createTexture();
    const depth = gl.createRenderbuffer();
    if (!framebuffer || !colour || !depth) throw new Error('could not create the diff view targets');
    return { framebuffer, colour, depth };
  }

  /** Sizes both targets to width × height (a no-op when they already are). */
  resize(width: number, height: number): void {
    if (width === this.width && height === this.height) return;
    const gl = this.gl;
    for (const t of [this.image, this.reference]) {
      gl.bindTexture(gl.TEXTURE_2D, t.colour);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
      gl.bindRenderbuffer(gl.RENDERBUFFER, t.depth);
      gl.renderbufferStorage(gl.RENDERBUFFER, gl.DEPTH_COMPONENT24, width, height);
      gl.bindFramebuffer(gl.FRAMEBUFFER, t.framebuffer);
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, t.colour, 0);
      gl.framebufferRenderbuffer(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.RENDERBUFFER, t.depth);
    }
    gl.bindTexture(gl.TEXTURE_2D, null);
    gl.bindRenderbuffer(gl.RENDERBUFFER, null);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    this.width = width;
    this.height = height;
    this.pixelsA = new Uint8Array(width * height * 4);
    this.pixelsB = new Uint8Array(width * height * 4);
  }

  /** Draws the composite of the two targets into the bound framebuffer (the canvas). */
  composite(): void {
    const gl = this.gl;
    gl.disable(gl.DEPTH_TEST);
    gl.disable(gl.BLEND);
    gl.useProgram(this.program.program);
    // Units 1 and 2: unit 0 belongs to twgl's material samplers, PALETTE_TEXTURE_UNIT is set by ProgramCache.
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, this.image.colour);
    gl.activeTexture(gl.TEXTURE2);
    gl.bindTexture(gl.TEXTURE_2D, this.reference.colour);
    gl.activeTexture(gl.TEXTURE0);
    gl.uniform1i(this.locations.image, 1);
    gl.uniform1i(this.locations.reference, 2);
    gl.uniform1f(this.locations.gain, this.uniforms.u_gain);
    gl.uniform1f(this.locations.threshold, this.uniforms.u_threshold);
    gl.bindVertexArray(this.vao);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
    gl.bindVertexArray(null);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_2D, null);
    gl.activeTexture(gl.TEXTURE2);
    gl.bindTexture(gl.TEXTURE_2D, null);
    gl.activeTexture(gl.TEXTURE0);
    gl.enable(gl.DEPTH_TEST);
  }

  /** Reads both targets back and counts the differing pixels into `differing` / `share`. Arrays sized at resize(). */
  count(): void {
    const gl = this.gl;
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.image.framebuffer);
    gl.readPixels(0, 0, this.width, this.height, gl.RGBA, gl.UNSIGNED_BYTE, this.pixelsA);
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.reference.framebuffer);
    gl.readPixels(0, 0, this.width, this.height, gl.RGBA, gl.UNSIGNED_BYTE, this.pixelsB);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    const pixels = this.width * this.height;
    this.differing = countDifferingPixels(this.pixelsA, this.pixelsB, pixels, DIFF_THRESHOLD * 255);
    this.share = pixels > 0 ? this.differing / pixels : 0;
  }

  dispose(): void {
    const gl = this.gl;
    for (const t of [this.image, this.reference]) {
      gl.deleteFramebuffer(t.framebuffer);
      gl.deleteTexture(t.colour);
      gl.deleteRenderbuffer(t.depth);
    }
    gl.deleteProgram(this.program.program);
    gl.deleteVertexArray(this.vao);
    this.width = 0;
    this.height = 0;
  }
}
