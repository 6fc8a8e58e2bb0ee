import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadModel } from '../../src/loaders/load-model.ts';
import { shownNodes } from '../../src/render/model-gpu.ts';

const load = (path: string) => loadModel(path.split('/').pop()!, new Uint8Array(readFileSync(path)));

describe('skeleton overlay nodes', () => {
  it("draws tiny.x's bones and the frames between them, not the scene box or the biped's footsteps", () => {
    const scene = load('public/models/tiny/tiny.x');
    const shown = shownNodes(scene);
    const names = scene.skeleton.names;
    const hidden = names.filter((_, i) => shown[i] === 0);
    expect(hidden).toEqual(expect.arrayContaining(['Scene_Root', 'Box01', 'Bip01', 'Bip01_Footsteps']));
    for (const b of scene.meshes[0]!.bones) expect(shown[b], names[b]).toBe(1);
  });

  it('draws the frames a rigid model hangs its meshes from', () => {
    const heli = load('public/models/heli/heli.x');
    const shown = shownNodes(heli);
    for (const m of heli.meshes) for (const b of m.bones) expect(shown[b]).toBe(1);
  });
});
