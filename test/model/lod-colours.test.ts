import { describe, expect, it } from 'vitest';
import { generateLevels, type LodMeshInput } from '../../src/model/lod-simplify.ts';

/**
 * Generated detail levels keep a vertex-colour border where it is: a flat grid, red left of x = 0.5 and blue
 * right of it, has nothing but its colours to hold the border, so a simplifier blind to them smears it.
 */

const N = 40;

function grid(colours: boolean): LodMeshInput {
  const vertexCount = (N + 1) * (N + 1);
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  const colors = new Float32Array(vertexCount * 4);
  const weights = new Float32Array(vertexCount * 4);
  for (let j = 0; j <= N; j++) {
    for (let i = 0; i <= N; i++) {
      const v = j * (N + 1) + i;
      positions.set([i / N, j / N, 0], v * 3);
      normals.set([0, 0, 1], v * 3);
      colors.set(i / N < 0.5 ? [1, 0, 0, 1] : [0, 0, 1, 1], v * 4);
      weights[v * 4] = 1;
    }
  }
  const indices = new Uint32Array(N * N * 6);
  let o = 0;
  for (let j = 0; j < N; j++) {
    for (let i = 0; i < N; i++) {
      const a = j * (N + 1) + i;
      indices.set([a, a + 1, a + N + 2, a, a + N + 2, a + N + 1], o);
      o += 6;
    }
  }
  return { vertexCount, positions, normals, uvs: null, colors: colours ? colors : null, weights, indices, subsets: [{ material: 0, start: 0, count: N * N * 2 }] };
}

/** Area of the triangles whose corners are not all one colour (drawn as a red-to-blue blend). */
function blendedArea(mesh: LodMeshInput, indices: Uint32Array): number {
  let area = 0;
  const p = mesh.positions;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]!, indices[t + 1]!, indices[t + 2]!];
    const red = [a, b, c].filter((v) => p[v * 3]! < 0.5).length;
    if (red === 0 || red === 3) continue;
    area += Math.abs((p[b * 3]! - p[a * 3]!) * (p[c * 3 + 1]! - p[a * 3 + 1]!) - (p[c * 3]! - p[a * 3]!) * (p[b * 3 + 1]! - p[a * 3 + 1]!)) / 2;
  }
  return area;
}

describe('generated detail levels and vertex colours', () => {
  it('a colour border holds through simplification; without the colours in the metric it smears', async () => {
    const coloured = grid(true);
    const blind = grid(false);
    const original = blendedArea(coloured, coloured.indices);
    // The lightest level each: where the difference shows most.
    const withColours = (await generateLevels([coloured])).at(-1);
    const without = (await generateLevels([blind])).at(-1);
    expect(withColours!.triangles).toBeLessThan(coloured.indices.length / 3 / 1.5);
    const keep = blendedArea(coloured, withColours!.indices[0]!);
    const smear = blendedArea(blind, without!.indices[0]!);
    console.log(`[lod colours] ${withColours!.triangles} and ${without!.triangles} triangles; blended area: original ${original.toFixed(4)}, with colours ${keep.toFixed(4)}, without ${smear.toFixed(4)}`);
    expect(keep).toBeLessThanOrEqual(original * 1.5);
    expect(smear).toBeGreaterThan(keep * 2);
  });
});
