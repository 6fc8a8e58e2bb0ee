import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_ALLOCATION_BYTES_PER_CALL, allocationOfProbe, describeAllocation } from '../alloc-harness.ts';

describe('per-pick allocation of the hit test', () => {
  it('morph, pose, ray and bone allocate nothing per call; a 16-byte control is seen', () => {
    const sections = allocationOfProbe(fileURLToPath(new URL('./pick-alloc-probe.ts', import.meta.url)));
    expect(sections.get('control')?.bytesPerCall, describeAllocation('control', sections.get('control'))).toBeGreaterThanOrEqual(16);
    expect(sections.get('pick')?.bytesPerCall, describeAllocation('pick', sections.get('pick'))).toBeLessThan(NO_ALLOCATION_BYTES_PER_CALL);
  }, 120_000);
});
