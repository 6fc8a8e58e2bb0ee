import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../src/anim/player.ts';
import { generateTwist } from '../../src/gen/twist.ts';
import type { Scene } from '../../src/model/types.ts';
import { LiveQuality, MIN_INTERVAL_MS } from '../../src/quality/live.ts';
import { fillDistortion } from '../../src/render/distortion-data.ts';
import { surfaceDefines } from '../../src/render/variants.ts';
import { DISTORTION_COLOURS, DISTORTION_SCALE, surfaceView } from '../../src/render/views.ts';

/** The live figures behind the stats box and the distortion view: throttling, values, and the view's data path. */

let scene: Scene;
beforeAll(() => {
  scene = generateTwist();
});

function player(clip: string, t: number): AnimPlayer {
  const p = AnimPlayer.forScene(scene);
  p.play(scene.clips.findIndex((c) => c.name === clip), 0);
  p.setTime(t);
  p.evaluate();
  return p;
}

describe('LiveQuality', () => {
  it('measures the technique on screen with its own reference, and says so with NaN when it has none', () => {
    const q = new LiveQuality(scene);
    const p = player('twist', 2);
    expect(q.update(p, 'vs-hlsl', 4, p.morphWeights, false, true, 0)).toBe(true);
    expect(q.summary.volumeRatio).toBeCloseTo(0.8711, 3);
    expect(q.summary.areaP95).toBeGreaterThan(1);
    expect(q.update(p, 'dual-quat', 4, p.morphWeights, false, true, 1)).toBe(true);
    expect(Math.abs(q.summary.volumeRatio - 1)).toBeLessThan(0.02);
    expect(q.update(p, 'cor-unknown', 4, p.morphWeights, false, true, 2)).toBe(true);
    expect(q.summary.volumeRatio).toBeNaN();
  });

  it('recomputes a moving pose at most every MIN_INTERVAL_MS, a still one once, and at once on a technique switch', () => {
    const q = new LiveQuality(scene);
    const p = player('twist', 1);
    expect(q.update(p, 'vs-hlsl', 4, p.morphWeights, true, true, 1000)).toBe(true);
    const v = q.version;
    expect(q.update(p, 'vs-hlsl', 4, p.morphWeights, true, true, 9000)).toBe(false); // still, however long after
    p.setTime(1.5);
    p.evaluate();
    expect(q.update(p, 'vs-hlsl', 4, p.morphWeights, true, true, 1000 + MIN_INTERVAL_MS / 2)).toBe(false); // moved, too soon
    expect(q.version).toBe(v);
    expect(q.update(p, 'vs-hlsl', 4, p.morphWeights, true, true, 1000 + MIN_INTERVAL_MS)).toBe(true);
    expect(q.version).toBe(v + 1);
    expect(q.update(p, 'dual-quat', 4, p.morphWeights, true, true, 1000 + MIN_INTERVAL_MS + 1)).toBe(true);
  });

  it('a pose set by hand (not playing) is measured at once, however soon after the last', () => {
    const q = new LiveQuality(scene);
    const p = player('twist', 2);
    q.update(p, 'vs-hlsl', 4, p.morphWeights, true, false, 1000);
    const collapsed = q.summary.volumeRatio;
    p.setTime(0);
    p.evaluate();
    expect(q.update(p, 'vs-hlsl', 4, p.morphWeights, true, false, 1001)).toBe(true);
    expect(q.summary.volumeRatio).toBeCloseTo(1, 5);
    expect(collapsed).toBeLessThan(0.9);
  });

  it('writes log₂ area ratios per vertex: strongly negative at the collapsed joint, 0 on the rigid ends', () => {
    const q = new LiveQuality(scene);
    const p = player('twist', 2);
    q.update(p, 'vs-hlsl', 4, p.morphWeights, true, true, 0);
    const mesh = scene.meshes[0]!;
    const logs = q.logs[0]!;
    let joint = 0;
    let end = -Infinity;
    for (let v = 0; v < mesh.vertexCount; v++) {
      const x = mesh.positions[v * 3]!;
      if (Math.abs(x) < 1e-6) joint = Math.min(joint, logs[v]!);
      if (Math.abs(x) > 0.8 && Math.abs(x) < 0.95) end = Math.max(end, Math.abs(logs[v]!));
    }
    expect(joint).toBeLessThan(-3);
    expect(end).toBeLessThan(1e-4);
  });
});

describe('distortion view data', () => {
  it('copies each technique vertex its mesh vertex\'s value (duplicated vertices included)', () => {
    const out = new Float32Array(8).fill(9);
    fillDistortion(new Float32Array([-1, 0.5, 2]), new Uint32Array([2, 0, 0, 1]), 2, out);
    expect([...out]).toEqual([2, 0, -1, 0, -1, 0, 0.5, 0]);
  });

  it('draws with the lit program\'s VIEW_DISTORTION set, fetching the view texture', () => {
    expect(surfaceView('distortion')).toBe('distortion');
    expect(surfaceDefines({ A: true }, 'distortion')).toEqual({ A: true, VIEW_DISTORTION: true, VIEW_TEXTURE: true });
  });

  it('the legend\'s scale and colours are the shader\'s', () => {
    const glsl = readFileSync(join(__dirname, '..', '..', 'glsl', 'include', 'debug_views.glsl'), 'utf8');
    expect(glsl).toContain(`const float DISTORTION_SCALE = ${DISTORTION_SCALE.toFixed(1)};`);
    const vec = (c: readonly number[]): string => `vec3(${c.map((x) => (Number.isInteger(x) ? x.toFixed(1) : String(x))).join(', ')})`;
    expect(glsl).toContain(vec(DISTORTION_COLOURS[0]!));
    expect(glsl).toContain(vec(DISTORTION_COLOURS[2]!));
    expect(glsl).toContain(`vec3 white = vec3(${DISTORTION_COLOURS[1]![0]});`);
  });
});
