import { mat4, vec3 } from 'gl-matrix';
import { EnvCube } from '../gpu/env-cube.ts';
import { solidTexture } from '../gpu/textures.ts';
import type { UniformBinding } from '../gpu/uniforms.ts';
import type { Material } from '../model/types.ts';
import type { Scene } from '../model/types.ts';
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
    /** The pbr shading's environment (gpu/env-cube.ts): made on first use (ensureEnvironment). */
    u_envMap: null as WebGLTexture | null,
    u_envSH: new Float32Array(27),
    u_envMaxLod: 0,
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
    // The pbr shading's (lit.frag SHADING_PBR; the tangents view reads the normal map too): neutral defaults for
    // what a material leaves out, the studio material's specular power turned into a roughness.
    u_mrMap: null as WebGLTexture | null,
    u_normalMap: null as WebGLTexture | null,
    u_occlusionMap: null as WebGLTexture | null,
    u_emissiveMap: null as WebGLTexture | null,
    /** (metallic, roughness) factors. */
    u_metalRough: new Float32Array(2),
    /** 0 without a normal map. */
    u_normalScale: 0,
    u_occlusionStrength: 1,
    /** Linear emissive factor (× the emissive map, sRGB). */
    u_emissive: new Float32Array(3),
  };
  readonly flat = { u_colour: new Float32Array([0.55, 0.85, 1.0, 0.55]) };
  readonly line = { u_pointSize: 6, u_round: 0 };
  /** Per-draw uniforms of the groups view. */
  readonly view = { u_viewGroup: 0 };
  /** Model → world: identity except for the crowd's floor. */
  readonly identity = mat4.create();
  readonly white: WebGLTexture;
  /** The flat normal (0, 0, 1) in tangent space, for a material without a normal map. */
  private readonly flatNormal: WebGLTexture;
  private env: EnvCube | null = null;

  constructor(private readonly gl: WebGL2RenderingContext) {
    this.white = solidTexture(gl, [255, 255, 255, 255]);
    this.flatNormal = solidTexture(gl, [128, 128, 255, 255]);
  }

  /** Makes the pbr shading's environment (once: some tens of ms of CPU work) and points the frame uniforms at it. */
  ensureEnvironment(): void {
    if (this.env) return;
    this.env = new EnvCube(this.gl);
    this.frame.u_envMap = this.env.texture;
    this.frame.u_envSH.set(this.env.sh);
    this.frame.u_envMaxLod = this.env.maxLod;
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
    const maps = model.maps[material];
    mu.u_mrMap = maps?.metallicRoughnessMap ?? this.white;
    mu.u_occlusionMap = maps?.occlusionMap ?? this.white;
    mu.u_emissiveMap = maps?.emissiveMap ?? this.white;
    mu.u_normalMap = maps?.normalMap ?? this.flatNormal;
    mu.u_normalScale = maps?.normalMap ? (mat.normalScale ?? 1) : 0;
    mu.u_metalRough[0] = mat.metallic ?? 0;
    mu.u_metalRough[1] = mat.roughness ?? Math.sqrt(2 / (Math.max(1, mat.specularPower) + 2));
    mu.u_occlusionStrength = maps?.occlusionMap ? (mat.occlusionStrength ?? 1) : 0;
    const e = mat.emissiveFactor;
    // A studio material's emissive colour is not drawn by the studio shading either.
    for (let i = 0; i < 3; i++) mu.u_emissive[i] = e ? e[i]! : 0;
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

  /**
   * The pbr shading applies to the model under `shading` (AppState): 'pbr', or 'auto' with a metallic-roughness
   * (glTF) material or a material that carries a normal map (a .x/.m3d material with maps: drawn as authored,
   * its normal map in the tangent frame; without maps such a model keeps the studio look).
   */
  static pbrFor(model: ModelGpu, shading: 'auto' | 'studio' | 'pbr'): boolean {
    return SceneUniforms.pbrForScene(model.scene, shading);
  }

  /** pbrFor by the scene alone (before its ModelGpu exists). */
  static pbrForScene(scene: Scene, shading: 'auto' | 'studio' | 'pbr'): boolean {
    if (shading !== 'auto') return shading === 'pbr';
    const materials = scene.materials;
    for (let i = 0; i < materials.length; i++) if (materials[i]!.metallic !== undefined || materials[i]!.normalMap) return true;
    return false;
  }

  dispose(): void {
    this.gl.deleteTexture(this.white);
    this.gl.deleteTexture(this.flatNormal);
    this.env?.dispose();
    this.env = null;
  }
}
