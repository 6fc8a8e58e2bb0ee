import { describe, expect, it } from 'vitest';
import type { Material } from '../../src/model/types.ts';
import type { ModelGpu } from '../../src/render/model-gpu.ts';
import { SceneUniforms } from '../../src/render/scene-uniforms.ts';

/** A model of these materials, as far as the shading choice reads it. */
function model(materials: Partial<Material>[]): ModelGpu {
  const base: Material = { name: 'm', diffuse: [1, 1, 1, 1], specular: [0, 0, 0], specularPower: 8, emissive: [0, 0, 0], diffuseMap: null, normalMap: null };
  return { scene: { materials: materials.map((m) => ({ ...base, ...m })) } } as unknown as ModelGpu;
}

describe('the shading auto chooses', () => {
  it('pbr for a metallic-roughness (glTF) material, studio for a .x/.m3d one with a diffuse map only', () => {
    expect(SceneUniforms.pbrFor(model([{ metallic: 0, roughness: 0.5 }]), 'auto')).toBe(true);
    expect(SceneUniforms.pbrFor(model([{ diffuseMap: 'skin.dds' }]), 'auto')).toBe(false);
  });

  it('pbr for a .x/.m3d model whose materials carry a normal map, so the map is drawn', () => {
    expect(SceneUniforms.pbrFor(model([{ diffuseMap: 'a.dds' }, { diffuseMap: 'jacket.dds', normalMap: 'jacket_norm.dds' }]), 'auto')).toBe(true);
  });

  it('an explicit setting wins', () => {
    expect(SceneUniforms.pbrFor(model([{ normalMap: 'n.dds' }]), 'studio')).toBe(false);
    expect(SceneUniforms.pbrFor(model([{}]), 'pbr')).toBe(true);
  });
});
