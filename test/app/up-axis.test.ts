import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AnimPlayer } from '../../src/anim/player.ts';
import { PosedBounds } from '../../src/anim/posed-bounds.ts';
import { BUILTIN_MODELS } from '../../src/app/builtins.ts';
import { detectZUp, standUpright } from '../../src/app/up-axis.ts';
import { gltfResources } from '../../src/cli/model-files.ts';
import { loadModelAsync } from '../../src/loaders/load-model.ts';
import { orientScene } from '../../src/model/orient.ts';
import type { Scene } from '../../src/model/types.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const shared = join(root, '..', 'shared');
const CORPORA = [join(shared, 'corpus'), join(shared, 'corpus-gltf')];
const FIXTURE = join(root, 'e2e', 'fixtures', 'zup', 'figure.gltf');

function modelFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'malformed') out.push(...modelFiles(p));
    } else if (/\.(x|m3d|gltf|glb)$/i.test(name)) out.push(p);
  }
  return out;
}

async function load(path: string): Promise<Scene | null> {
  const bytes = new Uint8Array(readFileSync(path));
  try {
    return await loadModelAsync(path, bytes, gltfResources(path, bytes));
  } catch {
    return null; // the corpus's broken files (empty.x, …) are other tests' business
  }
}

/** Extent along x, y, z of the skinned meshes in the first pose shown (first clip at 0 s). */
function posedExtent(scene: Scene): number[] {
  const player = AnimPlayer.forScene(scene);
  if (scene.clips.length > 0) player.play(0, 0);
  player.evaluate();
  const min = [0, 0, 0];
  const max = [0, 0, 0];
  new PosedBounds(scene).measure(player, min, max);
  return max.map((v, k) => v - min[k]!);
}

/** The one file in the corpora stored Z-up whose character lies on the floor: the MultiAnimation sample's Tiny. */
const Z_UP = /tiny_4anim\.x$/;

describe('up axis detection over every model the project knows', () => {
  for (const dir of CORPORA) {
    const have = existsSync(dir);
    if (!have) console.warn(`[skinlab tests] SKIPPING the up-axis sweep of ${dir}: not present`);
    (have ? it : it.skip)(`turns only Z-up characters in ${relative(shared, dir)} upright`, async () => {
      const turned: string[] = [];
      for (const path of modelFiles(dir)) {
        const scene = await load(path);
        if (!scene) continue;
        const found = detectZUp(scene);
        if (found) turned.push(relative(dir, path));
        if (Z_UP.test(path)) {
          expect(found, path).toBe('-z');
          const ext = posedExtent(standUpright(scene, 'auto').scene);
          expect(ext[1], `${path} stands along Y once turned`).toBeGreaterThan(Math.max(ext[0]!, ext[2]!));
        }
      }
      expect(turned.filter((p) => !Z_UP.test(p))).toEqual([]);
    }, 60_000);
  }

  it('leaves every built-in as it stands today (with its own orientation applied)', async () => {
    for (const b of BUILTIN_MODELS) {
      const path = join(root, 'public', b.url);
      if (!existsSync(path) || b.id === 'dawn') continue; // Dawn (18 MB) is the walker's generator's output too
      const scene = (await load(path))!;
      const { up } = standUpright(scene, 'auto', b.orient);
      expect(up.by, b.id).toBe(b.orient ? 'built-in' : 'stored');
      expect(detectZUp(b.orient ? orientScene(scene, b.orient) : scene), b.id).toBeNull();
    }
  }, 60_000);
});

describe('standUpright', () => {
  it('turns the Z-up fixture upright when detected or asked, and keeps it as stored with up=y', async () => {
    const scene = (await load(FIXTURE))!;
    const stored = posedExtent(scene);
    expect(stored[2]).toBeGreaterThan(stored[1]! * 2); // lies along Z as stored
    for (const up of ['auto', 'z'] as const) {
      const r = standUpright(scene, up);
      expect(r.up).toEqual({ axis: 'z', by: up === 'auto' ? 'detected' : 'asked' });
      const ext = posedExtent(r.scene);
      expect(ext[1]).toBeCloseTo(stored[2]!, 4);
      expect(ext[1]).toBeGreaterThan(Math.max(ext[0]!, ext[2]!));
    }
    const kept = standUpright(scene, 'y');
    expect(kept.scene).toBe(scene);
    expect(kept.up).toEqual({ axis: 'y', by: 'stored' });
  });

  it('turns a left-handed file\'s +Z (skinlab −Z) for up=z and says the file\'s axis', async () => {
    const scene = (await load(join(root, 'public', 'models', 'tiny', 'tiny_4anim.x')))!;
    const r = standUpright(scene, 'z');
    expect(r.up).toEqual({ axis: 'z', by: 'asked' });
    const ext = posedExtent(r.scene);
    expect(ext[1]).toBeGreaterThan(Math.max(ext[0]!, ext[2]!));
    // The same turn as the built-in's (the DirectX sample's world matrix).
    const builtin = standUpright(scene, 'auto', BUILTIN_MODELS.find((b) => b.id === 'tiny4')!.orient);
    expect(builtin.up).toEqual({ axis: 'z', by: 'built-in' });
    expect(Array.from(builtin.scene.meshes[0]!.positions.subarray(0, 9))).toEqual(Array.from(r.scene.meshes[0]!.positions.subarray(0, 9)));
  });
});
