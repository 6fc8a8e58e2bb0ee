import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_ALLOCATION_BYTES_PER_CALL, allocationOfProbe, describeAllocation } from '../alloc-harness.ts';

describe('per-frame allocation of PaletteSet', () => {
  it('write and update + writePalette allocate nothing per call; a 16-byte control is seen', () => {
    const sections = allocationOfProbe(fileURLToPath(new URL('./palette-set-alloc-probe.ts', import.meta.url)));
    expect(sections.get('control')?.bytesPerCall, describeAllocation('control', sections.get('control'))).toBeGreaterThanOrEqual(16);
    for (const name of ['write', 'update+writePalette']) {
      expect(sections.get(name)?.bytesPerCall, describeAllocation(name, sections.get(name))).toBeLessThan(NO_ALLOCATION_BYTES_PER_CALL);
    }
  }, 120_000);
});
