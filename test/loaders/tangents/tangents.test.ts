import { existsSync, readFileSync } from 'node:fs';
import { Document, WebIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { loadModelAsync } from '../../../src/loaders/load-model.ts';
import { encodePng } from '../../../src/loaders/textures/png-encode.ts';
import { weldByTangent, withGeneratedTangents } from '../../../src/loaders/tangents/generate-tangents.ts';
import { bindMikkTSpace, loadMikkTSpace, mikkImports } from '../../../src/loaders/tangents/mikktspace.ts';
import type { Scene, SkinnedMesh } from '../../../src/model/types.ts';

/**
 * MikkTSpace tangents for normal-mapped meshes without TANGENT. The fixture, written with gltf-transform: an
 * open cylinder of SEGMENTS columns × 2 rings, fully welded (the column at angle 0 is also the one at 2π),
 * whose u runs 0 → 1 → 0 around it (mirrored UVs: the texture is painted twice, the second time flipped), a
 * material with a normalTexture, no TANGENT, and one morph target lifting the top ring. The two columns where
 * u turns back (angles 0 and π) have tangents pointing opposite ways on their two sides: those 4 vertices are
 * split, and no other.
 */

const SEGMENTS = 8;

function cylinderGlb(withTangents = false): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos: number[] = [];
  const nrm: number[] = [];
  const uv: number[] = [];
  const lift: number[] = [];
  for (let row = 0; row < 2; row++) {
    for (let i = 0; i < SEGMENTS; i++) {
      const a = (i / SEGMENTS) * Math.PI * 2;
      pos.push(Math.cos(a), row, -Math.sin(a));
      nrm.push(Math.cos(a), 0, -Math.sin(a));
      // u: 0 at angle 0, 1 at π, back to 0 at 2π; v: 0 on the top ring (UV origin top-left), 1 at the bottom.
      uv.push(1 - Math.abs(1 - (2 * i) / SEGMENTS), 1 - row);
      lift.push(0, row * 0.5, 0);
    }
  }
  const idx: number[] = [];
  for (let i = 0; i < SEGMENTS; i++) {
    const j = (i + 1) % SEGMENTS;
    // CCW seen from outside: bottom i, bottom j, top j; bottom i, top j, top i.
    idx.push(i, j, SEGMENTS + j, i, SEGMENTS + j, SEGMENTS + i);
  }
  const acc = (type: 'VEC2' | 'VEC3' | 'VEC4', a: number[]) => doc.createAccessor().setType(type).setArray(new Float32Array(a)).setBuffer(buffer);
  const png = encodePng(new Uint8Array([128, 128, 255, 255]), 1, 1);
  const tex = doc.createTexture('normal').setImage(png).setMimeType('image/png');
  const material = doc.createMaterial('bumpy').setNormalTexture(tex);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', acc('VEC3', pos))
    .setAttribute('NORMAL', acc('VEC3', nrm))
    .setAttribute('TEXCOORD_0', acc('VEC2', uv))
    .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array(idx)).setBuffer(buffer))
    .setMaterial(material)
    .addTarget(doc.createPrimitiveTarget('lift').setAttribute('POSITION', acc('VEC3', lift)));
  if (withTangents) prim.setAttribute('TANGENT', acc('VEC4', Array.from({ length: 2 * SEGMENTS }, () => [1, 0, 0, 1]).flat()));
  const mesh = doc.createMesh('tube').addPrimitive(prim).setWeights([0]);
  doc.createScene().addChild(doc.createNode('tube').setMesh(mesh));
  return new WebIO().writeBinary(doc);
}

const dot = (a: number[], b: number[]): number => a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!;
const cross = (a: number[], b: number[]): number[] => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
const at = (a: Float32Array, i: number, n: number): number[] => Array.from(a.subarray(i * n, i * n + n));

/** Per triangle, dP/du and dP/dv from its corners (the UV gradient directions in object space). */
function uvGradients(m: SkinnedMesh, t: number): { du: number[]; dv: number[] } {
  const [a, b, c] = [m.indices[t * 3]!, m.indices[t * 3 + 1]!, m.indices[t * 3 + 2]!];
  const p0 = at(m.positions, a, 3), p1 = at(m.positions, b, 3), p2 = at(m.positions, c, 3);
  const t0 = at(m.uvs!, a, 2), t1 = at(m.uvs!, b, 2), t2 = at(m.uvs!, c, 2);
  const e1 = [0, 1, 2].map((k) => p1[k]! - p0[k]!), e2 = [0, 1, 2].map((k) => p2[k]! - p0[k]!);
  const s1 = t1[0]! - t0[0]!, s2 = t2[0]! - t0[0]!, v1 = t1[1]! - t0[1]!, v2 = t2[1]! - t0[1]!;
  const r = 1 / (s1 * v2 - s2 * v1);
  return {
    du: [0, 1, 2].map((k) => (e1[k]! * v2 - e2[k]! * v1) * r),
    dv: [0, 1, 2].map((k) => (e2[k]! * s1 - e1[k]! * s2) * r),
  };
}

/**
 * Unit xyz, ⊥ normal, w = ±1; per triangle corner: T along +dP/du, w·(N×T) along −dP/dv (towards the image's
 * top). `share`: the share of corners that must agree (a vertex's tangent is the average over its smooth group,
 * so on a real, distorted mesh a few corners of thin or skewed triangles disagree).
 */
function expectMikkFrames(m: SkinnedMesh, share = 1): void {
  const t = m.tangents!;
  expect(t.length).toBe(m.vertexCount * 4);
  for (let v = 0; v < m.vertexCount; v++) {
    const tv = at(t, v, 4);
    expect(Math.abs(Math.hypot(tv[0]!, tv[1]!, tv[2]!) - 1)).toBeLessThan(1e-4);
    expect(Math.abs(dot(tv, at(m.normals, v, 3)))).toBeLessThan(1e-4);
    expect(Math.abs(tv[3]!)).toBe(1);
  }
  const bad: string[] = [];
  let corners = 0;
  for (let tri = 0; tri < m.indices.length / 3; tri++) {
    const { du, dv } = uvGradients(m, tri);
    if (![...du, ...dv].every(Number.isFinite)) continue; // a triangle with no UV area has no gradient
    for (let k = 0; k < 3; k++) {
      const v = m.indices[tri * 3 + k]!;
      const tv = at(t, v, 4);
      const b = cross(at(m.normals, v, 3), tv).map((x) => x * tv[3]!);
      corners++;
      if (!(dot(tv, du) > 0)) bad.push(`triangle ${tri} corner ${k}: tangent not along +u`);
      else if (!(dot(b, dv) < 0)) bad.push(`triangle ${tri} corner ${k}: bitangent not towards −v`);
    }
  }
  expect(corners).toBeGreaterThan(0);
  if (share === 1) expect(bad).toEqual([]);
  else expect(bad.length / corners, bad.slice(0, 5).join('; ')).toBeLessThanOrEqual(1 - share);
}

describe('MikkTSpace tangents', () => {
  it('a normal-mapped glTF primitive without TANGENT gets MikkTSpace frames; the mirror columns split, morphs follow', async () => {
    const scene = await loadModelAsync('tube.glb', await cylinderGlb());
    expect(scene.warnings).toEqual([]);
    expect(scene.tangentsGenerated).toBe(1);
    const m = scene.meshes[0]!;
    expect(m.vertexCount).toBe(2 * SEGMENTS + 4);
    expectMikkFrames(m);
    // The split copies: same position, opposite tangents and signs (mirrored UVs); every other vertex once.
    const byPos = new Map<string, number[]>();
    for (let v = 0; v < m.vertexCount; v++) {
      const key = at(m.positions, v, 3).map((x) => x.toFixed(4)).join(',');
      byPos.set(key, [...(byPos.get(key) ?? []), v]);
    }
    const split = [...byPos.values()].filter((vs) => vs.length > 1);
    expect(split.length).toBe(4);
    for (const [a, b] of split) {
      const ta = at(m.tangents!, a!, 4), tb = at(m.tangents!, b!, 4);
      expect(dot(ta, tb)).toBeLessThan(-0.99);
      expect(ta[3]).toBe(-tb[3]!);
    }
    // The morph lifts exactly the top ring's vertices, copies included.
    const d = m.morphs![0]!;
    expect(d.vertices.length).toBe(SEGMENTS + 2);
    for (let i = 0; i < d.vertices.length; i++) {
      expect(m.positions[d.vertices[i]! * 3 + 1]).toBe(1);
      expect(d.positions[i * 3 + 1]).toBeCloseTo(0.5, 6);
      if (i > 0) expect(d.vertices[i]!).toBeGreaterThan(d.vertices[i - 1]!);
    }
  });

  it('TANGENT in the file is kept, not regenerated', async () => {
    const scene = await loadModelAsync('tube-t.glb', await cylinderGlb(true));
    expect(scene.tangentsGenerated).toBeUndefined();
    expect(scene.meshes[0]!.vertexCount).toBe(2 * SEGMENTS);
    expect(Array.from(scene.meshes[0]!.tangents!.subarray(0, 4))).toEqual([1, 0, 0, 1]);
  });

  it('remaps every per-vertex array and keeps shared arrays shared', async () => {
    const mikk = await loadMikkTSpace();
    // Two triangles sharing the edge 1-2, with mirrored u: vertices 1 and 2 split.
    const base: SkinnedMesh = {
      name: 'pair',
      vertexCount: 4,
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 2, 0, 0]),
      normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]),
      tangents: null,
      uvs: new Float32Array([0, 1, 1, 1, 1, 0, 0, 1]),
      joints: new Uint16Array([0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]),
      weights: new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]),
      colors: new Float32Array([0, 0, 0, 1, 0.25, 0, 0, 1, 0.5, 0, 0, 1, 0.75, 0, 0, 1]),
      maxInfluences: 1,
      indices: new Uint32Array([0, 1, 2, 1, 3, 2]),
      subsets: [{ material: 0, start: 0, count: 2 }],
      bones: new Int16Array([0, 1, 2, 3]),
      invBind: new Float32Array(64),
      skinned: true,
      morphs: [{ vertices: new Uint32Array([2]), positions: new Float32Array([0, 0, 1]), normals: new Float32Array(3) }],
    };
    const material = { name: 'n', diffuse: [1, 1, 1, 1], specular: [0, 0, 0], specularPower: 1, emissive: [0, 0, 0], diffuseMap: null, normalMap: 'n.png' } as const;
    const scene = { meshes: [base, { ...base, name: 'pair-2' }], materials: [material] } as unknown as Scene;
    const out = withGeneratedTangents(scene, mikk);
    const [a, b] = out.meshes as SkinnedMesh[];
    expect(a!.vertexCount).toBe(6);
    expectMikkFrames(a!);
    for (let v = 0; v < a!.vertexCount; v++) {
      // Each new vertex carries its source's joint (the joint index is the source vertex here) and position.
      const s = a!.joints[v * 4]!;
      expect(at(a!.positions, v, 3)).toEqual(at(base.positions, s, 3));
      expect(at(a!.uvs!, v, 2)).toEqual(at(base.uvs!, s, 2));
      expect(at(a!.colors!, v, 4)).toEqual(at(base.colors!, s, 4));
    }
    expect(Array.from(a!.morphs![0]!.vertices).map((v) => a!.joints[v * 4])).toEqual([2, 2]);
    expect(b!.positions).toBe(a!.positions);
    expect(b!.indices).toBe(a!.indices);
  });

  it('the WebAssembly binding the page uses agrees with the package', async () => {
    const bytes = readFileSync('node_modules/mikktspace/dist/module/mikktspace_module_bg.wasm');
    let memory: WebAssembly.Memory | null = null;
    const { instance } = await WebAssembly.instantiate(bytes, mikkImports(() => memory!));
    memory = instance.exports['memory'] as WebAssembly.Memory;
    const page = bindMikkTSpace(instance.exports as never);
    const node = await loadMikkTSpace();
    const mesh = { vertexCount: 4, positions: new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0]), normals: new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1]), uvs: new Float32Array([0, 1, 1, 1, 1, 0, 0, 0]), indices: new Uint32Array([0, 1, 2, 0, 2, 3]) };
    const w1 = weldByTangent(mesh, page);
    const w2 = weldByTangent(mesh, node);
    expect(Array.from(w1.tangents)).toEqual(Array.from(w2.tangents));
    expect(w1.src.length).toBe(4);
    expect(Array.from(w1.tangents.subarray(0, 4))).toEqual([1, 0, 0, 1]);
  });

  it('a .x mesh whose material names a normal map (EffectInstance) and has no tangents gets them too', async () => {
    // A strip of 3 columns × 2 rows with u running 0 → 1 → 0 (mirrored): the middle column's 2 vertices split.
    const x = `xof 0303txt 0032
Mesh strip {
 6; -1.0;0.0;0.0;, 0.0;0.0;0.0;, 1.0;0.0;0.0;, -1.0;1.0;0.0;, 0.0;1.0;0.0;, 1.0;1.0;0.0;;
 4; 3;0,4,1;, 3;0,3,4;, 3;1,5,2;, 3;1,4,5;;
 MeshNormals { 6; 0.0;0.0;-1.0;, 0.0;0.0;-1.0;, 0.0;0.0;-1.0;, 0.0;0.0;-1.0;, 0.0;0.0;-1.0;, 0.0;0.0;-1.0;;
  4; 3;0,4,1;, 3;0,3,4;, 3;1,5,2;, 3;1,4,5;; }
 MeshTextureCoords { 6; 0.0;1.0;, 1.0;1.0;, 0.0;1.0;, 0.0;0.0;, 1.0;0.0;, 0.0;0.0;; }
 MeshMaterialList { 1; 4; 0,0,0,0;
  Material { 1.0;1.0;1.0;1.0;; 10.0; 0.0;0.0;0.0;; 0.0;0.0;0.0;;
   EffectInstance { "bump.fx"; EffectParamString { "NormalMap"; "strip_n.png"; } }
  }
 }
}
`;
    const scene = await loadModelAsync('strip.x', new TextEncoder().encode(x));
    expect(scene.materials[0]!.normalMap).toBe('strip_n.png');
    expect(scene.tangentsGenerated).toBe(1);
    expect(scene.meshes[0]!.vertexCount).toBe(8);
    expectMikkFrames(scene.meshes[0]!);
  });

  const michelle = '../shared/corpus-materials/Michelle.glb';
  it.skipIf(!existsSync(michelle))(`Michelle.glb gets tangents, no warning about them${existsSync(michelle) ? '' : ` (SKIPPED: ${michelle} absent)`}`, async () => {
    const scene = await loadModelAsync('Michelle.glb', new Uint8Array(readFileSync(michelle)));
    expect(scene.warnings.filter((w) => /tangent/i.test(w))).toEqual([]);
    const mapped = scene.meshes.filter((m) => m.subsets.some((s) => scene.materials[s.material]!.normalMap));
    expect(mapped.length).toBeGreaterThan(0);
    for (const m of mapped) expectMikkFrames(m, 0.97);
    expect(scene.tangentsGenerated).toBe(mapped.length);
  });
});
