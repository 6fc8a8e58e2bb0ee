import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const probe = fileURLToPath(new URL('./morph-alloc-probe.ts', import.meta.url));

function scavengesBySection(output: string): Map<string, number> {
  const counts = new Map<string, number>();
  let section: string | null = null;
  for (const line of output.split('\n')) {
    const begin = /^BEGIN (\S+)/.exec(line);
    if (begin) {
      section = begin[1]!;
      counts.set(section, 0);
    } else if (/^END /.test(line)) section = null;
    else if (section !== null && line.includes('Scavenge')) counts.set(section, (counts.get(section) ?? 0) + 1);
  }
  return counts;
}

describe('per-frame allocation of morph evaluation', () => {
  it('morph tracks + manual layer + slot choice + applyMorphs trigger no young-generation GC while a control does', () => {
    const run = spawnSync(process.execPath, ['--max-semi-space-size=1', '--trace-gc', '--import', 'tsx', probe], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const counts = scavengesBySection(run.stdout);
    expect(counts.get('control')).toBeGreaterThanOrEqual(1);
    for (const name of ['morphing', 'morph-crossfading', 'morph-crossfading-from-frozen']) expect(counts.get(name), name).toBeLessThanOrEqual(1);
  }, 60_000);
});
