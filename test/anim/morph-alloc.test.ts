import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scavengesOfProbe } from '../alloc-harness.ts';

describe('per-frame allocation of morph evaluation', () => {
  it('morph tracks + manual layer + slot choice + applyMorphs trigger no young-generation GC while a control does', () => {
    const counts = scavengesOfProbe(fileURLToPath(new URL('./morph-alloc-probe.ts', import.meta.url)));
    expect(counts.get('control')).toBeGreaterThanOrEqual(1);
    for (const name of ['morphing', 'morph-crossfading', 'morph-crossfading-from-frozen']) expect(counts.get(name), name).toBeLessThanOrEqual(1);
  }, 60_000);
});
