import { describe, expect, it } from 'vitest';
import { parseCrowdModels, resolveCrowdModel } from '../../src/app/crowd-models-state.ts';

describe('crowdModels entries', () => {
  it('default and the loaded model\'s own id are the loaded model; walker is the built-in Walker', () => {
    expect(resolveCrowdModel('default', 'tiny')).toEqual({ kind: 'loaded' });
    expect(resolveCrowdModel('tiny', 'tiny')).toEqual({ kind: 'loaded' });
    expect(resolveCrowdModel('walker', 'default')).toEqual({ kind: 'loaded' });
    expect(resolveCrowdModel('walker', 'tiny')).toEqual({ kind: 'load', id: 'default', url: 'models/generated/walker.m3d', builtin: true });
    expect(resolveCrowdModel('fox', 'tiny')).toEqual({ kind: 'load', id: 'fox', url: 'models/fox/Fox.glb', builtin: true });
  });

  it('takes URLs as the model key does and names what an unknown word is not', () => {
    expect(resolveCrowdModel('https://example.org/a.glb', 'tiny')).toMatchObject({ kind: 'load', url: 'https://example.org/a.glb', builtin: false });
    const bad = resolveCrowdModel('nosuch', 'tiny');
    expect(bad.kind).toBe('bad');
    expect(bad.kind === 'bad' && bad.why).toContain('not a built-in model (');
    expect(bad.kind === 'bad' && bad.why).toContain('fox');
  });

  it('parses a comma list, trimmed, without repeats', () => {
    expect(parseCrowdModels('tiny, fox,,tiny')).toEqual(['tiny', 'fox']);
    expect(parseCrowdModels('')).toEqual([]);
    expect(typeof parseCrowdModels('1/a,2/a,3/a,4/a,5/a,6/a,7/a,8/a,9/a')).toBe('string');
  });
});
