import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_ALLOCATION_BYTES_PER_CALL, allocationOfProbe, describeAllocation } from '../alloc-harness.ts';

describe('cor per-frame allocation', () => {
  it('skinMeshCor and skinTangentsCor allocate nothing per call; the palettes only the shear they return; a 16-byte control is seen', () => {
    const sections = allocationOfProbe(fileURLToPath(new URL('./cor-alloc-probe.ts', import.meta.url)));
    expect(sections.get('control')?.bytesPerCall, describeAllocation('control', sections.get('control'))).toBeGreaterThanOrEqual(16);
    expect(sections.get('cor-skin')?.bytesPerCall, describeAllocation('cor-skin', sections.get('cor-skin'))).toBeLessThan(NO_ALLOCATION_BYTES_PER_CALL);
    // A double returned from a call that is not inlined is boxed (one 16-byte heap number per frame); anything
    // per slot (100 here; Math.hypot's boxed result did that, 4 per slot) is far above 32.
    for (const name of ['cor-palette', 'dq-palette']) {
      expect(sections.get(name)?.bytesPerCall, describeAllocation(name, sections.get(name))).toBeLessThan(32);
    }
  }, 120_000);
});
