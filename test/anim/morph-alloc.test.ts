import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_ALLOCATION_BYTES_PER_CALL, allocationOfProbe, describeAllocation } from '../alloc-harness.ts';

/**
 * The frame's slot choice writes the dropped weight into a Float64Array slot (effectiveWeightsInto): a double
 * returned from a call V8 does not inline would be a boxed 16-byte HeapNumber per frame, which this test sees.
 */
describe('per-frame allocation of morph evaluation', () => {
  it('morph tracks + manual layer + slot choice + applyMorphs allocate nothing per frame; a 16-byte control is seen', () => {
    const sections = allocationOfProbe(fileURLToPath(new URL('./morph-alloc-probe.ts', import.meta.url)));
    expect(sections.get('control')?.bytesPerCall, describeAllocation('control', sections.get('control'))).toBeGreaterThanOrEqual(16);
    for (const name of ['morphing', 'morph-crossfading', 'morph-crossfading-from-frozen']) {
      expect(sections.get(name)?.bytesPerCall, describeAllocation(name, sections.get(name))).toBeLessThan(NO_ALLOCATION_BYTES_PER_CALL);
    }
  }, 120_000);
});
