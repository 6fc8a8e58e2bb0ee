import { describe, expect, it } from 'vitest';
import type { Scene, SkinnedMesh } from '../../src/model/types.ts';
import { TangentLines } from '../../src/render/tangent-lines.ts';
import type { PoseSource } from '../../src/techniques/technique.ts';

/**
 * The tangents view's T/B/N segments (src/render/tangent-lines.ts) against a recording stand-in for WebGL2: the
 * segments start at the skinned vertex and run along the skinned tangent, bitangent (sign included) and normal.
 */

function fakeGl(): { gl: WebGL2RenderingContext; uploads: Float32Array[] } {
  const uploads: Float32Array[] = [];
  const gl = new Proxy({} as WebGL2RenderingContext, {
    get: (_, key: string) => {
      if (/^[A-Z0-9_]+$/.test(key)) return key;
      return (...args: unknown[]) => {
        if (key === 'bufferSubData') uploads.push(Float32Array.from(args[2] as Float32Array));
        return key.startsWith('create') ? {} : null;
      };
    },
  });
  return { gl, uploads };
}

/** Two vertices, one bone: tangent +x (sign −1 on the second), normal +z. */
function mesh(): SkinnedMesh {
  return {
    name: 'm',
    vertexCount: 2,
    positions: Float32Array.of(0, 0, 0, 1, 2, 3),
    normals: Float32Array.of(0, 0, 1, 0, 0, 1),
    tangents: Float32Array.of(1, 0, 0, 1, 1, 0, 0, -1),
    uvs: null,
    joints: new Uint16Array(8),
    weights: Float32Array.of(1, 0, 0, 0, 1, 0, 0, 0),
    maxInfluences: 1,
    indices: new Uint32Array(0),
    subsets: [],
    bones: Int16Array.of(0),
    invBind: Float32Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1),
    skinned: true,
  };
}

describe('TangentLines', () => {
  it('draws each vertex frame where the pose puts it: a quarter turn about y and a lift of 10', () => {
    const m = mesh();
    const scene = { meshes: [m] } as unknown as Scene;
    const { gl, uploads } = fakeGl();
    const lines = new TangentLines(gl, scene, 0.5);
    expect(lines.vertexCount).toBe(12);
    // Column-major: x → −z, z → +x (a quarter turn about +y), then translate y by 10.
    const palette = Float32Array.of(0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 10, 0, 1);
    const pose: PoseSource = { writePalette: (_mesh, out) => out.set(palette) };
    lines.update(pose);
    const d = uploads.at(-1)!;
    const end = (triad: number, axis: number): number[] => {
      const o = (triad * 6 + axis * 2) * 7;
      return [0, 1, 2].map((i) => Math.round((d[o + 7 + i]! - d[o + i]!) * 1000) / 1000 + 0);
    };
    const start = (triad: number): number[] => Array.from(d.subarray(triad * 42, triad * 42 + 3));
    expect(start(0)).toEqual([0, 10, 0]);
    expect(start(1)).toEqual([3, 12, -1]);
    expect(end(0, 0)).toEqual([0, 0, -0.5]); // tangent x → −z
    expect(end(0, 2)).toEqual([0.5, 0, 0]); // normal z → +x
    expect(end(0, 1)).toEqual([0, 0.5, 0]); // bitangent = n × t
    expect(end(1, 1)).toEqual([0, -0.5, 0]); // sign −1 flips it
    // Colours: tangent red, bitangent green, normal blue.
    expect(Array.from(d.subarray(3, 6), (c) => Math.round(c * 100) / 100)).toEqual([1, 0.25, 0.2]);
  });
});
