import type { AnimPlayer } from '../anim/player.ts';
import type { ProgramCache } from '../gpu/programs.ts';
import { UniformBinding } from '../gpu/uniforms.ts';
import type { Technique, TechniqueMesh } from '../techniques/technique.ts';
import type { ModelGpu } from './model-gpu.ts';
import { morphLocations, type MorphPath } from './morph-runtime.ts';
import type { SceneUniforms } from './scene-uniforms.ts';
import type { Variants } from './variants.ts';

/**
 * The debug path the correctness checks read the GPU through: skins every vertex of every mesh with a
 * technique and captures the model-space positions, normals and tangents with transform feedback. Owns nothing
 * between calls: every buffer it creates is deleted before it returns. Allocates: never per frame.
 */

/** Transform-feedback readback of one mesh: skinned model-space positions, normals and tangents per technique vertex. */
export interface SkinReadback {
  /** v_worldPos: 3 floats per technique vertex. */
  readonly positions: Float32Array;
  /** v_tangent: 4 floats per technique vertex, unit skinned tangent (xyz) and bitangent sign (w). */
  readonly tangents: Float32Array;
  /** v_normal: 3 floats per technique vertex, the skinned normal as the vertex stage computes it (not normalised). */
  readonly normals: Float32Array;
  /** Technique vertex v is a copy of mesh vertex sourceVertex[v]. */
  readonly sourceVertex: Uint32Array;
  readonly approximated: Uint8Array | null;
}

/**
 * Skins the player's pose with `technique` (u_world = identity, so v_worldPos is model space), one point
 * per technique vertex, group by group, into separate feedback buffers. `tmeshes` is the technique's mesh
 * state for these options. Leaves the variants cleared (other programs were bound).
 */
export function readbackSkin(
  gl: WebGL2RenderingContext,
  programs: ProgramCache,
  variants: Variants,
  uniforms: SceneUniforms,
  model: ModelGpu,
  tmeshes: readonly TechniqueMesh[],
  player: AnimPlayer,
  technique: Technique,
  influences: number,
  palette: number,
  morphs: MorphPath,
): SkinReadback[] {
  const { defines, gpuMorph } = variants.defines(model, technique, influences, palette, morphs);
  const program = programs.get('skinned.vert', 'flat.frag', defines, ['v_worldPos', 'v_tangent', 'v_normal']);
  const groupLoc = technique.groupUniform ? gl.getUniformLocation(program.program, technique.groupUniform) : null;
  const morphLocs = gpuMorph ? morphLocations(gl, program.program) : null;
  model.morph?.prepare(morphs, player.morphWeights, tmeshes, gpuMorph);
  // Every mesh's per-frame work first: a technique that skins in a pass of its own (stream-out) runs it here,
  // with its own program and transform feedback; the readback then captures what its draws read.
  for (let i = 0; i < tmeshes.length; i++) tmeshes[i]!.update(player);
  gl.useProgram(program.program);
  new UniformBinding(program, uniforms.frame).apply();
  const tf = gl.createTransformFeedback();
  const results: SkinReadback[] = [];
  gl.enable(gl.RASTERIZER_DISCARD);
  for (let i = 0; i < tmeshes.length; i++) {
    const tm = tmeshes[i]!;
    tm.bind();
    model.morph?.bindMesh(i, morphLocs);
    const buffer = gl.createBuffer();
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, buffer);
    gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, tm.vertexCount * 12, gl.STATIC_READ);
    const tangentBuffer = gl.createBuffer();
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, tangentBuffer);
    gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, tm.vertexCount * 16, gl.STATIC_READ);
    const normalBuffer = gl.createBuffer();
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, normalBuffer);
    gl.bufferData(gl.TRANSFORM_FEEDBACK_BUFFER, tm.vertexCount * 12, gl.STATIC_READ);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
    gl.bindVertexArray(tm.vao);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, tf);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 1, tangentBuffer);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 2, normalBuffer);
    gl.beginTransformFeedback(gl.POINTS);
    for (const p of tm.points) {
      tm.setGroup(p.group, groupLoc);
      gl.drawArrays(gl.POINTS, p.first, p.count);
    }
    gl.endTransformFeedback();
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 0, null);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 1, null);
    gl.bindBufferBase(gl.TRANSFORM_FEEDBACK_BUFFER, 2, null);
    gl.bindTransformFeedback(gl.TRANSFORM_FEEDBACK, null);
    gl.bindVertexArray(null);
    const positions = new Float32Array(tm.vertexCount * 3);
    const tangents = new Float32Array(tm.vertexCount * 4);
    const normals = new Float32Array(tm.vertexCount * 3);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, buffer);
    gl.getBufferSubData(gl.TRANSFORM_FEEDBACK_BUFFER, 0, positions);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, tangentBuffer);
    gl.getBufferSubData(gl.TRANSFORM_FEEDBACK_BUFFER, 0, tangents);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, normalBuffer);
    gl.getBufferSubData(gl.TRANSFORM_FEEDBACK_BUFFER, 0, normals);
    gl.bindBuffer(gl.TRANSFORM_FEEDBACK_BUFFER, null);
    gl.deleteBuffer(buffer);
    gl.deleteBuffer(tangentBuffer);
    gl.deleteBuffer(normalBuffer);
    results.push({ positions, tangents, normals, sourceVertex: tm.sourceVertex, approximated: tm.approximated });
  }
  gl.disable(gl.RASTERIZER_DISCARD);
  gl.deleteTransformFeedback(tf);
  variants.clear();
  return results;
}
