import { mat4, vec3 } from 'gl-matrix';
import { solidTexture } from '../gpu/textures.ts';
import type { UniformBinding } from '../gpu/uniforms.ts';
import type { ModelGpu } from './model-gpu.ts';

/**
 * The uniform values every pass of the renderer shares, as reused objects that UniformBinding reads (no
 * per-frame allocation): frame (camera, world, lights), material, flat colour, line style and the groups
 * view's per-draw index, plus the white texture that stands in for a missing diffuse map. Owns the white
 * texture (dispose deletes it). `frame.u_viewProj` and `frame.u_cameraPos` are references that the passes
 * point at the camera's own matrices each frame.
 */
export class SceneUniforms {
  readonly frame = {
    u_viewProj: mat4.create(),
    u_world: mat4.create(),
    u_cameraPos: vec3.create(),
    u_keyDir: vec3.normalize(vec3.create(), vec3.fromValues(-0.6, 0.7, 0.45)),
    u_rimDir: vec3.normalize(vec3.create(), vec3.fromValues(0.7, 0.3, -0.65)),
  };
  readonly material = {
    u_diffuse: new Float32Array(4),
    u_diffuseMap: null as WebGLTexture | null,
    u_specular: new Float32Array(3),
    u_specPower: 32,
    u_alpha: 1,
  };
  readonly flat = { u_colour: new Float32Array([0.55, 0.85, 1.0, 0.55]) };
  readonly line = { u_pointSize: 6, u_round: 0 };
  /** Per-draw uniforms of the groups view. */
  readonly view = { u_viewGroup: 0 };
  /** Model → world: identity except for the crowd's floor. */
  readonly identity = mat4.create();
  readonly white: WebGLTexture;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.white = solidTexture(gl, [255, 255, 255, 255]);
  }

  /** Writes material `material` of the model (or its first) into the material uniforms and uploads them through `binding`. No allocation. */
  applyMaterial(model: ModelGpu, material: number, binding: UniformBinding<SceneUniforms['material']>): void {
    const mu = this.material;
    const materials = model.scene.materials;
    const mat = materials[material] ?? materials[0]!;
    mu.u_diffuse[0] = mat.diffuse[0];
    mu.u_diffuse[1] = mat.diffuse[1];
    mu.u_diffuse[2] = mat.diffuse[2];
    mu.u_diffuse[3] = mat.diffuse[3];
    mu.u_specular[0] = mat.specular[0];
    mu.u_specular[1] = mat.specular[1];
    mu.u_specular[2] = mat.specular[2];
    mu.u_specPower = mat.specularPower;
    mu.u_diffuseMap = model.textures[material] ?? this.white;
    binding.apply();
  }

  dispose(): void {
    this.gl.deleteTexture(this.white);
  }
}
