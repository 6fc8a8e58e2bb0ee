import { describe, expect, it } from 'vitest';
import { checkCompare, clampSplit, formatCompare, pairReason, parseCompare, parseSplit, togglePair } from '../../src/app/compare-state.ts';
import { applyParams, defaultState } from '../../src/app/state.ts';
import { linkQuery } from '../../src/app/url-sync.ts';
import { dividerColumn, splitRegions } from '../../src/render/compare-split.ts';

describe('compare=A,B', () => {
  it('parses a pair of known ids, off, and says what is wrong otherwise', () => {
    expect(parseCompare('vs-hlsl,dual-quat')).toEqual({ a: 'vs-hlsl', b: 'dual-quat' });
    expect(parseCompare(' software , software ')).toEqual({ a: 'software', b: 'software' });
    expect(parseCompare('off')).toBeNull();
    expect(parseCompare('')).toBeNull();
    expect(parseCompare('vs-hlsl')).toMatch(/two technique ids/);
    expect(parseCompare('vs-hlsl,dual-quat,texture')).toMatch(/two technique ids/);
    expect(parseCompare('vs-hlsl,magic')).toMatch(/unknown technique magic/);
    expect(formatCompare({ a: 'vs-hlsl', b: 'texture' })).toBe('vs-hlsl,texture');
  });

  it('goes through applyParams and the link, the divider only when moved', () => {
    const s = defaultState();
    expect(applyParams(s, { compare: 'vs-hlsl,dual-quat' })).toEqual([]);
    expect(s.compare).toEqual({ a: 'vs-hlsl', b: 'dual-quat' });
    expect(s.technique).toBe('vs-hlsl');
    const link = (): string => linkQuery({ state: s, model: null, caps: { maxUniformBlockSize: 16384, maxVertexUniformVectors: 256, maxTextureSize: 4096 } }).query;
    expect(link()).toBe('compare=vs-hlsl,dual-quat');
    expect(applyParams(s, { compareSplit: '0.25' })).toEqual([]);
    expect(link()).toBe('compare=vs-hlsl,dual-quat&compareSplit=0.25');
    expect(applyParams(s, { compareSplit: '2' })[0]).toMatch(/^compareSplit=2: /);
    expect(applyParams(s, { compare: 'nope,vs-hlsl' })[0]).toMatch(/^compare=nope,vs-hlsl: unknown technique nope/);
    expect(s.compare).toEqual({ a: 'vs-hlsl', b: 'dual-quat' });
    applyParams(s, { compare: 'off' });
    expect(link()).toBe('');
  });

  it('is checked against crowd mode, the build and the model', () => {
    const s = { compare: parseCompare('vs-asm,dual-quat') as { a: 'vs-asm'; b: 'dual-quat' }, crowd: 1 };
    expect(checkCompare(s, () => true, (id) => (id === 'vs-asm' ? 'too many bones' : null))).toEqual(['compare=vs-asm,dual-quat: vs-asm: too many bones; the left half draws software']);
    expect(s.compare).toEqual({ a: 'software', b: 'dual-quat' });
    expect(checkCompare(s, (id) => id !== 'dual-quat', () => null)[0]).toMatch(/dual-quat not available in this build; compare is off/);
    expect(s.compare).toBeNull();
    const crowd = { compare: { a: 'vs-hlsl' as const, b: 'vs-hlsl' as const }, crowd: 10 };
    expect(checkCompare(crowd, () => true, () => null)[0]).toMatch(/not a crowd \(crowd=10\); compare is off/);
    expect(crowd.compare).toBeNull();
    expect(pairReason('vs-hlsl,texture', (id) => (id === 'texture' ? 'no floats' : null))).toBe('texture: no floats');
  });

  it('C turns on the last pair, else the technique against dual-quat', () => {
    expect(togglePair('vs-hlsl', null)).toEqual({ a: 'vs-hlsl', b: 'dual-quat' });
    expect(togglePair('dual-quat', null)).toEqual({ a: 'dual-quat', b: 'vs-hlsl' });
    expect(togglePair('software', { a: 'texture', b: 'vs-asm' })).toEqual({ a: 'texture', b: 'vs-asm' });
  });

  it('splits the buffer into two regions that tile it', () => {
    const l = new Int32Array(4);
    const r = new Int32Array(4);
    splitRegions(400, 180, 0.5, l, r);
    expect([...l, ...r]).toEqual([0, 0, 200, 180, 200, 0, 200, 180]);
    splitRegions(401, 100, 0.3, l, r);
    expect(l[2]! + r[2]!).toBe(401);
    expect(r[0]).toBe(l[2]);
    expect(dividerColumn(100, 0)).toBe(1);
    expect(dividerColumn(100, 1)).toBe(99);
    expect(clampSplit(0.01)).toBe(0.1);
    expect(clampSplit(0.12345)).toBe(0.123);
    expect(parseSplit('abc')).toMatch(/share of the width/);
  });
});
