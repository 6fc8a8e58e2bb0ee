import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Runs an allocation probe (a script printing `BEGIN name` / `END name` around measured loops) in a child
 * Node with a 1 MB nursery and --trace-gc, and returns the young-generation GC (Scavenge) count of each
 * section. Throws with the child's stderr when it fails.
 */
export function scavengesOfProbe(probe: string): Map<string, number> {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const run = spawnSync(process.execPath, ['--max-semi-space-size=1', '--trace-gc', '--import', 'tsx', probe], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`probe ${probe} exited ${run.status}: ${run.stderr}`);
  const counts = new Map<string, number>();
  let section: string | null = null;
  for (const line of run.stdout.split('\n')) {
    const begin = /^BEGIN (\S+)/.exec(line);
    if (begin) {
      section = begin[1]!;
      counts.set(section, 0);
    } else if (/^END /.test(line)) section = null;
    else if (section !== null && line.includes('Scavenge')) counts.set(section, (counts.get(section) ?? 0) + 1);
  }
  return counts;
}
