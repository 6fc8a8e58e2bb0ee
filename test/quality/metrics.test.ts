import { describe, expect, it } from 'vitest';
import { MAX_INFLUENCES, type Scene, type SkinnedMesh } from '../../src/model/types.ts';
import { logAreaRatios, percentile, selectKth } from '../../src/quality/metrics.ts';
import { QualityProbe } from '../../src/quality/probe.ts';
import { buildTopology, signedVolume } from '../../src/quality/topology.ts';

/** The artifact metrics on shapes whose answers are known: unit cube, tetrahedron, an open box, scaling. */

/** A unit cube [0,1]³ with 24 vertices (4 per face, as a mesh split at normal seams) wound outwards. */
function cube(scale = 1): { positions: Float32Array; indices: Uint32Array } {
  const faces = [
    [[0, 0, 0], [0, 1, 0], [1, 1, 0], [1, 0, 0]], // −Z
    [[0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], // +Z
    [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1]], // −Y
    [[0, 1, 0], [0, 1, 1], [1, 1, 1], [1, 1, 0]], // +Y
    [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 0]], // −X
    [[1, 0, 0], [1, 1, 0], [1, 1, 1], [1, 0, 1]], // +X
  ];
  const positions = new Float32Array(faces.flat(2).map((x) => x * scale));
  const indices: number[] = [];
  for (let f = 0; f < 6; f++) indices.push(f * 4, f * 4 + 1, f * 4 + 2, f * 4, f * 4 + 2, f * 4 + 3);
  return { positions, indices: new Uint32Array(indices) };
}

/** A one-bone scene around a triangle list (rigid: weight 1 on bone 0). */
function scene(positions: Float32Array, indices: Uint32Array): Scene {
  const n = positions.length / 3;
  const weights = new Float32Array(n * MAX_INFLUENCES);
  for (let v = 0; v < n; v++) weights[v * MAX_INFLUENCES] = 1;
  const mesh: SkinnedMesh = {
    name: 'shape', vertexCount: n, positions, normals: new Float32Array(n * 3), tangents: null, uvs: null,
    joints: new Uint16Array(n * MAX_INFLUENCES), weights, maxInfluences: 1, indices,
    subsets: [{ material: 0, start: 0, count: indices.length / 3 }], bones: new Int16Array([0]),
    invBind: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]), skinned: false,
  };
  return {
    name: 'shape', format: 'm3d', floatBits: 0, meshes: [mesh], clips: [], materials: [], morphTargets: [], warnings: [],
    skeleton: { names: ['root'], parents: new Int16Array([-1]), restLocal: new Float32Array([0, 0, 0, 0, 0, 0, 1, 1, 1, 1]) },
  };
}

/** A pose source whose palette is one uniform scale s. */
function scaled(s: number): { writePalette(m: SkinnedMesh, out: Float32Array): void } {
  return { writePalette: (_m, out) => out.set([s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1]) };
}

describe('topology', () => {
  it('welds the cube\'s 24 seam vertices to 8 corners and finds it closed, volume 1', () => {
    const { positions, indices } = cube();
    const t = buildTopology(positions, indices, 24);
    expect(t.weldedCount).toBe(8);
    expect(t.boundaryEdges).toBe(0);
    expect(t.open).toBe(false);
    expect(t.bindVolume).toBeCloseTo(1, 6);
    // 12 triangles of area ½, each counted once at each of its three corners.
    const total = t.bindRingArea.reduce((s: number, a: number) => s + a, 0);
    expect(total).toBeCloseTo(3 * 6, 6); // every triangle counted at its three corners
  });

  it('flags a box without its lid as open (4 boundary edges) and still measures it', () => {
    const { positions, indices } = cube();
    const t = buildTopology(positions, indices.subarray(0, 30), 24);
    expect(t.open).toBe(true);
    expect(t.boundaryEdges).toBe(4);
  });

  it('without welding, the same cube would be 24 separate quads: every edge a boundary', () => {
    const { positions, indices } = cube();
    const jittered = positions.slice();
    for (let i = 0; i < jittered.length; i++) jittered[i]! += (i % 7) * 1e-7;
    expect(buildTopology(jittered, indices, 24).boundaryEdges).toBeGreaterThan(0);
  });

  it('a tetrahedron\'s volume is |det| / 6, negative when wound inwards', () => {
    const p = new Float32Array([0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4]);
    const out = new Uint32Array([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
    expect(signedVolume(p, out)).toBeCloseTo(4, 6);
    const inward = new Uint32Array([0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2]);
    expect(signedVolume(p, inward)).toBeCloseTo(-4, 6);
    expect(buildTopology(p, out, 4).open).toBe(false);
  });
});

describe('metrics', () => {
  it('a uniformly scaled mesh: volume ratio s³, every one-ring area ratio s² (log₂ = 2 log₂ s)', () => {
    const { positions, indices } = cube();
    const probe = new QualityProbe(scene(positions, indices));
    const posed = probe.skin('linear', scaled(1.5), new Float32Array(0));
    const f = probe.measure('linear', posed);
    expect(f.volume.ratio).toBeCloseTo(1.5 ** 3, 5);
    expect(f.volume.open).toBe(false);
    expect(f.area.p50).toBeCloseTo(2 * Math.log2(1.5), 5);
    expect(f.area.max).toBeCloseTo(2 * Math.log2(1.5), 5);
    expect(f.area.vertices).toBe(8);
    expect(f.area.worstVertex?.bones).toEqual(['root']);
    const t = probe.topologies[0]!;
    const logs = new Float32Array(t.weldedCount);
    logAreaRatios(t, posed[0]!, t.bindRingArea, new Float64Array(t.weldedCount), logs);
    for (const l of logs) expect(l).toBeCloseTo(2 * Math.log2(1.5), 5);
    expect(probe.deviation(posed, [cube().positions]).max).toBeCloseTo(Math.sqrt(3) * 0.5, 5);
  });

  it('the rest pose changes nothing', () => {
    const { positions, indices } = cube(2);
    const probe = new QualityProbe(scene(positions, indices));
    const f = probe.measure('dual-quat', probe.skin('dual-quat', scaled(1), new Float32Array(0)));
    expect(f.volume.ratio).toBe(1);
    expect(f.area.max).toBe(0);
    expect(probe.height).toBe(2);
  });

  it('percentile is the nearest rank and selectKth the k-th smallest', () => {
    const a = new Float32Array(Array.from({ length: 20 }, (_, i) => 20 - i));
    expect(percentile(a.slice(), 20, 0.95)).toBe(19);
    expect(percentile(a.slice(), 20, 0.5)).toBe(10);
    expect(percentile(a.slice(), 20, 1)).toBe(20);
    const r = new Float32Array([5, 1, 4, 1, 5, 9, 2, 6, 5, 3]);
    const sorted = [...r].sort((x, y) => x - y);
    for (let k = 0; k < r.length; k++) {
      const a = r.slice();
      selectKth(a, a.length, k);
      expect(a[k]).toBe(sorted[k]);
    }
  });
});
