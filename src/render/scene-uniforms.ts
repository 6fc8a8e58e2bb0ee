import { mat4, vec3 } from 'gl-matrix';
import { solidTexture } from '../gpu/textures.ts';
import type { UniformBinding } from '../gpu/uniforms.ts';
import type { Material } from '../model/types.ts';
import type { ModelGpu } from './model-gpu.ts';

/** Material `material` of the model, or its first (a draw may name none). */
function materialOf(model: ModelGpu, material: number): Material {
  const materials = model.scene.materials;
  return materials[material] ?? materials[0]!;
}

/**
 * The uniform values every pass of the renderer shares, as reused objects that UniformBinding reads (no
 * per-frame allocation): frame (camera, world, lights), material, flat colour, line style and the groups
 * view's per-draw index, plus the white texture that stands in for a missing diffuse map. Owns the white
 * texture (dispose deletes it). `frame.u_viewProj` and `frame.u_cameraPos` are references that the passes
 * point at the camera's own matrices each frame (u_viewProj at the light's for the shadow map's caster pass);
 * `frame.u_shadowMatrix` and `u_shadowParams` at the ShadowMap's.
 */
export class SceneUniforms {
  readonly frame = {
    u_viewProj: mat4.create(),
    u_world: mat4.create(),
    u_cameraPos: vec3.create(),
    u_keyDir: vec3.normalize(vec3.create(), vec3.fromValues(-0.6, 0.7, 0.45)),
    u_rimDir: vec3.normalize(vec3.create(), vec3.fromValues(0.7, 0.3, -0.65)),
    /** World → the key light's shadow-map texture space, and (texel, normal offset, bias): ShadowMap's, pointed at by the renderer. */
    u_shadowMatrix: mat4.create(),
    u_shadowParams: new Float32Array(3),
  };
  readonly material = {
    u_diffuse: new Float32Array(4),
    u_diffuseMap: null as WebGLTexture | null,
    u_specular: new Float32Array(3),
    u_specPower: 32,
    u_alpha: 1,
    /** Fragments whose diffuse alpha × texture alpha is below this are discarded ('mask'); -1: none are. */
    u_alphaCutoff: -1,
    /** 1: alpha written as 1 ('opaque', 'mask'); 0: the material's alpha is kept ('blend', and materials without alphaMode). */
    u_opaque: 0,
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

  /**
   * Writes material `material` of the model (or its first) into the material uniforms, uploads them through
   * `binding`, and sets the face culling it asks for: back faces (CCW front) culled when `doubleSided` is
   * false, both sides drawn otherwise. Blending is the pass's (see `blends`). No allocation.
   */
  applyMaterial(model: ModelGpu, material: number, binding: UniformBinding<SceneUniforms['material']>): void {
    const gl = this.gl;
    const mu = this.material;
    const mat = materialOf(model, material);
    if (mat.doubleSided === false) {
      gl.enable(gl.CULL_FACE);
      gl.cullFace(gl.BACK);
      gl.frontFace(gl.CCW);
    } else gl.disable(gl.CULL_FACE);
    const mode = mat.alphaMode;
    mu.u_alphaCutoff = mode === 'mask' ? (mat.alphaCutoff ?? 0.5) : -1;
    mu.u_opaque = mode === 'opaque' || mode === 'mask' ? 1 : 0;
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

  /** The material is drawn with alpha blending (glTF alphaMode 'blend'): after the opaque draws, depth writes off. */
  blends(model: ModelGpu, material: number): boolean {
    return materialOf(model, material).alphaMode === 'blend';
  }

  /** Any material of the model blends (so a pass needs its second, blended round of draws). */
  hasBlended(model: ModelGpu): boolean {
    const materials = model.scene.materials;
    for (let i = 0; i < materials.length; i++) if (materials[i]!.alphaMode === 'blend') return true;
    return false;
  }

  dispose(): void {
    this.gl.deleteTexture(this.white);
  }
}
