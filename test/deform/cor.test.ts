import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mat3, mat4, quat, vec3, vec4 } from 'gl-matrix';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDualQuatPalette, DUAL_QUAT_STRIDE, skinMeshDualQuat } from '../../src/anim/dual-quat.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import { skinMesh, skinTangents } from '../../src/anim/software-skin.ts';
import { writeIdentityPalette } from '../../src/anim/palette.ts';
import { COR_SIGMA, computeCorCentres, corCentres, hasCorCentres, setCorCentres } from '../../src/deform/cor-centres.ts';
import { buildCorPalette, COR_IDENTITY, COR_STRIDE, skinMeshCor, skinTangentsCor } from '../../src/deform/cor-skin.ts';
import { generateTwist, TWIST_JOINT_X, TWIST_PEAK_TIME, TWIST_RADIUS } from '../../src/gen/twist.ts';
import { resolveIncludes } from '../../src/gpu/glsl-include.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import { writeM3d } from '../../src/loaders/m3d/write-m3d.ts';
import { MAX_INFLUENCES, type Scene, type SkinnedMesh } from '../../src/model/types.ts';
import { cor } from '../../src/techniques/cor.ts';
import type { DeviceCaps } from '../../src/techniques/technique.ts';
import { makeMesh } from '../anim/fixtures.ts';
import { compileGlsl } from '../techniques/glsl-eval.ts';
import { humanoid, maxDiff, meshSize, randomPalette } from '../techniques/fixtures.ts';

/**
 * The `cor` technique's maths (Le & Hodgins 2016): the centres precompute against the paper's plain O(V·T) sum,
 * the CPU runtime against a re-derivation with gl-matrix and against its own shader chunk (cor_pars.glsl run by
 * the GLSL evaluator), and what the method is for: the twist rig's joint keeps its radius at 180° of twist.
 */

const ROOT = join(import.meta.dirname, '..', '..');
const GLSL_INCLUDE = join(ROOT, 'glsl', 'include');
const CAPS: DeviceCaps = { maxUniformBlockSize: 16384, maxVertexUniformVectors: 256, maxTextureSize: 2048 };

let twist: Scene;
let tiny: Scene;

beforeAll(() => {
  twist = loadModel('twist.m3d', new TextEncoder().encode(writeM3d(generateTwist())));
  tiny = loadModel('tiny.x', new Uint8Array(readFileSync(join(ROOT, 'public', 'models', 'tiny', 'tiny.x'))));
});

/**
 * The paper's centre, summed plainly over every triangle (O(V·T)): dense weight vectors, the similarity over
 * every ordered pair j ≠ k of the vertex's bones (the others' terms are 0), area-weighted centroids.
 */
function bruteForceCentres(mesh: SkinnedMesh): Float64Array {
  let bones = 1;
  for (let i = 0; i < mesh.joints.length; i++) bones = Math.max(bones, mesh.joints[i]! + 1);
  const n = mesh.vertexCount;
  const dense = new Float64Array(n * bones);
  for (let v = 0; v < n; v++) {
    let any = false;
    for (let k = 0; k < MAX_INFLUENCES; k++) {
      const w = mesh.weights[v * MAX_INFLUENCES + k]!;
      if (w > 0) {
        dense[v * bones + mesh.joints[v * MAX_INFLUENCES + k]!]! += w;
        any = true;
      }
    }
    if (!any) dense[v * bones + mesh.joints[v * MAX_INFLUENCES]!] = 1;
  }
  const triangles = mesh.indices.length / 3;
  const tw = new Float64Array(triangles * bones);
  const area = new Float64Array(triangles);
  const centroid = new Float64Array(triangles * 3);
  const p = mesh.positions;
  for (let t = 0; t < triangles; t++) {
    const [a, b, c] = [mesh.indices[t * 3]!, mesh.indices[t * 3 + 1]!, mesh.indices[t * 3 + 2]!];
    for (let j = 0; j < bones; j++) tw[t * bones + j] = (dense[a * bones + j]! + dense[b * bones + j]! + dense[c * bones + j]!) / 3;
    const u = [0, 1, 2].map((k) => p[b * 3 + k]! - p[a * 3 + k]!);
    const w = [0, 1, 2].map((k) => p[c * 3 + k]! - p[a * 3 + k]!);
    area[t] = 0.5 * Math.hypot(u[1]! * w[2]! - u[2]! * w[1]!, u[2]! * w[0]! - u[0]! * w[2]!, u[0]! * w[1]! - u[1]! * w[0]!);
    for (let k = 0; k < 3; k++) centroid[t * 3 + k] = (p[a * 3 + k]! + p[b * 3 + k]! + p[c * 3 + k]!) / 3;
  }
  const out = new Float64Array(n * 3);
  for (let v = 0; v < n; v++) {
    const nz: number[] = [];
    for (let j = 0; j < bones; j++) if (dense[v * bones + j]! > 0) nz.push(j);
    let den = 0;
    const num = [0, 0, 0];
    if (nz.length >= 2) {
      for (let t = 0; t < triangles; t++) {
        let s = 0;
        for (const j of nz) {
          for (const k of nz) {
            if (j === k) continue;
            const [pj, pk, qj, qk] = [dense[v * bones + j]!, dense[v * bones + k]!, tw[t * bones + j]!, tw[t * bones + k]!];
            s += pj * pk * qj * qk * Math.exp(-((pj * qk - pk * qj) ** 2) / COR_SIGMA ** 2);
          }
        }
        den += s * area[t]!;
        for (let k = 0; k < 3; k++) num[k]! += s * area[t]! * centroid[t * 3 + k]!;
      }
    }
    for (let k = 0; k < 3; k++) out[v * 3 + k] = den > 0 ? num[k]! / den : p[v * 3 + k]!;
  }
  return out;
}

/** Palette of clip `name` at `t` seconds. */
function clipPalette(scene: Scene, mesh: SkinnedMesh, name: string | number, t: number): Float32Array {
  const player = new AnimPlayer(scene.skeleton, scene.clips);
  player.play(typeof name === 'number' ? name : scene.clips.findIndex((c) => c.name === name));
  player.setTime(t);
  player.evaluate();
  const palette = new Float32Array(mesh.bones.length * 16);
  player.writePalette(mesh, palette, 0);
  return palette;
}

function corPalette(mesh: SkinnedMesh, palette: Float32Array): Float32Array {
  const out = new Float32Array(mesh.bones.length * COR_STRIDE);
  buildCorPalette(palette, mesh.bones.length, out);
  return out;
}

/**
 * skinMeshCor re-derived with gl-matrix, vertex by vertex, without its palette: each matrix split into its
 * column lengths (z negated for a mirror) and a rotation (quat.fromMat3), the quaternions flipped towards the
 * first influence's and blended, the centre moved by the blended matrix.
 */
function rederived(mesh: SkinnedMesh, centres: Float32Array, palette: Float32Array, influences: number): Float32Array {
  const slots = mesh.bones.length;
  const rot: quat[] = [];
  const scale: vec3[] = [];
  for (let k = 0; k < slots; k++) {
    const m = palette.subarray(k * 16, k * 16 + 16) as unknown as mat4;
    const a = mat3.fromMat4(mat3.create(), m);
    const s = vec3.fromValues(Math.hypot(a[0], a[1], a[2]), Math.hypot(a[3], a[4], a[5]), Math.hypot(a[6], a[7], a[8]));
    if (mat3.determinant(a) < 0) s[2] = -s[2];
    for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) a[c * 3 + r]! /= s[c]!;
    rot.push(quat.normalize(quat.create(), quat.fromMat3(quat.create(), a)));
    scale.push(s);
  }
  const out = new Float32Array(mesh.vertexCount * 3);
  for (let v = 0; v < mesh.vertexCount; v++) {
    const used: [number, number][] = [];
    for (let k = 0; k < influences; k++) {
      const w = mesh.weights[v * 4 + k]!;
      if (!(w > 0)) break;
      used.push([mesh.joints[v * 4 + k]!, w]);
    }
    if (used.length === 0) used.push([mesh.joints[v * 4]!, 1]);
    const total = used.reduce((s, [, w]) => s + w, 0);
    const q = quat.fromValues(0, 0, 0, 0);
    const s = vec3.create();
    const blended = new Float32Array(16) as unknown as mat4;
    for (const [j, w0] of used) {
      const w = w0 / total;
      vec4.scaleAndAdd(q, q, rot[j]!, quat.dot(rot[j]!, rot[used[0]![0]]!) < 0 ? -w : w);
      vec3.scaleAndAdd(s, s, scale[j]!, w);
      for (let i = 0; i < 16; i++) blended[i]! += w * palette[j * 16 + i]!;
    }
    quat.normalize(q, q);
    const c = vec3.fromValues(centres[v * 3]!, centres[v * 3 + 1]!, centres[v * 3 + 2]!);
    const d = vec3.sub(vec3.create(), vec3.fromValues(mesh.positions[v * 3]!, mesh.positions[v * 3 + 1]!, mesh.positions[v * 3 + 2]!), c);
    vec3.transformQuat(d, vec3.mul(d, d, s), q);
    vec3.add(d, d, vec3.transformMat4(vec3.create(), c, blended));
    out.set(d, v * 3);
  }
  return out;
}

/** Side vertices (caps excluded) of the twist rig whose bind x is `x`: one ring. */
function ringAt(mesh: SkinnedMesh, x: number): number[] {
  const out: number[] = [];
  for (let v = 0; v < mesh.vertexCount; v++) if (Math.abs(mesh.positions[v * 3]! - x) < 1e-4 && Math.abs(mesh.normals[v * 3]!) < 0.5) out.push(v);
  return out;
}

/** Largest distance of a ring vertex from the ring's centroid, counting only the `plane` axes. */
function ringRadius(ring: number[], pos: Float32Array, plane: readonly number[] = [0, 1, 2]): number {
  const c = [0, 0, 0];
  for (const v of ring) for (let k = 0; k < 3; k++) c[k]! += pos[v * 3 + k]! / ring.length;
  let r = 0;
  for (const v of ring) r = Math.max(r, Math.hypot(...plane.map((k) => pos[v * 3 + k]! - c[k]!)));
  return r;
}

describe('computeCorCentres', () => {
  it('equals the plain O(V·T) sum of the paper on the twist rig, tiny.x and a 4-influence humanoid (≤ 1e-5 of the model size)', () => {
    for (const [name, mesh] of [['twist', twist.meshes[0]!], ['tiny', tiny.meshes[0]!], ['humanoid', humanoid().meshes[0]!]] as const) {
      const fast = computeCorCentres(mesh);
      const slow = bruteForceCentres(mesh);
      const size = meshSize(mesh);
      const err = maxDiff(fast, slow);
      console.log(`[cor] ${name}: ${mesh.vertexCount} vertices, ${mesh.indices.length / 3} triangles, fast vs brute force ${(err / size).toExponential(2)} of size ${size.toFixed(2)}`);
      expect(err, name).toBeLessThanOrEqual(1e-5 * size);
      // Something to compare: centres of blended vertices lie away from the vertices themselves.
      let moved = 0;
      for (let v = 0; v < mesh.vertexCount; v++) {
        const d = [0, 1, 2].map((k) => fast[v * 3 + k]! - mesh.positions[v * 3 + k]!);
        if (Math.hypot(...d) > 1e-3 * size) moved++;
      }
      expect(moved, name).toBeGreaterThan(mesh.vertexCount / 20);
    }
  });

  it('puts the twist joint ring\'s centres on the cylinder\'s axis at the ring', () => {
    const mesh = twist.meshes[0]!;
    const centres = computeCorCentres(mesh);
    for (const v of ringAt(mesh, TWIST_JOINT_X)) {
      expect(centres[v * 3]).toBeCloseTo(TWIST_JOINT_X, 3);
      expect(centres[v * 3 + 1]).toBeCloseTo(TWIST_RADIUS, 3);
      expect(centres[v * 3 + 2]).toBeCloseTo(0, 3);
    }
  });

  it('single-influence vertices keep their own position; a blended vertex with no similar triangle falls back to its own', () => {
    const invBind = new Float32Array(32);
    writeIdentityPalette(invBind, 2);
    const mesh = {
      ...makeMesh(
        [
          { p: [0, 0, 0], influences: [[0, 1]] },
          { p: [1, 0, 0], influences: [[0, 0.5], [1, 0.5]] },
          { p: [0, 1, 0], influences: [[1, 1]] },
          // In no triangle: nothing shares its pair of bones.
          { p: [5, 5, 5], influences: [[0, 0.7], [1, 0.3]] },
        ],
        [0, 1],
        invBind,
      ),
      indices: Uint32Array.of(0, 1, 2),
    };
    const c = computeCorCentres(mesh);
    expect(Array.from(c.subarray(0, 3))).toEqual([0, 0, 0]);
    expect(Array.from(c.subarray(6, 9))).toEqual([0, 1, 0]);
    // The one triangle's centroid is the only candidate of vertex 1 …
    expect(c[3]).toBeCloseTo(1 / 3, 6);
    expect(c[4]).toBeCloseTo(1 / 3, 6);
    // … and of vertex 3 too: its weights share the pair (0, 1) with the triangle's mean.
    expect(c[9]).toBeCloseTo(1 / 3, 6);
    // A pair no triangle carries: the vertex's own position.
    const lone = { ...mesh, joints: Uint16Array.from([...mesh.joints.subarray(0, 12), 0, 2, 0, 0]), bones: Int16Array.of(0, 1, 2), invBind: new Float32Array(48) };
    const c2 = computeCorCentres(lone);
    expect(Array.from(c2.subarray(9, 12))).toEqual([5, 5, 5]);
  });

  it('reports progress and keeps a session cache (corCentres computes once; setCorCentres stores a worker\'s result)', () => {
    const mesh = humanoid().meshes[0]!;
    const seen: number[] = [];
    computeCorCentres(mesh, (f) => seen.push(f));
    expect(seen.at(-1)).toBe(1);
    expect(seen.every((f, i) => i === 0 || f >= seen[i - 1]!)).toBe(true);
    const a = corCentres(mesh);
    expect(corCentres(mesh)).toBe(a);
    const copy = { ...mesh };
    expect(hasCorCentres(copy)).toBe(false);
    const given = new Float32Array(mesh.vertexCount * 3);
    setCorCentres(copy, given);
    expect(corCentres(copy)).toBe(given);
    expect(() => setCorCentres(copy, new Float32Array(3))).toThrow(/3 per vertex/);
  });

  it('prints the precompute time of the built-in models (twist, tiny, walker, Dawn high)', () => {
    const rows: string[] = [];
    const files: [string, string][] = [
      ['walker', join(ROOT, 'public', 'models', 'generated', 'walker.m3d')],
      ['dawn-high', join(ROOT, 'public', 'models', 'generated', 'dawn-high.m3d')],
    ];
    const scenes: [string, Scene][] = [['twist', twist], ['tiny', tiny]];
    for (const [name, file] of files) {
      if (existsSync(file)) scenes.push([name, loadModel(file, new Uint8Array(readFileSync(file)))]);
      else rows.push(`${name}: ${file} missing (npm run gen writes it)`);
    }
    for (const [name, scene] of scenes) {
      const t0 = performance.now();
      let vertices = 0;
      for (const m of scene.meshes) {
        computeCorCentres(m);
        vertices += m.vertexCount;
      }
      const ms = performance.now() - t0;
      rows.push(`${name}: ${scene.meshes.length} mesh(es), ${vertices} vertices: ${ms.toFixed(0)} ms`);
      // Not a benchmark: only a runaway (the O(V·T) sum would take minutes on Dawn high) fails.
      expect(ms, name).toBeLessThan(60_000);
    }
    console.log(`[cor] precompute\n${rows.join('\n')}`);
  }, 180_000);
});

describe('skinMeshCor', () => {
  it('at the rest pose (identity palette) returns the bind pose', () => {
    for (const mesh of [twist.meshes[0]!, humanoid().meshes[0]!]) {
      const palette = new Float32Array(mesh.bones.length * 16);
      writeIdentityPalette(palette, mesh.bones.length);
      const out = new Float32Array(mesh.vertexCount * 3);
      const normals = new Float32Array(mesh.vertexCount * 3);
      skinMeshCor(mesh, corCentres(mesh), corPalette(mesh, palette), out, normals);
      expect(maxDiff(out, mesh.positions)).toBeLessThan(1e-6 * meshSize(mesh));
      expect(maxDiff(normals, mesh.normals)).toBeLessThan(1e-5);
    }
    // COR_IDENTITY is the identity palette's entry.
    const one = new Float32Array(COR_STRIDE);
    buildCorPalette(Float32Array.from([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]), 1, one);
    expect(Array.from(one)).toEqual(COR_IDENTITY);
  });

  it('moves a single-influence vertex exactly as linear blending (tiny.x: scaled bones; random poses of the humanoid)', () => {
    const cases: [SkinnedMesh, Float32Array][] = [
      [tiny.meshes[0]!, clipPalette(tiny, tiny.meshes[0]!, 0, 0.5)],
      [humanoid().meshes[0]!, randomPalette(humanoid(), humanoid().meshes[0]!, 4)],
    ];
    for (const [mesh, palette] of cases) {
      const centres = corCentres(mesh);
      const a = new Float32Array(mesh.vertexCount * 3);
      const b = new Float32Array(mesh.vertexCount * 3);
      skinMeshCor(mesh, centres, corPalette(mesh, palette), a, null);
      skinMesh(mesh, palette, b, null);
      let singles = 0;
      let worst = 0;
      for (let v = 0; v < mesh.vertexCount; v++) {
        if (mesh.weights[v * 4 + 1]! > 0) continue;
        singles++;
        for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(a[v * 3 + k]! - b[v * 3 + k]!));
      }
      expect(singles).toBeGreaterThan(0);
      expect(worst).toBeLessThan(1e-5 * meshSize(mesh));
      // With one influence kept, every vertex is rigid, centre or not (no shear in these palettes).
      skinMeshCor(mesh, centres, corPalette(mesh, palette), a, null, 1);
      skinMesh(mesh, palette, b, null, 1);
      expect(maxDiff(a, b)).toBeLessThan(1e-5 * meshSize(mesh));
    }
  });

  it('equals a re-derivation with gl-matrix (tiny.x mid-walk with its scaled bones; the humanoid at random poses, 1–4 influences)', () => {
    const mesh = tiny.meshes[0]!;
    const palette = clipPalette(tiny, mesh, 0, 1.3);
    const out = new Float32Array(mesh.vertexCount * 3);
    skinMeshCor(mesh, corCentres(mesh), corPalette(mesh, palette), out, null);
    expect(maxDiff(out, rederived(mesh, corCentres(mesh), palette, 4))).toBeLessThan(1e-5 * meshSize(mesh));
    const h = humanoid().meshes[0]!;
    for (const influences of [1, 2, 3, 4]) {
      const pal = randomPalette(humanoid(), h, 10 + influences, 90);
      const o = new Float32Array(h.vertexCount * 3);
      skinMeshCor(h, corCentres(h), corPalette(h, pal), o, null, influences);
      expect(maxDiff(o, rederived(h, corCentres(h), pal, influences)), `${influences} influences`).toBeLessThan(1e-5 * meshSize(h));
    }
  });

  it('is what its shader chunk computes (cor_pars.glsl evaluated: positions, normals, tangents), 1–4 influences', () => {
    const scene = humanoid();
    const mesh = scene.meshes[0]!;
    const source = resolveIncludes('#include <skin_pars>', (name) => readFileSync(join(GLSL_INCLUDE, `${name}.glsl`), 'utf8'), 'cor');
    const centres = corCentres(mesh);
    for (const influences of [1, 2, 3, 4]) {
      const defines: Record<string, string | number | boolean> = { ...cor.defines(scene, CAPS, { influences, palette: 0 }), COR_CENTRE: 'u_testCentre' };
      const skinVertex = compileGlsl(source, defines as Record<string, string | number | boolean>);
      // Random rotations, and a bind-space axis scale per bone (columns scaled), so the blended scale is exercised.
      const matrices = randomPalette(scene, mesh, 20 + influences, 120);
      for (let k = 0; k < mesh.bones.length; k++) for (let c = 0; c < 3; c++) for (let r = 0; r < 3; r++) matrices[k * 16 + c * 4 + r]! *= 0.8 + 0.15 * ((k + c) % 4);
      const pal = corPalette(mesh, matrices);
      const block = Array.from({ length: 5 * Number(defines.PALETTE_SIZE) }, (_, i) =>
        i < mesh.bones.length * 5 ? Array.from(pal.subarray(i * 4, i * 4 + 4)) : COR_IDENTITY.slice((i % 5) * 4, (i % 5) * 4 + 4),
      );
      const positions = new Float32Array(mesh.vertexCount * 3);
      const normals = new Float32Array(mesh.vertexCount * 3);
      const tangentsIn = new Float32Array(mesh.vertexCount * 4);
      const tangents = new Float32Array(mesh.vertexCount * 4);
      skinMeshCor(mesh, centres, pal, positions, normals, influences);
      for (let v = 0; v < mesh.vertexCount; v++) tangentsIn.set([mesh.normals[v * 3 + 1]!, -mesh.normals[v * 3]!, 0.3, 1], v * 4);
      skinTangentsCor(mesh, tangentsIn, pal, tangents, influences);
      let worst = 0;
      let worstDir = 0;
      // Every 7th vertex: the evaluator is slow.
      for (let v = 0; v < mesh.vertexCount; v += 7) {
        const o = v * MAX_INFLUENCES;
        const globals = {
          a_weights: Array.from(mesh.weights.subarray(o, o + 4)),
          a_joints: Array.from(mesh.joints.subarray(o, o + 4)),
          u_cor: block,
          u_testCentre: Array.from(centres.subarray(v * 3, v * 3 + 3)),
        };
        const p = Array.from(mesh.positions.subarray(v * 3, v * 3 + 3));
        const n = Array.from(mesh.normals.subarray(v * 3, v * 3 + 3));
        const t = Array.from(tangentsIn.subarray(v * 4, v * 4 + 3));
        const { args } = skinVertex('skinVertex', [p, n, t, [0, 0, 0], [0, 0, 0], [0, 0, 0]], globals);
        const [gp, gn, gt] = [args[3] as number[], args[4] as number[], args[5] as number[]];
        for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(gp[k]! - positions[v * 3 + k]!));
        const ln = Math.hypot(...gn);
        const lt = Math.hypot(...gt);
        for (let k = 0; k < 3; k++) {
          worstDir = Math.max(worstDir, Math.abs(gn[k]! / ln - normals[v * 3 + k]!), Math.abs(gt[k]! / lt - tangents[v * 4 + k]!));
        }
      }
      expect(worst, `${influences} influences: positions`).toBeLessThan(1e-5 * meshSize(mesh));
      expect(worstDir, `${influences} influences: normals and tangents`).toBeLessThan(1e-5);
    }
  });

  it('at exactly 180° apart (dot = 0) a quaternion is not flipped: half of identity and half of 180° about x is +90°', () => {
    const invBind = new Float32Array(32);
    writeIdentityPalette(invBind, 2);
    const mesh = makeMesh([{ p: [0, 1, 0], influences: [[0, 0.5], [1, 0.5]] }], [0, 1], invBind);
    const palette = new Float32Array(32);
    writeIdentityPalette(palette, 2);
    // Slot 1: 180° about x (y → −y, z → −z).
    palette.set([1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1], 16);
    const pal = corPalette(mesh, palette);
    expect(pal[0]! * pal[20]! + pal[1]! * pal[21]! + pal[2]! * pal[22]! + pal[3]! * pal[23]!).toBe(0);
    const out = new Float32Array(3);
    // The centre at the origin: the vertex turns by the blended rotation about it.
    skinMeshCor(mesh, new Float32Array(3), pal, out, null);
    const q = pal.subarray(20, 24);
    // The unflipped blend is normalise(q0 + q1) = 90° about the axis of q1 as the palette gives it.
    const axis = Math.sign(q[0]!);
    expect(out[0]).toBeCloseTo(0, 6);
    expect(out[1]).toBeCloseTo(0, 6);
    expect(out[2]).toBeCloseTo(axis, 6);
  });

  it('twist rig at 180°: the joint keeps its radius (no candy wrapper) where linear blending collapses; bent 90° it neither thins nor bulges', () => {
    const mesh = twist.meshes[0]!;
    const centres = corCentres(mesh);
    const joint = ringAt(mesh, TWIST_JOINT_X);
    const pose = (clip: string): { linear: Float32Array; dual: Float32Array; cor: Float32Array } => {
      const palette = clipPalette(twist, mesh, clip, TWIST_PEAK_TIME);
      const linear = new Float32Array(mesh.vertexCount * 3);
      const dual = new Float32Array(mesh.vertexCount * 3);
      const out = new Float32Array(mesh.vertexCount * 3);
      skinMesh(mesh, palette, linear, null);
      const dq = new Float32Array(mesh.bones.length * DUAL_QUAT_STRIDE);
      buildDualQuatPalette(palette, mesh.bones.length, dq);
      skinMeshDualQuat(mesh, dq, dual, null);
      skinMeshCor(mesh, centres, corPalette(mesh, palette), out, null);
      return { linear, dual, cor: out };
    };
    const t = pose('twist');
    const rest = ringRadius(joint, mesh.positions);
    const [lbs, dq, cr] = [ringRadius(joint, t.linear), ringRadius(joint, t.dual), ringRadius(joint, t.cor)];
    console.log(`[cor] twist 180°: joint radius rest ${rest.toFixed(4)}, linear ${lbs.toFixed(4)}, dual quaternion ${dq.toFixed(4)}, cor ${cr.toFixed(4)}`);
    expect(lbs).toBeLessThan(0.25 * rest);
    expect(Math.abs(cr / rest - 1)).toBeLessThan(0.01);
    const b = pose('bend');
    const plane = [0, 2];
    const [lb, db, cb] = [ringRadius(joint, b.linear, plane), ringRadius(joint, b.dual, plane), ringRadius(joint, b.cor, plane)];
    console.log(`[cor] bend 90°: joint half-thickness in the bend plane, linear ${lb.toFixed(4)}, dual quaternion ${db.toFixed(4)}, cor ${cb.toFixed(4)}`);
    expect(Math.abs(cb / TWIST_RADIUS - 1)).toBeLessThan(0.03);
  });

  it('skins tangents by the blended scale and rotation: equal to linear blending for single-influence vertices', () => {
    const mesh = tiny.meshes[0]!;
    const palette = clipPalette(tiny, mesh, 0, 0.8);
    const t0 = new Float32Array(mesh.vertexCount * 4);
    for (let v = 0; v < mesh.vertexCount; v++) t0.set([0.6, 0, 0.8, v % 2 ? 1 : -1], v * 4);
    const a = new Float32Array(mesh.vertexCount * 4);
    const b = new Float32Array(mesh.vertexCount * 4);
    skinTangentsCor(mesh, t0, corPalette(mesh, palette), a);
    skinTangents(mesh, t0, palette, b);
    let worst = 0;
    for (let v = 0; v < mesh.vertexCount; v++) {
      if (mesh.weights[v * 4 + 1]! > 0) continue;
      for (let k = 0; k < 4; k++) worst = Math.max(worst, Math.abs(a[v * 4 + k]! - b[v * 4 + k]!));
    }
    expect(worst).toBeLessThan(1e-5);
  });
});
