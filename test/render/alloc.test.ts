import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_ALLOCATION_BYTES_PER_CALL, allocationOfProbe, describeAllocation } from '../alloc-harness.ts';

describe('render layer per-frame allocation', () => {
  it('bind-pose palette, diff schedule and diff count allocate nothing per call, measured to the byte; a 16-byte control is seen', () => {
    const sections = allocationOfProbe(fileURLToPath(new URL('./alloc-probe.ts', import.meta.url)));
    expect(sections.get('control')?.bytesPerCall, describeAllocation('control', sections.get('control'))).toBeGreaterThanOrEqual(16);
    for (const name of ['bind-pose', 'diff-schedule', 'diff-count']) {
      expect(sections.get(name)?.bytesPerCall, describeAllocation(name, sections.get(name))).toBeLessThan(NO_ALLOCATION_BYTES_PER_CALL);
    }
  }, 120_000);
});
