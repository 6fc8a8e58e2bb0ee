import { mat4 } from 'gl-matrix';
import { describe, expect, it } from 'vitest';
import { INSTANCE_FLOATS, type CrowdInstances } from '../../src/gpu/crowd-instances.ts';
import { CrowdInstanceData, type CrowdInstanceFrame } from '../../src/render/crowd-instance-data.ts';
import { frustumPlanes, shadowInFrustum, sphereInFrustum } from '../../src/render/crowd-cull.ts';
import { crowdOffset } from '../../src/render/crowd-layout.ts';
import { PLAZA_SEED, plazaLayout } from '../../src/render/crowd-plaza.ts';
import { crowdTint } from '../../src/render/crowd-tint.ts';

/** A CrowdInstances stand-in: the CPU copy only. */
function fakeInstances(): CrowdInstances & { uploads: number } {
  const o = {
    data: new Float32Array(0),
    uploads: 0,
    reserve(n: number): boolean {
      if (o.data.length < n * INSTANCE_FLOATS) o.data = new Float32Array(n * INSTANCE_FLOATS);
      return true;
    },
    upload(from: number, to: number): void {
      if (to > from) o.uploads++;
    },
    lastUploadBytes: 0,
  };
  return o as unknown as CrowdInstances & { uploads: number };
}

const eye = [0, 1, 30];
const proj = mat4.perspective(mat4.create(), Math.PI / 6, 1, 0.1, 200);
const view = mat4.lookAt(mat4.create(), eye as [number, number, number], [0, 0, 0], [0, 1, 0]);

function frame(layout: 'grid' | 'plaza', sphere: number[]): CrowdInstanceFrame {
  return {
    count: 400, spacing: 1, layout, facing: 0.4, pivot: [0.3, -0.2], tint: true, wander: false, cull: true,
    viewProj: mat4.multiply(mat4.create(), proj, view), sphere, baked: true, clip: 0, duration: 1, all: true, shadowDir: [0, -1, 0], floorY: 0, members: null, memberCount: 0,
    lodLevels: 1, lodSwitches2: [], eye,
  };
}

/** R(yaw) about +y, as crowd_pars.glsl crowdTurn: (x, z) → (cos x + sin z, −sin x + cos z). */
function turn(yaw: number, x: number, z: number): [number, number] {
  return [Math.cos(yaw) * x + Math.sin(yaw) * z, -Math.sin(yaw) * x + Math.cos(yaw) * z];
}

describe('crowd instance data', () => {
  it('writes each plaza place with its yaw: the model turns about its pivot, which lands on the place', () => {
    const data = new CrowdInstanceData();
    const inst = fakeInstances();
    const f = frame('plaza', [0, 1, 0, Infinity]);
    f.cull = false;
    data.update(inst, f);
    const places = new Float32Array(3 * f.count);
    plazaLayout(f.count, f.spacing, PLAZA_SEED, places);
    for (let j = 0; j < f.count; j++) {
      const i = data.order[j]!;
      const o = j * INSTANCE_FLOATS;
      const yaw = inst.data[o + 5]!;
      expect(yaw).toBeCloseTo(places[3 * i + 2]! - f.facing, 5);
      // The pivot turned and offset lands on place + pivot.
      const [px, pz] = turn(yaw, 0.3, -0.2);
      expect(px + inst.data[o]!).toBeCloseTo(places[3 * i]! + 0.3, 4);
      expect(pz + inst.data[o + 1]!).toBeCloseTo(places[3 * i + 1]! - 0.2, 4);
      // The model's facing as modelled, (sin 0.4, cos 0.4), turned by the yaw is the place's heading.
      const [fx, fz] = turn(yaw, Math.sin(0.4), Math.cos(0.4));
      expect(Math.atan2(fx, fz)).toBeCloseTo(places[3 * i + 2]!, 4);
    }
  });

  it('culls the sphere where the turned model is: its centre turned by the yaw', () => {
    // A sphere well off the model origin, so turning moves it by up to 2 units.
    const sphere = [1, 1, 0, 0.4];
    const data = new CrowdInstanceData();
    const inst = fakeInstances();
    const f = frame('plaza', sphere);
    data.update(inst, f);
    const planes = new Float32Array(24);
    frustumPlanes(f.viewProj, planes);
    const live = new Set(Array.from(data.order.subarray(0, data.live)));
    let disagree = 0;
    // The slots written: the live, then the culled whose shadow (straight down here) may fall in view.
    expect(data.slots).toBeGreaterThanOrEqual(data.live);
    for (let j = 0; j < data.slots; j++) {
      const i = data.order[j]!;
      const o = j * INSTANCE_FLOATS;
      const [cx, cz] = turn(inst.data[o + 5]!, sphere[0]!, sphere[2]!);
      const inside = sphereInFrustum(planes, cx + inst.data[o]!, sphere[1]!, cz + inst.data[o + 1]!, sphere[3]!);
      expect(live.has(i), `instance ${i}`).toBe(inside);
      // The unturned sphere at the same offset would have been judged otherwise for some.
      if (sphereInFrustum(planes, sphere[0]! + inst.data[o]!, sphere[1]!, sphere[2]! + inst.data[o + 1]!, sphere[3]!) !== inside) disagree++;
    }
    expect(data.live).toBeGreaterThan(0);
    expect(data.live).toBeLessThan(f.count);
    expect(disagree).toBeGreaterThan(0);
  });

  it('gives the shadow casters the live instances, then exactly the culled ones whose shadow may fall in view', () => {
    const sphere = [0, 1, 0, 0.4];
    const data = new CrowdInstanceData();
    const inst = fakeInstances();
    const f = frame('grid', sphere);
    f.shadowDir = [Math.SQRT1_2, -Math.SQRT1_2, 0];
    data.update(inst, f);
    const planes = new Float32Array(24);
    frustumPlanes(f.viewProj, planes);
    expect(data.live).toBeGreaterThan(0);
    expect(data.slots).toBeGreaterThan(data.live);
    expect(data.slots).toBeLessThan(f.count);
    for (let j = data.live; j < f.count; j++) {
      const o = j * INSTANCE_FLOATS;
      if (j >= data.slots) continue;
      expect(shadowInFrustum(planes, sphere[0]! + inst.data[o]!, sphere[1]!, sphere[2]! + inst.data[o + 1]!, sphere[3]!, f.shadowDir, 0), `slot ${j}`).toBe(true);
    }
    // Every culled instance left out casts no shadow into view: at its grid place (yaw 0 on the grid).
    const kept = new Set(Array.from(data.order.subarray(0, data.slots)));
    const cell = [0, 0, 0];
    let out = 0;
    for (let i = 0; i < f.count; i++) {
      if (kept.has(i)) continue;
      crowdOffset(i, f.count, f.spacing, cell);
      expect(shadowInFrustum(planes, sphere[0]! + cell[0]!, sphere[1]!, sphere[2]! + cell[2]!, sphere[3]!, f.shadowDir, 0), `instance ${i}`).toBe(false);
      out++;
    }
    expect(out).toBe(f.count - data.slots);
  });

  it('writes the grid with yaw 0, a tint per instance, white with the tint off, and uploads nothing when nothing changed', () => {
    const data = new CrowdInstanceData();
    const inst = fakeInstances();
    const f = frame('grid', [0, 1, 0, Infinity]);
    data.update(inst, f);
    const t = new Float32Array(3);
    const colours = new Set<string>();
    for (let j = 0; j < f.count; j++) {
      const o = j * INSTANCE_FLOATS;
      expect(inst.data[o + 5]).toBe(0);
      crowdTint(data.order[j]!, t);
      expect(Array.from(inst.data.subarray(o + 6, o + 9))).toEqual(Array.from(t));
      colours.add(Array.from(t).join());
    }
    expect(colours.size).toBeGreaterThan(f.count * 0.9);
    inst.uploads = 0;
    data.update(inst, f);
    expect(inst.uploads).toBe(0);
    f.tint = false;
    data.update(inst, f);
    expect(inst.uploads).toBe(1);
    for (let j = 0; j < f.count; j++) expect(Array.from(inst.data.subarray(j * INSTANCE_FLOATS + 6, j * INSTANCE_FLOATS + 9))).toEqual([1, 1, 1]);
  });

  it('gives subtle tints around white: every channel within ±25 %, the mean near 1, and varied hues', () => {
    const t = new Float32Array(3);
    let sum = 0;
    let spread = 0;
    for (let i = 0; i < 5000; i++) {
      crowdTint(i, t);
      for (const c of t) {
        expect(c).toBeGreaterThanOrEqual(0.75);
        expect(c).toBeLessThanOrEqual(1.25);
        sum += c;
      }
      spread += Math.max(t[0]!, t[1]!, t[2]!) - Math.min(t[0]!, t[1]!, t[2]!);
    }
    expect(sum / 15000).toBeCloseTo(1, 2);
    expect(spread / 5000).toBeGreaterThan(0.08);
  });
});
