import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_ALLOCATION_BYTES_PER_CALL, allocationOfProbe, describeAllocation } from '../alloc-harness.ts';

/** The stats box and the distortion view measure the pose every few frames: that must allocate nothing. */
describe('per-call allocation of the live artifact figures', () => {
  it('LiveQuality.update allocates nothing per measured pose; a 16-byte control is seen', () => {
    const sections = allocationOfProbe(fileURLToPath(new URL('./live-alloc-probe.ts', import.meta.url)));
    expect(sections.get('control')?.bytesPerCall, describeAllocation('control', sections.get('control'))).toBeGreaterThanOrEqual(16);
    for (const name of ['linear', 'dual-quat-with-logs', 'unchanged']) {
      expect(sections.get(name)?.bytesPerCall, describeAllocation(name, sections.get(name))).toBeLessThan(NO_ALLOCATION_BYTES_PER_CALL);
    }
  }, 120_000);
});
