import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_ALLOCATION_BYTES_PER_CALL, allocationOfProbe, describeAllocation } from '../alloc-harness.ts';

describe('per-frame allocation', () => {
  it('player and 4-track controller (sync, mask, priority, additive, events, markers): advance/evaluate/writePalette/seek/setBlendValue/keys allocate nothing per call; a 16-byte control is seen', () => {
    const sections = allocationOfProbe(fileURLToPath(new URL('./alloc-probe.ts', import.meta.url)));
    // One boxed double (16 bytes) per call: the smallest allocation a frame could make is seen in full.
    expect(sections.get('control')?.bytesPerCall, describeAllocation('control', sections.get('control'))).toBeGreaterThanOrEqual(16);
    for (const name of ['playing', 'crossfading', 'crossfading-during-crossfade', 'player-setTime', 'controller-4-tracks', 'controller-seek-and-keys']) {
      expect(sections.get(name)?.bytesPerCall, describeAllocation(name, sections.get(name))).toBeLessThan(NO_ALLOCATION_BYTES_PER_CALL);
    }
  }, 120_000);
});
