import { PaletteSet } from '../../src/anim/palette-set.ts';
import { AnimPlayer } from '../../src/anim/player.ts';
import type { LoadedModel } from '../../src/app/loaded-model.ts';
import type { Scene } from '../../src/model/types.ts';
import { busiestBone, influencingBones } from '../../src/render/view-data.ts';

/** `scene` as the page holds it after a load under `id` (the GPU side is not needed in Node tests). */
export function loadedModel(id: string, scene: Scene, origin: LoadedModel['origin'] = 'builtin', label = id): LoadedModel {
  return {
    id,
    origin,
    detail: '',
    label,
    scene,
    player: AnimPlayer.forScene(scene),
    palettes: new PaletteSet(scene.meshes),
    gpu: null as never,
    framing: { min: [0, 0, 0], max: [1, 1, 1], centre: [0.5, 0.5, 0.5], radius: 1, floorY: 0 },
    warnings: [],
    paletteBytes: 0,
    bones: influencingBones(scene.meshes),
    defaultBone: busiestBone(scene.meshes, scene.skeleton.parents.length),
    startClip: scene.clips[0]?.name ?? '',
    lookAt: null,
    up: { axis: 'y', by: 'stored' },
    afterFirstFrame: () => {},
  };
}
