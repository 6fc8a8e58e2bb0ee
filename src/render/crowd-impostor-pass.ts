import type * as twgl from 'twgl.js';
import type { CrowdInstances } from '../gpu/crowd-instances.ts';
import type { ProgramCache } from '../gpu/programs.ts';
import { UniformBinding } from '../gpu/uniforms.ts';
import { IMPOSTOR_COLOUR_UNIT, IMPOSTOR_NORMAL_UNIT, type CrowdImpostor, type ImpostorCaptureProgram } from './crowd-impostor.ts';
import { BAKE_CLIPS, type CrowdUniforms } from './crowd-programs.ts';
import type { FrameFigures } from './frame-types.ts';
import { IMPOSTOR_ELEVATIONS } from './impostor-cells.ts';
import type { SceneUniforms } from './scene-uniforms.ts';
import { MAX_INFLUENCES } from '../model/types.ts';

/**
 * Largest on-screen diameter (px) of an instance's bounding sphere drawn as an impostor: past the lightest
 * level's switch, an instance is an impostor once its sphere projects under this (docs/crowds.md).
 */
export const IMPOSTOR_PX = 16;

/** The impostor program's own uniforms (impostor.vert / .frag), one object the pass refills per model. */
interface ImpostorUniforms {
  u_impostorSphere: Float32Array;
  u_impostorGrid: Float32Array;
  u_impostorElevations: Float32Array;
  u_specular: Float32Array;
  u_specPower: number;
}

/**
 * The crowd's far field (crowd-pass.ts): the impostor program (glsl/impostor.vert / .frag: one camera-facing
 * quad per instance textured from its model's CrowdImpostor atlas, lit like the meshes with the specular of
 * the model's main material, unshadowed), the quad's corner buffer every sub-crowd's instance buffer draws it with, and the
 * capture program each model's atlas is drawn with (lit.frag's IMPOSTOR_CAPTURE through the crowd's baked
 * skinning). Compiles on first use (cached by the ProgramCache); per frame allocates nothing. releaseQuad()
 * (with the crowd's state) and dispose() free the corner buffer (the programs are the cache's).
 */
export class CrowdImpostorPass {
  private program: twgl.ProgramInfo | null = null;
  private frame: UniformBinding<SceneUniforms['frame']> | null = null;
  private crowd: UniformBinding<CrowdUniforms> | null = null;
  private own: UniformBinding<ImpostorUniforms> | null = null;
  private capture: ImpostorCaptureProgram | null = null;
  private corners: WebGLBuffer | null = null;
  private readonly values: ImpostorUniforms = {
    u_impostorSphere: new Float32Array(4),
    u_impostorGrid: new Float32Array(4),
    u_impostorElevations: Float32Array.from(IMPOSTOR_ELEVATIONS),
    u_specular: new Float32Array(3),
    u_specPower: 32,
  };

  constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly programs: ProgramCache,
    private readonly uniforms: SceneUniforms,
    private readonly crowdUniforms: CrowdUniforms,
  ) {}

  /** The quad's corners ((±1, ±1) as a strip), made on first use: what CrowdInstances.setImpostorQuad takes. */
  quad(): WebGLBuffer {
    if (this.corners) return this.corners;
    const gl = this.gl;
    const b = gl.createBuffer();
    if (!b) throw new Error('could not create the impostor quad (context lost?)');
    gl.bindBuffer(gl.ARRAY_BUFFER, b);
    gl.bufferData(gl.ARRAY_BUFFER, Float32Array.of(-1, -1, 1, -1, -1, 1, 1, 1), gl.STATIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    return (this.corners = b);
  }

  /**
   * The atlas capture program (compiled once): every influence (MAX_INFLUENCES) whatever the crowd's
   * `influences` setting, so the atlas shows the model as authored and one program serves every model.
   */
  captureProgram(): ImpostorCaptureProgram {
    if (this.capture) return this.capture;
    const program = this.programs.get('skinned.vert', 'lit.frag', {
      PALETTE_TEXTURE: true, CROWD: true, CROWD_BAKED: true, BAKE_CLIPS, INFLUENCES: MAX_INFLUENCES, IMPOSTOR_CAPTURE: true,
    });
    const p: ImpostorCaptureProgram = {
      program,
      frame: new UniformBinding(program, this.uniforms.frame),
      material: new UniformBinding(program, this.uniforms.material),
      crowd: new UniformBinding(program, this.crowdUniforms),
    };
    this.capture = p;
    return p;
  }

  /** Puts the impostor program in use with the frame's uniforms (the camera's); call before draw(). */
  begin(): void {
    const gl = this.gl;
    if (this.program === null) {
      const program = this.programs.get('impostor.vert', 'impostor.frag', { CROWD: true, CROWD_BAKED: true, BAKE_CLIPS });
      gl.useProgram(program.program);
      gl.uniform1i(gl.getUniformLocation(program.program, 'u_impostorColour'), IMPOSTOR_COLOUR_UNIT);
      gl.uniform1i(gl.getUniformLocation(program.program, 'u_impostorNormal'), IMPOSTOR_NORMAL_UNIT);
      this.program = program;
      this.frame = new UniformBinding(program, this.uniforms.frame);
      this.crowd = new UniformBinding(program, this.crowdUniforms);
      this.own = new UniformBinding(program, this.values);
    }
    gl.useProgram(this.program.program);
    this.frame!.apply();
  }

  /**
   * Draws instance slots [first, first + count) of `instances` as impostors of `atlas` (the crowd uniforms
   * already hold the model's clip table and transform). One drawArraysInstanced.
   */
  draw(atlas: CrowdImpostor, instances: CrowdInstances, first: number, count: number, out: FrameFigures): void {
    if (count <= 0) return;
    const gl = this.gl;
    const v = this.values;
    v.u_impostorSphere.set(atlas.sphere);
    v.u_impostorGrid.set(atlas.grid);
    v.u_specular.set(atlas.specular);
    v.u_specPower = atlas.specularPower;
    this.own!.apply();
    this.crowd!.apply();
    atlas.bind();
    gl.bindVertexArray(instances.impostorVao(first));
    gl.drawArraysInstanced(gl.TRIANGLE_STRIP, 0, 4, count);
    out.crowdTriangles += 2 * count;
    out.drawCalls++;
    out.meshDrawCalls++;
  }

  /** Frees the quad's corner buffer (made again by the next quad()); the crowd's state that drew with it is gone. */
  releaseQuad(): void {
    if (this.corners) this.gl.deleteBuffer(this.corners);
    this.corners = null;
  }

  dispose(): void {
    this.releaseQuad();
    this.program = null;
    this.frame = this.crowd = null;
    this.own = null;
    this.capture = null;
  }
}
