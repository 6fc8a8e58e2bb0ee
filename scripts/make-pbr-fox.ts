/**
 * Writes e2e/fixtures/pbr/fox-pbr.glb: the Khronos Fox (public/models/fox/Fox.glb, CC0 model, CC-BY 4.0 rig and
 * animation: see NOTICE) made a metallic-roughness character with a normal map, for the pbr shading's browser
 * tests (e2e/pbr.spec.ts). Deterministic; run it again after changing it:
 *   npx tsx scripts/make-pbr-fox.ts
 * Added to the Fox (which has no NORMAL): flat face normals, per-face tangents from the UVs (w from the UV
 * winding, the bitangent pointing to the image's top, glTF's +Y), and two generated 128² PNGs:
 * - a normal map of round bumps, 8 × 8 over the UV square (tangent space, +Y up);
 * - an occlusion-roughness-metallic map (R occlusion, darker in the creases between bumps; G roughness 0.3 in
 *   the upper half of the UV square, 0.8 in the lower; B metallic 1 in the left half, 0 in the right), used as
 *   both the metallicRoughness and the occlusion texture.
 * The base colour texture and every clip are kept; metallicFactor 1, roughnessFactor 1 (the map's values).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeIO, type Primitive } from '@gltf-transform/core';
import { PNG } from 'pngjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 128;
const CELLS = 8;

/** Height of the bump field at texel (x, y): a dome per cell, 0 in the creases. */
function height(x: number, y: number): number {
  const c = SIZE / CELLS;
  const dx = ((x + 0.5) % c) / c - 0.5;
  const dy = ((y + 0.5) % c) / c - 0.5;
  const r2 = (dx * dx + dy * dy) * 4;
  return r2 < 1 ? Math.sqrt(1 - r2) : 0;
}

function png(fill: (x: number, y: number, out: number[]) => void): Uint8Array {
  const image = new PNG({ width: SIZE, height: SIZE });
  const px = [0, 0, 0, 255];
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      fill(x, y, px);
      image.data.set(px, (y * SIZE + x) * 4);
    }
  }
  return new Uint8Array(PNG.sync.write(image));
}

/** Normal map: the bump field's gradient, image rows top to bottom (+Y up = towards row 0). */
const normalPng = png((x, y, out) => {
  const strength = 2.5;
  const hx = (height(Math.min(SIZE - 1, x + 1), y) - height(Math.max(0, x - 1), y)) * 0.5 * CELLS * 0.25 * strength;
  const hy = (height(x, Math.max(0, y - 1)) - height(x, Math.min(SIZE - 1, y + 1))) * 0.5 * CELLS * 0.25 * strength;
  const l = Math.hypot(hx, hy, 1);
  out[0] = Math.round((-hx / l) * 127.5 + 127.5);
  out[1] = Math.round((-hy / l) * 127.5 + 127.5);
  out[2] = Math.round((1 / l) * 127.5 + 127.5);
  out[3] = 255;
});

const ormPng = png((x, y, out) => {
  out[0] = Math.round(255 * (0.45 + 0.55 * Math.min(1, height(x, y) * 3)));
  out[1] = Math.round(255 * (y < SIZE / 2 ? 0.3 : 0.8));
  out[2] = x < SIZE / 2 ? 255 : 0;
  out[3] = 255;
});

/** Flat normals and per-face tangents for a triangle-list primitive (indexed or not), as new unwelded-safe attributes. */
function addFrame(prim: Primitive, doc: import('@gltf-transform/core').Document): void {
  const pos = prim.getAttribute('POSITION')!;
  const uv = prim.getAttribute('TEXCOORD_0')!;
  const n = pos.getCount();
  const idx = prim.getIndices();
  const tri: number[] = idx ? Array.from(idx.getArray()! as ArrayLike<number>) : Array.from({ length: n }, (_, i) => i);
  const normals = new Float32Array(n * 3);
  const tangents = new Float32Array(n * 4);
  const p = [0, 0, 0].map(() => [0, 0, 0]);
  const t = [0, 0, 0].map(() => [0, 0]);
  for (let f = 0; f < tri.length; f += 3) {
    for (let k = 0; k < 3; k++) {
      pos.getElement(tri[f + k]!, p[k]!);
      uv.getElement(tri[f + k]!, t[k]!);
    }
    const e1 = [0, 1, 2].map((i) => p[1]![i]! - p[0]![i]!);
    const e2 = [0, 1, 2].map((i) => p[2]![i]! - p[0]![i]!);
    const du1 = t[1]![0]! - t[0]![0]!;
    const du2 = t[2]![0]! - t[0]![0]!;
    // v' = 1 − v: the image's up.
    const dv1 = -(t[1]![1]! - t[0]![1]!);
    const dv2 = -(t[2]![1]! - t[0]![1]!);
    const nn = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
    const nl = Math.hypot(nn[0]!, nn[1]!, nn[2]!) || 1;
    const N = nn.map((v) => v / nl);
    const det = du1 * dv2 - du2 * dv1 || 1e-12;
    let T = [0, 1, 2].map((i) => (e1[i]! * dv2 - e2[i]! * dv1) / det);
    const B = [0, 1, 2].map((i) => (e2[i]! * du1 - e1[i]! * du2) / det);
    const d = T[0]! * N[0]! + T[1]! * N[1]! + T[2]! * N[2]!;
    T = T.map((v, i) => v - N[i]! * d);
    const tl = Math.hypot(T[0]!, T[1]!, T[2]!);
    T = tl > 1e-12 ? T.map((v) => v / tl) : Math.abs(N[0]!) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    const c = [N[1]! * T[2]! - N[2]! * T[1]!, N[2]! * T[0]! - N[0]! * T[2]!, N[0]! * T[1]! - N[1]! * T[0]!];
    const w = c[0]! * B[0]! + c[1]! * B[1]! + c[2]! * B[2]! < 0 ? -1 : 1;
    for (let k = 0; k < 3; k++) {
      const v = tri[f + k]!;
      normals.set(N, v * 3);
      tangents.set([...T, w], v * 4);
    }
  }
  const buffer = doc.getRoot().listBuffers()[0]!;
  prim.setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setBuffer(buffer).setArray(normals));
  prim.setAttribute('TANGENT', doc.createAccessor().setType('VEC4').setBuffer(buffer).setArray(tangents));
}

const io = new NodeIO();
const doc = await io.read(join(root, 'public', 'models', 'fox', 'Fox.glb'));
const normalTex = doc.createTexture('fox-bumps-normal').setImage(normalPng).setMimeType('image/png').setURI('fox-bumps-normal.png');
const ormTex = doc.createTexture('fox-orm').setImage(ormPng).setMimeType('image/png').setURI('fox-orm.png');
for (const m of doc.getRoot().listMaterials()) {
  m.setName('fox_pbr').setMetallicFactor(1).setRoughnessFactor(1).setMetallicRoughnessTexture(ormTex).setOcclusionTexture(ormTex).setNormalTexture(normalTex).setNormalScale(1);
}
for (const mesh of doc.getRoot().listMeshes()) for (const prim of mesh.listPrimitives()) addFrame(prim, doc);
doc.getRoot().getAsset().generator = 'skinlab scripts/make-pbr-fox.ts';
const out = join(root, 'e2e', 'fixtures', 'pbr', 'fox-pbr.glb');
mkdirSync(dirname(out), { recursive: true });
const bytes = await io.writeBinary(doc);
writeFileSync(out, bytes);
console.log(`${out}: ${(bytes.length / 1024).toFixed(0)} KiB`);
