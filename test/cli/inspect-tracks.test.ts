import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnimController } from '../../src/anim/controller/controller.ts';
import { PosedBounds } from '../../src/anim/posed-bounds.ts';
import { summarise } from '../../src/cli/inspect-summary.ts';
import { loadModel } from '../../src/loaders/load-model.ts';

const TINY4 = 'public/models/tiny/tiny_4anim.x';
const scene = loadModel('tiny_4anim.x', new Uint8Array(readFileSync(TINY4)));

type Pose = { t: number; bounds: { min: number[]; max: number[] } };

/** Runs `inspect` the way `npm run inspect -- ARGS` does, in a child Node process. */
function inspect(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'cli', 'inspect.ts'), ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('inspect --tracks: poses with several controller tracks', () => {
  it('Walk with Wave on top: the bounds of a controller set up the same way, and unlike Walk alone', () => {
    const s = summarise(scene, null, [0.4, 1.3], 'Walk,Wave!');
    expect(s.tracks).toBe('Walk,Wave!');
    const poses = s.poses as Pose[];
    // The same two tracks through the controller directly: Walk low, Wave high, both from time 0.
    const c = new AnimController(scene.skeleton, scene.clips);
    const names = scene.clips.map((x) => x.name);
    c.setTrackClip(0, names.indexOf('Walk'));
    c.setTrackEnable(0, true);
    c.setTrackClip(1, names.indexOf('Wave'));
    c.setTrackPriority(1, 'high');
    c.setTrackEnable(1, true);
    const bounds = new PosedBounds(scene);
    for (const p of poses) {
      c.seek(p.t);
      c.evaluate();
      const min = [0, 0, 0];
      const max = [0, 0, 0];
      bounds.measure(c, min, max);
      for (let k = 0; k < 3; k++) {
        expect(p.bounds.min[k]).toBeCloseTo(min[k]!, 4);
        expect(p.bounds.max[k]).toBeCloseTo(max[k]!, 4);
      }
    }
    const walk = summarise(scene, 'Walk', [1.3]).poses as Pose[];
    expect(poses[1]!.bounds).not.toEqual(walk[0]!.bounds);
  });

  it('a single track equals --clip at every time (each track at t × speed)', () => {
    const byTracks = summarise(scene, null, [0.25, 0.8], 'Jog').poses as Pose[];
    const byClip = summarise(scene, 'Jog', [0.25, 0.8]).poses as Pose[];
    expect(byTracks).toEqual(byClip);
    const doubled = summarise(scene, null, [0.4], 'Jog:1:2').poses as Pose[];
    expect(doubled[0]).toEqual({ ...(summarise(scene, 'Jog', [0.8]).poses as Pose[])[0]!, t: 0.4 });
  });

  it('the command line: table and JSON, and clear errors for an unknown clip, --clip with --tracks, no --t', () => {
    const ok = inspect(TINY4, '--tracks', 'Walk,Wave!', '--t', '1.3');
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toMatch(/^t = 1\.3 \(tracks Walk,Wave!\)  min /m);
    const bad = inspect(TINY4, '--tracks', 'Walk,Sprint', '--t', '1');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^error: --tracks Walk,Sprint: .*Sprint.*Loiter, Walk, Jog, Wave/);
    expect(inspect(TINY4, '--tracks', 'Walk', '--clip', 'Jog', '--t', '1').stderr).toMatch(/^error: --clip and --tracks do not go together/);
    expect(inspect(TINY4, '--tracks', 'Walk').stderr).toMatch(/^error: --tracks poses the model: give the times with --t/);
  });
});
