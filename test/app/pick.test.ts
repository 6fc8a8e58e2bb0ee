import { mat4, vec3 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { boneAtHit, pointerRay, rayBox, rayTriangle, type TriangleHit } from '../../src/app/pick.ts';
import { PickMesh } from '../../src/app/pick-mesh.ts';
import { skinMesh } from '../../src/anim/software-skin.ts';
import { MAX_INFLUENCES, type SkinnedMesh } from '../../src/model/types.ts';
import { OrbitCamera } from '../../src/render/camera.ts';

const freshHit = (): TriangleHit => ({ triangle: -1, distance: Infinity, u: 0, v: 0 });
/** A hit on triangle `triangle` at barycentric (u, v). */
const at = (triangle: number, u: number, v: number): TriangleHit => ({ triangle, distance: 1, u, v });

/** A ray from (ox, oy, oz) along unit direction (dx, dy, dz). */
function ray(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): Float64Array {
  const l = Math.hypot(dx, dy, dz);
  return Float64Array.of(ox, oy, oz, dx / l, dy / l, dz / l);
}

/** One triangle in the z = 0 plane: (0,0), (1,0), (0,1); corners skinned to slots 0, 1 and 1+2; slot k → node 10 + k. */
function triangleMesh(): SkinnedMesh {
  const joints = new Uint16Array(3 * MAX_INFLUENCES);
  const weights = new Float32Array(3 * MAX_INFLUENCES);
  joints[0] = 0;
  weights[0] = 1;
  joints[4] = 1;
  weights[4] = 1;
  joints[8] = 1;
  weights[8] = 0.5;
  joints[9] = 2;
  weights[9] = 0.5;
  return {
    name: 't',
    vertexCount: 3,
    positions: Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0),
    normals: Float32Array.of(0, 0, 1, 0, 0, 1, 0, 0, 1),
    tangents: null,
    uvs: null,
    joints,
    weights,
    maxInfluences: 2,
    indices: Uint32Array.of(0, 1, 2),
    subsets: [{ material: 0, start: 0, count: 1 }],
    bones: Int16Array.of(10, 11, 12),
    invBind: new Float32Array(48),
    skinned: true,
  };
}

describe('pick: rays', () => {
  it('the ray through the middle of the view starts at the camera and passes through its target', () => {
    const cam = new OrbitCamera();
    cam.aspect = 1.5;
    cam.yawDeg = 30;
    cam.pitchDeg = -20;
    cam.distance = 4;
    vec3.set(cam.target, 0.5, 1, -0.25);
    cam.update();
    const inv = mat4.invert(mat4.create(), cam.viewProj)!;
    const r = new Float64Array(6);
    expect(pointerRay(inv, [0, 0], r)).toBe(true);
    // Origin on the near plane, 0.01 in front of the camera.
    expect(Math.hypot(r[0]! - cam.position[0]!, r[1]! - cam.position[1]!, r[2]! - cam.position[2]!)).toBeCloseTo(cam.near, 4);
    // The target lies on the ray, at the camera's distance.
    const t = cam.distance - cam.near;
    for (let a = 0; a < 3; a++) expect(r[a]! + r[3 + a]! * t).toBeCloseTo(cam.target[a]!, 4);
    // A pointer at the right edge looks to the camera's right: the ray leans towards +x in view space.
    pointerRay(inv, [1, 0], r);
    const right = [cam.view[0]!, cam.view[4]!, cam.view[8]!];
    expect(r[3]! * right[0]! + r[4]! * right[1]! + r[5]! * right[2]!).toBeGreaterThan(0.3);
  });

  it('a box is entered at its near face, missed beside it, and not seen behind the origin', () => {
    const box = Float32Array.of(-1, -1, -1, 1, 1, 1);
    expect(rayBox(ray(0, 0, 5, 0, 0, -1), box, 0)).toBeCloseTo(4, 6);
    expect(rayBox(ray(2, 0, 5, 0, 0, -1), box, 0)).toBe(Infinity);
    expect(rayBox(ray(0, 0, 5, 0, 0, 1), box, 0)).toBe(Infinity);
    expect(rayBox(ray(0, 0, 0, 1, 0, 0), box, 0)).toBe(0);
  });
});

describe('pick: triangles', () => {
  const mesh = triangleMesh();

  it('hits a triangle from either side with barycentric coordinates, and misses outside it', () => {
    const hit = freshHit();
    expect(rayTriangle(ray(0.25, 0.5, 3, 0, 0, -1), mesh.positions, mesh.indices, 0, hit)).toBe(true);
    expect(hit.distance).toBeCloseTo(3, 6);
    expect(hit.u).toBeCloseTo(0.25, 6);
    expect(hit.v).toBeCloseTo(0.5, 6);
    const back = freshHit();
    expect(rayTriangle(ray(0.25, 0.5, -2, 0, 0, 1), mesh.positions, mesh.indices, 0, back)).toBe(true);
    expect(back.distance).toBeCloseTo(2, 6);
    expect(rayTriangle(ray(0.75, 0.75, 3, 0, 0, -1), mesh.positions, mesh.indices, 0, freshHit())).toBe(false);
    // Parallel to the plane, and pointing away from it.
    expect(rayTriangle(ray(0.2, 0.2, 3, 1, 0, 0), mesh.positions, mesh.indices, 0, freshHit())).toBe(false);
    expect(rayTriangle(ray(0.2, 0.2, 3, 0, 0, 1), mesh.positions, mesh.indices, 0, freshHit())).toBe(false);
  });

  it('keeps the nearest of overlapping triangles', () => {
    // Two copies of the triangle, at z = 0 and z = 1: from +z the second is nearer.
    const positions = Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 1);
    const indices = Uint32Array.of(0, 1, 2, 3, 4, 5);
    const hit = freshHit();
    for (let t = 0; t < 2; t++) rayTriangle(ray(0.2, 0.2, 5, 0, 0, -1), positions, indices, t, hit);
    expect(hit.triangle).toBe(1);
    expect(hit.distance).toBeCloseTo(4, 6);
  });

});

/**
 * A crumpled sheet of 40 × 40 quads (3200 triangles, 50 runs) over x, y ∈ [0, 1], skinned to 3 slots (nodes
 * 0..2, identity inverse binds): slot 0 on the left fading into slot 1 on the right, slot 2 on the top rows.
 */
function sheet(): SkinnedMesh {
  const n = 40;
  const count = (n + 1) * (n + 1);
  const positions = new Float32Array(count * 3);
  const joints = new Uint16Array(count * MAX_INFLUENCES);
  const weights = new Float32Array(count * MAX_INFLUENCES);
  let seed = 7;
  const rand = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) {
      const v = j * (n + 1) + i;
      positions.set([i / n, j / n, rand() * 0.2], v * 3);
      const list = j > 30 ? [[2, 0.7], [0, 0.3]] : [[0, 1 - i / n], [1, i / n]];
      list.sort((a, b) => b[1]! - a[1]!);
      list.forEach(([slot, w], k) => {
        joints[v * MAX_INFLUENCES + k] = slot!;
        weights[v * MAX_INFLUENCES + k] = w!;
      });
    }
  }
  const idx: number[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = j * (n + 1) + i;
      idx.push(a, a + 1, a + n + 2, a, a + n + 2, a + n + 1);
    }
  }
  const invBind = new Float32Array(48);
  for (let k = 0; k < 3; k++) mat4.identity(invBind.subarray(k * 16, k * 16 + 16) as unknown as mat4);
  return {
    name: 'sheet', vertexCount: count, positions, normals: new Float32Array(count * 3), tangents: null, uvs: null, joints, weights, maxInfluences: 2,
    indices: Uint32Array.from(idx), subsets: [{ material: 0, start: 0, count: idx.length / 3 }], bones: Int16Array.of(0, 1, 2), invBind, skinned: true,
  };
}

describe('pick: a posed mesh', () => {
  it('the lazily posed runs find what skinning the whole mesh and testing every triangle finds', () => {
    const mesh = sheet();
    // Three node → model matrices: turned (quaternions not of unit length: general affine maps), moved, one scaled.
    const nodes = new Float32Array(48);
    mat4.fromRotationTranslation(nodes.subarray(0, 16) as unknown as mat4, [0, 0.2, 0, 0.98], [0.1, 0, 0]);
    mat4.fromRotationTranslationScale(nodes.subarray(16, 32) as unknown as mat4, [0.3, 0, 0.1, 0.95], [0, 0.3, -0.2], [1.2, 1, 0.9]);
    mat4.fromRotationTranslation(nodes.subarray(32, 48) as unknown as mat4, [0, 0, 0.38, 0.92], [0.2, -0.1, 0.1]);
    const posed = new Float32Array(mesh.positions.length);
    const pick = new PickMesh(mesh);
    let seed = 11;
    const rand = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (const [influences, bindPose] of [[2, false], [1, false], [2, true]] as const) {
      if (bindPose) posed.set(mesh.positions);
      else skinMesh(mesh, nodes, posed, null, influences);
      pick.pose(nodes, influences, bindPose);
      let hits = 0;
      for (let k = 0; k < 150; k++) {
        const r = ray(rand() * 1.6 - 0.3, rand() * 1.6 - 0.3, 3, rand() * 0.4 - 0.2, rand() * 0.4 - 0.2, -1);
        const brute = freshHit();
        for (let t = 0; t < mesh.indices.length / 3; t++) rayTriangle(r, posed, mesh.indices, t, brute);
        const lazy = freshHit();
        pick.raycast(r, lazy);
        expect(lazy.triangle).toBe(brute.triangle);
        if (brute.triangle >= 0) {
          expect(lazy.distance).toBeCloseTo(brute.distance, 5);
          hits++;
        }
      }
      expect(hits).toBeGreaterThan(50);
      expect(hits).toBeLessThan(150);
    }
  });
});

describe('pick: a morphed mesh', () => {
  it('the ray meets the morphed surface in the bind pose and posed, and the neutral one at weight 0', () => {
    const base = triangleMesh();
    // One target lifting the whole triangle 1 along +z; the three slots' nodes move everything by +2 in x.
    const mesh: SkinnedMesh = {
      ...base,
      invBind: new Float32Array(48),
      morphs: [{ vertices: Uint32Array.of(0, 1, 2), positions: Float32Array.of(0, 0, 1, 0, 0, 1, 0, 0, 1), normals: new Float32Array(9) }],
    };
    const nodes = new Float32Array(16 * 13);
    for (let k = 0; k < 13; k++) {
      mat4.identity(nodes.subarray(k * 16, k * 16 + 16) as unknown as mat4);
      if (k < 3) mat4.identity(mesh.invBind.subarray(k * 16, k * 16 + 16) as unknown as mat4);
      nodes[k * 16 + 12] = 2;
    }
    const pick = new PickMesh(mesh);
    const distanceAlong = (r: Float64Array): number => {
      const hit = freshHit();
      pick.raycast(r, hit);
      return hit.triangle < 0 ? -1 : hit.distance;
    };
    pick.morph(Float32Array.of(1));
    pick.pose(nodes, 4, true);
    expect(distanceAlong(ray(0.2, 0.2, 5, 0, 0, -1))).toBeCloseTo(4, 5);
    pick.pose(nodes, 4, false);
    expect(distanceAlong(ray(0.2, 0.2, 5, 0, 0, -1)), 'moved away in x by the pose').toBe(-1);
    expect(distanceAlong(ray(2.2, 0.2, 5, 0, 0, -1))).toBeCloseTo(4, 5);
    pick.morph(Float32Array.of(0));
    pick.pose(nodes, 4, false);
    expect(distanceAlong(ray(2.2, 0.2, 5, 0, 0, -1))).toBeCloseTo(5, 5);
  });
});

describe('pick: the bone at a hit', () => {
  const mesh = triangleMesh();
  const scratch = new Float64Array(24);

  it("blends the corners' weights by the barycentric coordinates and names the heaviest bone's node", () => {
    // Near corner 0 (slot 0 only).
    expect(boneAtHit(mesh, at(0, 0.1, 0.1), scratch)).toBe(10);
    // The centre: slot 0 1/3, slot 1 1/3 + 1/6, slot 2 1/6.
    expect(boneAtHit(mesh, at(0, 1 / 3, 1 / 3), scratch)).toBe(11);
    // At corner 2 slots 1 and 2 tie at 0.5: the lower slot.
    expect(boneAtHit(mesh, at(0, 0, 1), scratch)).toBe(11);
    // Towards corner 2 from corner 0, slot 2 never beats slot 1 (it shares corner 2 with it).
    expect(boneAtHit(mesh, at(0, 0, 0.9), scratch)).toBe(11);
    expect(boneAtHit(mesh, at(1, 0.1, 0.1), scratch)).toBe(-1);
  });

  it('a corner without weights counts its first joint', () => {
    const bare = { ...triangleMesh(), weights: new Float32Array(3 * MAX_INFLUENCES) };
    bare.joints.fill(0);
    bare.joints[8] = 2;
    expect(boneAtHit(bare, at(0, 0, 0.9), scratch)).toBe(12);
    expect(boneAtHit(bare, at(0, 0.1, 0.1), scratch)).toBe(10);
  });
});
