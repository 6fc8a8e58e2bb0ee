import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { groundSpeed } from '../../src/anim/footsteps.ts';
import { FADE, T_JOG, T_LOITER, T_WALK, T_WAVE, TURN_RATE, WanderCrowd } from '../../src/anim/wander.ts';
import { chooseWanderClips, wanderHalfExtent } from '../../src/anim/wander-gait.ts';
import { loadModel } from '../../src/loaders/load-model.ts';
import type { Clip, Scene } from '../../src/model/types.ts';
import { NO_ALLOCATION_BYTES_PER_CALL, allocationOfProbe, describeAllocation } from '../alloc-harness.ts';

const tiny4 = loadModel('tiny_4anim.x', new Uint8Array(readFileSync('public/models/tiny/tiny_4anim.x')));
const DT = 1 / 60;

function slotsOf(scene: Scene): { meshBase: Int32Array; slots: number } {
  const meshBase = new Int32Array(scene.meshes.length);
  let slots = 0;
  scene.meshes.forEach((m, i) => {
    meshBase[i] = slots;
    slots += Math.max(1, m.bones.length);
  });
  return { meshBase, slots };
}

function run(crowd: WanderCrowd, seconds: number, each?: (frame: number) => void): void {
  const frames = Math.round(seconds / DT);
  for (let f = 0; f < frames; f++) {
    crowd.step(DT);
    each?.(f);
  }
}

describe('chooseWanderClips', () => {
  const clip = (name: string): Clip => ({ name, duration: 1, ticksPerSecond: 0, tracks: [] });
  it('finds Tiny 4anim roles by name', () => {
    expect(chooseWanderClips(tiny4.clips)).toEqual({ loiter: 0, walk: 1, jog: 2, wave: 3 });
  });
  it('takes idle/run names, a spare clip as loiter, and -1 where nothing fits', () => {
    expect(chooseWanderClips([clip('Run'), clip('Idle_2'), clip('walk_cycle')])).toEqual({ loiter: 1, walk: 2, jog: 0, wave: -1 });
    expect(chooseWanderClips([clip('Wuson_Run'), clip('Wuson_Walk'), clip('Wuson_Bind')])).toEqual({ loiter: 2, walk: 1, jog: 0, wave: -1 });
    expect(chooseWanderClips([clip('Take1')])).toEqual({ loiter: -1, walk: -1, jog: -1, wave: -1 });
  });
});

describe('WanderCrowd on the MultiAnimation sample Tiny', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = new WanderCrowd(tiny4, { count: 20, seed: 3 });
    const b = new WanderCrowd(tiny4, { count: 20, seed: 3 });
    const c = new WanderCrowd(tiny4, { count: 20, seed: 4 });
    run(a, 5);
    run(b, 5);
    run(c, 5);
    for (let i = 0; i < 20; i++) {
      expect(a.agentX(i)).toBe(b.agentX(i));
      expect(a.agentZ(i)).toBe(b.agentZ(i));
      expect(a.agentHeading(i)).toBe(b.agentHeading(i));
    }
    expect(a.footsteps).toBe(b.footsteps);
    let same = 0;
    for (let i = 0; i < 20; i++) if (a.agentX(i) === c.agentX(i)) same++;
    expect(same).toBeLessThan(20);
  });

  it('keeps every agent inside the area, and agents actually travel', () => {
    const n = 60;
    const crowd = new WanderCrowd(tiny4, { count: n, seed: 11 });
    const E = crowd.extent;
    expect(E).toBeCloseTo(wanderHalfExtent(n, crowd.gait.spacing), 6);
    const x0 = Array.from({ length: n }, (_, i) => crowd.agentX(i));
    let worst = 0;
    run(crowd, 30, () => {
      for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs(crowd.agentX(i)), Math.abs(crowd.agentZ(i)));
    });
    expect(worst).toBeLessThanOrEqual(E);
    const moved = x0.filter((x, i) => Math.abs(crowd.agentX(i) - x) > crowd.gait.spacing).length;
    expect(moved).toBeGreaterThan(n / 3);
  });

  it('travels at the weighted ground speed of its clips (no foot sliding), turning at most TURN_RATE', () => {
    const n = 30;
    const crowd = new WanderCrowd(tiny4, { count: n, seed: 5 });
    const g = crowd.gait;
    const gs = [0, groundSpeed(tiny4, g.walk), groundSpeed(tiny4, g.jog)];
    expect(gs[1]).toBeGreaterThan(0);
    expect(gs[2]).toBeGreaterThan(gs[1]!);
    let checked = 0;
    let worst = 0;
    const px = new Float64Array(n);
    const pz = new Float64Array(n);
    const ph = new Float64Array(n);
    const expected = new Float64Array(n);
    const snap = (): void => {
      for (let i = 0; i < n; i++) {
        px[i] = crowd.agentX(i);
        pz[i] = crowd.agentZ(i);
        ph[i] = crowd.agentHeading(i);
        const c = crowd.controllers[i]!;
        let sw = 0;
        let sv = 0;
        for (const t of [T_LOITER, T_WALK, T_JOG]) {
          const w = c.trackEnabled(t) ? c.trackWeight(t) : 0;
          // Walk and jog share a sync group: each plays at its duration times the group's phase rate.
          sw += w;
          sv += w * gs[t]!;
        }
        const ww = c.trackEnabled(T_WALK) ? c.trackWeight(T_WALK) : 0;
        const wj = c.trackEnabled(T_JOG) ? c.trackWeight(T_JOG) : 0;
        if (c.trackSync(T_WALK) >= 0 && ww > 0 && wj > 0) {
          const dw = c.trackDuration(T_WALK);
          const dj = c.trackDuration(T_JOG);
          const phi = (ww / dw + wj / dj) / (ww + wj);
          sv = ww * gs[1]! * phi * dw + wj * gs[2]! * phi * dj;
        }
        expected[i] = sw > 0 ? sv / sw : 0;
      }
    };
    snap();
    run(crowd, 20, () => {
      for (let i = 0; i < n; i++) {
        const travelled = Math.hypot(crowd.agentX(i) - px[i]!, crowd.agentZ(i) - pz[i]!) / DT;
        let turn = Math.abs(crowd.agentHeading(i) - ph[i]!);
        if (turn > Math.PI) turn = 2 * Math.PI - turn;
        expect(turn).toBeLessThanOrEqual(TURN_RATE * DT + 1e-9);
        // Agents pushed apart or held at the edge move other than they walk: skip those frames.
        const near = Math.abs(crowd.agentX(i)) >= crowd.extent - 1e-9 || Math.abs(crowd.agentZ(i)) >= crowd.extent - 1e-9;
        if (expected[i]! > 0 && !near) {
          worst = Math.max(worst, Math.abs(travelled - expected[i]!) / gs[2]!);
          checked++;
        }
      }
      snap();
    });
    expect(checked).toBeGreaterThan(1000);
    // Pushes between overlapping agents are the only other motion: rare and small.
    expect(worst).toBeLessThan(0.35);
  });

  it('changes weights smoothly (ease fades, no jumps between frames) and sums locomotion to 1', () => {
    const n = 40;
    const crowd = new WanderCrowd(tiny4, { count: n, seed: 9 });
    const prev = new Float64Array(n * 4);
    const read = (i: number, t: number): number => {
      const c = crowd.controllers[i]!;
      return c.trackEnabled(t) ? c.trackWeight(t) : 0;
    };
    for (let i = 0; i < n; i++) for (let t = 0; t < 4; t++) prev[i * 4 + t] = read(i, t);
    let worst = 0;
    let worstSum = 0;
    let changes = 0;
    run(crowd, 20, () => {
      for (let i = 0; i < n; i++) {
        let sum = 0;
        for (let t = 0; t < 4; t++) {
          const w = read(i, t);
          const d = Math.abs(w - prev[i * 4 + t]!);
          if (d > 0) changes++;
          worst = Math.max(worst, d);
          prev[i * 4 + t] = w;
          if (t !== T_WAVE) sum += w;
        }
        worstSum = Math.max(worstSum, Math.abs(sum - 1));
      }
    });
    expect(changes).toBeGreaterThan(100);
    // Smoothstep's steepest slope is 1.5 / duration; the wave fades over 0.3 s.
    expect(worst).toBeLessThanOrEqual((1.5 * DT) / Math.min(FADE, 0.3) + 1e-6);
    expect(worstSum).toBeLessThan(1e-6);
  });

  it('some agents wave while walking, for one wave cycle', () => {
    const n = 50;
    const crowd = new WanderCrowd(tiny4, { count: n, seed: 2 });
    const waving = new Set<number>();
    let waveFramesNotMoving = 0;
    run(crowd, 40, () => {
      for (let i = 0; i < n; i++) {
        const c = crowd.controllers[i]!;
        if (c.trackEnabled(T_WAVE) && c.trackWeight(T_WAVE) > 0.99) {
          if (c.trackWeight(T_WALK) > 0.5 && c.trackEnabled(T_WALK)) waving.add(i);
          if (!c.trackEnabled(T_WALK)) waveFramesNotMoving++;
          expect(c.trackTime(T_WAVE)).toBeLessThanOrEqual(c.trackDuration(T_WAVE));
        }
      }
    });
    expect(waving.size).toBeGreaterThanOrEqual(3);
    expect(waveFramesNotMoving).toBe(0);
    expect(Array.from(crowd.waves.subarray(0, n)).reduce((s, v) => s + v, 0)).toBeGreaterThanOrEqual(waving.size);
  });

  it('fires footsteps while agents walk and jog, none while an agent only loiters', () => {
    const crowd = new WanderCrowd(tiny4, { count: 30, seed: 4 });
    run(crowd, 10);
    expect(crowd.footsteps).toBeGreaterThan(30);
    expect(crowd.footstepRate).toBeGreaterThan(0);
    const one = new WanderCrowd(tiny4, { count: 1, seed: 4 });
    let loiterFrames = 0;
    let stepsWhileLoitering = 0;
    let before = 0;
    run(one, 30, () => {
      const c = one.controllers[0]!;
      const moving = (c.trackEnabled(T_WALK) && c.trackWeight(T_WALK) > 0) || (c.trackEnabled(T_JOG) && c.trackWeight(T_JOG) > 0);
      if (!moving) {
        loiterFrames++;
        stepsWhileLoitering += one.footsteps - before;
      }
      before = one.footsteps;
    });
    expect(loiterFrames).toBeGreaterThan(60);
    expect(one.footsteps).toBeGreaterThan(0);
    expect(stepsWhileLoitering).toBe(0);
  });

  it('writes each palette premultiplied by its instance place: the pelvis stands at the agent, on the floor', () => {
    const n = 8;
    const floorY = -100;
    const crowd = new WanderCrowd(tiny4, { count: n, seed: 6, floorY });
    run(crowd, 3);
    crowd.evaluate();
    const { meshBase, slots } = slotsOf(tiny4);
    const data = new Float32Array(n * slots * 16);
    crowd.writePalettes(tiny4, data, slots, meshBase, n);
    const m = tiny4.meshes.findIndex((x) => x.bones.length > 1);
    const mesh = tiny4.meshes[m]!;
    for (let i = 0; i < n; i++) {
      // Skin the first vertex two ways: the instance palette, and by hand from the controller's pose.
      let px = 0, py = 0, pz = 0;
      for (let k = 0; k < 4; k++) {
        const w = mesh.weights[k]!;
        if (w === 0) continue;
        const o = (i * slots + meshBase[m]! + mesh.joints[k]!) * 16;
        const [x, y, z] = [mesh.positions[0]!, mesh.positions[1]!, mesh.positions[2]!];
        px += w * (data[o]! * x + data[o + 4]! * y + data[o + 8]! * z + data[o + 12]!);
        py += w * (data[o + 1]! * x + data[o + 5]! * y + data[o + 9]! * z + data[o + 13]!);
        pz += w * (data[o + 2]! * x + data[o + 6]! * y + data[o + 10]! * z + data[o + 14]!);
      }
      // Tiny's vertices lie within a few spacings of her agent, above the floor.
      expect(Math.hypot(px - crowd.agentX(i), pz - crowd.agentZ(i))).toBeLessThan(crowd.gait.spacing);
      expect(py).toBeGreaterThan(floorY - 0.05 * crowd.gait.spacing);
    }
  });

  it('degrades to in-place play for a model without locomotion clips', () => {
    const tiny = loadModel('tiny.x', new Uint8Array(readFileSync('../shared/corpus/tiny.x')));
    const crowd = new WanderCrowd(tiny, { count: 10, seed: 1 });
    const x0 = Array.from({ length: 10 }, (_, i) => crowd.agentX(i));
    run(crowd, 5);
    for (let i = 0; i < 10; i++) expect(crowd.agentX(i)).toBe(x0[i]);
    expect(crowd.controllers[0]!.trackEnabled(0) || crowd.controllers[0]!.trackEnabled(1)).toBe(true);
    expect(crowd.footsteps).toBe(0);
  });

  it('allocates (almost) nothing per step: only the boxed clock times of state changes, under 8 bytes per agent and step', () => {
    const sections = allocationOfProbe(fileURLToPath(new URL('./wander-alloc-probe.ts', import.meta.url)));
    expect(sections.get('control')?.bytesPerCall, describeAllocation('control', sections.get('control'))).toBeGreaterThanOrEqual(16);
    // 10 agents: a 16-byte box per agent per frame would show as 160 bytes per call.
    for (const name of ['step', 'wander']) {
      expect(sections.get(name)?.bytesPerCall, describeAllocation(name, sections.get(name))).toBeLessThan(10 * NO_ALLOCATION_BYTES_PER_CALL);
    }
  }, 180_000);

  it('prints the CPU cost per instance per frame at N = 100 and 1000', () => {
    const { meshBase, slots } = slotsOf(tiny4);
    for (const n of [100, 1000]) {
      const crowd = new WanderCrowd(tiny4, { count: n, seed: 1 });
      const data = new Float32Array(n * slots * 16);
      const frame = (): void => {
        crowd.step(DT);
        crowd.evaluate();
        crowd.writePalettes(tiny4, data, slots, meshBase, n);
      };
      for (let f = 0; f < 70; f++) frame();
      const frames = n === 100 ? 120 : 20;
      const t0 = performance.now();
      for (let f = 0; f < frames; f++) frame();
      const us = ((performance.now() - t0) * 1000) / frames / n;
      console.log(`wander N=${n}: ${us.toFixed(2)} µs per instance per frame, ${crowd.footstepRate.toFixed(1)} footsteps/s`);
      expect(us).toBeGreaterThan(0);
    }
  }, 120_000);
});
