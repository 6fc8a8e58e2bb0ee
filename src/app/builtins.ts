import type { Orientation } from '../model/orient.ts';

/**
 * Models that ship with the page. URLs are relative to the page so the build works under any base
 * path. The generated ones are written by `npm run gen` (src/cli/gen-models.ts) before dev and build.
 */
export interface BuiltinModel {
  readonly id: string;
  readonly label: string;
  readonly url: string;
  /** Clip to start with when the URL names none. */
  readonly clip?: string;
  /**
   * Detail levels of a generated model (URL key `detail`, docs/api.md#url-parameters): level name → URL, lightest first. `url` is
   * the level used when the page names none (`defaultDetail`).
   */
  readonly details?: Readonly<Record<string, string>>;
  readonly defaultDetail?: string;
  /** Where the file's character stands and faces when it is not +Y up, +Z forward: turned at load (model/orient.ts). */
  readonly orient?: Orientation;
}

export const BUILTIN_MODELS: readonly BuiltinModel[] = [
  { id: 'default', label: 'Walker (generated)', url: 'models/generated/walker.m3d', clip: 'walk' },
  // A cylinder on 4 bones twisted to 180° and bent to 90°: linear blending collapses, dual quaternions do not.
  { id: 'twist', label: 'Twist rig (generated)', url: 'models/generated/twist.m3d', clip: 'twist' },
  // NVIDIA's Dawn (GPU Gems ch. 4), generated: 100 bones, head + body + hair + wings, 50 facial morph targets.
  {
    id: 'dawn',
    label: 'Dawn (generated, 50 morph targets)',
    url: 'models/generated/dawn-medium.m3d',
    clip: 'idle',
    details: { low: 'models/generated/dawn-low.m3d', medium: 'models/generated/dawn-medium.m3d', high: 'models/generated/dawn-high.m3d' },
    defaultDetail: 'medium',
  },
  // The DirectX SDK SkinnedMesh sample's character, with its texture.
  { id: 'tiny', label: 'Tiny (SkinnedMesh sample)', url: 'models/tiny/tiny.x' },
  // The MultiAnimation sample's Tiny: Loiter, Walk, Jog and a Wave that animates only the right arm (made to be
  // layered). Its clips key the root frame to identity, leaving her along the file's Z axis: the sample turns her
  // upright with its world matrix, the loader does the same.
  { id: 'tiny4', label: 'Tiny, 4 clips (MultiAnimation sample)', url: 'models/tiny/tiny_4anim.x', clip: 'Walk', orient: { up: '-z', forward: '-y' } },
  { id: 'wuson', label: 'Wuson (3 clips)', url: 'models/wuson/Testwuson.X', clip: 'Wuson_Walk' },
  { id: 'zombie', label: 'Zombie (binary .x)', url: 'models/zombie/dbpro_zombie.x' },
  { id: 'dwarf', label: 'Dwarf (compressed .x, DXT1)', url: 'models/dwarf/Dwarf_MS.x' },
  { id: 'heli', label: 'Helicopter (9 rigid meshes)', url: 'models/heli/heli.x' },
  { id: 'tiger', label: 'Tiger (static, BMP texture)', url: 'models/tiger/tiger.x' },
  // glTF 2.0: three.js's RobotExpressive (2 skins of 43 joints, 14 clips, 3 named morph targets on the face).
  { id: 'robot', label: 'Robot (glTF, 14 clips + morphs)', url: 'models/robot/RobotExpressive.glb', clip: 'Walking' },
  // glTF 2.0: the Khronos sample Fox (24 joints, embedded PNG texture, 3 clips).
  { id: 'fox', label: 'Fox (glTF, textured)', url: 'models/fox/Fox.glb', clip: 'Walk' },
];

export function findBuiltin(id: string): BuiltinModel | undefined {
  return BUILTIN_MODELS.find((m) => m.id === id);
}
