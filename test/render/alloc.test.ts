import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scavengesOfProbe } from '../alloc-harness.ts';

describe('render layer per-frame allocation', () => {
  it('bind-pose palette, diff schedule and diff count trigger no young-generation GC while a control does', () => {
    const counts = scavengesOfProbe(fileURLToPath(new URL('./alloc-probe.ts', import.meta.url)));
    expect(counts.get('control')).toBeGreaterThanOrEqual(2);
    for (const name of ['bind-pose', 'diff-schedule', 'diff-count']) expect(counts.get(name), name).toBeLessThanOrEqual(1);
  }, 60_000);
});
