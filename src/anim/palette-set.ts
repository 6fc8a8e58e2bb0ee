/**
 * PaletteSet: the palettes of a model's meshes, computed once per distinct skin.
 *
 * Contract
 * - Built at load from the model's meshes. Meshes whose `bones` and `invBind` are equal (same length, every
 *   value equal; the same arrays or copies) share one skin. Dawn's body, head, hair and wings are one
 *   skin of 100 slots; tiny.x and soldier.m3d have one mesh each.
 * - update(model): buildPalette once per skin into the set's own palettes (`skins[s]`, 16 floats per slot,
 *   column-major, bind space → model space, the layout buildPalette writes). `model` is localToModel output
 *   (AnimPlayer.model after evaluate()).
 * - writePalette(mesh, out, offsetFloats): copies that mesh's skin palette, as of the last update(), to
 *   out[offsetFloats..]; the result equals buildPalette(model, mesh.bones, mesh.invBind, out, offsetFloats)
 *   bit for bit. Same signature as AnimPlayer.writePalette, so the set can stand where a pose source is
 *   expected (techniques' PoseSource). A mesh the set was not built with is computed directly from the
 *   last model passed to update().
 * - write(model, outs, offsetsFloats?): update(model), then mesh m's palette into outs[m] at
 *   offsetsFloats[m] (0 when omitted). For callers that hold one buffer per mesh.
 * - paletteOf(m): the skin palette mesh m reads, for callers that can upload one buffer for several meshes
 *   (no copy at all). Owned by the set: read it, do not write it.
 * - The constructor allocates (one palette per skin); update, writePalette and write allocate nothing.
 */

import type { SkinnedMesh } from '../model/types.ts';
import { buildPalette } from './palette.ts';

function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** Index of the first mesh of meshes[0..m) with the same bones and invBind as meshes[m], else m. */
function firstWithSkinOf(meshes: readonly SkinnedMesh[], m: number): number {
  const mesh = meshes[m];
  for (let j = 0; j < m; j++) {
    if (sameValues(meshes[j].bones, mesh.bones) && sameValues(meshes[j].invBind, mesh.invBind)) return j;
  }
  return m;
}

export class PaletteSet {
  readonly meshes: readonly SkinnedMesh[];
  /** Per mesh, the index of its skin in `skins`. */
  readonly skinOf: Int32Array;
  /** One palette per distinct skin, 16 floats per slot (valid after update()). */
  readonly skins: readonly Float32Array[];
  /** Per skin, the mesh whose bones and invBind it is computed from. */
  private readonly skinMesh: readonly SkinnedMesh[];
  private readonly indexOf: Map<SkinnedMesh, number>;
  private lastModel: Float32Array | null = null;

  constructor(meshes: readonly SkinnedMesh[]) {
    this.meshes = meshes;
    const skinOf = new Int32Array(meshes.length);
    const skins: Float32Array[] = [];
    const skinMesh: SkinnedMesh[] = [];
    for (let m = 0; m < meshes.length; m++) {
      const first = firstWithSkinOf(meshes, m);
      if (first === m) {
        skinOf[m] = skins.length;
        skins.push(new Float32Array(meshes[m].bones.length * 16));
        skinMesh.push(meshes[m]);
      } else {
        skinOf[m] = skinOf[first];
      }
    }
    this.skinOf = skinOf;
    this.skins = skins;
    this.skinMesh = skinMesh;
    this.indexOf = new Map(meshes.map((mesh, m) => [mesh, m]));
  }

  /** Number of distinct skins (palettes computed per update). */
  get skinCount(): number {
    return this.skins.length;
  }

  /** Computes every distinct skin's palette from `model` (16 floats per node, localToModel output). */
  update(model: Float32Array): void {
    const skins = this.skins;
    const skinMesh = this.skinMesh;
    for (let s = 0; s < skins.length; s++) buildPalette(model, skinMesh[s].bones, skinMesh[s].invBind, skins[s], 0);
    this.lastModel = model;
  }

  /** The skin palette mesh m reads (owned by the set; valid after update()). */
  paletteOf(m: number): Float32Array {
    return this.skins[this.skinOf[m]];
  }

  /** Copies mesh's palette (as of the last update()) to out[offsetFloats..]. */
  writePalette(mesh: SkinnedMesh, out: Float32Array, offsetFloats = 0): void {
    const m = this.indexOf.get(mesh);
    if (m !== undefined) {
      out.set(this.skins[this.skinOf[m]], offsetFloats);
      return;
    }
    if (this.lastModel === null) throw new Error('PaletteSet.writePalette: update(model) has not run');
    buildPalette(this.lastModel, mesh.bones, mesh.invBind, out, offsetFloats);
  }

  /** update(model), then every mesh's palette into outs[m] at offsetsFloats[m] (0 when omitted). */
  write(model: Float32Array, outs: readonly Float32Array[], offsetsFloats: ArrayLike<number> | null = null): void {
    this.update(model);
    const skins = this.skins;
    const skinOf = this.skinOf;
    for (let m = 0; m < skinOf.length; m++) outs[m].set(skins[skinOf[m]], offsetsFloats === null ? 0 : offsetsFloats[m]);
  }
}
