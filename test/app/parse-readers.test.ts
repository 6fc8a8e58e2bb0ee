import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/app/parse-readers.ts';
import { loadModelAsync } from '../../src/loaders/load-model.ts';
import type { Scene } from '../../src/model/types.ts';

const models = join(import.meta.dirname, '..', '..', 'public', 'models');

/** What a user sees of a parse: meshes, their vertex counts, joints, clips, and the warnings. */
function summary(scene: Scene): unknown {
  return {
    meshes: scene.meshes.map((m) => [m.name, m.vertexCount, [...m.positions.subarray(0, 6)]]),
    joints: scene.skeleton.names,
    clips: scene.clips.map((c) => [c.name, c.duration]),
    warnings: scene.warnings,
  };
}

describe("the parse worker's readers (parse-readers.ts)", () => {
  it('read a glTF and an .x file as loadModelAsync does', async () => {
    for (const file of [join(models, 'fox', 'Fox.glb'), join(models, 'tiny', 'tiny.x')]) {
      const bytes = new Uint8Array(readFileSync(file));
      const name = file.slice(file.lastIndexOf('/') + 1);
      expect(summary(await parseModel(name, bytes.slice()))).toEqual(summary(await loadModelAsync(name, bytes.slice())));
    }
  });

  it('give the same error for a file of no known format', async () => {
    const bytes = new TextEncoder().encode('<!doctype html><p>not a model</p>');
    const theirs = await loadModelAsync('page.glb', bytes).catch((e: Error) => e.message);
    await expect(parseModel('page.glb', bytes)).rejects.toThrow(theirs as string);
  });
});
