import { describe, expect, it } from 'vitest';
import { crowdRows, rankOrder, ratioOf, techniqueRows, timerFlag, windowRows } from '../../../src/app/bench/rows.ts';
import { benchPlan, framesFor } from '../../../src/app/bench/options.ts';
import { bestOf, type WindowResult } from '../../../src/app/bench/window.ts';

const w = (wallMs: number, gpuMs: number | null, submitMs = 0.1, extra: Partial<WindowResult> = {}): WindowResult => ({ frames: 10, wallMs, submitMs, gpuMs, cpuAnimUs: 20, skinUs: 5, drawCalls: 3, instances: -1, triangles: -1, ...extra });
const run = { how: 'Test GPU 800x600', timer: true };

describe('timerFlag: GPU time against the wall time of the same frames', () => {
  it('accepts GPU time at or under wall time', () => {
    expect(timerFlag(0.8, 1, 0.1)).toBeNull();
    expect(timerFlag(1.2, 1, 0.1)).toBeNull();
  });
  it('flags GPU time over wall × 1.25 (one query around a frame that ends in readPixels reported 2.4–7 ms for a 0.8 ms frame)', () => {
    expect(timerFlag(2.4, 0.8, 0.1)).toMatch(/> wall/);
  });
  it('flags GPU time under wall / 50 only when the frames were GPU bound', () => {
    expect(timerFlag(0.01, 1, 0.1)).toMatch(/missed/);
    // CPU bound (submit takes most of the wall time): a tiny GPU time is plausible.
    expect(timerFlag(0.01, 1, 0.9)).toBeNull();
  });
  it('has nothing to say without a GPU figure', () => {
    expect(timerFlag(null, 1, 0.1)).toBeNull();
  });
});

describe('ratios and ranks', () => {
  it('ratio = base time / other time, on GPU time when both are trusted', () => {
    expect(ratioOf(w(2, 1), w(2, 0.5))).toEqual({ value: 2, kind: 'gpu' });
  });
  it('falls back to wall time when either GPU figure is missing or flagged', () => {
    expect(ratioOf(w(2, null), w(4, 0.5))).toEqual({ value: 0.5, kind: 'wall' });
    expect(ratioOf(w(2, 1), w(1, 5))).toEqual({ value: 2, kind: 'wall' });
  });
  it('ranks fastest first, by wall for all when one GPU figure is untrusted', () => {
    const set = [
      { id: 'a', w: w(3, 1) },
      { id: 'b', w: w(1.5, 1.4) },
    ];
    expect(rankOrder(set).map((x) => x.id)).toEqual(['a', 'b']);
    expect(rankOrder([...set, { id: 'c', w: w(2, null) }]).map((x) => `${x.id}:${x.kind}`)).toEqual(['b:wall', 'c:wall', 'a:wall']);
  });
});

describe('rows', () => {
  it('writes the named figures of a window, the fallback note without a timer', () => {
    const rows = windowRows('gpu_tiny_vs-hlsl', w(2, null), 'tiny', { how: 'x', timer: false });
    const names = rows.map((r) => r.name);
    expect(names).toEqual(['gpu_tiny_vs-hlsl_frame_ms', 'gpu_tiny_vs-hlsl_submit_ms', 'gpu_tiny_vs-hlsl_cpu_us', 'gpu_tiny_vs-hlsl_anim_us', 'gpu_tiny_vs-hlsl_skin_us', 'gpu_tiny_vs-hlsl_draw_calls']);
    expect(rows[0]!.note).toContain('no GPU timer');
    expect(rows.find((r) => r.name.endsWith('_cpu_us'))!.value).toBe(25);
  });
  it('marks a flagged GPU figure in its note', () => {
    const rows = windowRows('p', w(0.8, 2.4), 'tiny', run);
    expect(rows[0]!.name).toBe('p_gpu_ms');
    expect(rows[0]!.note).toContain('FLAGGED');
  });
  it('techniques: shadow pass as on − off, ratios vs vs-hlsl, ranks', () => {
    const rows = techniqueRows('tiny', 'tiny', [
      { id: 'vs-hlsl', off: w(2, 1), on: w(3, 1.5) },
      { id: 'texture', off: w(2, 0.5), on: null },
    ], run);
    const get = (n: string): number | undefined => rows.find((r) => r.name === n)?.value;
    expect(get('gpu_tiny_vs-hlsl_shadow_gpu_ms')).toBe(0.5);
    expect(get('gpu_tiny_vs-hlsl_shadow_cost_ms')).toBe(1);
    expect(get('gpu_tiny_texture_ratio_vs_vs-hlsl')).toBe(2);
    expect(get('gpu_tiny_texture_rank')).toBe(1);
    expect(get('gpu_tiny_vs-hlsl_rank')).toBe(2);
    expect(get('gpu_tiny_shadows_vs-hlsl_gpu_ms')).toBe(1.5);
    expect(get('gpu_tiny_shadows_texture_gpu_ms')).toBeUndefined();
  });
  it('crowds: ours per path, the peer once, ratios peer / ours', () => {
    const rows = crowdRows(100, [{ path: 'cpu', label: 'crowd', w: w(4, 2, 1) }, { path: 'baked', label: 'crowd', w: w(2, 1, 0.5) }], w(8, 4, 4), run);
    const get = (n: string): number | undefined => rows.find((r) => r.name === n)?.value;
    expect(get('crowd_cpu_100_frame_ms')).toBe(4);
    expect(get('crowd_threejs_100_gpu_ms')).toBe(4);
    expect(get('crowd_cpu_100_ratio_vs_threejs')).toBe(2);
    expect(get('crowd_baked_100_ratio_vs_threejs')).toBe(4);
    expect(get('crowd_baked_100_submit_ratio_vs_threejs')).toBe(8);
    expect(get('crowd_baked_100_gpu_ratio_vs_threejs')).toBe(4);
    expect(rows.filter((r) => r.name.startsWith('crowd_threejs_100_frame_ms'))).toHaveLength(1);
  });
  it('no submit ratio when our submit time is under the clock tick (0): never an infinite value', () => {
    const rows = crowdRows(10, [{ path: 'baked', label: 'crowd', w: w(0.6, 0.5, 0) }], w(1.3, 0.4, 0.6), run);
    expect(rows.map((r) => r.name)).not.toContain('crowd_baked_10_submit_ratio_vs_threejs');
    expect(rows.find((r) => r.name === 'crowd_baked_10_ratio_vs_threejs')?.value).toBeCloseTo(1.3 / 0.6, 3);
    for (const r of rows) expect(Number.isFinite(r.value), r.name).toBe(true);
  });
  it('every value is a finite number', () => {
    const rows = [...techniqueRows('t', 't', [{ id: 'vs-hlsl', off: w(1, null), on: w(2, null) }], run), ...crowdRows(1, [{ path: 'cpu', label: 'x', w: w(1, null) }], null, run)];
    for (const r of rows) expect(Number.isFinite(r.value)).toBe(true);
  });
});

describe('windows and plans', () => {
  it('bestOf keeps the lowest of each figure, no GPU figure when one window had none', () => {
    const b = bestOf([w(3, 1, 0.5), w(2, 2, 0.7)]);
    expect([b.wallMs, b.gpuMs, b.submitMs]).toEqual([2, 1, 0.5]);
    expect(bestOf([w(3, 1), w(2, null)]).gpuMs).toBeNull();
    expect(bestOf([w(3, 1, 0.1, { cpuAnimUs: NaN })]).cpuAnimUs).toBeNaN();
  });
  it('framesFor fills the target time within bounds', () => {
    expect(framesFor(10, 250, 4, 120)).toBe(25);
    expect(framesFor(0.01, 250, 4, 120)).toBe(120);
    expect(framesFor(1000, 250, 4, 120)).toBe(4);
  });
  it('quick: no Dawn high, sizes up to 1000, two frames, one window; sizes over the crowd limit left out', () => {
    const q = benchPlan({ quick: true }, 1000);
    expect(q.models.map((m) => m.label)).toEqual(['tiny', 'walker', 'dawn', 'fox']);
    expect(q.sizes).toEqual([1, 10, 100, 1000]);
    expect([q.framesFor, q.fixedFrames, q.windows, q.shadowsFor('tiny')]).toEqual([null, 2, 1, false]);
    const full = benchPlan({}, 1000);
    expect(full.sizes).toEqual([1, 10, 100, 1000]);
    expect(full.skippedSizes).toEqual([10000]);
    expect(full.shadowsFor('dawn_high')).toBe(true);
    expect(benchPlan({ parts: 'crowd' }, 1000).techniques).toBe(false);
  });
  it('runs the crowd scenes when asked, and in a full (not a quick) run of every part', () => {
    const scenes = benchPlan({ parts: 'scenes' }, 10000);
    expect([scenes.scenes, scenes.techniques, scenes.crowd]).toEqual([true, false, false]);
    expect(benchPlan({}, 10000).scenes).toBe(true);
    expect(benchPlan({ quick: true }, 10000).scenes).toBe(false);
    expect(benchPlan({ parts: 'crowd' }, 10000).scenes).toBe(false);
    expect(benchPlan({ scenes: false }, 10000).scenes).toBe(false);
  });
  it('refuses unknown parts and models', () => {
    expect(() => benchPlan({ parts: 'x' as never }, 1000)).toThrow(/parts/);
    expect(() => benchPlan({ models: ['nope'] }, 1000)).toThrow(/unknown model nope/);
  });
});

describe('crowd rows with a tag and instance counts', () => {
  it('puts the tag in every name and writes the drawn instances where the probe has them', () => {
    const rows = crowdRows(10000, [{ path: 'baked', w: w(4, 3, 0.1, { instances: 2500 }), label: 'crowd mode' }], w(40, 30), run, 'quarter');
    const names = rows.map((r) => r.name);
    expect(names).toContain('crowd_quarter_baked_10000_frame_ms');
    expect(names).toContain('crowd_quarter_baked_10000_ratio_vs_threejs');
    expect(rows.find((r) => r.name === 'crowd_quarter_baked_10000_instances_drawn')?.value).toBe(2500);
    expect(names.filter((n) => n.startsWith('crowd_baked_'))).toEqual([]);
  });
  it('takes cull and camera into the crowd parameters and refuses a tag that would break names', () => {
    const plan = benchPlan({ parts: 'crowd', cull: false, camera: '0,30,5', tag: 'nocull' }, 10000);
    expect(plan.crowdParams).toEqual({ cull: false, camera: '0,30,5' });
    expect(plan.crowdTag).toBe('nocull');
    expect(() => benchPlan({ tag: 'no cull' }, 10000)).toThrow(/tag/);
  });
});
