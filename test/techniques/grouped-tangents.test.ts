import { describe, expect, it } from 'vitest';
import { groupedVertices } from '../../src/techniques/mesh-state.ts';
import { partitionMesh } from '../../src/techniques/partition.ts';
import { VS_ASM_BONES, VS_ASM_LAYOUT } from '../../src/techniques/vs-asm.ts';
import { humanoid } from './fixtures.ts';

/** The partitioned techniques' own vertex arrays carry the tangent (location 5) of the mesh vertex each copy duplicates. */
describe('groupedVertices tangents', () => {
  const mesh = humanoid().meshes[0]!;

  it('copies the mesh tangent (xyz, sign) into every group copy, in the technique vertex order', () => {
    const tangents = Float32Array.from({ length: mesh.vertexCount * 4 }, (_, i) => (i % 4 === 3 ? (Math.floor(i / 4) % 2 ? -1 : 1) : i * 0.001));
    const part = partitionMesh(mesh, 4, 12);
    expect(part.duplicatedVertices).toBeGreaterThan(0);
    const data = groupedVertices({ ...mesh, tangents }, part, VS_ASM_LAYOUT);
    expect(data.tangents).not.toBeNull();
    expect(data.tangents!.length).toBe(part.vertexCount * 4);
    let wrong = 0;
    for (let v = 0; v < part.vertexCount; v++) {
      const s = part.sourceVertex[v]!;
      for (let k = 0; k < 4; k++) if (data.tangents![v * 4 + k] !== tangents[s * 4 + k]) wrong++;
    }
    expect(wrong).toBe(0);
  });

  it('is null for a mesh without tangents (the shader reads the constant (1, 0, 0, 1))', () => {
    const data = groupedVertices({ ...mesh, tangents: null }, partitionMesh(mesh, 4, VS_ASM_BONES), VS_ASM_LAYOUT);
    expect(data.tangents).toBeNull();
  });
});
