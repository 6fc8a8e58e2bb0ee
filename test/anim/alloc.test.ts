import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scavengesOfProbe } from '../alloc-harness.ts';

describe('per-frame allocation', () => {
  it('advance + evaluate + writePalette + skinMesh trigger no young-generation GC while a control does', () => {
    const counts = scavengesOfProbe(fileURLToPath(new URL('./alloc-probe.ts', import.meta.url)));
    // 50k calls of ~48 bytes fill the 1 MB nursery a few times: the probe sees allocation.
    expect(counts.get('control')).toBeGreaterThanOrEqual(2);
    // A per-channel or per-node allocation would be hundreds of scavenges; allow one for JIT noise.
    for (const name of ['playing', 'crossfading', 'crossfading-from-frozen-pose']) {
      expect(counts.get(name), name).toBeLessThanOrEqual(1);
    }
  }, 60_000);
});
