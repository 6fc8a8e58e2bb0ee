import { Document, WebIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { groupWarnings } from '../../../src/loaders/group-warnings.ts';
import { loadModelAsync } from '../../../src/loaders/load-model.ts';

/**
 * One rigid triangle on node `mover` and `clips` animations that each slide it through their own
 * sampler, every sampler's key times (its own accessor) repeating one time: one warning per accessor.
 */
async function repeatedKeysGlb(clips: number): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const pos = doc.createAccessor().setType('VEC3').setBuffer(buffer).setArray(Float32Array.of(0, 0, 0, 1, 0, 0, 0, 1, 0));
  const mesh = doc.createMesh('tri').addPrimitive(doc.createPrimitive().setAttribute('POSITION', pos));
  const mover = doc.createNode('mover').setMesh(mesh);
  doc.createScene('s').addChild(mover);
  for (let i = 0; i < clips; i++) {
    const times = doc.createAccessor().setType('SCALAR').setBuffer(buffer).setArray(Float32Array.of(0, 0.5, 0.5, 1));
    const moves = doc.createAccessor().setType('VEC3').setBuffer(buffer).setArray(Float32Array.of(0, 0, 0, i, 0, 0, i, 1, 0, 0, 0, 0));
    const sampler = doc.createAnimationSampler().setInput(times).setOutput(moves).setInterpolation('LINEAR');
    const anim = doc.createAnimation(`slide${i}`).addSampler(sampler);
    anim.addChannel(doc.createAnimationChannel().setTargetNode(mover).setTargetPath('translation').setSampler(sampler));
  }
  return new WebIO().writeBinary(doc);
}

describe('load warnings, one line per kind', () => {
  it('72 accessors whose key times repeat give one warning with the count and the first items named', async () => {
    const scene = await loadModelAsync('keys.glb', await repeatedKeysGlb(72));
    expect(scene.clips).toHaveLength(72);
    const repeats = scene.warnings.filter((w) => w.includes('repeat the one before them'));
    expect(repeats).toHaveLength(1);
    expect(repeats[0]).toMatch(/^\/accessors\/\d+: 1 key time\(s\) repeat the one before them \(the same for 71 more: (\/accessors\/\d+, ){3}\/accessors\/\d+ and 67 others\)$/);
    // Nothing else is said twice.
    expect(new Set(scene.warnings).size).toBe(scene.warnings.length);
  });

  it('one such accessor keeps its warning word for word', async () => {
    const scene = await loadModelAsync('keys.glb', await repeatedKeysGlb(1));
    expect(scene.warnings.filter((w) => w.includes('repeat the one before them'))).toEqual([expect.stringMatching(/^\/accessors\/\d+: 1 key time\(s\) repeat the one before them$/)]);
  });

  it('groups by kind: item and numbers aside, in the order first seen; keeps unlike warnings apart', () => {
    expect(
      groupWarnings([
        "mesh 'a' has no normals; computed smooth normals from its faces",
        'skipped 2 objects of template Foo (not used by skinlab)',
        "mesh 'b' has no normals; computed smooth normals from its faces",
        "mesh 'a': 3 faces with fewer than 3 corners skipped",
        'skipped 2 objects of template Foo (not used by skinlab)',
        "mesh 'c' has no normals; computed smooth normals from its faces",
        'skipped 5 objects of template Bar (not used by skinlab)',
      ]),
    ).toEqual([
      "mesh 'a' has no normals; computed smooth normals from its faces (the same for 2 more: 'b', 'c')",
      'skipped 2 objects of template Foo (not used by skinlab) (×2)',
      "mesh 'a': 3 faces with fewer than 3 corners skipped",
      'skipped 5 objects of template Bar (not used by skinlab)',
    ]);
    expect(groupWarnings([])).toEqual([]);
  });
});
