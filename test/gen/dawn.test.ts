import { beforeAll, describe, expect, it } from 'vitest';
import { NECK_CUT, NECK_ZIP, FACE } from '../../src/gen/dawn-body.ts';
import { DAWN_TARGETS } from '../../src/gen/dawn-face.ts';
import { MAX_ACTIVE_TARGETS } from '../../src/gen/dawn-motion.ts';
import { generateDawn } from '../../src/gen/dawn.ts';
import { parseM3d } from '../../src/loaders/m3d/parse-m3d.ts';
import { writeM3d } from '../../src/loaders/m3d/write-m3d.ts';
import { boundaryLoops } from '../../src/gen/seam.ts';
import { countBadEdges } from '../../src/gen/surface.ts';
import { validateScene } from '../../src/model/build.ts';
import { MAX_INFLUENCES, type MorphDeltas, type Scene, type SkinnedMesh } from '../../src/model/types.ts';

let scene: Scene;
const mesh = (name: string): SkinnedMesh => {
  const m = scene.meshes.find((x) => x.name === name);
  if (!m) throw new Error(`no mesh ${name}`);
  return m;
};
const target = (name: string): MorphDeltas => {
  const i = scene.morphTargets.indexOf(name);
  if (i < 0) throw new Error(`no target ${name}`);
  return mesh('head').morphs![i]!;
};
/** Position delta of head vertex v under a target (0 when the target does not list it). */
const delta = (d: MorphDeltas, v: number): [number, number, number] => {
  let lo = 0, hi = d.vertices.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (d.vertices[mid] === v) return [d.positions[mid * 3]!, d.positions[mid * 3 + 1]!, d.positions[mid * 3 + 2]!];
    if (d.vertices[mid]! < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return [0, 0, 0];
};
/** Head vertices within `r` of point c (skin only: the eyeballs are appended after the skin). */
const near = (c: readonly number[], r: number, filter: (p: number[]) => boolean = () => true): number[] => {
  const h = mesh('head');
  const out: number[] = [];
  for (let v = 0; v < h.vertexCount; v++) {
    const p = [h.positions[v * 3]!, h.positions[v * 3 + 1]!, h.positions[v * 3 + 2]!];
    if (Math.hypot(p[0]! - c[0]!, p[1]! - c[1]!, p[2]! - c[2]!) < r && filter(p)) out.push(v);
  }
  return out;
};
const meanDelta = (d: MorphDeltas, verts: number[], axis: number): number => verts.reduce((s, v) => s + delta(d, v)[axis]!, 0) / verts.length;

beforeAll(() => {
  scene = generateDawn({ detail: 'low' });
});

describe('generateDawn: skeleton and meshes', () => {
  it('is a valid scene with at least 98 bones, parents before children', () => {
    expect(() => validateScene(scene)).not.toThrow();
    const { names, parents } = scene.skeleton;
    expect(names.length).toBeGreaterThanOrEqual(98);
    expect(parents[0]).toBe(-1);
    for (let i = 1; i < parents.length; i++) {
      expect(parents[i]).toBeGreaterThanOrEqual(0);
      expect(parents[i]).toBeLessThan(i);
    }
    expect(new Set(names).size).toBe(names.length);
    for (const n of ['neck_02', 'head', 'jaw', 'eye_l', 'ear_tip_r', 'wing_upper_03_l', 'wing_lower_02_r', 'hair_back_04', 'index_03_l']) {
      expect(names).toContain(n);
    }
  });

  it('has body, head, hair and wings meshes; body + head close each other, hair and wings are closed', () => {
    expect(scene.meshes.map((m) => m.name)).toEqual(['body', 'head', 'hair', 'wings']);
    expect(countBadEdges(mesh('hair').indices)).toBe(0);
    expect(countBadEdges(mesh('wings').indices)).toBe(0);
    // Body and head each have one open border (the neck); together they are closed.
    expect(boundaryLoops(mesh('body').indices)).toHaveLength(1);
    expect(boundaryLoops(mesh('head').indices)).toHaveLength(1);
  });

  it('has the triangle counts of the low level', () => {
    const total = scene.meshes.reduce((s, m) => s + m.indices.length / 3, 0);
    expect(total).toBeGreaterThan(15_000);
    expect(total).toBeLessThan(30_000);
    expect(mesh('head').indices.length / 3).toBeGreaterThan(4_000);
  });

  it('has at least 180,000 triangles at the high level', () => {
    const high = generateDawn({ detail: 'high' });
    const total = high.meshes.reduce((s, m) => s + m.indices.length / 3, 0);
    expect(total).toBeGreaterThanOrEqual(180_000);
    expect(high.meshes[1]!.indices.length / 3).toBeGreaterThan(mesh('head').indices.length * 4 / 3);
  }, 60_000);

  it('joins head and body without a seam: border vertices match in position, normal and skin weights', () => {
    const body = mesh('body');
    const head = mesh('head');
    const [headLoop] = boundaryLoops(head.indices);
    const [bodyLoop] = boundaryLoops(body.indices);
    expect(headLoop!.length).toBe(bodyLoop!.length);
    const key = (m: SkinnedMesh, v: number): string => Array.from(m.positions.subarray(v * 3, v * 3 + 3)).join(',');
    const bodyByPos = new Map(bodyLoop!.map((v) => [key(body, v), v]));
    for (const v of headLoop!) {
      const b = bodyByPos.get(key(head, v));
      expect(b, `head border vertex ${v} has no body vertex at the same position`).toBeDefined();
      expect(head.positions[v * 3 + 1]).toBeCloseTo(NECK_CUT, 6);
      for (let k = 0; k < 3; k++) expect(head.normals[v * 3 + k]).toBe(body.normals[b! * 3 + k]);
      for (let k = 0; k < MAX_INFLUENCES; k++) {
        expect(head.joints[v * 4 + k]).toBe(body.joints[b! * 4 + k]);
        expect(head.weights[v * 4 + k]).toBe(body.weights[b! * 4 + k]);
      }
    }
  });

  it('has valid skin weights everywhere: at most 4, descending, summing to 1', () => {
    for (const m of scene.meshes) {
      expect(m.maxInfluences).toBeLessThanOrEqual(MAX_INFLUENCES);
      for (let v = 0; v < m.vertexCount; v++) {
        let sum = 0;
        for (let k = 0; k < MAX_INFLUENCES; k++) {
          const w = m.weights[v * 4 + k]!;
          expect(w).toBeGreaterThanOrEqual(0);
          if (k > 0) expect(w).toBeLessThanOrEqual(m.weights[v * 4 + k - 1]! + 1e-7);
          sum += w;
        }
        expect(Math.abs(sum - 1)).toBeLessThan(1e-5);
      }
    }
  });

  it('skins the wings to wing bones and the hair to head and hair bones', () => {
    const names = scene.skeleton.names;
    const used = (m: SkinnedMesh): Set<string> => {
      const s = new Set<string>();
      for (let i = 0; i < m.joints.length; i++) if (m.weights[i]! > 0) s.add(names[m.joints[i]!]!);
      return s;
    };
    for (const n of used(mesh('wings'))) expect(n).toMatch(/^wing_/);
    const hair = used(mesh('hair'));
    for (const n of hair) expect(n).toMatch(/^(head|hair_)/);
    expect(hair.has('hair_back_03')).toBe(true);
  });
});

describe('generateDawn: morph targets', () => {
  it('has 50 targets: 30 emotions then 20 modifiers, with the required names', () => {
    expect(scene.morphTargets).toHaveLength(50);
    expect(scene.morphKinds).toHaveLength(50);
    expect(scene.morphKinds!.filter((k) => k === 'emotion')).toHaveLength(30);
    expect(scene.morphKinds!.filter((k) => k === 'modifier')).toHaveLength(20);
    for (const n of scene.morphTargets) expect(n).toMatch(/^[a-z]+(_[a-z]+)*$/);
    expect(new Set(scene.morphTargets).size).toBe(50);
    const kind = (n: string): string => scene.morphKinds![scene.morphTargets.indexOf(n)]!;
    for (const n of ['happy', 'sad', 'angry', 'surprised', 'thoughtful']) expect(kind(n)).toBe('emotion');
    for (const n of ['jaw_open', 'blink', 'smirk', 'brow_up_left', 'brow_up_right', 'ear_wiggle']) expect(kind(n)).toBe('modifier');
    expect(scene.morphTargets).toEqual(DAWN_TARGETS.map((t) => t.name));
  });

  it('puts morphs on the head only, sparse and ascending, away from the border', () => {
    for (const m of scene.meshes) if (m.name !== 'head') expect(m.morphs).toBeUndefined();
    const head = mesh('head');
    expect(head.morphs).toHaveLength(50);
    const [border] = boundaryLoops(head.indices);
    const borderSet = new Set(border);
    head.morphs!.forEach((d, t) => {
      expect(d.vertices.length, scene.morphTargets[t]).toBeGreaterThan(0);
      expect(d.vertices.length).toBeLessThan(head.vertexCount / 2);
      expect(d.positions.length).toBe(d.vertices.length * 3);
      expect(d.normals.length).toBe(d.vertices.length * 3);
      for (let k = 0; k < d.vertices.length; k++) {
        const v = d.vertices[k]!;
        if (k > 0) expect(v).toBeGreaterThan(d.vertices[k - 1]!);
        expect(v).toBeLessThan(head.vertexCount);
        expect(borderSet.has(v)).toBe(false);
        expect(head.positions[v * 3 + 1]!).toBeGreaterThan(NECK_CUT + NECK_ZIP - 1e-5);
      }
    });
  });

  it('jaw_open lowers the chin and leaves the upper lip', () => {
    const d = target('jaw_open');
    const chin = near(FACE.chin, 0.012);
    expect(chin.length).toBeGreaterThan(3);
    expect(meanDelta(d, chin, 1)).toBeLessThan(-0.006);
    const upperLip = near([0, FACE.mouth[1] + 0.006, FACE.mouth[2] - 0.004], 0.004);
    expect(Math.abs(meanDelta(d, upperLip, 1))).toBeLessThan(0.0015);
  });

  it('blink closes the upper lids: lid vertices above each eye move down', () => {
    const d = target('blink');
    for (const sx of [1, -1]) {
      const e = [FACE.eye[0] * sx, FACE.eye[1], FACE.eye[2]];
      const lid = near([e[0]!, e[1]! + 0.009, e[2]! + 0.009], 0.005);
      expect(lid.length).toBeGreaterThan(0);
      expect(meanDelta(d, lid, 1)).toBeLessThan(-0.002);
    }
    // blink_left moves the left (+X) lid only.
    const left = target('blink_left');
    for (const v of left.vertices) expect(mesh('head').positions[v * 3]!).toBeGreaterThan(0);
  });

  it('happy raises the mouth corners, sad lowers them', () => {
    for (const sx of [1, -1]) {
      const corner = near([FACE.corner[0] * sx, FACE.corner[1], FACE.corner[2]], 0.008);
      expect(corner.length).toBeGreaterThan(0);
      expect(meanDelta(target('happy'), corner, 1)).toBeGreaterThan(0.005);
      expect(meanDelta(target('sad'), corner, 1)).toBeLessThan(-0.004);
    }
  });

  it('surprised raises the brows and opens the jaw; angry lowers the inner brows', () => {
    const brows = [1, -1].flatMap((sx) => near([FACE.browMid[0] * sx, FACE.browMid[1], FACE.browMid[2]], 0.008));
    expect(meanDelta(target('surprised'), brows, 1)).toBeGreaterThan(0.004);
    expect(meanDelta(target('surprised'), near(FACE.chin, 0.012), 1)).toBeLessThan(-0.003);
    const inner = [1, -1].flatMap((sx) => near([FACE.browInner[0] * sx, FACE.browInner[1], FACE.browInner[2]], 0.008));
    expect(meanDelta(target('angry'), inner, 1)).toBeLessThan(-0.002);
    expect(meanDelta(target('brow_up_left'), near(FACE.browMid, 0.008), 1)).toBeGreaterThan(0.004);
    expect(Math.abs(meanDelta(target('brow_up_right'), near(FACE.browMid, 0.008), 1))).toBeLessThan(0.0005);
    expect(meanDelta(target('brow_up_right'), near([-FACE.browMid[0], FACE.browMid[1], FACE.browMid[2]], 0.008), 1)).toBeGreaterThan(0.004);
  });

  it('ear_wiggle moves the ear tips, not the face', () => {
    const d = target('ear_wiggle');
    const ear = FACE.earBase.map((b, k) => b + 0.6 * (FACE.earTip[k]! - b));
    const tip = near(ear, 0.015);
    expect(tip.length).toBeGreaterThan(0);
    expect(Math.max(...tip.map((v) => Math.hypot(...delta(d, v))))).toBeGreaterThan(0.005);
    for (const v of d.vertices) expect(Math.abs(mesh('head').positions[v * 3]!)).toBeGreaterThan(0.06);
  });

  it('survives the .m3d file: four meshes, the targets on the head, the expression track', () => {
    const back = parseM3d(writeM3d(scene), 'dawn-low.m3d');
    expect(back.meshes.map((m) => [m.name, m.vertexCount])).toEqual(scene.meshes.map((m) => [m.name, m.vertexCount]));
    expect(back.morphTargets).toEqual(scene.morphTargets);
    expect(back.morphKinds).toEqual(scene.morphKinds);
    const head = back.meshes.find((m) => m.name === 'head')!;
    expect(head.morphs!.map((d) => d.vertices.length)).toEqual(mesh('head').morphs!.map((d) => d.vertices.length));
    expect(back.clips[0]!.morphTracks!.length).toBe(scene.clips[0]!.morphTracks!.length);
  });
});

describe('generateDawn: clips', () => {
  it('has idle (with an expression track) and breathe clips', () => {
    expect(scene.clips.map((c) => c.name)).toEqual(['idle', 'breathe']);
    const idle = scene.clips[0]!;
    expect(idle.duration).toBeGreaterThanOrEqual(12);
    expect(idle.morphTracks!.length).toBeGreaterThan(5);
    const animated = new Set(idle.tracks.map((t) => scene.skeleton.names[t.node]));
    for (const n of ['spine_03', 'clavicle_l', 'head', 'wing_root_l', 'ear_l', 'hair_back_02', 'eye_r']) expect(animated).toContain(n);
    expect(scene.clips[1]!.morphTracks ?? []).toHaveLength(0);
  });

  it('blends at most 5 targets at once, with blinks, starting and ending neutral', () => {
    const idle = scene.clips[0]!;
    const tracks = idle.morphTracks!;
    const weight = (tr: (typeof tracks)[number], t: number): number => {
      const { times, values } = tr;
      if (t <= times[0]!) return values[0]!;
      for (let k = 1; k < times.length; k++) {
        if (t <= times[k]!) return values[k - 1]! + ((values[k]! - values[k - 1]!) * (t - times[k - 1]!)) / (times[k]! - times[k - 1]!);
      }
      return values[values.length - 1]!;
    };
    for (const tr of tracks) {
      expect(tr.times[0]).toBe(0);
      expect(tr.times[tr.times.length - 1]).toBeCloseTo(idle.duration, 5);
      for (let k = 1; k < tr.times.length; k++) expect(tr.times[k]).toBeGreaterThan(tr.times[k - 1]!);
      expect(tr.values[0]).toBe(0);
      expect(tr.values[tr.values.length - 1]).toBe(0);
    }
    let maxActive = 0;
    const seen = new Set<string>();
    for (let t = 0; t <= idle.duration; t += 1 / 60) {
      const active = tracks.filter((tr) => weight(tr, t) > 1e-6);
      maxActive = Math.max(maxActive, active.length);
      for (const tr of active) if (weight(tr, t) > 0.85) seen.add(scene.morphTargets[tr.target]!);
    }
    expect(maxActive).toBeLessThanOrEqual(MAX_ACTIVE_TARGETS);
    for (const n of ['happy', 'surprised', 'thoughtful', 'sad', 'angry', 'blink']) expect(seen).toContain(n);
    expect(weight(tracks.find((tr) => scene.morphTargets[tr.target] === 'happy')!, 2)).toBe(1);
  });
});

describe('generateDawn: determinism', () => {
  it('builds identical arrays twice', () => {
    const again = generateDawn({ detail: 'low' });
    scene.meshes.forEach((m, i) => {
      const n = again.meshes[i]!;
      expect(Buffer.from(n.positions.buffer).equals(Buffer.from(m.positions.buffer))).toBe(true);
      expect(Buffer.from(n.weights.buffer).equals(Buffer.from(m.weights.buffer))).toBe(true);
      expect(Buffer.from(n.indices.buffer).equals(Buffer.from(m.indices.buffer))).toBe(true);
    });
    const a = scene.meshes[1]!.morphs!;
    again.meshes[1]!.morphs!.forEach((d, t) => {
      expect(Buffer.from(d.positions.buffer).equals(Buffer.from(a[t]!.positions.buffer))).toBe(true);
    });
    expect(again.clips[0]!.tracks.length).toBe(scene.clips[0]!.tracks.length);
  });
});
